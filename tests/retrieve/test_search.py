"""Hybrid search, run against every backend (:data:`index_backends.BACKEND_NAMES`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import write
from index_backends import BACKEND_NAMES, brain_on, skip_if_shared
from mnemex.brain import Brain
from mnemex.index.backend import Scope
from mnemex.retrieve import estimate_tokens, query_terms, search


@pytest.fixture(params=BACKEND_NAMES)
def brain(request: pytest.FixtureRequest, vault_dir: Path) -> Iterator[Brain]:
    with brain_on(str(request.param), vault_dir) as b:
        yield b


@pytest.fixture
def filled(brain: Brain) -> Brain:
    root = brain.vault.root
    write(
        root,
        "wiki/general/entities/orbit.md",
        "---\ntitle: Orbit\ntags: [project]\n---\n# Orbit\n\n"
        "- Orbit stores bookings in PostgreSQL\n"
        "- Orbit deploys with blue green switches\n- unrelated line about lunch\n",
    )
    write(root, "notes/lunch.md", "---\ntitle: Lunch\ndate: 2025-01-01\n---\nWe ate noodles.\n")
    write(
        root,
        "memories/alpha/2026-11/2026-11-01-x-1234abcd.md",
        "---\ntype: memory\ntitle: Alpha session\n---\n- fixed the PostgreSQL pool\n",
    )
    write(root, "wiki/private/entities/secret.md", "PostgreSQL password rotation diary")
    brain.sync()
    return brain


def test_query_terms_drop_stopwords_but_keep_something() -> None:
    assert query_terms("What did we decide about the database?") == ["decide", "database"]
    assert query_terms("what is it") == ["what", "is", "it"]


def test_one_hit_per_note_with_its_best_chunks_as_snippets(filled: Brain) -> None:
    result = search(filled, "Orbit PostgreSQL bookings", k=10)
    paths = [h.path for h in result.hits]
    assert len(paths) == len(set(paths))
    top = result.hits[0]
    assert top.path == "wiki/general/entities/orbit.md"
    assert "PostgreSQL" in top.snippet
    assert top.heading == "Orbit"
    assert top.why["keyword"] == 1 and "vector" in top.why
    assert top.kind == "knowledge" and top.domain == "general"


def test_scope_filters_by_kind_project_folder_tag_and_date(filled: Brain) -> None:
    def paths(scope: Scope) -> set[str]:
        return {h.path for h in search(filled, "PostgreSQL noodles", scope=scope).hits}

    assert paths(Scope(kinds=("memories",))) == {"memories/alpha/2026-11/2026-11-01-x-1234abcd.md"}
    assert paths(Scope(projects=("alpha",))) == {"memories/alpha/2026-11/2026-11-01-x-1234abcd.md"}
    assert paths(Scope(folders=("notes",))) == {"notes/lunch.md"}
    assert paths(Scope(tags=("project",))) == {"wiki/general/entities/orbit.md"}
    assert paths(Scope(until="2025-06-30")) == {"notes/lunch.md"}
    assert "notes/lunch.md" not in paths(Scope(since="2025-06-30"))


def test_private_domains_are_searched_only_when_named(filled: Brain) -> None:
    skip_if_shared(filled.backend, "a private domain cannot be searched there, named or not")
    everywhere = {h.path for h in search(filled, "PostgreSQL password").hits}
    assert "wiki/private/entities/secret.md" not in everywhere
    named = {h.path for h in search(filled, "password", scope=Scope(domains=("private",))).hits}
    assert named == {"wiki/private/entities/secret.md"}


def test_the_token_budget_caps_the_answer(filled: Brain) -> None:
    full = search(filled, "PostgreSQL", k=10)
    assert len(full.hits) >= 2
    budget = full.hits[0].tokens
    capped = search(filled, "PostgreSQL", k=10, max_tokens=budget)
    assert len(capped.hits) == 1 and capped.truncated
    assert capped.total_tokens <= budget


def test_keyword_only_and_vector_only_signals_can_be_chosen(filled: Brain) -> None:
    kw = search(filled, "noodles", signals=("keyword",))
    assert [h.path for h in kw.hits] == ["notes/lunch.md"]
    assert kw.hits[0].why == {"keyword": 1, "coverage": 1.0, "terms": ["noodles"]}
    vec = search(filled, "noodles", signals=("vector",))
    assert all(set(h.why) == {"vector", "cosine"} for h in vec.hits)


def test_an_empty_index_answers_with_no_hits(brain: Brain) -> None:
    brain.sync()
    result = search(brain, "anything")
    assert result.hits == [] and not result.truncated


def test_a_linked_neighbour_is_lifted_by_the_graph_signal(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "hub.md", "zebra migration facts [[spoke]]")
    write(root, "spoke.md", "unrelated words entirely")
    for i in range(8):
        write(root, f"filler{i}.md", f"filler text number {i}")
    brain.sync()
    hits = search(brain, "zebra migration", k=10).hits
    spoke = next(h for h in hits if h.path == "spoke.md")
    assert "graph" in spoke.why


def test_token_estimates_err_on_the_high_side_of_words() -> None:
    text = "The quick brown fox jumps over the lazy dog."
    assert estimate_tokens(text) >= len(text.split())
    assert estimate_tokens("") == 0
