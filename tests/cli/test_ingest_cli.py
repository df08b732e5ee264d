"""``mnemex ingest`` through click's runner: preview, apply, re-ingest, a folder with a bad file."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from fake_provider import Canned, FakeProvider, Recorded
from ingest_support import commits, fake_extract, git_vault
from mnemex.cli import cli
from mnemex.ingest import run as ingest_run

CORPUS = Path(__file__).parents[1] / "ingest" / "corpus"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(ingest_run, "offline_extractor", fake_extract)
    return git_vault(tmp_path / "vault")


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "a-overview.md").write_text(
        "# Kestrel overview\n\nPriya Raman created KestrelDB in 2017. It is written in Rust.\n",
        encoding="utf-8",
    )
    (folder / "b-interview.txt").write_text(
        "Priya Raman spoke about compaction. Tom Okafor joined in 2019.\n", encoding="utf-8"
    )
    (folder / "c-broken.pdf").write_bytes(b"%PDF-1.4 this is not a pdf")
    return folder


def mnemex(root: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--vault", str(root), *args], catch_exceptions=False)


def as_json(result: Result) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_preview_shows_the_plan_and_writes_nothing(root: Path, sources: Path) -> None:
    before = commits(root)
    result = mnemex(root, "ingest", str(sources / "a-overview.md"), "--preview")
    assert result.exit_code == 0, result.output
    assert "create wiki/general/entities/priya-raman.md" in result.output
    assert "estimated cost: $0.00" in result.output
    assert "nothing written" in result.output
    assert not (root / "wiki/general/entities/priya-raman.md").exists()
    assert commits(root) == before


def test_ingest_applies_one_commit_and_reingest_is_a_no_op(root: Path, sources: Path) -> None:
    before = commits(root)
    first = as_json(mnemex(root, "ingest", str(sources / "a-overview.md"), "--json"))
    assert first["applied"] is True and first["created"] >= 3
    assert commits(root) == before + 1
    second = mnemex(root, "ingest", str(sources / "a-overview.md"))
    assert (
        "unchanged" in second.output
        and "0 created, 0 updated, 0 deleted, 1 unchanged" in second.output
    )
    assert commits(root) == before + 1


def indexed(root: Path) -> int:
    notes: int = as_json(mnemex(root, "index", "status", "--json"))["notes"]
    return notes


def test_ingest_syncs_the_index_unless_no_index(root: Path, sources: Path) -> None:
    before = indexed(root)
    mnemex(root, "ingest", str(sources / "a-overview.md"), "--no-index")
    assert indexed(root) == before
    written = mnemex(root, "ingest", str(sources / "b-interview.txt"), "--json")
    assert written.exit_code == 0, written.output
    pages = len(list((root / "wiki").rglob("*.md")))
    assert indexed(root) >= before + pages


def test_json_carries_the_six_counts_at_the_top_level(root: Path, sources: Path) -> None:
    for args in (("--preview",), ()):
        data = as_json(mnemex(root, "ingest", str(sources), "--json", *args))
        counts = {k: data[k] for k in ("created", "updated", "unchanged", "refused", "failed")}
        assert counts == {k: data["report"][k] for k in counts}
        assert data["created"] >= 3 and data["failed"] == 1
        assert data["skipped"] == data["report"]["skipped"] == 0
        assert data["problems"]["failed"][0]["path"].endswith("c-broken.pdf")
        assert isinstance(data["warnings"], list)
        assert {"sources", "create", "update", "possible_duplicates", "cost"} <= set(data)


def test_a_folder_is_one_commit_and_a_bad_file_is_counted_failed(root: Path, sources: Path) -> None:
    before = commits(root)
    result = mnemex(root, "ingest", str(sources), "--json")
    assert result.exit_code == 1
    data = as_json(result)
    assert data["failed"] == 1
    [problem] = data["problems"]["failed"]
    assert problem["path"].endswith("c-broken.pdf")
    assert len(data["sources"]) == 2
    assert commits(root) == before + 1
    person = (root / "wiki/general/entities/priya-raman.md").read_text(encoding="utf-8")
    assert "[[summaries/kestrel-overview]]" in person and "[[summaries/b-interview]]" in person


def test_an_update_preview_carries_a_unified_diff(root: Path, sources: Path) -> None:
    mnemex(root, "ingest", str(sources / "a-overview.md"))
    result = mnemex(root, "ingest", str(sources / "b-interview.txt"), "--preview")
    assert "update wiki/general/entities/priya-raman.md" in result.output
    assert "+- Priya Raman spoke about compaction." in result.output


OUTLINE = {
    "summary": ["Hollis Analytics sells Kestrel Cloud.", "Tomas Hollis founded it in 2020."],
    "pages": [
        {
            "name": "Hollis Analytics",
            "kind": "entity",
            "type": "organization",
            "aliases": [],
            "description": "A company in Rotterdam that sells Kestrel Cloud.",
        },
        {
            "name": "Tomas Hollis",
            "kind": "entity",
            "type": "person",
            "aliases": ["Hollis"],
            "description": "The founder of Hollis Analytics.",
        },
    ],
}
BATCH = {
    "facts": [{"page": "Tomas Hollis", "fact": "Tomas Hollis founded Hollis Analytics in 2020."}],
    "relations": [{"a": "Tomas Hollis", "relation": "founded", "b": "Hollis Analytics"}],
    "key_points": ["Three employees are KestrelDB maintainers."],
}


def answer(fake: FakeProvider) -> Callable[[Recorded], Canned]:
    return lambda request: fake.json(BATCH if "Here is part" in request.prompt_text() else OUTLINE)


def test_a_model_run_above_the_limit_needs_yes_and_then_extracts_with_the_model(
    root: Path, sources: Path
) -> None:
    with FakeProvider() as fake:
        fake.write_config(root, price_in_per_mtok=1000.0, confirm_above_usd=0.01)
        source = str(CORPUS / "07-hollis-analytics.md")
        refused = mnemex(root, "ingest", source)
        assert refused.exit_code == 1 and "--yes" in refused.output
        assert fake.requests == []
        assert not list((root / "wiki/general/summaries").glob("*.md"))
        fake.queue(*[answer(fake)] * 4)
        done = as_json(mnemex(root, "ingest", source, "--yes", "--json"))
    assert done["cost"]["model"]
    assert done["cost"]["estimated_usd"] > 0.01
    [summary] = (root / "wiki/general/summaries").glob("*.md")
    assert "extractor: model:" in summary.read_text(encoding="utf-8")
    person = (root / "wiki/general/entities/tomas-hollis.md").read_text(encoding="utf-8")
    assert "- Tomas Hollis founded Hollis Analytics in 2020. ([[summaries/" in person


def numbered(fake: FakeProvider) -> Callable[[Recorded], Canned]:
    """Answers whose fact names the round it came from, so a second model run would show."""
    rounds = {"n": 0}

    def reply(request: Recorded) -> Canned:
        if "Here is part" not in request.prompt_text():
            rounds["n"] += 1
            return fake.json(OUTLINE)
        fact = f"Tomas Hollis founded Hollis Analytics in round {rounds['n']}."
        return fake.json({**BATCH, "facts": [{"page": "Tomas Hollis", "fact": fact}]})

    return reply


def cache_files(root: Path) -> list[Path]:
    return sorted((root / ".mnemex/ingest/extractions").glob("*.json"))


def test_a_model_preview_is_cached_and_the_apply_makes_no_model_call(root: Path) -> None:
    source = str(CORPUS / "07-hollis-analytics.md")
    with FakeProvider() as fake:
        fake.write_config(root, price_in_per_mtok=1.0, price_out_per_mtok=1.0)
        fake.queue(*[numbered(fake)] * 8)
        preview = as_json(mnemex(root, "ingest", source, "--preview", "--json"))
        calls = len(fake.requests)
        assert calls == 2  # the outline and one batch
        [kept] = cache_files(root)
        assert kept.name.startswith(preview["sources"][0]["sha256"] + "-")
        done = as_json(mnemex(root, "ingest", source, "--json"))
        assert len(fake.requests) == calls  # exactly one round of model requests
    assert preview["cost"]["estimated_usd"] > 0 and preview["cost"]["cached"] == 0
    assert done["cost"]["estimated_usd"] == 0.0 and done["cost"]["cached"] == 1
    assert done["cost"]["estimate"].startswith("no model call; 1 source(s) cached")
    assert sorted(done["create"]) == sorted(preview["create"])
    assert done["sources"][0]["pages"] == preview["sources"][0]["pages"]
    person = (root / "wiki/general/entities/tomas-hollis.md").read_text(encoding="utf-8")
    assert "founded Hollis Analytics in round 1." in person  # the previewed extraction


def test_a_corrupt_cache_file_is_ignored_with_a_warning_and_recomputed(root: Path) -> None:
    source = str(CORPUS / "07-hollis-analytics.md")
    with FakeProvider() as fake:
        fake.write_config(root)
        fake.queue(*[numbered(fake)] * 8)
        mnemex(root, "ingest", source, "--preview", "--json")
        [kept] = cache_files(root)
        kept.write_text('{"version": 1, "extraction": {"title": 3', encoding="utf-8")
        done = as_json(mnemex(root, "ingest", source, "--json"))
        assert len(fake.requests) == 4  # asked again
    assert done["cost"]["cached"] == 0
    [warning] = [w for s in done["sources"] for w in s["warnings"]]
    assert "is corrupt" in warning and "extracted again" in warning
    person = (root / "wiki/general/entities/tomas-hollis.md").read_text(encoding="utf-8")
    assert "in round 2." in person
    assert json.loads(kept.read_text(encoding="utf-8"))["version"] == 1  # rewritten whole


def test_another_model_does_not_reuse_the_cache(root: Path) -> None:
    source = str(CORPUS / "07-hollis-analytics.md")
    with FakeProvider() as fake:
        fake.write_config(root)
        fake.queue(*[numbered(fake)] * 8)
        mnemex(root, "ingest", source, "--preview")
        toml = root / "mnemex.toml"
        # [model] is the file's last table: another context window, another extraction
        toml.write_text(toml.read_text(encoding="utf-8") + "context_tokens = 4096\n", "utf-8")
        mnemex(root, "ingest", source, "--preview")
        assert len(fake.requests) == 4
    assert len(cache_files(root)) == 2


def test_offline_ignores_a_configured_model(root: Path, sources: Path) -> None:
    with FakeProvider() as fake:
        fake.write_config(root)
        result = as_json(
            mnemex(root, "ingest", str(sources / "a-overview.md"), "--offline", "--json")
        )
        assert fake.requests == []
    assert result["cost"]["estimated_usd"] == 0.0 and result["created"] >= 3


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


def drop(root: Path, name: str, text: str, commit: bool = True) -> Path:
    """Drop a file into the vault's inbox (committed, as a synced vault would have it)."""
    path = root / "inbox" / name
    path.write_text(text, encoding="utf-8")
    if commit:
        git(root, "add", "--", f"inbox/{name}")
        git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "drop")
    return path


INBOX_TEXT = "# Kestrel overview\n\nPriya Raman created KestrelDB in 2017. It is in Rust.\n"


def test_an_inbox_file_is_moved_into_the_wiki_in_the_same_commit(root: Path) -> None:
    dropped = drop(root, "overview.md", INBOX_TEXT)
    preview = mnemex(root, "ingest", str(dropped), "--preview")
    assert "move inbox/overview.md -> wiki/general/sources/kestrel-overview.source.md" in (
        preview.output
    )
    assert dropped.exists()
    before = commits(root)
    data = as_json(mnemex(root, "ingest", str(dropped), "--json"))
    assert data["move"] == [
        {
            "from": "inbox/overview.md",
            "to": "wiki/general/sources/kestrel-overview.source.md",
            "reason": "moved to wiki/general/sources/kestrel-overview.source.md",
        }
    ]
    assert not dropped.exists()
    kept = root / "wiki/general/sources/kestrel-overview.source.md"
    assert kept.read_text(encoding="utf-8") == INBOX_TEXT
    assert commits(root) == before + 1
    shown = git(root, "show", "--name-status", "--format=", "HEAD")
    assert "R100\tinbox/overview.md\twiki/general/sources/kestrel-overview.source.md" in shown
    assert git(root, "status", "--porcelain") == ""
    listed = as_json(mnemex(root, "index", "status", "--json"))
    assert listed["notes_by_kind"].get("note", 0) == 0  # the inbox note left the index


def test_the_same_bytes_dropped_again_leave_the_inbox_as_unchanged(root: Path) -> None:
    mnemex(root, "ingest", str(drop(root, "overview.md", INBOX_TEXT)))
    again = drop(root, "copy.md", INBOX_TEXT, commit=False)
    data = as_json(mnemex(root, "ingest", str(again), "--json"))
    assert not again.exists()
    assert (data["created"], data["updated"], data["unchanged"]) == (0, 0, 1)
    [warning] = data["warnings"]
    assert warning["reason"].startswith("already ingested as wiki/general/summaries/")
    assert data["move"][0]["to"] == "wiki/general/sources/kestrel-overview.source.md"


def test_files_outside_the_vault_are_never_touched(root: Path, sources: Path) -> None:
    before = {p.name: p.read_bytes() for p in sources.iterdir()}
    data = as_json(mnemex(root, "ingest", str(sources), "--json"))
    assert data["move"] == []
    assert {p.name: p.read_bytes() for p in sources.iterdir()} == before


def test_a_file_elsewhere_in_the_vault_or_a_link_in_the_inbox_stays(root: Path) -> None:
    note = root / "notes.md"
    note.write_text(INBOX_TEXT, encoding="utf-8")
    outside = root.parent / "outside.md"
    outside.write_text("# Outside\n\nTom Okafor wrote it.\n", encoding="utf-8")
    link = root / "inbox" / "link.md"
    link.symlink_to(outside)
    for path in (note, link):
        assert as_json(mnemex(root, "ingest", str(path), "--json"))["move"] == []
    assert note.exists() and link.is_symlink() and outside.exists()
