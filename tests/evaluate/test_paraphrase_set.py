"""The paraphrase questions over the typing PEPs keep the promise issue 16 makes of them.

Each shares at most one stemmed content word with the section that answers it, every type
is in both halves, and there are at least 100 (``bench/paraphrase_check.py`` is the rule;
this runs it on the committed set). The PEPs are public data read at run time from
``../shared/data/peps-typing/``: without them the check is skipped.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
PEPS = REPO.parent / "shared" / "data" / "peps-typing"


def _checker() -> ModuleType:
    if not PEPS.is_dir():
        pytest.skip(f"the typing PEPs are not at {PEPS}")
    path = REPO / "bench" / "paraphrase_check.py"
    spec = importlib.util.spec_from_file_location("paraphrase_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["paraphrase_check"] = module
    spec.loader.exec_module(module)
    return module


def test_every_committed_question_shares_at_most_one_stem_with_its_section() -> None:
    checker = _checker()
    queries = json.loads(checker.QUERIES.read_text(encoding="utf-8"))["queries"]
    assert checker.check(queries) == []
    assert len(queries) >= 100
    for kind in checker.TYPES:
        for half in checker.HALVES:
            assert any(q["type"] == kind and q["half"] == half for q in queries), (kind, half)


def test_the_check_catches_a_question_that_reuses_its_sections_words() -> None:
    checker = _checker()
    reused = {
        "id": "x",
        "text": "How can an annotation mention a class defined further down the file?",
        "type": "paraphrase",
        "half": "tuning",
        "targets": [{"doc": "pep-0484", "section": "Forward references"}],
    }
    problems = checker.check([reused])
    assert len(problems) == 1 and "shares" in problems[0]
    assert checker.stem("annotations") == checker.stem("annotated")
