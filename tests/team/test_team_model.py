"""The contribution format, folding a stream, and the collective wiki as a pure function."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mnemex.config import load_settings
from mnemex.errors import ConfigError
from mnemex.team.model import (
    Contribution,
    Fact,
    Malformed,
    PageState,
    State,
    delta,
    fold,
    read_contribution,
)
from mnemex.team.synthesise import _relation, _words, build, contributor_label


def _state(*pages: PageState) -> State:
    return {p.name.casefold(): p for p in pages}


def _page(
    name: str, *facts: str, links: tuple[str, ...] = (), aliases: tuple[str, ...] = ()
) -> PageState:
    return PageState(
        name,
        "entity",
        set(aliases),
        {f.casefold(): Fact(f, "Report", None, "2025-01-01") for f in facts},
        set(links),
    )


def _contribution(
    member: str, seq: int, pages: list[dict[str, Any]], machine: str = "0000000a"
) -> Contribution:
    return Contribution(
        f"contributions/{member}/{machine}/{seq:08d}.json", member, machine, seq, "x", pages
    )


def test_a_delta_folded_onto_the_old_state_gives_the_new_one() -> None:
    old = _state(
        _page("Kestrel", "Builds flight software.", "Has 40 staff."), _page("Gone", "Soon.")
    )
    new = _state(
        _page(
            "Kestrel", "Builds flight software.", "Has 41 staff.", links=("Porto",), aliases=("K",)
        ),
        _page("Porto", "A city."),
    )
    first = delta({}, old)
    second = delta(old, new)
    folded = fold([_contribution("ada", 1, first), _contribution("ada", 2, second)])
    assert {k: v.to_dict() for k, v in folded.items()} == {
        k.casefold(): v.to_dict() for k, v in new.items()
    }
    assert delta(new, new) == []


def test_the_wiki_is_the_same_whatever_order_contributions_are_found_in() -> None:
    contributions = [
        _contribution(
            m,
            s,
            delta(
                {},
                _state(_page(f"Topic {m}{s}", f"{m} says {s}."), _page("Shared", f"Seen by {m}.")),
            ),
        )
        for m in ("ada", "bob", "cy")
        for s in (1, 2)
    ]
    first = build(contributions, "acme")
    for seed in range(5):
        shuffled = contributions[:]
        random.Random(seed).shuffle(shuffled)
        assert build(shuffled, "acme") == first


@pytest.mark.parametrize(
    ("a", "b", "relation"),
    [
        ("The cache is cleared on every write.", "the cache is cleared on every write", "same"),
        ("Deploys run on Tuesdays at noon", "Deploys run on Tuesdays at noon UTC", "same"),
        ("Priya works at Tidewater Labs", "Priya works at Kestrel Labs", "differs"),
        ("The default port is 5432", "The default port is 5433", "differs"),
        ("Union types are supported in stubs", "Union types are not supported in stubs", "differs"),
        ("Rollback takes a minute", "The moon orbits the earth", None),
        # seen on PEPs: long statements sharing a few words, one with a "not", are unrelated
        (
            "This PEP is not about the need for type annotations, it is about the syntax.",
            "While these are less common than type annotations, the same type syntax is used.",
            None,
        ),
        (
            "A generic type can have any number of type variables.",
            "Also known as a parametric type or a generic type.",
            None,
        ),
    ],
)
def test_near_identical_statements_merge_and_differing_ones_stay_apart(
    a: str, b: str, relation: str | None
) -> None:
    assert _relation(frozenset(_words(a)), frozenset(_words(b))) == relation


def test_differing_statements_keep_both_with_who_said_each() -> None:
    ada = _contribution(
        "ada", 1, delta({}, _state(_page("Priya", "Priya works at Tidewater Labs.")))
    )
    bob = _contribution("bob", 1, delta({}, _state(_page("Priya", "Priya works at Kestrel Labs."))))
    text = build([ada, bob], "acme")["wiki/priya.md"].decode()
    assert "## Differing statements" in text
    assert "Tidewater Labs. (Report; 2025-01-01) — ada" in text
    assert "Kestrel Labs. (Report; 2025-01-01) — bob" in text
    anonymous = build([ada, bob], "acme", "anonymous")["wiki/priya.md"].decode()
    assert "ada" not in anonymous and contributor_label("ada", "acme", "anonymous") in anonymous


def _file(
    doc: dict[str, Any], path: str = "contributions/ada/0000000a/00000001.json"
) -> tuple[str, bytes]:
    return path, json.dumps(doc).encode()


GOOD = {
    "format": 1,
    "team": "acme",
    "member": "ada",
    "machine": "0000000a",
    "seq": 1,
    "covers": "x",
    "pages": [],
}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"team": "other"}, "for team 'other'"),
        ({"seq": 2}, "differ from the file's path"),
        ({"format": 9}, "format 9"),
        ({"pages": [{"name": ""}]}, "has no name"),
        ({"pages": [{"name": "A", "facts_added": [{"text": "x" * 3000}]}]}, "a fact has no text"),
        (
            {
                "pages": [
                    {"name": "A", "facts_added": [{"text": "ok", "cite": {"path": "notes/x.md"}}]}
                ]
            },
            "cite",
        ),
        ({"pages": [{"name": "A", "type": "script"}]}, "unknown type"),
    ],
)
def test_a_malformed_contribution_says_why(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(Malformed, match=reason.replace("(", r"\(")):
        read_contribution(*_file({**GOOD, **change}), "acme")


def test_a_well_formed_contribution_reads() -> None:
    assert read_contribution(*_file(GOOD), "acme").stream == "ada/0000000a"
    with pytest.raises(Malformed, match="8-digit seq"):
        read_contribution(*_file(GOOD, "contributions/ada/0000000a/1.json"), "acme")


def test_a_domain_named_like_a_mirror_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mnemex.toml").write_text(
        '[vault]\ndomains = ["general", "shared-acme"]\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="reserved for team mirrors"):
        load_settings(tmp_path)


def test_pages_are_one_by_ingestions_name_rule() -> None:
    ada = _contribution(
        "ada", 1, delta({}, _state(_page("Kestrel Systems, Inc.", "Builds software.")))
    )
    bob = _contribution("bob", 1, delta({}, _state(_page("KestrelSystems", "Flies drones."))))
    cy = _contribution("cy", 1, delta({}, _state(_page("Vector Databases", "Store vectors."))))
    dee = _contribution("dee", 1, delta({}, _state(_page("vector-database", "Index vectors."))))
    files = build([ada, bob, cy, dee], "acme")
    assert len(files) == 2, sorted(files)


_SEEDED = """
import sys
from mnemex.team.model import Contribution, Fact, PageState, delta
from mnemex.team.synthesise import build

def one(member, *facts):
    page = PageState("Kalvo", "entity", set(), {f.casefold(): Fact(f) for f in facts}, set())
    path = f"contributions/{member}/0000000a/00000001.json"
    return Contribution(path, member, "0000000a", 1, "x", delta({}, {"kalvo": page}))

wiki = build([
    one("m1", "The rate of Kalvo is 20 users for the team",
        "The rate of Kalvo is 22 users for the whole team"),
    one("m2", "The rate of Kalvo is 25 users for the whole team"),
], "acme")
sys.stdout.write(wiki["wiki/kalvo.md"].decode())
"""


def test_every_process_pairs_the_same_statements_whatever_its_hash_seed() -> None:
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _SEEDED],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(8)
    }
    assert len(outputs) == 1
    assert "## Differing statements" in outputs.pop()
