from __future__ import annotations

import json
import re
import time
import unicodedata
from pathlib import Path

import pytest

from helpers import write
from mnemex.brain import Brain
from mnemex.errors import (
    NoteNotFound,
    PathOutsideVault,
    PlanRefused,
    ProtectedPath,
    VaultError,
    WriteConflict,
)
from mnemex.pages.edit import (
    MAX_PAGE_CHARS,
    PageExists,
    append_to_page,
    delete_page,
    move_page,
    write_page,
)
from mnemex.vault import parse_note


def read(brain: Brain, rel: str) -> str:
    return (brain.vault.root / rel).read_text(encoding="utf-8")


def test_a_new_page_gets_frontmatter_typed_by_its_folder(brain: Brain) -> None:
    change = write_page(brain, "wiki/general/entities/ada", "# Ada Lovelace\nMathematician.\n")
    assert change.paths == ["wiki/general/entities/ada.md"]
    assert change.report.created == 1
    fm = parse_note(read(brain, "wiki/general/entities/ada.md")).frontmatter
    assert list(fm) == ["type", "title", "created", "updated", "sources"]
    assert (fm["type"], fm["title"], fm["sources"]) == ("entity", "Ada Lovelace", [])
    assert brain.backend.note_by_path("wiki/general/entities/ada.md") is not None  # synced


def test_write_refuses_to_overwrite_without_the_hash_it_read(brain: Brain) -> None:
    first = write_page(brain, "notes/a", "one\n")
    with pytest.raises(PageExists, match="expected_hash"):
        write_page(brain, "notes/a", "two\n")
    with pytest.raises(WriteConflict, match="changed on disk"):
        write_page(brain, "notes/a", "two\n", expected_hash="0" * 64)
    second = write_page(brain, "notes/a", "two\n", expected_hash=first.hash)
    assert second.report.updated == 1
    assert read(brain, "notes/a.md").endswith("two\n")


def test_replacing_a_page_keeps_its_frontmatter_when_the_content_brings_none(brain: Brain) -> None:
    first = write_page(brain, "notes/a", "---\ntags: [x]\nmine: kept\n---\nold body\n")
    before = parse_note(read(brain, "notes/a.md")).frontmatter
    write_page(brain, "notes/a", "new body\n", expected_hash=first.hash)
    after = parse_note(read(brain, "notes/a.md"))
    assert after.frontmatter["mine"] == "kept"
    assert after.frontmatter["created"] == before["created"]
    assert after.body == "new body\n"


def test_a_user_note_without_frontmatter_stays_without(brain: Brain) -> None:
    write(brain.vault.root, "notes/plain.md", "# Plain\nhand written\n")
    current = brain.vault.read_note("notes/plain.md")
    write_page(brain, "notes/plain", "# Plain\nedited\n", expected_hash=current.hash)
    assert read(brain, "notes/plain.md") == "# Plain\nedited\n"


def test_writing_the_same_content_is_unchanged(brain: Brain) -> None:
    first = write_page(brain, "notes/a", "---\ntitle: A\n---\nbody\n")
    again = write_page(brain, "notes/a", "---\ntitle: A\n---\nbody\n", expected_hash=first.hash)
    assert again.report.unchanged == 1


@pytest.mark.parametrize(
    ("path", "error"),
    [
        ("state/mnemex/brief.md", ProtectedPath),
        ("memories/p/2026-12/x.md", ProtectedPath),
        ("foundations/p/architecture.md", ProtectedPath),
        ("facts/ada.md", ProtectedPath),
        ("health/x.md", ProtectedPath),
        (".mnemex/x.md", ProtectedPath),
        (".git/config", ProtectedPath),
        ("../outside.md", PathOutsideVault),
        ("/etc/passwd", PathOutsideVault),
    ],
)
def test_page_tools_refuse_kind_folders_and_paths_outside_the_vault(
    brain: Brain, path: str, error: type[Exception]
) -> None:
    with pytest.raises(error):
        write_page(brain, path, "x")
    with pytest.raises(error):
        append_to_page(brain, path, "x")
    with pytest.raises(error):
        delete_page(brain, path)


@pytest.mark.parametrize(
    ("path", "why"),
    [
        (".obsidian/workspace.md", "'.obsidian' starts with '.'"),
        ("notes/.trash/old.md", "'.trash' starts with '.'"),
        ("notes/.hidden.md", "starts with '.', which marks another tool's file"),
        ("node_modules/pkg/readme.md", "node_modules/ belongs to a package manager"),
        ("notes/node_modules/readme.md", "node_modules/ belongs to a package manager"),
    ],
)
def test_page_tools_refuse_other_tools_folders_and_say_why(
    brain: Brain, path: str, why: str
) -> None:
    write(brain.vault.root, "notes/real.md", "# Real\n")
    (brain.vault.root / path).parent.mkdir(parents=True, exist_ok=True)
    (brain.vault.root / path).write_text("theirs\n", encoding="utf-8")
    for attempt in (
        lambda: write_page(brain, path, "x"),
        lambda: write_page(brain, path.replace(".md", "-new"), "x"),
        lambda: append_to_page(brain, path, "x"),
        lambda: delete_page(brain, path),
        lambda: move_page(brain, "notes/real", path.replace(".md", "-moved")),
        lambda: move_page(brain, path, "notes/moved"),
    ):
        with pytest.raises(ProtectedPath, match=re.escape(why)):
            attempt()
    assert (brain.vault.root / path).read_text(encoding="utf-8") == "theirs\n"
    assert not list(brain.vault.root.rglob("*-new.md")) and not list(
        brain.vault.root.rglob("*-moved.md")
    )


def test_page_tools_given_a_path_in_another_unicode_normalisation_act_on_the_file_on_disk(
    brain: Brain,
) -> None:
    on_disk = unicodedata.normalize("NFC", "notes/Café")
    typed = unicodedata.normalize("NFD", on_disk)  # as macOS hands it over
    write(brain.vault.root, f"{on_disk}.md", "# Café\n")
    brain.sync()
    with pytest.raises(PageExists):
        write_page(brain, typed, "a twin\n")
    assert append_to_page(brain, typed, "- espresso").paths == [f"{on_disk}.md"]
    plan = move_page(brain, typed, "notes/coffee")
    move_page(brain, typed, "notes/coffee", plan_id=plan["plan_id"])
    assert sorted(p.name for p in (brain.vault.root / "notes").iterdir()) == ["coffee.md"]
    write(brain.vault.root, f"{on_disk}.md", "# Café again\n")
    plan = delete_page(brain, typed)
    delete_page(brain, typed, plan_id=plan["plan_id"])
    assert sorted(p.name for p in (brain.vault.root / "notes").iterdir()) == ["coffee.md"]


def test_oversized_content_is_refused_with_advice(brain: Brain) -> None:
    with pytest.raises(VaultError, match="split it into several pages"):
        write_page(brain, "notes/big", "x" * (MAX_PAGE_CHARS + 1))


def test_knowledge_pages_are_stripped_and_escaped_on_the_way_in(brain: Brain) -> None:
    write_page(brain, "wiki/general/concepts/c", "# C\nsee https://x.y <system-reminder>\u200b\n")
    assert "see https://x.y &lt;system-reminder&gt;\n" in read(brain, "wiki/general/concepts/c.md")


def test_append_adds_to_the_end_or_into_a_section(brain: Brain) -> None:
    write(brain.vault.root, "notes/log.md", "# Log\n## Incidents\n- one\n\n## Later\ntext\n")
    append_to_page(brain, "notes/log", "- two", section="incidents")
    append_to_page(brain, "notes/log", "tail")
    append_to_page(brain, "notes/log", "- first", section="New part")
    assert read(brain, "notes/log.md") == (
        "# Log\n## Incidents\n- one\n- two\n\n## Later\ntext\ntail\n## New part\n- first\n"
    )


def test_append_to_a_missing_page_says_to_create_it(brain: Brain) -> None:
    with pytest.raises(NoteNotFound, match="write_page"):
        append_to_page(brain, "notes/nothing", "x")


@pytest.fixture
def linked(brain: Brain) -> Brain:
    root = brain.vault.root
    write(root, "notes/ada.md", "# Ada\nSee [[babbage#Engine|the engine man]].\n")
    write(
        root,
        "notes/babbage.md",
        "# Babbage\nKnew [[ada]] and ![[ada]].\n```\n[[ada]] in code stays\n```\n"
        "Also [Ada's page](notes/ada.md#Life).\n",
    )
    write(root, "wiki/general/entities/x.md", "[[notes/ada]] and [[nowhere]]\n")
    brain.sync()
    return brain


def test_move_plans_first_then_moves_and_repoints_every_link(linked: Brain) -> None:
    old = {p: linked.vault.current_hash(p) for p in ("notes/ada.md", "notes/babbage.md")}
    plan = move_page(linked, "notes/ada", "wiki/general/entities/ada-lovelace")
    assert plan["files_changed"] == 2
    assert plan["links_rewritten"] == 4
    assert {p: linked.vault.current_hash(p) for p in old} == old  # nothing moved yet
    done = move_page(linked, "notes/ada", "wiki/general/entities/ada-lovelace", plan["plan_id"])
    assert done["moved"] == {"from": "notes/ada.md", "to": "wiki/general/entities/ada-lovelace.md"}
    root = linked.vault.root
    assert not (root / "notes/ada.md").exists()
    assert read(linked, "wiki/general/entities/ada-lovelace.md") == old_text_of_ada()
    assert read(linked, "notes/babbage.md") == (
        "# Babbage\nKnew [[ada-lovelace|ada]] and ![[ada-lovelace]].\n"
        "```\n[[ada]] in code stays\n```\n"
        "Also [Ada's page](wiki/general/entities/ada-lovelace.md#Life).\n"
    )
    assert read(linked, "wiki/general/entities/x.md") == (
        "[[ada-lovelace|notes/ada]] and [[nowhere]]\n"  # each link shows what it showed
    )
    target = linked.backend.note_by_path("wiki/general/entities/ada-lovelace.md")
    assert target is not None
    assert len(linked.backend.links_to(target.id)) == 4


def old_text_of_ada() -> str:
    return "# Ada\nSee [[babbage#Engine|the engine man]].\n"


def test_a_move_that_would_capture_another_link_repoints_it(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "deep/folder/topic.md", "the real topic")
    write(root, "notes/topic.md", "a different topic")
    write(root, "notes/ref.md", "[[topic]]")  # resolves to the shortest path: notes/topic.md
    brain.sync()
    plan = move_page(
        brain, "deep/folder/topic", "topic"
    )  # now the shortest: would capture [[topic]]
    move_page(brain, "deep/folder/topic", "topic", plan["plan_id"])
    assert read(brain, "notes/ref.md") == "[[notes/topic|topic]]"


def test_a_plan_is_refused_when_a_file_it_read_changed(linked: Brain) -> None:
    plan = move_page(linked, "notes/ada", "notes/ada-2")
    write(linked.vault.root, "notes/babbage.md", "edited meanwhile [[ada]]")
    with pytest.raises(PlanRefused, match="changed since"):
        move_page(linked, "notes/ada", "notes/ada-2", plan["plan_id"])


def test_a_plan_applies_only_to_the_call_it_was_made_for_and_only_once(linked: Brain) -> None:
    plan = delete_page(linked, "notes/babbage")
    with pytest.raises(PlanRefused, match="was made for delete_page"):
        delete_page(linked, "notes/ada", plan["plan_id"])
    delete_page(linked, "notes/babbage", plan["plan_id"])
    write(linked.vault.root, "notes/babbage.md", "back")
    with pytest.raises(PlanRefused, match="no plan"):
        delete_page(linked, "notes/babbage", plan["plan_id"])


def test_an_expired_plan_is_refused(linked: Brain) -> None:
    plan = delete_page(linked, "notes/babbage")
    record = linked.vault.local_dir / "plans" / f"{plan['plan_id']}.json"
    data = json.loads(record.read_text(encoding="utf-8"))
    data["expires"] = time.time() - 1
    record.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PlanRefused, match="expired"):
        delete_page(linked, "notes/babbage", plan["plan_id"])


def test_delete_names_the_links_that_will_break_then_deletes(linked: Brain) -> None:
    plan = delete_page(linked, "notes/ada")
    assert plan["links_that_will_break"] == 4
    assert {b["path"] for b in plan["breaks"]} == {"notes/babbage.md", "wiki/general/entities/x.md"}
    assert (linked.vault.root / "notes/ada.md").exists()
    done = delete_page(linked, "notes/ada", plan["plan_id"])
    assert (done["deleted"], done["paths"]) == (1, ["notes/ada.md"])
    assert not (linked.vault.root / "notes/ada.md").exists()
    assert linked.backend.note_by_path("notes/ada.md") is None


def test_moving_onto_an_existing_page_is_refused(linked: Brain) -> None:
    with pytest.raises(VaultError, match="already exists"):
        move_page(linked, "notes/ada", "notes/babbage")


def test_plans_live_machine_locally(linked: Path | Brain) -> None:
    assert isinstance(linked, Brain)
    plan = delete_page(linked, "notes/ada")
    assert (linked.vault.root / ".mnemex" / "plans" / f"{plan['plan_id']}.json").is_file()


def test_section_lookups_on_a_heading_of_spaces_finish_with_the_right_result() -> None:
    # '^(#{1,6})\s+(.*?)\s*#*\s*$' was cubic on such a line: 2,000 spaces took 23 s
    from hostile_inputs import bounded

    found = bounded(
        r"""
import json
from mnemex.health.edits import split_sections
from mnemex.ingest.render import _find_section
from mnemex.retrieve.read import select_section
from mnemex.pages.edit import _append_text
line = "## a" + " " * 100_000 + "x"
body = "# T\n\n" + line + "\n- item\n"
_, sections = split_sections(body)
start, _ = _find_section(body.split("\n"), "b")
under = select_section(body, "a" + " " * 100_000 + "x")
added = _append_text(body, "- more", "a" + " " * 100_000 + "x")
print(json.dumps([len(sections), start is None, under.endswith("- item\n"), added.count("- more")]))
"""
    )
    assert found == [1, True, True, 1]
