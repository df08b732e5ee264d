"""The tool registry: how every MCP tool, built-in or added later, reaches the server.

A tool is a typed function: its docstring is the description the model reads
(what it does, when to use it instead of its neighbour, one example), its type
hints the input schema, ``Annotated[..., Field(...)]`` the constraints. It takes
``ctx: Ctx`` for the server's state and returns a JSON-able dict. Registering it
with :func:`tool` says whether it writes, whether it destroys, and whether it is
one of the few an agent needs to read (``read=True``): the read profile
(``mnemex serve --tools read``) installs only those, so that its tool list stays
cheap (see :mod:`mnemex.mcp.budget`).

Every session pays for every tool's description and arguments, so a description
is the essentials: what it does, when to use it instead of its neighbour, one
short example. An argument's description says what the value is; its type, range
and default are in the schema already.

A library error (:class:`~mnemex.errors.MnemexError`) is something the model
can fix, so it becomes a tool error carrying its message; anything else is a
bug, which the SDK reports as a bare failure and logs with its traceback.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from mnemex.errors import MnemexError
from mnemex.mcp.state import Profile, ServerState

#: The context parameter every tool takes: ``ctx: Ctx``.
Ctx = Context[ServerState, Any]
PROFILES: tuple[Profile, ...] = ("all", "read")
F = TypeVar("F", bound=Callable[..., dict[str, Any]])


def state_of(ctx: Ctx) -> ServerState:
    """The served brain and options of the request's server."""
    state = ctx.request_context.lifespan_context
    if not isinstance(state, ServerState):  # pragma: no cover - a server built without state
        raise ToolError("this server has no vault: start it with `mnemex --vault PATH serve`")
    return state


@dataclass(frozen=True)
class ToolSpec:
    """One registered tool."""

    func: Callable[..., dict[str, Any]]
    name: str
    title: str
    writes: bool
    destructive: bool
    idempotent: bool
    read: bool = False

    @property
    def description(self) -> str:
        """The docstring with its paragraphs unwrapped (a line break costs a model tokens)."""
        paragraphs = inspect.cleandoc(self.func.__doc__ or "").split("\n\n")
        return "\n".join(" ".join(p.split()) for p in paragraphs)

    @property
    def annotations(self) -> ToolAnnotations:
        """The hints a client acts on (asking before a write), where they differ from the
        protocol's defaults.

        Every session pays for the list, so it carries only these: the title (a label
        for people; clients fall back to the name), idempotence (it guides retries) and
        the closed world (the default, open, only makes a client more careful) are
        left out. The generated docs still show them.
        """
        return ToolAnnotations(
            read_only_hint=True if not self.writes else None,
            destructive_hint=False if self.writes and not self.destructive else None,
        )

    def serves(self, profile: Profile) -> bool:
        return profile == "all" or self.read


def _guarded(spec: ToolSpec) -> Callable[..., dict[str, Any]]:
    """The tool as served: one call at a time per process, library errors as tool errors."""

    @functools.wraps(spec.func)
    def call(*args: Any, **kwargs: Any) -> dict[str, Any]:
        state = state_of(kwargs["ctx"])
        try:
            with state.lock:
                return spec.func(*args, **kwargs)
        except MnemexError as exc:
            raise ToolError(str(exc)) from exc

    return call


class ToolRegistry:
    """Tools by name, in registration order."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}

    def tool(
        self,
        *,
        title: str,
        writes: bool = False,
        destructive: bool = False,
        idempotent: bool = False,
        read: bool = False,
        name: str | None = None,
    ) -> Callable[[F], F]:
        """Register a tool function (a decorator); its name is the function's unless given.

        ``read`` puts it in the read profile, which holds no writing tool.
        """

        def register(func: F) -> F:
            spec = ToolSpec(
                func, name or func.__name__, title, writes, destructive, idempotent, read
            )
            if read and writes:
                raise ValueError(f"tool {spec.name} writes, so it cannot be in the read profile")
            if spec.name in self._tools and self._tools[spec.name].func is not func:
                raise ValueError(f"an MCP tool named {spec.name!r} is already registered")
            if "ctx" not in inspect.signature(func).parameters:
                raise TypeError(f"tool {spec.name} must take `ctx: Ctx`")
            self._tools[spec.name] = spec
            return func

        return register

    def specs(self, profile: Profile = "all") -> list[ToolSpec]:
        return [s for s in self._tools.values() if s.serves(profile)]

    def install(self, server: MCPServer[Any], profile: Profile = "all") -> None:
        """Add the tools of ``profile`` to ``server``."""
        for spec in self.specs(profile):
            server.add_tool(
                _guarded(spec),
                name=spec.name,
                title=spec.title,
                description=spec.description,
                annotations=spec.annotations,
            )


registry = ToolRegistry()
tool = registry.tool

__all__ = ["PROFILES", "Ctx", "Profile", "ToolRegistry", "ToolSpec", "registry", "state_of", "tool"]
