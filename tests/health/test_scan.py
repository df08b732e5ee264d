"""The scan: every kind found in the sick vault, with stable ids, and nothing on clean pages."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from health_support import (
    ADA,
    ADAS,
    BABBAGE,
    BAD,
    EMPTY,
    ENGINE,
    LONELY,
    NOTES,
    git,
    make_sick_vault,
    open_brain,
)
from helpers import write
from mnemex.brain import Brain
from mnemex.errors import VaultError
from mnemex.health import KINDS, issue_id, register_checker, scan
from mnemex.health.names import name_key
from mnemex.health.scan import _CHECKERS, ScanContext, checkers


def _by_kind(brain: Brain) -> dict[str, list[dict[str, object]]]:
    data = scan(brain.vault, brain.backend).to_dict()
    return {k: data[k] for k in KINDS}


def test_a_broken_link_gets_a_tolerant_suggestion_and_none_when_nothing_matches(
    sick_brain: Brain,
) -> None:
    found = {i["data"]["target"]: i for i in _by_kind(sick_brain)["broken_links"]}  # type: ignore[index]
    assert set(found) == {"Lady Lovelace", "analytical-engines", "no-such-page"}
    assert found["Lady Lovelace"]["data"]["suggested"] == ADA  # type: ignore[index]
    assert found["analytical-engines"]["data"]["suggested"] == ENGINE  # type: ignore[index]
    assert "suggestion" not in found["no-such-page"]
    assert found["no-such-page"]["files"] == [BABBAGE]


def test_every_kind_is_found_once_in_the_sick_vault(sick_brain: Brain) -> None:
    write(sick_brain.vault.root, "notes/unindexed.md", "# Not yet indexed\n")
    found = _by_kind(sick_brain)
    assert [i["files"] for i in found["duplicates"]] == [[ADA, ADAS]]
    assert "singular and plural" in str(found["duplicates"][0]["detail"])
    assert [i["files"] for i in found["orphans"]] == [[LONELY]]
    assert [i["files"] for i in found["stale"]] == [[ENGINE]]
    assert [i["files"] for i in found["empty_pages"]] == [[EMPTY]]
    assert [i["files"] for i in found["broken_frontmatter"]] == [[BAD]]
    assert sorted(map(str, (i["files"] for i in found["missing_backlinks"]))) == sorted(
        [str(sorted([ENGINE, NOTES])), str(sorted([EMPTY, NOTES]))]
    )
    assert [i["files"] for i in found["index_drift"]] == [["notes/unindexed.md"]]


def test_ids_are_stable_across_scans_and_follow_the_spec(sick_brain: Brain) -> None:
    first = scan(sick_brain.vault, sick_brain.backend).to_dict()
    second = scan(sick_brain.vault, sick_brain.backend).to_dict()
    assert [i["id"] for k in KINDS for i in first[k]] == [i["id"] for k in KINDS for i in second[k]]
    stale = first["stale"][0]
    assert stale["id"] == issue_id("stale", [ENGINE])
    assert stale["id"].startswith("stale-") and len(stale["id"]) == len("stale-") + 12


def test_the_report_has_counts_and_a_score(sick_brain: Brain) -> None:
    data = scan(sick_brain.vault, sick_brain.backend).to_dict()
    assert data["counts"]["broken_links"] == 3
    assert data["total"] == sum(data["counts"].values())
    assert 0 < data["score"] < 100


def test_clean_pages_raise_nothing(tmp_path: Path) -> None:
    root = make_sick_vault(tmp_path / "v")
    for rel in (ADAS, EMPTY, LONELY, BAD):
        (root / rel).unlink()
    body = (root / BABBAGE).read_text().replace("[[Lady Lovelace]]", "[[ada-lovelace]]")
    body = body.replace("[[analytical-engines]]", "[[analytical-engine]]")
    body = body.replace("see [[no-such-page]] and [[ada-lovelaces]].", "see below.")
    (root / BABBAGE).write_text(body)
    engine = (root / ENGINE).read_text().replace("2020-01-01", "2026-11-01")
    (root / ENGINE).write_text(engine + "## Sources\n- [[summaries/notes-on-the-engine]]\n")
    notes = (root / NOTES).read_text().replace("- [[difference-engine]]\n", "")
    (root / NOTES).write_text(notes)
    write(root, "notes/diagram-note.md", "# Diagram\n![[diagram.png]] and [[ada-lovelace]]\n")
    (root / "notes/diagram.png").write_bytes(b"\x89PNG")
    with open_brain(root) as brain:
        brain.sync()
        data = scan(brain.vault, brain.backend).to_dict()
    assert data["total"] == 0, {k: data[k] for k in KINDS if data[k]}
    assert data["score"] == 100


def test_entities_that_only_share_a_name_are_not_duplicates(sick: Path) -> None:
    write(
        sick,
        "wiki/general/entities/mercury.md",
        "---\ntype: entity\ntitle: Mercury\nentity_type: place\nupdated: 2026-11-01\n---\n"
        "# Mercury\nA planet. [[mercury-element]]\n",
    )
    write(
        sick,
        "wiki/general/entities/mercury-element.md",
        "---\ntype: entity\ntitle: Mercury\nentity_type: other\nupdated: 2026-11-01\n---\n"
        "# Mercury\nA metal. [[mercury]]\n",
    )
    with open_brain(sick) as brain:
        brain.sync()
        pairs = [i.files for i in scan(brain.vault, brain.backend).issues["duplicates"]]
    assert all("wiki/general/entities/mercury.md" not in p for p in pairs)


def test_ingestion_recorded_duplicates_are_reported_with_their_reason(sick_brain: Brain) -> None:
    write(
        sick_brain.vault.root,
        "health/possible-duplicates.json",
        '{"version": 1, "pairs": [{"a": "' + LONELY + '", "b": "' + ENGINE + '", "score": 0.83,'
        ' "reason": "similar definitions", "source": "' + NOTES + '", "recorded": "x"}]}',
    )
    found_pairs = scan(sick_brain.vault, sick_brain.backend).issues["duplicates"]
    pairs = {tuple(i.files): i for i in found_pairs}
    found = pairs[tuple(sorted([LONELY, ENGINE]))]
    assert "similar definitions" in found.detail and found.data["found_by"] == ["ingestion"]


def _handoff(root: Path) -> str:
    rel = "state/proj/handoffs/laptop-1234abcd/current.md"
    write(
        root,
        rel,
        "---\ntype: handoff\ntitle: Where we are\nupdated: 2020-01-01T00:00:00+00:00\n---\n"
        "# Where we are\n",
    )
    return rel


def test_a_stale_handoff_is_older_than_the_projects_newest_commit(sick: Path) -> None:
    rel = _handoff(sick)
    git(sick, "add", "-A")
    git(sick, "commit", "-qm", "handoff")
    memory = "memories/proj/2026-12/2026-12-01-x-1a2b3c4d.md"
    write(sick, memory, "---\ntype: memory\n---\n# x\nok\n")
    git(sick, "add", "-A")
    git(sick, "commit", "-qm", "work on proj after the handoff")
    with open_brain(sick) as brain:
        brain.sync()
        stale = scan(brain.vault, brain.backend).issues["stale"]
    handoffs = [i for i in stale if i.data["what"] == "handoff"]
    assert [i.files for i in handoffs] == [[rel]]


def test_a_handoff_committed_with_its_work_is_not_stale(sick: Path) -> None:
    _handoff(sick)
    write(sick, "memories/proj/2026-12/2026-12-01-x-1a2b3c4d.md", "---\ntype: memory\n---\n# x\n")
    git(sick, "add", "-A")
    git(sick, "commit", "-qm", "everything at once")
    with open_brain(sick) as brain:
        brain.sync()
        stale = scan(brain.vault, brain.backend).issues["stale"]
    assert [i for i in stale if i.data["what"] == "handoff"] == []


def test_stale_days_comes_from_the_health_table(sick: Path) -> None:
    settings = sick / "mnemex.toml"
    settings.write_text(settings.read_text() + "\n[health]\nstale_days = 100000\n")
    with open_brain(sick) as brain:
        brain.sync()
        assert scan(brain.vault, brain.backend).issues["stale"] == []


def test_a_scan_of_a_vault_that_is_gone_is_an_error_not_a_clean_report(sick_brain: Brain) -> None:
    shutil.rmtree(sick_brain.vault.root)
    with pytest.raises(VaultError, match="is gone"):
        scan(sick_brain.vault, sick_brain.backend)


def test_a_vault_that_vanishes_mid_scan_is_an_error(
    sick_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    def vanish(ctx: ScanContext) -> list[object]:
        shutil.rmtree(ctx.vault.root)
        return []

    monkeypatch.setitem(_CHECKERS["broken_links"], "zz_vanish", vanish)  # type: ignore[arg-type]
    with pytest.raises(VaultError, match="nothing was scanned"):
        scan(sick_brain.vault, sick_brain.backend)


def test_a_later_capability_registers_a_stale_checker_through_the_seam() -> None:
    with pytest.raises(ValueError, match="unknown health kind"):
        register_checker("facts_gone_wrong", "x")(lambda ctx: [])
    assert checkers()["stale"] == ["foundations", "handoffs", "pages"]


def test_name_keys_ignore_case_hyphens_plurals_and_honorifics() -> None:
    assert name_key("Dr. Ada-Lovelace") == name_key("ada lovelace") == name_key("Ada Lovelaces")
    assert name_key("Analysis") == "analysis" and name_key("bus") == "bus"


def test_name_keys_ignore_accents_and_keep_every_script() -> None:
    assert name_key("José Müller") == name_key("Jose Muller") == "jose muller"
    assert name_key("東京") == "東京" and name_key("大阪") == "大阪"
    assert name_key("Москва") == "москва"


def test_an_old_scan_time_is_not_needed_for_stale_pages(sick_brain: Brain) -> None:
    later = dt.datetime(2099, 1, 1, tzinfo=dt.UTC)
    stale = scan(sick_brain.vault, sick_brain.backend, now=later).issues["stale"]
    assert len(stale) >= 6  # every page is old by then


def test_a_rebuild_of_a_vault_that_vanished_raises_instead_of_reporting_no_pages(
    sick_brain: Brain,
) -> None:
    shutil.rmtree(sick_brain.vault.root)
    with pytest.raises((VaultError, OSError)):
        sick_brain.rebuild()


def test_frontmatter_the_parser_lets_pass_is_still_reported(sick: Path) -> None:
    write(sick, "notes/twice.md", "---\ntitle: A\ntitle: B\n---\n# Twice\ntext\n")
    write(sick, "notes/bom.md", "\ufeff---\ntitle: C\n---\n# Bom\ntext\n")
    write(sick, "notes/open.md", "---\ntitle: never closed\n# Open\ntext\n")
    with open_brain(sick) as brain:
        brain.sync()
        found = {
            i.files[0]: i.detail
            for i in scan(brain.vault, brain.backend).issues["broken_frontmatter"]
        }
    assert "appears twice" in found["notes/twice.md"]
    assert "notes/bom.md" not in found  # Obsidian reads frontmatter after a BOM; so does mnemex
    assert "never closed" in found["notes/open.md"]


def test_a_link_written_without_spaces_or_in_camel_case_is_suggested_its_page(
    sick: Path,
) -> None:
    write(sick, "notes/camel.md", "# Camel\nSee [[CharlesBabbage]] and [[charlesbabbage-s]].\n")
    with open_brain(sick) as brain:
        brain.sync()
        found = {
            i.key: i.data.get("suggested")
            for i in scan(brain.vault, brain.backend).issues["broken_links"]
            if i.files == ["notes/camel.md"]
        }
    assert found["CharlesBabbage"] == BABBAGE


def test_a_failing_checker_is_reported_and_the_others_still_run(
    sick_brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(ctx: ScanContext) -> list[object]:
        raise RuntimeError("bug")

    monkeypatch.setitem(_CHECKERS["orphans"], "zz_broken", broken)  # type: ignore[arg-type]
    report = scan(sick_brain.vault, sick_brain.backend)
    assert report.errors == ["orphans/zz_broken failed: RuntimeError: bug"]
    assert report.counts["orphans"] == 1 and report.to_dict()["errors"]


def test_a_handoff_older_than_its_code_repository_head_is_stale(sick: Path, tmp_path: Path) -> None:
    rel = _handoff(sick)
    git(sick, "add", "-A")
    git(sick, "commit", "-qm", "handoff")
    repo = tmp_path / "code"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo, "main.py", "print('hi')\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "code")
    settings = sick / "mnemex.toml"
    settings.write_text(settings.read_text() + f'\n[health.repos]\nproj = "{repo}"\n')
    with open_brain(sick) as brain:
        brain.sync()
        stale = [i for i in scan(brain.vault, brain.backend).issues["stale"] if i.files == [rel]]
    assert stale and str(repo) in stale[0].detail
