"""Consolidation with a [model]: the model reads the notes, checked against the names the
brain knows and the notes' own sentences; a failure or a run over budget reads offline and
says so; a plan and its apply pay once. The fake provider on 127.0.0.1 tests the plumbing,
not reading quality."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from fact_support import at, entity_page, owned_vault
from fake_provider import FakeProvider
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.facts.consolidate import apply_plan, consolidate, plan_consolidation
from mnemex.facts.record import fact_files
from mnemex.llm import load_model
from mnemex.vault import Vault

NOTE = (
    "Quick update from standup. Tom's with Northwind now, started in November.\n"
    "Deploy token was sk-live-abcdefghijklmnopqrstuvwx1234 (rotated).\n"
)
ANSWER = {
    "facts": [
        {
            "statement": "Tom's with Northwind now, started in November.",
            "subject": "Tom",
            "predicate": "works_at",
            "value": "Northwind",
            "valid_from": "2026-11",
        },
        {  # a subject the brain does not know
            "statement": "Quick update from standup.",
            "subject": "Zed Unknown",
            "predicate": "lives_in",
            "value": "Oslo",
        },
        {  # a statement the note does not make
            "statement": "Tom lives in Gdansk.",
            "subject": "Tom",
            "predicate": "lives_in",
            "value": "Gdansk",
        },
    ]
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = owned_vault(tmp_path / "vault", "Maren Okafor")
    entity_page(root, "Tomasz Wierzbicki", "person", ["Tom", "Tomasz"])
    note = root / "memories/team/2026-12/standup.md"
    note.parent.mkdir(parents=True)
    note.write_text(
        "---\ntype: memory\ntitle: standup\nproject: team\nsession: s-1\nharness: codex\n"
        f"created: 2026-12-02T09:00:00+00:00\n---\n# standup\n\n{NOTE}",
        encoding="utf-8",
    )
    for args in (
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def _values(brain: Brain) -> list[tuple[str | None, str | None, str]]:
    return sorted(
        (f.predicate, f.value, str(f.valid_from))
        for _, file in fact_files(brain.vault)
        for f in file.facts
    )


def test_the_model_reads_and_the_brain_checks_what_it_says(root: Path, fake: FakeProvider) -> None:
    fake.write_config(root)
    fake.queue(fake.json(ANSWER))
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        model = load_model(brain.vault, sleep=lambda _s: None)
        plan = plan_consolidation(brain, now=at("2026-12-03"), model=model)
        assert plan.kinds(plan.applied) == {"new": 1}
        sent = fake.requests[0].prompt_text()
        assert "Northwind" in sent and "2026-12-02" in sent
        assert "sk-live-abcdefghijklmnop" not in sent  # redacted on the way out
        assert plan.plan is not None
        done = apply_plan(brain, plan.plan["plan_id"], now=at("2026-12-03"), model=model)
        assert len(fake.requests) == 1  # the apply read the plan's answer
        assert _values(brain) == [("works_at", "Northwind", "2026-11")]
        log = (root / "facts/_log.jsonl").read_text(encoding="utf-8")
        assert "unknown subject" in log and "not in the note" in log
        assert not done.report.warnings


def test_a_model_that_fails_leaves_the_offline_reader_and_a_warning(
    root: Path, fake: FakeProvider
) -> None:
    note = root / "memories/team/2026-12/standup.md"
    note.write_text(note.read_text(encoding="utf-8") + "Tom lives in Gdansk.\n", encoding="utf-8")
    fake.write_config(root)
    fake.queue(*[fake.text("not json")] * 3)
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        model = load_model(brain.vault, sleep=lambda _s: None)
        done = consolidate(brain, now=at("2026-12-03"), model=model)
        assert done.report.warnings[0].reason.startswith("model failed")
        assert ("lives_in", "Gdansk", "None") in _values(brain)


def test_a_pass_over_the_cost_limit_reads_offline_unless_confirmed(
    root: Path, fake: FakeProvider
) -> None:
    fake.write_config(root, price_in_per_mtok=1000.0, price_out_per_mtok=1000.0)
    with Brain(Vault(root), embedder=HashingEmbedder()) as brain:
        model = load_model(brain.vault, sleep=lambda _s: None)
        preview = consolidate(brain, "preview", now=at("2026-12-03"), model=model)
        assert "model not used" in preview.report.warnings[0].reason
        assert not fake.requests
        fake.queue(fake.json(ANSWER))
        done = consolidate(brain, now=at("2026-12-03"), model=model, confirmed=True)
        assert len(fake.requests) == 1 and done.kinds(done.applied) == {"new": 1}
