"""Small helpers any test may import by name (``from helpers import write``).

pytest puts ``tests/`` on ``sys.path`` (the root conftest.py lives there), so the helper
modules at this level are importable from every test folder; a helper only one folder uses
lives in that folder. conftest.py holds fixtures only.
"""

from __future__ import annotations

from pathlib import Path


def write(root: Path, rel: str, text: str) -> Path:
    """Write ``text`` to ``root/rel`` as UTF-8, making its folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
