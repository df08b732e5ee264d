"""The ``mnemex`` command: a thin shell over the library.

Each command parses its options, calls one library function, and prints the
result as text or, with ``--json``, as JSON. Library errors
(:class:`~mnemex.errors.MnemexError`) become a one-line message and exit code
1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from mnemex.cli.app import cli
from mnemex.cli.foundations import register as _register_foundations
from mnemex.cli.harvest import register as _register_harvest
from mnemex.cli.health import register as _register_health
from mnemex.cli.ingest import register as _register_ingest
from mnemex.cli.memories import register as _register_memories
from mnemex.cli.models import register as _register_models
from mnemex.cli.serve import register as _register_serve
from mnemex.cli.state import register as _register_state

_register_serve(cli)  # serve, install, uninstall: kept in their own module, added here
_register_foundations(cli)  # foundation add|approve|list, sync
_register_state(cli)  # context, handoff, brief, hook
_register_harvest(cli)  # harvest
_register_memories(cli)  # memories search|show, forget
_register_models(cli)  # models status|ledger
_register_health(cli)  # health [fix|dismiss|restore|history], undo
_register_ingest(cli)  # ingest


def main() -> None:
    """Entry point of the ``mnemex`` console script."""
    cli(prog_name="mnemex")


if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["cli", "main"]
