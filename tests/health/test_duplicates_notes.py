"""Duplicates among a person's own notes: names that slugify alike, and copied text once the
lines a template gives many notes are left out (issue 13)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from health_support import open_brain
from helpers import write
from mnemex.brain import Brain
from mnemex.health import issue_id, scan
from mnemex.health.ids import Issue

SYNC = (
    "We moved the sync job from a nightly cron to a queue worker so that changes reach the "
    "laptop within a minute. The worker retries three times with backoff, then writes the "
    "failure to the incident channel. Open question: whether conflicts should keep both "
    "versions or ask the person which one wins.\n"
    "- owner: Priya\n- next: measure the queue depth during the Monday peak\n"
)

#: What a daily note's template gives every day: a header, sections, prompts.
DAILY_TEMPLATE = (
    "---\ntags: [daily]\ndate: {day}\n---\n# {day}\n<< [[{prev}]] | [[{next}]] >>\n\n"
    "## Morning intentions\nWhat would make today great? What am I worried about, and what "
    "is the one thing that must get done before lunch?\n\n"
    "## Habits\n- Exercise (minutes):\n- Reading (pages):\n- Hours of sleep last night:\n"
    "- Glasses of water:\n- Screen time after ten in the evening:\n\n"
    "## Log\n{log}\n\n## What went well today\n- \n\n## What could have gone better\n- \n\n"
    "## Gratitude\nThree small things I am grateful for today:\n- \n\n"
    "## Reflection\nDid I spend the day on what matters, or on what was loud? What did I "
    "learn, and what would I tell myself a year from now about this day?\n\n"
    "## Energy\nRate the morning, the afternoon and the evening from one to five, and name "
    "what drained or restored the most energy during each of them.\n\n"
    "## Tomorrow\n- [ ] \n"
)

#: A day's own text: short next to the template, so a whole daily note is 90% alike to the next.
DAYS_LOG = [
    "Reviewed the billing export pull request, comments on currency rounding in tables.",
    "Long call with the landlord about the kitchen tap; plumber comes on Thursday.",
    "Read two chapters on distributed consensus, notes on leader election and terms.",
    "Ran ten kilometres along the canal in the rain, the knee felt fine.",
    "Planned the offsite agenda with Sam: roadmap in the morning, pipeline session after.",
    "Fixed the flaky scheduler test that depended on the order of a dictionary.",
]


def _day(i: int) -> str:
    return f"2026-03-{i + 1:02d}"


def _daily(i: int, log: str) -> str:
    return DAILY_TEMPLATE.format(day=_day(i), prev=_day(i - 1), next=_day(i + 1), log=log)


@pytest.fixture
def brain(vault_dir: Path) -> Iterator[Brain]:
    with open_brain(vault_dir) as opened:
        yield opened


def _duplicates(brain: Brain) -> dict[tuple[str, ...], Issue]:
    brain.sync()
    found = scan(brain.vault, brain.backend, kinds=("duplicates",)).issues["duplicates"]
    return {tuple(sorted(i.files)): i for i in found}


def test_two_notes_whose_names_slugify_alike_are_duplicates(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "notes/Sync changes.md", SYNC)
    write(root, "notes/sync-changes.md", "# Sync changes\nShort version: queue worker.\n")
    found = _duplicates(brain)
    issue = found[("notes/Sync changes.md", "notes/sync-changes.md")]
    assert issue.data["found_by"] == ["names"]
    assert "sync-changes" in issue.detail


def test_names_alike_but_for_accents_are_duplicates_and_names_in_cjk_are_not(
    brain: Brain,
) -> None:
    root = brain.vault.root
    write(root, "notes/Café plans.md", SYNC)
    write(root, "notes/cafe-plans.md", "# Cafe plans\nShort version: queue worker.\n")
    # before slugs kept every script, any two CJK names were both "untitled"
    write(root, "notes/東京.md", "# 東京\nA trip in April, hotels near the station.\n")
    write(root, "notes/大阪.md", "# 大阪\nThe food market and a day at the castle.\n")
    found = _duplicates(brain)
    assert ("notes/Café plans.md", "notes/cafe-plans.md") in found
    assert not [pair for pair in found if "notes/東京.md" in pair]


def test_the_same_text_under_two_names_in_different_folders_is_a_duplicate(
    brain: Brain,
) -> None:
    root = brain.vault.root
    write(root, "projects/sync/Queue worker decision.md", SYNC)
    write(root, "archive/2026/old notes on syncing.md", "---\ntags: [old]\n---\n" + SYNC)
    found = _duplicates(brain)
    issue = found[
        ("archive/2026/old notes on syncing.md", "projects/sync/Queue worker decision.md")
    ]
    assert issue.data["found_by"] == ["text"]
    assert issue.score == 1.0


def test_a_copy_90_percent_alike_is_a_duplicate_and_a_rewrite_is_not(brain: Brain) -> None:
    root = brain.vault.root
    edited = (
        SYNC.replace("nightly cron", "cron job")
        .replace("three times", "five times")
        .replace("Priya", "Sam")
    )
    rewritten = (
        "Sync now runs on a queue worker rather than nightly. Failures go to the incident "
        "channel after retries. We still have to decide how conflicts are resolved.\n"
    )
    write(root, "notes/sync.md", SYNC)
    write(root, "notes/sync (edited).md", edited)
    write(root, "notes/sync summary.md", rewritten)
    found = _duplicates(brain)
    issue = found[("notes/sync (edited).md", "notes/sync.md")]
    assert issue.score is not None and 0.9 <= issue.score < 1.0
    assert set(found) == {("notes/sync (edited).md", "notes/sync.md")}


def test_daily_notes_from_one_template_with_different_days_are_not_duplicates(
    brain: Brain,
) -> None:
    root = brain.vault.root
    for i, log in enumerate(DAYS_LOG):
        write(root, f"daily/{_day(i)}.md", _daily(i, log))
    write(root, "templates/Daily.md", _daily(0, "{{log}}").replace(_day(0), "{{date}}"))
    assert _duplicates(brain) == {}


def test_near_empty_notes_are_not_duplicates_of_each_other(brain: Brain) -> None:
    root = brain.vault.root
    for i in range(8):
        write(root, f"daily/{_day(i)}.md", _daily(i, "- "))
    write(root, "inbox/idea.md", "# Idea\nCall Bob about the boat.\n")
    write(root, "inbox/another idea.md", "# Idea\nCall Bob about the boat.\n")
    write(root, "inbox/empty.md", "")
    write(root, "inbox/also empty.md", "---\ntags: [x]\n---\n")
    assert _duplicates(brain) == {}


def test_notes_named_alike_in_two_folders_with_different_text_are_not_duplicates(
    brain: Brain,
) -> None:
    root = brain.vault.root
    write(root, "projects/alpha/Tasks.md", "- [ ] " + DAYS_LOG[0] + "\n- [ ] " + DAYS_LOG[1])
    write(root, "projects/beta/tasks.md", "- [ ] " + DAYS_LOG[2] + "\n- [ ] " + DAYS_LOG[3])
    assert _duplicates(brain) == {}


def test_memories_are_not_compared_as_notes(brain: Brain) -> None:
    root = brain.vault.root
    write(root, "memories/demo/2026-03/2026-03-01-sync-a1b2c3.md", SYNC)
    write(root, "memories/demo/2026-03/2026-03-02-sync-d4e5f6.md", SYNC)
    assert _duplicates(brain) == {}


def test_a_notes_duplicate_id_depends_only_on_its_two_files(brain: Brain) -> None:
    root = brain.vault.root
    pair = ("notes/Sync changes.md", "projects/sync changes copy.md")
    write(root, pair[0], SYNC)
    write(root, pair[1], SYNC)
    first = _duplicates(brain)[pair]
    write(root, "notes/unrelated.md", DAYS_LOG[4])
    write(root, pair[1], SYNC + "One more line written later about the Monday peak.\n")
    second = _duplicates(brain)[pair]
    assert first.id == second.id == issue_id("duplicates", list(pair))
    assert first.score != second.score
