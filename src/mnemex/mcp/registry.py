"""The tool registry: how every MCP tool, built-in or added later, reaches the server.

A tool is a typed function: its docstring is the description the model reads
(what it does, when to use it instead of its neighbour, one example), its type
hints the input schema, ``Annotated[..., Field(...)]`` the constraints. It takes
``ctx: Ctx`` for the server's state and returns a JSON-able dict. Registering it
with :func:`tool` says whether it writes, and whether it destroys; a read-only
server (``mnemex serve --read-only``) simply never installs the writing ones.

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
from mnemex.mcp.state import ServerState

#: The context parameter every tool takes: ``ctx: Ctx``.
Ctx = Context[ServerState, Any]
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

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.func.__doc__ or "")

    @property
    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(
            title=self.title,
            read_only_hint=not self.writes,
            destructive_hint=self.destructive if self.writes else None,
            idempotent_hint=self.idempotent,
            open_world_hint=False,
        )


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
        name: str | None = None,
    ) -> Callable[[F], F]:
        """Register a tool function (a decorator); its name is the function's unless given."""

        def register(func: F) -> F:
            spec = ToolSpec(func, name or func.__name__, title, writes, destructive, idempotent)
            if spec.name in self._tools and self._tools[spec.name].func is not func:
                raise ValueError(f"an MCP tool named {spec.name!r} is already registered")
            if "ctx" not in inspect.signature(func).parameters:
                raise TypeError(f"tool {spec.name} must take `ctx: Ctx`")
            self._tools[spec.name] = spec
            return func

        return register

    def specs(self, read_only: bool = False) -> list[ToolSpec]:
        return [s for s in self._tools.values() if not (read_only and s.writes)]

    def install(self, server: MCPServer[Any], read_only: bool = False) -> None:
        """Add the tools to ``server`` (without the writing ones when ``read_only``)."""
        for spec in self.specs(read_only):
            server.add_tool(
                _guarded(spec),
                name=spec.name,
                title=spec.title,
                description=spec.description,
                annotations=spec.annotations,
            )


registry = ToolRegistry()
tool = registry.tool

__all__ = ["Ctx", "ToolRegistry", "ToolSpec", "registry", "state_of", "tool"]
