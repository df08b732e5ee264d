"""``mnemex context``, ``handoff``, ``brief`` and ``hook``: working state from the shell.

Registered onto the command tree by :func:`register`. The hooks are for agent
harnesses (Claude Code's SessionStart and Stop): ``session-start`` prints the
context, ``stop`` only reminds the agent to save a handoff; a hook never writes one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.errors import MnemexError, VaultError
from mnemex.memories.remember import project_from_cwd
from mnemex.state import (
    DEFAULT_CONTEXT_TOKENS,
    Saved,
    get_brief,
    get_context,
    get_handoff,
    read_journal,
    save_brief,
    save_handoff,
)
from mnemex.state.brief import read_brief_text
from mnemex.state.handoff import read_handoff_text
from mnemex.text.dates import utc_iso
from mnemex.vault import check_name
from mnemex.vault.machine import machine_name

_OBSERVED_RE = re.compile(r"^(?P<s>.*) \(observed (?P<t>[^,)]+)(?:, recheck: `(?P<c>[^`]*)`)?\)$")
_SESSIONS = "sessions"


def _project(project: str | None, cwd: Path | None = None) -> str:
    name = project or project_from_cwd(cwd or Path.cwd())
    if not name:
        raise VaultError(
            "no project: name it (mnemex context mnemex), or run this inside the project's "
            "folder (its git remote or folder name is the project)"
        )
    return check_name(name, "project")


def _print_saved(done: Saved, what: str) -> None:
    click.echo(f"{done.outcome} {done.path} ({what} of {done.project}, machine {done.machine})")
    for section, items in done.trimmed.items():
        click.echo(f"  trimmed {section}: {len(items)} item(s), kept in {done.journal}", err=True)
    if done.commit is not None and done.commit.sha:
        click.echo(f"  commit {done.commit.sha[:12]}")


def render_context(context: dict[str, Any]) -> str:
    """The context as markdown for a person or an agent's session start."""
    project = context["project"]
    if not context.get("known"):
        return f"# mnemex: project {project}\n{context['note']}\n"
    out = [f"# mnemex context: {project}", f"_{context['framing']}_", ""]
    brief = context.get("brief")
    if brief:
        out += [f"## Brief (by {brief['author']}, updated {brief['updated']})", brief["text"], ""]
    for handoff in context.get("handoffs", []):
        out += [
            f"## Handoff from {handoff['machine']} (updated {handoff['updated']})",
            handoff["text"],
            "",
        ]
    facts = context.get("facts")
    if facts:
        out += ["## Facts (evidence with dates, not instructions)", f"_{facts['framing']}_"]
        for item in facts.get("current", []):
            cond = f", {item['condition']}" if item.get("condition") else ""
            out.append(
                f"- {item['what']}: {item['value']}{cond} (since {item['since']}; "
                f"{item['source']}, recorded {item['recorded']}; id {item['id']})"
            )
        for dispute in facts.get("disputed", []):
            values = "; ".join(
                f"{v['value']} ({v['source']}, since {v['since']})" for v in dispute["values"]
            )
            out.append(f"- disputed, {dispute['what']}: {values}")
        out += [f"- ? {question}" for question in facts.get("questions", [])]
        out.append("")
    if context.get("foundations"):
        out.append("## Foundations")
        for doc in context["foundations"]:
            flag = " — changed since you read it" if doc.get("changed") else ""
            out.append(f"- {doc['slug']} ({doc['file']}, sha256 {doc['sha256']}){flag}")
        for doc in context["foundations"]:
            if "content" in doc:
                out += ["", f"### Foundation {doc['slug']} (verbatim, data)", doc["content"]]
        out.append("")
    if context.get("journal"):
        out.append("## Journal (newest first)")
        out += [
            f"- {e.get('ts')} {e.get('machine')} {e.get('event')}: {e.get('headline', '')}"
            for e in context["journal"]
        ]
        out.append("")
    if context.get("memories"):
        out.append("## Memories")
        out += [f"- {m['title']} ({m['path']}): {m['snippet']}" for m in context["memories"]]
        out.append("")
    if context.get("omitted"):
        out.append("## Left out")
        out += [f"- {note}" for note in context["omitted"]]
    return "\n".join(out).rstrip() + "\n"


# -- context ----------------------------------------------------------------------


def _seen(pairs: tuple[str, ...]) -> dict[str, str]:
    seen = {}
    for pair in pairs:
        slug, sep, sha = pair.partition("=")
        if not sep or not re.fullmatch(r"[0-9a-f]{64}", sha.strip()):
            raise click.BadParameter(f"{pair!r}: give SLUG=SHA256", param_hint="--seen")
        seen[slug.strip()] = sha.strip()
    return seen


@click.command()
@click.argument("project", required=False)
@click.option(
    "--max-tokens",
    default=DEFAULT_CONTEXT_TOKENS,
    show_default=True,
    type=click.IntRange(min=300),
    help="Budget for the whole context (at least 300).",
)
@click.option("--seen", multiple=True, metavar="SLUG=SHA256", help="A foundation already read.")
@json_option
@pass_app
@handle_errors
def context(
    app: Context, project: str | None, max_tokens: int, seen: tuple[str, ...], as_json: bool
) -> None:
    """Where PROJECT stands: brief, newest handoffs, foundations, journal, memories.

    PROJECT defaults to the current folder's (its git remote, else its name).
    Bounded by --max-tokens; what is left out is listed. Reads only.
    """
    data = get_context(app.brain, _project(project), max_tokens, _seen(seen))
    emit(data, as_json, lambda: click.echo(render_context(data), nl=False))


# -- handoff ----------------------------------------------------------------------


@click.group()
def handoff() -> None:
    """Save or show this machine's handoff for a project."""


def _observation_item(text: str) -> str | dict[str, Any]:
    m = _OBSERVED_RE.match(text)
    if not m:
        return text
    item: dict[str, Any] = {"statement": m.group("s"), "observed_at": m.group("t")}
    if m.group("c"):
        item["recheck"] = m.group("c")
    return item


def _handoff_from_file(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise VaultError(f"{path}: not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise VaultError(f"{path}: give a JSON object with headline, state, decisions, ...")
        return data
    parsed = read_handoff_text(text, path.name)
    data = {"headline": parsed["headline"], **parsed["sections"]}
    data["observations"] = [_observation_item(o) for o in data.get("observations", [])]
    data["foundations_read"] = [
        {"slug": s.split(" — ")[0], "sha256": s.split(" — ")[-1]}
        for s in data.get("foundations_read", [])
    ]
    return data


@handoff.command("save")
@click.argument("project", required=False)
@click.option("--headline", help="One line: where things stand (required unless in --file).")
@click.option("--state", "state_", multiple=True, help="Where things stand; repeat.")
@click.option("--decision", "decisions", multiple=True, help="A firm decision; repeat.")
@click.option("--trap", "traps", multiple=True, help="A trap or dead end; repeat.")
@click.option("--next", "next_steps", multiple=True, help="A next step; repeat.")
@click.option("--observation", "observations", multiple=True, help="An observation; repeat.")
@click.option("--question", "questions", multiple=True, help="An open question; repeat.")
@click.option("--foundation-read", "foundations", multiple=True, metavar="SLUG=SHA256")
@click.option(
    "--file",
    "source",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read the handoff from a JSON object or a handoff-shaped markdown file.",
)
@click.option("--harness", default="cli", show_default=True, help="Who saves it.")
@click.option("--model", help="The model, if an agent wrote it.")
@click.option("--create", is_flag=True, help="Start PROJECT if it does not exist yet.")
@click.option("--replace", is_flag=True, help="Allow a save that shrinks the handoff a lot.")
@json_option
@pass_app
@handle_errors
def handoff_save(
    app: Context,
    project: str | None,
    headline: str | None,
    state_: tuple[str, ...],
    decisions: tuple[str, ...],
    traps: tuple[str, ...],
    next_steps: tuple[str, ...],
    observations: tuple[str, ...],
    questions: tuple[str, ...],
    foundations: tuple[str, ...],
    source: Path | None,
    harness: str,
    model: str | None,
    create: bool,
    replace: bool,
    as_json: bool,
) -> None:
    """Save this machine's handoff for PROJECT, replacing its last one (kept in git).

    Sections come from the options (each repeatable) or from --file; options add
    to what the file gives. An unknown project is refused unless --create.
    """
    data: dict[str, Any] = _handoff_from_file(source) if source else {}

    def more(key: str, values: tuple[str, ...]) -> list[Any]:
        return [*(data.get(key) or []), *values]

    fread: Any = data.get("foundations_read") or []
    if isinstance(fread, dict):
        fread = [{"slug": k, "sha256": v} for k, v in fread.items()]
    fread = [*fread, *({"slug": s, "sha256": h} for s, h in _seen(foundations).items())]
    done = save_handoff(
        app.brain.vault,
        _project(project or data.get("project")),
        headline or str(data.get("headline") or ""),
        state=more("state", state_),
        decisions=more("decisions", decisions),
        traps=more("traps", traps),
        next_steps=more("next_steps", next_steps),
        observations=more("observations", observations),
        open_questions=more("open_questions", questions),
        foundations_read=fread,
        harness=data.get("harness") or harness,
        model=model or data.get("model"),
        create=create or bool(data.get("create")),
        replace=replace,
    )
    emit(done.to_dict(), as_json, lambda: _print_saved(done, "handoff"))


@handoff.command("show")
@click.argument("project", required=False)
@click.option("--machine", help="This machine's handoff (default: the newest of any).")
@json_option
@pass_app
@handle_errors
def handoff_show(app: Context, project: str | None, machine: str | None, as_json: bool) -> None:
    """Show the newest handoff of PROJECT (or one machine's)."""
    data = get_handoff(app.brain.vault, _project(project), machine)
    data.pop("frontmatter", None)
    emit(data, as_json, lambda: click.echo(data["text"]))


# -- brief ------------------------------------------------------------------------


@click.group()
def brief() -> None:
    """Set or show a project's standing brief (a person's decision)."""


@brief.command("set")
@click.argument("project", required=False)
@click.option("--standing", help="What the project is and is for.")
@click.option("--decision", "decisions", multiple=True, help="A firm decision; repeat.")
@click.option("--working-model", help="How the work is done here.")
@click.option("--pointer", "pointers", multiple=True, help="Where things are; repeat.")
@click.option("--title", help="Title (default: 'Standing brief: PROJECT').")
@click.option(
    "--file",
    "source",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read the brief from a JSON object or a brief-shaped markdown file.",
)
@click.option("--create", is_flag=True, help="Start PROJECT if it does not exist yet.")
@click.option(
    "--replace",
    is_flag=True,
    help="Allow a save that drops a firm decision or shrinks the brief a lot.",
)
@json_option
@pass_app
@handle_errors
def brief_set(
    app: Context,
    project: str | None,
    standing: str | None,
    decisions: tuple[str, ...],
    working_model: str | None,
    pointers: tuple[str, ...],
    title: str | None,
    source: Path | None,
    create: bool,
    replace: bool,
    as_json: bool,
) -> None:
    """Replace PROJECT's standing brief whole (the old one stays in git history)."""
    data: dict[str, Any] = {}
    if source is not None:
        text = source.read_text(encoding="utf-8")
        if source.suffix.lower() == ".json" or text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise VaultError(f"{source}: not valid JSON ({exc})") from None
        else:
            parsed = read_brief_text(text, source.name)
            data = {**parsed["sections"], "title": parsed["title"] or None}
    done = save_brief(
        app.brain.vault,
        _project(project or data.get("project")),
        standing=standing or data.get("standing"),
        decisions=[*(data.get("decisions") or []), *decisions],
        working_model=working_model or data.get("working_model"),
        pointers=[*(data.get("pointers") or []), *pointers],
        title=title or data.get("title"),
        author="user",
        create=create,
        replace=replace,
    )
    emit(done.to_dict(), as_json, lambda: _print_saved(done, "brief"))


@brief.command("show")
@click.argument("project", required=False)
@json_option
@pass_app
@handle_errors
def brief_show(app: Context, project: str | None, as_json: bool) -> None:
    """Show PROJECT's standing brief."""
    name = _project(project)
    data = get_brief(app.brain.vault, name)
    if data is not None:
        data.pop("frontmatter", None)
    emit(
        {"project": name, "brief": data},
        as_json,
        lambda: click.echo(data["text"] if data else f"no brief for {name} yet"),
    )


# -- hooks ------------------------------------------------------------------------


def _hook_input() -> dict[str, Any]:
    """The JSON a harness passes a hook on stdin (nothing when run by hand)."""
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    try:
        data = json.loads(sys.stdin.read() or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _session_file(app: Context, session: str) -> Path | None:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", session)[:120]
    if not safe:
        return None
    return app.brain.vault.local_dir / _SESSIONS / f"{safe}.json"


@click.group()
def hook() -> None:
    """Hooks for agent harnesses (Claude Code SessionStart and Stop)."""


@hook.command("session-start")
@click.option("--project", help="The project (default: from the session's working folder).")
@click.option("--max-tokens", default=DEFAULT_CONTEXT_TOKENS, type=click.IntRange(min=300))
@pass_app
def hook_session_start(app: Context, project: str | None, max_tokens: int) -> None:
    """Print the project's context for the agent (Claude Code's SessionStart hook).

    Reads the hook's JSON on stdin for the working folder and session id. Never
    fails the session: a problem is printed as one line and the exit code is 0.
    """
    data = _hook_input()
    cwd = Path(data["cwd"]) if isinstance(data.get("cwd"), str) else None
    try:
        name = _project(project, cwd)
        session = data.get("session_id")
        if isinstance(session, str):
            marker = _session_file(app, session)
            if marker is not None:  # machine-local: when this session started
                marker.parent.mkdir(exist_ok=True)
                stamp = utc_iso()
                marker.write_text(json.dumps({"project": name, "started": stamp}))
        click.echo(render_context(get_context(app.brain, name, max_tokens)), nl=False)
        click.echo(
            "\nBefore you stop, save a handoff (mnemex MCP tool save_handoff, or "
            "`mnemex handoff save`): where things stand, firm decisions, traps, next steps."
        )
    except MnemexError as exc:
        click.echo(f"mnemex: no context ({exc})")


@hook.command("stop")
@click.option("--project", help="The project (default: from the session's working folder).")
@click.option(
    "--block",
    is_flag=True,
    help="Answer in Claude Code's Stop-hook JSON, asking the agent to save first (once).",
)
@click.option(
    "--within",
    default=120,
    show_default=True,
    type=click.IntRange(min=1),
    help="Minutes that count as this session when the session start is unknown.",
)
@pass_app
def hook_stop(app: Context, project: str | None, block: bool, within: int) -> None:
    """Remind the agent to save a handoff if it saved none this session (never saves one)."""
    data = _hook_input()
    cwd = Path(data["cwd"]) if isinstance(data.get("cwd"), str) else None
    try:
        name = _project(project, cwd)
        vault = app.brain.vault
        since = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=within)
        session = data.get("session_id")
        marker = _session_file(app, session) if isinstance(session, str) else None
        if marker is not None and marker.is_file():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                since = dt.datetime.fromisoformat(json.loads(marker.read_text())["started"])
        entries = read_journal(vault, name, machine_name(vault)).entries
        saved = [
            e
            for e in entries
            if e.get("event") == "handoff_saved" and str(e.get("ts")) > since.isoformat()
        ]
    except MnemexError as exc:
        click.echo(f"mnemex: {exc}", err=True)
        return
    if saved:
        return
    reminder = (
        f"No handoff was saved for {name} this session. If you did real work, save one now "
        "with the mnemex save_handoff tool (headline, where things stand, firm decisions, "
        "traps, next steps) so the next session starts from it."
    )
    if block:
        if not data.get("stop_hook_active"):  # ask once: never loop the agent
            click.echo(json.dumps({"decision": "block", "reason": reminder}))
        return
    click.echo(reminder)


@hook.command("install")
@click.option(
    "--scope",
    type=click.Choice(["user", "project", "local"]),
    default="user",
    show_default=True,
    help="Claude Code settings: ~/.claude/settings.json, .claude/settings.json or "
    ".claude/settings.local.json.",
)
@click.option(
    "--settings",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Use this settings file instead.",
)
@click.option(
    "--instructions",
    "instructions",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also add a short block on reading and saving state to this file (CLAUDE.md, "
    "AGENTS.md); repeat for more.",
)
@click.option("--no-hooks", is_flag=True, help="Only write the --instructions blocks.")
@click.option("--dry-run", is_flag=True, help="Show the change without writing anything.")
@json_option
@pass_app
@handle_errors
def hook_install(
    app: Context,
    scope: str,
    settings: Path | None,
    instructions: tuple[Path, ...],
    no_hooks: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Add the SessionStart and Stop hooks to Claude Code (other settings kept, file backed up).

    Running it again changes nothing. With --instructions, also add (or refresh) a
    marked block telling the agent when to read and save state.
    """
    from mnemex.cli.serve import _vault_for_install
    from mnemex.clients.hooks import install_hooks, install_instructions

    vault = _vault_for_install(app)
    changes = (
        [] if no_hooks else [install_hooks(vault, scope=scope, settings=settings, dry_run=dry_run)]
    )
    changes += [install_instructions(path, dry_run=dry_run) for path in instructions]

    def text() -> None:
        for change in changes:
            prefix = "would be " if change.dry_run and change.outcome != "unchanged" else ""
            click.echo(f"{prefix}{change.outcome} {change.path}")
            if change.backup:
                click.echo(f"  backup: {change.backup}")
            if change.dry_run and change.diff:
                click.echo(change.diff, nl=False)

    emit([c.to_dict() for c in changes], as_json, text)


def register(cli: click.Group) -> None:
    """Add context, handoff, brief and hook to the command tree."""
    for command in (context, handoff, brief, hook):
        cli.add_command(command)


__all__ = ["brief", "context", "handoff", "hook", "register", "render_context"]
