"""``python -m mnemex`` is the ``mnemex`` command."""

from mnemex.cli import main

main()
