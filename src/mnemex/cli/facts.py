"""``mnemex facts SUBJECT``, ``mnemex fact add|learn|confirm|correct|retract`` and
``mnemex consolidate``.

These are a person's commands at their own machine: ``fact add`` records the person's
own word (provenance ``person``), and private facts are shown. An agent records facts
through MCP ``record_fact``, whose provenance is ``agent`` unless it relays the person's
words.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.errors import MnemexError
from mnemex.facts.consolidate import Consolidated, Mode, consolidate
from mnemex.facts.record import (
    Recorded,
    add_fact,
    confirm_fact,
    correct_fact,
    learn_note,
    retract_fact,
)
from mnemex.facts.serve import facts_about
from mnemex.llm import load_model
from mnemex.text.dates import iso_day
from mnemex.vault.privacy import private_names


def _when(fact: dict[str, Any]) -> str:
    start, end = fact.get("valid_from"), fact.get("valid_until")
    if start and end:
        return f"{start} → {end}"
    if start:
        return f"since {start}"
    if end:
        return f"until {end}"
    return f"seen {fact['served_from']}"


@click.command("facts")
@click.argument("subject")
@click.option("--as-of", help="What was true on this day (YYYY-MM-DD); default today.")
@click.option("--recorded-as-of", help="Believe only what had been recorded by this day.")
@click.option("--all", "include_all", is_flag=True, help="Also list every fact with its history.")
@json_option
@pass_app
@handle_errors
def facts_command(
    app: Context,
    subject: str,
    as_of: str | None,
    recorded_as_of: str | None,
    include_all: bool,
    as_json: bool,
) -> None:
    """What the brain holds about SUBJECT (a name or alias), as of a day."""
    brain = app.brain
    data = facts_about(
        brain,
        subject,
        as_of=iso_day(as_of, "--as-of"),
        recorded_as_of=iso_day(recorded_as_of, "--recorded-as-of"),
        include_all=include_all,
        include_private=private_names(brain.vault.settings),
    )

    def text() -> None:
        head = f"{data['subject']} as of {data['as_of']}"
        if data["recorded_as_of"]:
            head += f", as recorded by {data['recorded_as_of']}"
        click.echo(head)
        for ans in data["answers"]:
            what = ans["predicate"].replace("_", " ") + (
                f" ({ans['aspect']})" if ans["aspect"] else ""
            )
            values = " | ".join(ans["values"]) or "-"
            cond = f" [{ans['condition']}]" if ans["condition"] else ""
            click.echo(f"  {what}: {values}{cond}  ({ans['status']})")
            for fact in ans["facts"]:
                click.echo(
                    f"    {fact['id']}  {_when(fact)} · {fact['source']} · {fact['statement']}"
                )
                if fact.get("question"):
                    click.echo(f"      ? {fact['question']}")
            for fact in ans["drafts"]:
                click.echo(f"    {fact['id']}  agent's guess, not counted: {fact['statement']}")
            for fact in ans["pending"]:
                click.echo(
                    f"    {fact['id']}  date unresolved ({fact['time_note']}), "
                    f"not counted: {fact['statement']}"
                )
        for fact in data.get("facts", []):
            click.echo(f"- {fact['id']} [{fact['status']}] {_when(fact)} {fact['statement']}")
        click.echo(data["framing"])

    emit(data, as_json, text)


@click.group("fact")
def fact() -> None:
    """Record, confirm, correct or retract a fact (a person's commands)."""


def _print(done: Recorded) -> None:
    for change in done.changes:
        if change.fact is None:
            continue
        f = change.fact
        extra = ""
        if change.applied and change.applied.superseded:
            extra += f"; supersedes {', '.join(change.applied.superseded)}"
        if change.applied and change.applied.disputed:
            extra += f"; disputes {', '.join(change.applied.disputed)}"
        what = f"{f.predicate} = {f.value}" if f.predicate else f.statement
        click.echo(f"{change.outcome} {f.id} {f.subject}: {what}{extra}  ({change.path})")
    for entry in done.dropped:
        click.echo(f"dropped: {entry['sentence']} ({entry['reason']})")
    for problem in done.report.problems.get("failed", []):
        click.echo(f"failed: {problem}")
    click.echo(done.report.summary())


@fact.command("add")
@click.argument("text")
@click.option("--subject", help="Only the claims about this subject.")
@click.option(
    "--date", "on", help="The day you said it (default today): relative times resolve against it."
)
@json_option
@pass_app
@handle_errors
def add_command(
    app: Context, text: str, subject: str | None, on: str | None, as_json: bool
) -> None:
    """Record TEXT, in your own words, as fact ("I moved to Lisbon in July")."""
    done = add_fact(app.brain, text, subject=subject, evidence_date=iso_day(on, "--date"))
    emit(done.to_dict(), as_json, lambda: _print(done))


@fact.command("learn")
@click.argument("paths", nargs=-1, required=True)
@json_option
@pass_app
@handle_errors
def learn_command(app: Context, paths: tuple[str, ...], as_json: bool) -> None:
    """Record the facts that notes state (a handoff, a remembered note, an ingested summary).

    A note that cannot be learned (no such note, an unreadable fact file) is reported as
    failed with why, and the other notes are still learned; the exit code is then 1."""
    merged = Recorded()
    for rel in paths:
        try:
            done = learn_note(app.brain, rel)
        except MnemexError as exc:
            merged.report.add("failed", rel, str(exc))
            continue
        merged.report.merge(done.report)
        merged.changes.extend(done.changes)
        merged.dropped.extend(done.dropped)
    emit(merged.to_dict(), as_json, lambda: _print(merged))
    if merged.report.failed:
        sys.exit(1)


@fact.command("confirm")
@click.argument("fact_id")
@json_option
@pass_app
@handle_errors
def confirm_command(app: Context, fact_id: str, as_json: bool) -> None:
    """Confirm FACT_ID is still true: dated, and into the stable layer."""
    done = confirm_fact(app.brain, fact_id)
    emit(done.to_dict(), as_json, lambda: _print(done))


@fact.command("correct")
@click.argument("fact_id")
@click.argument("value")
@click.option("--from", "valid_from", help="The day the corrected value holds from.")
@json_option
@pass_app
@handle_errors
def correct_command(
    app: Context, fact_id: str, value: str, valid_from: str | None, as_json: bool
) -> None:
    """Correct FACT_ID's value to VALUE (the old record expires and stays)."""
    done = correct_fact(app.brain, fact_id, value, valid_from=valid_from)
    emit(done.to_dict(), as_json, lambda: _print(done))


@fact.command("retract")
@click.argument("fact_id")
@json_option
@pass_app
@handle_errors
def retract_command(app: Context, fact_id: str, as_json: bool) -> None:
    """Retract FACT_ID: it was never right (it stays, expired, with its history)."""
    done = retract_fact(app.brain, fact_id)
    emit(done.to_dict(), as_json, lambda: _print(done))


def print_consolidated(done: Consolidated) -> None:
    """The pass in a few lines: what it read, applied and left waiting, and why."""
    verb = "would apply" if done.mode in ("preview", "plan") else "applied"
    applied = done.kinds(done.applied)
    shown = ", ".join(f"{n} {k}" for k, n in sorted(applied.items())) or "nothing"
    click.echo(f"consolidate: read {done.read} note(s); {verb} {shown}")
    for p in done.applied[:20]:
        click.echo(f"  {p.kind:<9} {p.fact.id}  {p.fact.subject}: {p.fact.statement[:70]}")
    if len(done.applied) > 20:
        click.echo(f"  … {len(done.applied) - 20} more (--json lists them)")
    waiting = done.waiting if done.mode in ("preview", "safe") else []
    if waiting:
        click.echo(f"{len(waiting)} change(s) wait for a person (apply them with --yes):")
        for p in waiting[:20]:
            target = f" (changes {', '.join(p.targets)})" if p.targets else ""
            click.echo(f"  {p.kind:<9} {p.fact.subject}: {p.fact.statement[:60]}{target}")
            click.echo(f"            from {p.note}")
    report = done.report
    for warning in report.warnings[:20]:
        click.echo(f"warning: {warning.path}: {warning.reason}", err=True)
    for outcome in ("failed", "refused"):
        for problem in report.problems.get(outcome, []):
            click.echo(f"{outcome}: {problem.path}: {problem.reason}", err=True)
    click.echo(report.summary())
    if done.commit is not None and done.commit.sha:
        click.echo(f"commit {done.commit.sha[:10]} (undo: mnemex undo)")


@click.command("consolidate")
@click.option("--preview", is_flag=True, help="Show what would change; change nothing.")
@click.option(
    "--yes",
    "confirmed",
    is_flag=True,
    help="Also apply what waits for a person: supersessions, disputes, and changes to "
    "stable facts.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Read the notes with the offline reader even when mnemex.toml configures a [model].",
)
@json_option
@pass_app
@handle_errors
def consolidate_command(
    app: Context, preview: bool, confirmed: bool, offline: bool, as_json: bool
) -> None:
    """Turn what arrived since the last pass (digests, remembered notes, handoffs, the
    journal, ingested sources) into fact changes.

    New facts and confirmations apply; anything that supersedes, disputes or ends a
    stable fact waits for you (--yes applies it). One commit; `mnemex undo` takes it back.
    A note that fails is reported and read again next time; the exit code is then 1.
    With a [model], the model reads the notes (checked against the names the brain knows
    and the notes' own sentences) within confirm_above_usd; --yes accepts the cost too.

    --json prints {mode, read, created, updated, unchanged, skipped, refused, failed,
    applied|would_apply: {kind: n}, waiting: {kind: n}, proposals: [...], commit}.
    """
    if preview and confirmed:
        raise click.UsageError("--preview and --yes: choose one")
    mode: Mode = "preview" if preview else "all" if confirmed else "safe"
    model = None if offline else load_model(app.brain.vault)
    done = consolidate(app.brain, mode, model=model, confirmed=confirmed)
    emit(done.to_dict(), as_json, lambda: print_consolidated(done))
    if done.report.failed:
        sys.exit(1)


def register(cli: click.Group) -> None:
    """Add facts, fact and consolidate to the command tree."""
    cli.add_command(facts_command)
    cli.add_command(fact)
    cli.add_command(consolidate_command)


__all__ = ["consolidate_command", "fact", "facts_command", "print_consolidated", "register"]
