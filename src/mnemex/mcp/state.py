"""What one MCP server process holds: the served brain and the options it was started with.

Privacy, index freshness and the call lock are :class:`~mnemex.retrieve.served.ServedBrain`,
which every interface that serves a brain shares."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mnemex.brain import Brain
from mnemex.retrieve.served import ServedBrain

#: Which tools a server serves: all of them, or the read profile.
Profile = Literal["all", "read"]

#: Default answer budget of the list-like tools (search, indexes, links, tags, recent).
DEFAULT_MAX_TOKENS = 2000
#: Default budget of read_page, which serves one page's text.
DEFAULT_PAGE_TOKENS = 4000
#: The largest budget a caller may ask for.
MAX_TOKENS_CEILING = 20000


@dataclass(frozen=True)
class ServeOptions:
    """How a server was started."""

    #: The tool profile: ``all``, or ``read`` (the few tools an agent needs to read).
    tools: Profile = "all"
    include_private: tuple[str, ...] = ()
    #: At most this often (seconds) a read first brings the index up to date with the
    #: files, so edits made by others (Obsidian, git pull, another server) are seen.
    refresh_seconds: float = 1.0
    #: The agent's working directory (the server's own), for ``remember``'s project.
    cwd: Path | None = None


class ServerState(ServedBrain):
    """The brain served by one MCP server process, and how the server was started."""

    def __init__(self, brain: Brain, options: ServeOptions | None = None) -> None:
        self.options = options or ServeOptions()
        super().__init__(brain, self.options.include_private, self.options.refresh_seconds)


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_PAGE_TOKENS",
    "MAX_TOKENS_CEILING",
    "Profile",
    "ServeOptions",
    "ServerState",
]
