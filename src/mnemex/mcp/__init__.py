"""The MCP server: agents read and write the brain through the Model Context Protocol.

The protocol wiring lives here and only here (the core never imports ``mcp``):
:mod:`~mnemex.mcp.registry` holds the tools, each a thin typed function over one
core function; :mod:`~mnemex.mcp.server` builds the server from them and runs it
over stdio; :mod:`~mnemex.mcp.http` serves streamable HTTP behind a bearer token.
Later capabilities add tools the same way the built-ins do::

    from mnemex.mcp.registry import Ctx, state_of, tool

    @tool(title="Save handoff", writes=True)  # read=True: also in the read profile
    def save_handoff(headline: str, ctx: Ctx) -> dict[str, Any]:
        \"\"\"What it does, when to use it instead of its neighbour, one example.\"\"\"
        return core_function(state_of(ctx).brain, headline)
"""

from mnemex.mcp.registry import PROFILES, Ctx, ToolRegistry, ToolSpec, registry, state_of, tool
from mnemex.mcp.state import Profile, ServeOptions, ServerState

__all__ = [
    "PROFILES",
    "Ctx",
    "Profile",
    "ServeOptions",
    "ServerState",
    "ToolRegistry",
    "ToolSpec",
    "registry",
    "state_of",
    "tool",
]
