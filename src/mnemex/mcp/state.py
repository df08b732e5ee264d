"""What one server process holds: the brain, its options, and how fresh its index is."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mnemex.brain import Brain
from mnemex.retrieve.privacy import Privacy

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


class ServerState:
    """The brain served by one process, with the lock that serialises its tool calls.

    Tool functions run in worker threads; one lock per process keeps the index
    connection to one caller at a time. Across processes the vault's own locks
    serialise writers, syncs and commits.
    """

    def __init__(self, brain: Brain, options: ServeOptions | None = None) -> None:
        self.brain = brain
        self.options = options or ServeOptions()
        self.privacy = Privacy.of(brain.vault.settings, self.options.include_private)
        self.lock = threading.RLock()
        self._synced_at = -math.inf

    def fresh(self) -> Brain:
        """The brain, its index synced if the last sync is older than ``refresh_seconds``."""
        if time.monotonic() - self._synced_at >= self.options.refresh_seconds:
            self.brain.sync()
            self._synced_at = time.monotonic()
        return self.brain

    def wrote(self) -> None:
        """A write just synced the index (the page functions do): no need to sync again."""
        self._synced_at = time.monotonic()


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_PAGE_TOKENS",
    "MAX_TOKENS_CEILING",
    "Profile",
    "ServeOptions",
    "ServerState",
]
