"""The consolidation pass on a real vault with real git: what it reads (and reads again),
what applies by itself and what waits for a person, promotion by independent observations,
an agent's words kept apart, bad input reported, undo, and doctor's view of its runs."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fact_support import at, entity_page
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import ConfigError, PlanRefused
from mnemex.facts.consolidate import (
    LEDGER,
    apply_plan,
    consolidate,
    consolidate_check,
    observations,
    plan_consolidation,
)
from mnemex.facts.record import add_fact, fact_files, learn_note
from mnemex.facts.serve import facts_about
from mnemex.memories.remember import remember
from mnemex.pages.edit import AGENT_TRAILER, append_to_page, write_page
from mnemex.state.handoff import save_handoff
from mnemex.vault import Vault, init_vault
from mnemex.vault.undo import undo

OWNER = "Maren Okafor"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def _settings(root: Path, extra: str = "") -> None:
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"')
    text = text.replace("[vault]\n", f'[vault]\nowner = "{OWNER}"\n', 1)
    settings.write_text(text + extra, encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root)
    _settings(root)
    entity_page(root, "Tomasz Wierzbicki", "person", ["Tom", "Tomasz"])
    entity_page(root, "Tidewater Labs", "organisation", ["Tidewater"])
    (root / "state" / "team").mkdir(parents=True)
    (root / "state" / "team" / ".gitkeep").touch()
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "names")
    return root


@pytest.fixture
def brain(root: Path) -> Iterator[Brain]:
    with Brain(Vault(root), embedder=HashingEmbedder()) as opened:
        yield opened


def digest(root: Path, name: str, text: str, *, session: str, day: str) -> str:
    """A session digest as harvest writes it (frontmatter abridged), never committed."""
    rel = f"memories/team/{day[:7]}/{name}.md"
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"---\ntype: memory\ntitle: {name}\nproject: team\nsession: {session}\n"
        f"harness: claude-code\ncreated: {day}T10:00:00+00:00\nupdated: {day}T10:00:00+00:00\n"
        f"---\n# {name}\n\n{text}\n",
        encoding="utf-8",
    )
    return rel


def facts_of(brain: Brain) -> list[tuple[str, str | None, str | None, str, str, str]]:
    """Every fact as (id, predicate, value, start, status, layer)."""
    out = []
    for _, file in fact_files(brain.vault):
        for f in file.facts:
            out.append((f.id, f.predicate, f.value, str(f.valid_from), f.status, f.layer))
    return sorted(out)


def works_at(brain: Brain, day: str = "2026-12-01") -> dict[str, object]:
    data = facts_about(brain, "Tom", as_of=dt.date.fromisoformat(day))
    return next(a for a in data["answers"] if a["predicate"] == "works_at")


def test_a_pass_reads_handoffs_and_digests_once_and_applies_new_facts_in_one_commit(
    brain: Brain, root: Path
) -> None:
    save_handoff(
        brain.vault,
        "team",
        "Wiring",
        state=["Tom works at Tidewater since 2026-03."],
        now=at("2026-04-02"),
    )
    digest(root, "s1", "Tom lives in Gdansk.", session="s-1", day="2026-04-03")
    head = _git(root, "rev-parse", "HEAD").strip()
    done = consolidate(brain, now=at("2026-04-04"))
    assert done.read == 3  # the handoff, its journal line, the digest
    assert done.kinds(done.applied) == {"new": 2}
    assert not done.waiting and done.report.failed == 0
    log = _git(root, "log", "--format=%s", f"{head}..HEAD").splitlines()
    assert log == [log[0]] and log[0].startswith("mnemex consolidate:")
    assert works_at(brain)["values"] == ["Tidewater Labs"]
    again = consolidate(brain, now=at("2026-04-05"))
    assert again.read == 0 and not again.proposals and again.commit is None


def test_an_edited_note_is_read_again_and_a_skewed_clock_drops_nothing(
    brain: Brain, root: Path
) -> None:
    rel = digest(root, "s1", "Tom lives in Gdansk.", session="s-1", day="2026-04-03")
    # the machine's clock is days behind the note: what was read is a hash, not a time
    first = consolidate(brain, now=at("2026-03-01"))
    assert first.kinds(first.applied) == {"new": 1}
    ledger = json.loads((root / ".mnemex" / LEDGER).read_text(encoding="utf-8"))
    assert rel in ledger["read"]
    path = root / rel
    path.write_text(path.read_text(encoding="utf-8") + "Tom uses Neovim.\n", encoding="utf-8")
    second = consolidate(brain, now=at("2026-02-01"))  # and further behind
    assert second.read == 1
    assert [p.fact.value for p in second.applied] == ["Neovim"]  # the old sentence: no change


def test_a_supersession_of_a_stable_fact_waits_for_a_person(brain: Brain, root: Path) -> None:
    add_fact(brain, "Tom works at Tidewater.", now=at("2026-03-02"))
    before = (root / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8")
    digest(root, "s2", "Tom works at Northwind since 2026-11.", session="s-2", day="2026-11-03")
    preview = consolidate(brain, "preview", now=at("2026-11-04"))
    assert [p.kind for p in preview.waiting] == ["supersede"]
    assert not (root / ".mnemex" / LEDGER).exists()
    safe = consolidate(brain, now=at("2026-11-04"))
    assert [p.kind for p in safe.waiting] == ["supersede"] and safe.report.skipped == 1
    assert (root / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8") == before
    # still waiting at the next pass: the note was not marked read
    assert [p.kind for p in consolidate(brain, now=at("2026-11-05")).waiting] == ["supersede"]
    approved = consolidate(brain, "all", now=at("2026-11-06"))
    assert approved.kinds(approved.applied) == {"supersede": 1}
    assert works_at(brain)["values"] == ["Northwind"]
    assert works_at(brain, "2026-06-01")["values"] == ["Tidewater Labs"]
    undo(brain.vault, plan_id=undo(brain.vault)["plan_id"])
    assert (root / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8") == before


def test_a_fact_enters_the_stable_layer_on_independent_observations_only(
    brain: Brain, root: Path
) -> None:
    digest(root, "a1", "Tom uses Neovim.", session="s-1", day="2026-04-01")
    digest(root, "a2", "Tom uses Neovim.", session="s-1", day="2026-04-01")  # same session
    consolidate(brain, now=at("2026-04-02"))
    held = [f for _, file in fact_files(brain.vault) for f in file.facts]
    assert len(held) == 1 and held[0].layer == "dynamic" and observations(held[0]) == 1
    digest(root, "b1", "Tom uses Neovim.", session="s-2", day="2026-04-05")
    consolidate(brain, now=at("2026-04-06"))
    digest(root, "c1", "Tom uses Neovim every day.", session="s-3", day="2026-04-09")
    done = consolidate(brain, now=at("2026-04-10"))
    assert "promote" in done.kinds(done.applied)
    held = [f for _, file in fact_files(brain.vault) for f in file.facts]
    assert held[0].layer == "stable" and observations(held[0]) == 3
    assert held[0].revisions[-1].because == "evidence:3"


def test_promote_after_is_configurable_and_checked(root: Path) -> None:
    _settings_text = (root / "mnemex.toml").read_text(encoding="utf-8")
    (root / "mnemex.toml").write_text(
        _settings_text + "\n[consolidate]\npromote_after = 0\n", encoding="utf-8"
    )
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        with pytest.raises(ConfigError, match="promote_after"):
            consolidate(brain)
        assert consolidate_check(brain.vault)["status"] == "fail"


def test_a_handoff_and_its_journal_line_are_one_observation(brain: Brain, root: Path) -> None:
    (root / "mnemex.toml").write_text(
        (root / "mnemex.toml").read_text(encoding="utf-8") + "\n[consolidate]\npromote_after = 2\n",
        encoding="utf-8",
    )
    line = "Tom works at Tidewater since 2026-03."
    save_handoff(brain.vault, "team", line, state=[line], now=at("2026-04-02"))
    with Brain(Vault(root), embedder=HashingEmbedder()) as fresh:
        consolidate(fresh, now=at("2026-04-03"))
        held = [f for _, file in fact_files(fresh.vault) for f in file.facts]
        assert len(held) == 1 and len(held[0].evidence) == 2
        assert observations(held[0]) == 1 and held[0].layer == "dynamic"
        # a second save is a second observation
        save_handoff(fresh.vault, "team", "Next", state=[line, "more"], now=at("2026-04-09"))
        consolidate(fresh, now=at("2026-04-10"))
        held = [f for _, file in fact_files(fresh.vault) for f in file.facts]
        assert observations(held[0]) == 2 and held[0].layer == "stable"


def test_an_agents_words_are_kept_as_its_own_and_never_count(brain: Brain, root: Path) -> None:
    remember(brain, "Tom works at Acme Corp.", project="team", now=at("2026-04-01"))
    write_page(
        brain, "wiki/general/summaries/tom", "# Tom\n\nTom works at Globex.\n", by_agent=True
    )
    page = (root / "wiki/general/summaries/tom.md").read_text(encoding="utf-8")
    assert "provenance: agent" in page
    learned = learn_note(brain, "wiki/general/summaries/tom.md", now=at("2026-04-02"))
    assert learned.changes[0].fact is not None
    assert learned.changes[0].fact.provenance == "agent"
    done = consolidate(brain, now=at("2026-04-03"))
    assert all(p.fact.provenance == "agent" for p in done.proposals)
    answer = works_at(brain)
    assert answer["status"] == "unknown" and answer["values"] == []
    # an agent's edit of a person's note says so in the commit, not in the note
    (root / "notes").mkdir()
    (root / "notes/mine.md").write_text("# Mine\n\nMy words.\n", encoding="utf-8")
    append_to_page(brain, "notes/mine", "An agent's line.", by_agent=True)
    assert "provenance" not in (root / "notes/mine.md").read_text(encoding="utf-8")
    assert AGENT_TRAILER in _git(root, "log", "-1", "--format=%B")


def test_a_bad_note_and_an_unreadable_fact_file_are_reported_and_the_rest_goes_on(
    brain: Brain, root: Path
) -> None:
    entity_page(root, "Priya Raman", "person", ["Priya"])
    (root / "facts").mkdir(exist_ok=True)
    broken = "---\ntype: facts\nsubject: Priya Raman\n---\n## x\nnot a fact line\n"
    (root / "facts/priya-raman.md").write_text(broken, encoding="utf-8")
    bad = root / "memories/team/2026-04/bad.md"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"---\ntype: memory\n---\n\xff\xfe not utf-8\n")
    digest(root, "good", "Tom lives in Gdansk.", session="s-1", day="2026-04-03")
    digest(root, "tide", "Priya lives in Oslo.", session="s-2", day="2026-04-04")
    done = consolidate(brain, now=at("2026-04-05"))
    assert done.report.failed == 1 and done.report.refused == 1
    assert [p.fact.value for p in done.applied] == ["Gdansk"]
    assert (root / "facts/priya-raman.md").read_text(encoding="utf-8") == broken
    ledger = json.loads((root / ".mnemex" / LEDGER).read_text(encoding="utf-8"))["read"]
    assert "memories/team/2026-04/good.md" in ledger
    assert "memories/team/2026-04/bad.md" not in ledger  # read again next time
    assert "memories/team/2026-04/tide.md" not in ledger


def test_undo_restores_a_hand_written_fact_file_that_was_never_committed(
    brain: Brain, root: Path
) -> None:
    add_fact(brain, "Tom works at Tidewater.", now=at("2026-03-02"))
    path = root / "facts/tomasz-wierzbicki.md"
    hand = path.read_text(encoding="utf-8").replace("Tidewater Labs", "Tidewater Labs ")
    path.write_text(hand, encoding="utf-8")
    path.chmod(0o640)
    digest(root, "s1", "Tom lives in Gdansk.", session="s-1", day="2026-04-03")
    done = consolidate(brain, now=at("2026-04-04"))
    assert done.commit is not None and done.commit.sha
    undo(brain.vault, plan_id=undo(brain.vault)["plan_id"])
    assert path.read_text(encoding="utf-8") == hand
    assert path.stat().st_mode & 0o777 == 0o640


def test_the_same_notes_in_another_order_or_clock_give_the_same_facts(tmp_path: Path) -> None:
    notes = [
        ("a", "Tom works at Tidewater since 2026-03.", "s-1", "2026-03-05"),
        ("b", "Tom works at Northwind since 2026-09.", "s-2", "2026-09-02"),
        ("c", "Tom lives in Gdansk.", "s-3", "2026-04-01"),
        ("d", "Tom works at Northwind.", "s-4", "2026-10-01"),
    ]
    results = []
    for name, order, clock in (("x", notes, "2026-10-02"), ("y", notes[::-1], "2026-10-04")):
        root = tmp_path / name
        init_vault(root)
        _settings(root)
        entity_page(root, "Tomasz Wierzbicki", "person", ["Tom", "Tomasz"])
        entity_page(root, "Tidewater Labs", "organisation", ["Tidewater"])
        for note, text, session, day in order:
            digest(root, note, text, session=session, day=day)
        with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
            consolidate(brain, "all", now=at(clock))
            results.append(facts_of(brain))
    assert results[0] == results[1]
    assert ("superseded", "Tidewater Labs") in {(r[4], r[2]) for r in results[0]}


def test_an_mcp_style_plan_applies_what_it_showed_and_only_that(brain: Brain, root: Path) -> None:
    add_fact(brain, "Tom works at Tidewater.", now=at("2026-03-02"))
    digest(root, "s2", "Tom works at Northwind since 2026-11.", session="s-2", day="2026-11-03")
    plan = plan_consolidation(brain, now=at("2026-11-04"))
    data = plan.to_dict()
    assert data["needs_a_person"] == {"supersede": 1} and data["plan_id"]
    digest(root, "s3", "Tom lives in Gdansk.", session="s-3", day="2026-11-04")  # arrives later
    done = apply_plan(brain, data["plan_id"], now=at("2026-11-05"))
    assert done.kinds(done.applied) == {"supersede": 1}
    with pytest.raises(PlanRefused):
        apply_plan(brain, data["plan_id"])
    assert consolidate(brain, now=at("2026-11-06")).read == 1  # the later note, unread


def test_doctor_says_when_the_pass_last_ran_and_what_waits(brain: Brain, root: Path) -> None:
    assert "never run" in consolidate_check(brain.vault)["detail"]
    add_fact(brain, "Tom works at Tidewater.", now=at("2026-03-02"))
    digest(root, "s2", "Tom works at Northwind since 2026-11.", session="s-2", day="2026-11-03")
    consolidate(brain, now=at("2026-11-04"))
    check = consolidate_check(brain.vault)
    assert check["status"] == "warn" and "wait for a person" in check["detail"]
    assert "2026-11-04" in check["detail"]


def test_two_machines_consolidating_the_same_notes_converge_after_sync(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mnemex.cli import cli

    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    _git(bare, "symbolic-ref", "HEAD", "refs/heads/main")
    a = tmp_path / "a"
    init_vault(a)
    _settings(a)
    _git(a, "checkout", "-q", "-b", "main")
    _git(a, "config", "user.name", "Ada")
    _git(a, "config", "user.email", "ada@example.org")
    entity_page(a, "Tomasz Wierzbicki", "person", ["Tom", "Tomasz"])
    entity_page(a, "Tidewater Labs", "organisation", ["Tidewater"])
    digest(a, "s1", "Tom works at Tidewater since 2026-03.", session="s-1", day="2026-03-05")
    digest(a, "s2", "Tom lives in Gdansk.", session="s-2", day="2026-04-01")
    _git(a, "remote", "add", "origin", str(bare))

    def sync(root: Path) -> dict[str, object]:
        out = CliRunner().invoke(cli, ["--vault", str(root), "sync", "--json"])
        assert out.exit_code == 0, out.output
        data: dict[str, object] = json.loads(out.output)
        return data

    sync(a)
    b = tmp_path / "b"
    subprocess.run(["git", "clone", "-q", str(bare), str(b)], check=True)
    _git(b, "config", "user.name", "Bob")
    _git(b, "config", "user.email", "bob@example.org")
    # each machine consolidates the same notes, at its own (different) time
    for root, clock in ((a, "2026-04-02"), (b, "2026-04-04")):
        with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
            consolidate(brain, now=at(clock))
    sync(a)
    merged = sync(b)
    assert merged["conflicts"] == [] and merged["merged"] == ["facts/tomasz-wierzbicki.md"]
    sync(a)
    fact_a = (a / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8")
    fact_b = (b / "facts/tomasz-wierzbicki.md").read_text(encoding="utf-8")
    assert fact_a == fact_b
    with Brain(Vault(a), embedder=HashingEmbedder()) as brain:
        held = [f for _, file in fact_files(brain.vault) for f in file.facts]
        assert len(held) == 2 and min(f.recorded_at for f in held) == at("2026-04-02")
    assert not list(a.rglob("*.conflict-*")) and not list(b.rglob("*.conflict-*"))


def test_a_merged_fact_file_keeps_both_sides_evidence_and_the_longer_history() -> None:
    from fact_support import fact
    from mnemex.facts.model import Evidence
    from mnemex.facts.store import FactFile, merge_fact_files, parse_facts, render_facts

    held = fact("Tom", "works_at", "Tidewater Labs", "2026-03-01")
    ours = FactFile("Tom", [held])
    theirs_fact = fact("Tom", "works_at", "Tidewater Labs", "2026-03-01", recorded="2026-02-27")
    theirs_fact.evidence.append(Evidence("memories/x", dt.date(2026, 4, 1), "session:s-9"))
    theirs_fact.revise(at("2026-05-01"), "valid_until", "2026-05-01", "abc")
    other = fact("Tom", "lives_in", "Gdansk", "2026-04-01")
    theirs = FactFile("Tom", [theirs_fact, other])
    merged = parse_facts(merge_fact_files(render_facts(ours), render_facts(theirs), "f.md"), "f.md")
    assert [f.id for f in merged.facts] == [held.id, other.id]
    one = merged.facts[0]
    assert len(one.evidence) == 2 and one.recorded_at == at("2026-02-27")
    assert str(one.valid_until) == "2026-05-01" and len(one.revisions) == 1


def test_a_failed_run_is_in_the_heartbeat_and_doctor_fails_on_it(brain: Brain, root: Path) -> None:
    from mnemex.health.doctor import diagnose

    digest(root, "s1", "Tom lives in Gdansk.", session="s-1", day="2026-04-03")
    consolidate(brain, now=at("2026-04-04"))
    digest(root, "s2", "Tom uses Neovim.", session="s-2", day="2026-04-05")
    facts = root / "facts"
    for path in facts.iterdir():
        path.unlink()
    facts.rmdir()
    facts.write_text("not a folder\n", encoding="utf-8")  # every fact write now fails
    with pytest.raises(Exception, match="facts"):
        consolidate(brain, now=at("2026-04-06"))
    checks = {
        c["name"]: c for c in diagnose(brain, load_embedder=False, probe_clients=False)["checks"]
    }
    assert checks["consolidate"]["status"] == "fail"
    assert (
        "FAILED" in checks["consolidate"]["detail"]
        and "2026-04-04" in checks["consolidate"]["detail"]
    )


def test_a_claim_that_supersedes_one_fact_and_disputes_a_stable_one_waits(
    brain: Brain, root: Path
) -> None:
    (root / "mnemex.toml").write_text(
        (root / "mnemex.toml").read_text(encoding="utf-8")
        + '\n[consolidate]\nauto_apply = ["new", "confirm", "supersede"]\n',
        encoding="utf-8",
    )
    digest(root, "a", "Tom lives in Madrid since 2026-01-01.", session="s-1", day="2026-01-02")
    with Brain(Vault(root), embedder=HashingEmbedder()) as fresh:
        consolidate(fresh, now=at("2026-01-03"))
        add_fact(
            fresh, "Tom lives in Porto from 2026-03-01 until 2026-09-01.", now=at("2026-02-01")
        )
        digest(root, "b", "Tom lives in Lisbon since 2026-03-01.", session="s-2", day="2026-03-02")
        done = consolidate(fresh, now=at("2026-03-03"))
        (waiting,) = done.waiting
        assert waiting.kind == "supersede+dispute" and len(waiting.targets) == 2


def test_a_digest_harvested_late_speaks_for_its_sessions_day(brain: Brain, root: Path) -> None:
    rel = digest(root, "late", "Tom lives in Gdansk.", session="s-9", day="2026-06-08")
    path = root / rel
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "harness: claude-code\n", "harness: claude-code\nstarted: 2026-06-03T09:00:00+00:00\n"
        ),
        encoding="utf-8",
    )
    consolidate(brain, now=at("2026-06-08"))
    (held,) = [f for _, file in fact_files(brain.vault) for f in file.facts]
    assert held.evidence[0].date == dt.date(2026, 6, 3)


def test_a_handoff_saved_twice_between_passes_is_read_twice_from_git(
    brain: Brain, root: Path
) -> None:
    save_handoff(brain.vault, "team", "Move", state=["Tom lives in Gdansk."], now=at("2026-04-02"))
    save_handoff(
        brain.vault, "team", "Job", state=["Tom works at Tidewater."], now=at("2026-04-03")
    )
    done = consolidate(brain, now=at("2026-04-04"))
    # the save the second replaced, from git; the current one; their two journal lines
    assert done.read == 4 and done.report.failed == 0
    assert any("@" in where for where in done.sources)
    assert sorted(p.fact.predicate or "" for p in done.applied) == ["lives_in", "works_at"]
    again = consolidate(brain, now=at("2026-04-05"))
    assert again.read == 0 and not again.proposals  # nothing read twice
    save_handoff(brain.vault, "team", "More", state=["Tom uses Neovim."], now=at("2026-04-06"))
    third = consolidate(brain, now=at("2026-04-07"))
    assert not any("@" in where for where in third.sources)  # no older save read again
    assert [p.fact.value for p in third.applied] == ["Neovim"]


def test_a_plan_applies_an_earlier_save_of_a_handoff_it_showed(brain: Brain, root: Path) -> None:
    save_handoff(brain.vault, "team", "Move", state=["Tom lives in Gdansk."], now=at("2026-04-02"))
    save_handoff(brain.vault, "team", "Job", state=["Tom uses Neovim."], now=at("2026-04-03"))
    data = plan_consolidation(brain, now=at("2026-04-04")).to_dict()
    done = apply_plan(brain, data["plan_id"], now=at("2026-04-04"))
    assert sorted(p.fact.value for p in done.applied) == ["Gdansk", "Neovim"]
    assert consolidate(brain, now=at("2026-04-05")).read == 0
