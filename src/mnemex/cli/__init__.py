"""The ``mnemex`` command: a thin shell over the library.

Each command parses its options, calls one library function, and prints the
result as text or, with ``--json``, as JSON. Library errors
(:class:`~mnemex.errors.MnemexError`) become a one-line message and exit code
1; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from mnemex.cli.app import cli
from mnemex.cli.doctor import register as _register_doctor
from mnemex.cli.evaluate import register as _register_evaluate
from mnemex.cli.facts import register as _register_facts
from mnemex.cli.foundations import register as _register_foundations
from mnemex.cli.harvest import register as _register_harvest
from mnemex.cli.health import register as _register_health
from mnemex.cli.index import register as _register_index
from mnemex.cli.ingest import register as _register_ingest
from mnemex.cli.memories import register as _register_memories
from mnemex.cli.models import register as _register_models
from mnemex.cli.notes import register as _register_notes
from mnemex.cli.search import register as _register_search
from mnemex.cli.serve import register as _register_serve
from mnemex.cli.state import register as _register_state
from mnemex.cli.team import register as _register_team
from mnemex.cli.ui import register as _register_ui

# init and demo are the group's own (cli/app.py); every other area adds its commands here
_register_notes(cli)  # note add, read
_register_search(cli)  # search, backlinks, related, graph
_register_index(cli)  # index [status|rebuild]
_register_doctor(cli)  # doctor
_register_evaluate(cli)  # eval retrieval|locomo
_register_serve(cli)  # serve, install, uninstall
_register_foundations(cli)  # foundation add|approve|list, sync
_register_state(cli)  # context, handoff, brief, hook
_register_harvest(cli)  # harvest
_register_memories(cli)  # memories search|show, forget
_register_models(cli)  # models status|ledger
_register_health(cli)  # health [fix|dismiss|restore|history], undo
_register_ingest(cli)  # ingest
_register_facts(cli)  # facts, fact add|learn|confirm|correct|retract
_register_ui(cli)  # ui
_register_team(cli)  # team init|join|leave|status|contribute|synthesise|pull|remove-member


def main() -> None:
    """Entry point of the ``mnemex`` console script."""
    cli(prog_name="mnemex")


if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["cli", "main"]
