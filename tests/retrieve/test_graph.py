"""The link graph, run against every backend (:data:`index_backends.BACKEND_NAMES`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import write
from index_backends import BACKEND_NAMES, brain_on
from mnemex.brain import Brain
from mnemex.errors import NoteNotFound
from mnemex.retrieve import backlinks, connected, overview


@pytest.fixture(params=BACKEND_NAMES)
def brain(request: pytest.FixtureRequest, vault_dir: Path) -> Iterator[Brain]:
    with brain_on(str(request.param), vault_dir) as b:
        yield b


@pytest.fixture
def linked(brain: Brain) -> Brain:
    root = brain.vault.root
    write(
        root, "a.md", "---\ntype: concept\ntags: [t1]\n---\n[[b]] and [[c|C alias]] and [[nowhere]]"
    )
    write(root, "b.md", "[[c#Part]] #t1 #t2")
    write(root, "c.md", "# C\n[[d]]")
    write(root, "d.md", "end")
    write(root, "lonely.md", "no links")
    brain.sync()
    return brain


def test_backlinks_list_every_note_linking_in_with_line_and_alias(linked: Brain) -> None:
    links = backlinks(linked.backend, "c.md")
    assert [(lk.src_path, lk.alias, lk.heading) for lk in links] == [
        ("a.md", "C alias", None),
        ("b.md", None, "Part"),
    ]


def test_connected_nodes_go_out_two_hops_nearest_first(linked: Brain) -> None:
    nodes = connected(linked.backend, "a.md", depth=2)
    assert [(n["path"], n["distance"]) for n in nodes] == [("c.md", 1), ("b.md", 1), ("d.md", 2)]
    assert nodes[0]["relation"] == ["links-to"]


def test_the_overview_counts_nodes_edges_hubs_orphans_types_and_tags(linked: Brain) -> None:
    data = overview(linked.backend)
    assert data["nodes"] == 5
    assert data["edges"] == 4
    assert data["unresolved_links"] == 1
    assert data["hubs"][0]["path"] == "c.md"
    assert data["orphans"] == ["lonely.md"]
    assert data["pages_by_type"]["concept"] == 1
    assert data["top_tags"][0] == {"tag": "t1", "notes": 2}


def test_graph_questions_about_an_unknown_note_are_a_clear_error(linked: Brain) -> None:
    with pytest.raises(NoteNotFound, match="not in the index"):
        backlinks(linked.backend, "zzz.md")
