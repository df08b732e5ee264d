"""What a later session asks survives the digest: chosen by what matters, not by position.

Each test is a session shaped like the ones that lost facts before issue 17: the decision made
mid-session by the person with its reason, a dead end buried in a long output, an item put off
in the middle and never repeated, a compaction, the same command failing three ways, a plan
that ended somewhere else. Sessions are built from turns (no transcript format involved: the
readers have their own tests) with the chatter and noise real ones have.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemex.harvest.digest import MAX_BULLET, MAX_DEAD_ENDS, MAX_SUMMARY, extract
from mnemex.harvest.salience import error_lines, identifiers, sentences
from mnemex.harvest.transcript import Session, ToolCall, ToolResult, Turn

CHATTER = [
    "Let me look at how this is wired up first.",
    "I'll check where else this code path is used.",
    "Now I'll run the tests to see where we are.",
]


def _session(*events: tuple[Any, ...]) -> Session:
    """``("user", text)``, ``("say", text)``, ``("run", cmd, exit, output)``,
    ``("edit", path)``, ``("compact", summary)``: the turns a reader would produce."""
    session = Session("s-1", "claude-code", Path("s.jsonl"), "0" * 64, cwd="/w/app")
    turns = session.turns
    for n, event in enumerate(events):
        kind = event[0]
        if kind == "user":
            turns.append(Turn("user", event[1]))
        elif kind == "say":
            turns.append(Turn("assistant", event[1]))
        elif kind == "run":
            _, cmd, code, output = event
            call = ToolCall("Bash", cmd, f"c{n}", cmd, code, failed=code != 0)
            turns.append(Turn("assistant", tool_calls=[call]))
            turns.append(Turn("tool", tool_results=[ToolResult(output, f"c{n}", code != 0, code)]))
        elif kind == "edit":
            call = ToolCall("Edit", event[1], f"c{n}", failed=False, files_edited=[event[1]])
            turns.append(Turn("assistant", tool_calls=[call]))
            turns.append(Turn("tool", tool_results=[ToolResult("The file was updated.", f"c{n}")]))
        elif kind == "compact":
            turns.append(Turn("user", kind="compaction"))
            turns.append(Turn("user", event[1], kind="summary"))
    return session


def _noise(lines: int, word: str = "module") -> str:
    return "\n".join(f"{i:4d}  def {word}_{i}(ctx):  # keep {word} in step" for i in range(lines))


def _body(session: Session) -> str:
    return extract(session).body(session)


def test_a_decision_the_person_made_mid_session_keeps_its_reason() -> None:
    session = _session(
        ("user", "Invoices differ from Stripe by one cent on BILL-412. Find out why."),
        ("say", CHATTER[0]),
        ("run", "pytest -q tests/invoice", 1, "E   assert 10437 == 10438\n1 failed, 15 passed"),
        (
            "say",
            "I suggest we keep amounts in integer minor units and round half-even once per "
            "invoice, because that is the only way our total matches the sum Stripe charges.",
        ),
        ("user", "go with integer minor units. copying Stripe's algorithm is too fragile."),
        ("edit", "/w/app/billing/totals.py"),
        ("run", "pytest -q", 0, "117 passed in 3.88s"),
        ("say", "All 412 mismatched invoices now match Stripe and the suite passes."),
    )
    digest = extract(session)
    decisions = " ".join(digest.decisions)
    assert "go with integer minor units" in decisions
    assert "because that is the only way our total matches" in decisions  # the why


def test_a_dead_end_keeps_its_command_and_the_error_that_matters_not_the_banner() -> None:
    output = "\n".join(
        [
            "============================= test session starts ==============================",
            _noise(150, "reconcile"),
            "=================================== FAILURES ===================================",
            "____________________________ test_nightly_batch ________________________________",
            "    def test_nightly_batch(db):",
            ">       run_batch(db, size=5000)",
            "E       psycopg.errors.QueryCanceled: canceling statement due to statement timeout",
            "tests/test_batch.py:41: QueryCanceled",
            "=========================== short test summary info ============================",
            "FAILED tests/test_batch.py::test_nightly_batch - psycopg.errors.QueryCanceled",
            "1 failed, 88 passed in 61.02s",
        ]
    )
    session = _session(
        ("user", "The nightly reconciliation takes 40 minutes, make it faster."),
        ("run", "pytest -q tests/test_batch.py --timeout=120", 1, output),
        ("say", "Raising the batch size to 5000 did not help: the statement times out instead."),
        ("say", "Switching to keyset pagination over (account_id, id)."),
        ("run", "pytest -q", 0, "89 passed"),
        ("say", "Reconciliation runs in 6 minutes now."),
    )
    dead = extract(session).dead_ends
    assert any(
        d.startswith("`pytest -q tests/test_batch.py --timeout=120` failed (exit 1): ")
        and "canceling statement due to statement timeout" in d
        for d in dead
    ), dead
    assert any("batch size to 5000 did not help" in d for d in dead)
    assert not any("=====" in d for d in dead)


def test_the_same_step_failing_three_ways_is_one_bullet_with_each_error() -> None:
    errors = [
        "error[E0425]: cannot find value `dry_run` in this scope",
        "error[E0308]: mismatched types: expected `bool`, found `Option<bool>`",
        "thread 'import::tests::dry_run' panicked at src/import.rs:88: wrote 3 rows",
    ]
    session = _session(
        ("user", "Add a --dry-run flag to the import command."),
        *[("run", "cargo test import", 101, f"   Compiling ledger v0.4.1\n{e}") for e in errors],
        ("edit", "/w/app/src/import.rs"),
        ("run", "cargo test import", 0, "test result: ok. 12 passed"),
        ("say", "The --dry-run flag is in and prints what it would write."),
    )
    dead = extract(session).dead_ends
    folded = [d for d in dead if d.startswith("`cargo test import` failed 3 times (exit 101)")]
    assert len(folded) == 1, dead
    assert all(e.split(":")[0] in folded[0] for e in errors[:1])
    assert "E0308" in folded[0] and "panicked" in folded[0]


def test_an_item_put_off_mid_session_by_the_person_is_left_open() -> None:
    session = _session(
        ("user", "Fix the one-cent mismatch on invoices (BILL-412)."),
        ("say", CHATTER[1]),
        ("user", "ok, but the backfill of old invoices is out of scope for today."),
        ("edit", "/w/app/billing/totals.py"),
        ("run", "pytest -q", 0, "117 passed"),
        ("say", "Fixed: totals are computed in integer minor units."),
    )
    digest = extract(session)
    assert any("backfill of old invoices is out of scope" in o for o in digest.left_open)
    assert "left open: the backfill of old invoices is out of scope for today" in digest.summary


def test_what_the_compaction_summary_kept_survives_the_compaction() -> None:
    session = _session(
        ("user", "Move the session store from Redis to Postgres (PLAT-2291)."),
        (
            "run",
            "python manage.py migrate sessions",
            1,
            'django.db.utils.ProgrammingError: relation "django_session" already exists',
        ),
        (
            "compact",
            "Analysis: the user wants sessions in Postgres. A fake-initial migration was tried "
            "and abandoned because it skipped the index. The user decided to keep Redis as a "
            "read-through cache for 30 days. Left open: delete the old Redis keys after the "
            "30 days.",
        ),
        ("say", "Continuing with the settings change."),
        ("edit", "/w/app/config/settings.py"),
        ("run", "pytest -q", 0, "240 passed"),
        ("say", "Sessions are stored in Postgres now."),
    )
    body = _body(session)
    assert "decided to keep Redis as a read-through cache for 30 days" in body
    assert "delete the old Redis keys after the 30 days" in body
    assert "fake-initial migration was tried and abandoned" in body
    assert 'relation "django_session" already exists' in body


def test_identifiers_survive_tickets_files_flags_functions_versions_hosts() -> None:
    session = _session(
        ("user", "INFRA-88: the deploy to api-2.staging.internal fails since psycopg 3.2.1."),
        (
            "run",
            "ansible-playbook deploy.yml --limit api-2 --check",
            2,
            "fatal: [api-2.staging.internal]: FAILED! => ImportError: no pq wrapper available",
        ),
        ("say", "The cause is that psycopg 3.2.1 needs libpq 16, and the image has libpq 15."),
        (
            "say",
            "We will pin psycopg[binary]==3.1.19 in requirements.txt instead of upgrading "
            "libpq, because the base image is shared with the worker.",
        ),
        ("edit", "/w/app/requirements.txt"),
        ("run", "ansible-playbook deploy.yml --limit api-2", 0, "ok=14 changed=2 failed=0"),
        (
            "say",
            "Deployed to api-2; rollout to api-1 is still to do, and configure_pool() "
            "should be checked for the new timeout.",
        ),
    )
    body = _body(session)
    for needed in (
        "INFRA-88",
        "api-2.staging.internal",
        "--limit api-2",
        "3.2.1",
        "3.1.19",
        "requirements.txt",
        "configure_pool()",
        "ImportError: no pq wrapper",
    ):
        assert needed in body, needed


def test_the_summary_says_what_was_done_and_how_it_ended_not_the_first_request() -> None:
    request = "Can you look into why checkout sometimes charges twice? Sentry has SHOP-311."
    session = _session(
        ("user", request),
        (
            "run",
            "npm test -- CheckoutButton",
            1,
            "expected createOrder to be called 1 time, but it was called 2 times",
        ),
        ("edit", "/w/app/src/CheckoutButton.tsx"),
        ("run", "npm test", 0, "Tests: 212 passed"),
        (
            "say",
            "Fixed the double charge: the button is disabled while the order is submitted "
            "and the order carries an idempotency key. The back end still has to honour the key.",
        ),
    )
    summary = extract(session).summary
    assert request not in summary
    assert summary.startswith("Fixed the double charge")
    assert summary.endswith("left open: The back end still has to honour the key.")
    assert len(summary) <= MAX_SUMMARY


def test_a_session_that_ended_elsewhere_than_planned_says_so() -> None:
    session = _session(
        ("user", "Upgrade the cluster to Kubernetes 1.29 today."),
        ("say", "The plan: drain each node, upgrade, uncordon."),
        (
            "run",
            "kubectl drain node-3 --ignore-daemonsets",
            1,
            "error: cannot evict pod as it would violate the pod's disruption budget",
        ),
        (
            "say",
            "We gave up on the upgrade for today and reverted node-3 to 1.28, because the "
            "payments PodDisruptionBudget blocks every drain.",
        ),
        ("run", "kubectl uncordon node-3", 0, "node/node-3 uncordoned"),
        (
            "say",
            "Reverted: the cluster stays on 1.28. The PDB on payments needs a second "
            "replica before we try again.",
        ),
    )
    digest = extract(session)
    assert digest.summary.startswith("Reverted: the cluster stays on 1.28")
    assert any("gave up on the upgrade" in d for d in digest.dead_ends + digest.decisions)
    assert any("needs a second replica" in o for o in digest.left_open)


def test_a_terse_last_word_and_a_failing_end_are_both_said() -> None:
    session = _session(
        ("user", "Get the e2e suite green on CI."),
        (
            "run",
            "npx playwright test",
            1,
            "1) [firefox] › geo.spec.ts:12 › locate me\n"
            "Error: Timed out 5000ms waiting for expect(locator).toBeVisible()",
        ),
        ("say", "Done for today."),
    )
    summary = extract(session).summary
    assert summary == "Done for today; ended with `npx playwright test` failing."


def test_sections_stay_within_their_caps_however_long_the_session() -> None:
    events: list[tuple[Any, ...]] = [("user", "Make the importer faster (PERF-1).")]
    for n in range(40):
        events.append(("run", f"pytest -q tests/test_{n}.py", 1, f"E   AssertionError: case {n}"))
        events.append(("say", f"Approach {n} did not work because case {n} still fails."))
        events.append(("user", f"todo later: look at case {n} separately."))
    events.append(("say", "Stopping here."))
    digest = extract(_session(*events))
    assert len(digest.dead_ends) <= MAX_DEAD_ENDS
    for _, items in digest.sections():
        assert all(len(item) <= MAX_BULLET + 2 and "\n" not in item for item in items)


def test_sentences_split_lower_case_typing_but_not_abbreviations() -> None:
    assert sentences("go with X. but not today, e.g. the old ones. Done!") == [
        "go with X.",
        "but not today, e.g. the old ones.",
        "Done!",
    ]


def test_identifiers_are_found_in_prose() -> None:
    found = identifiers(
        "Fixed BILL-412 in billing/money.py via to_minor_units() with --dry-run "
        "on psycopg 3.2.1 at db1.prod.internal (#4471), DATABASE_URL, TS2345."
    )
    assert found == [
        "BILL-412",
        "billing/money.py",
        "to_minor_units()",
        "--dry-run",
        "3.2.1",
        "db1.prod.internal",
        "#4471",
        "DATABASE_URL",
        "TS2345",
    ]


def test_error_lines_prefer_the_assertion_to_banners_and_frames() -> None:
    output = (
        "=================================== FAILURES ===================================\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n'
        "KeyError: 'CHF'\n"
    )
    assert error_lines(output, 1) == ["KeyError: 'CHF'"]
    assert error_lines("Compiling\nall good\n", 1) == ["all good"]  # nothing reads as an error


def test_the_last_passing_run_says_how_the_tests_ended() -> None:
    session = _session(
        ("user", "Upgrade Next to 15 and keep the smoke tests green."),
        ("run", "pnpm test:e2e --grep @smoke", 1, "Error: expect(received).toBe(expected)"),
        ("edit", "/w/app/app/timetable/page.tsx"),
        (
            "run",
            "pnpm test:e2e --grep @smoke",
            0,
            "Running 14 tests using 4 workers\n  14 passed (14.8s)",
        ),
        ("run", "git status --short", 0, " M app/timetable/page.tsx"),
        ("say", "Done."),
    )
    assert "Last run: `pnpm test:e2e --grep @smoke`: 14 passed (14.8s)" in extract(session).solved
    session.turns.append(
        Turn("assistant", tool_calls=[ToolCall("Bash", "x", "z", "npm run lint", 1, failed=True)])
    )
    assert not any(s.startswith("Last run") for s in extract(session).solved)  # failed since
