"""``mnemex search``, ``backlinks``, ``related`` and ``graph``: reading the brain.

Each brings the index up to date first (``search --no-sync`` skips it).

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app, progress_for
from mnemex.index.backend import Scope
from mnemex.text.dates import iso_day

#: A sync that a reading command runs on the way (search, backlinks, ...) shows a bar only
#: for a job this big: a bar over a note or two changed since the last search is noise.
BACKGROUND_STEPS = 64


@click.command()
@click.argument("query")
@click.option("-k", "k", default=10, show_default=True, type=click.IntRange(min=1), help="Hits.")
@click.option("--kind", "kinds", multiple=True, help="knowledge, notes, memories, state, ...")
@click.option("--domain", "domains", multiple=True, help="Knowledge domain.")
@click.option("--project", "projects", multiple=True, help="Project.")
@click.option("--folder", "folders", multiple=True, help="Vault-relative folder.")
@click.option("--tag", "tags", multiple=True, help="Notes carrying this tag (all given).")
@click.option("--since", help="Notes dated on or after (ISO date).")
@click.option("--until", help="Notes dated on or before (ISO date).")
@click.option("--max-tokens", type=click.IntRange(min=1), help="Token budget for all hits.")
@click.option("--as-of", help="Label fact hits as of this day (YYYY-MM-DD; default today).")
@click.option("--recorded-as-of", help="Facts as the brain had recorded them by this day.")
@click.option(
    "--signals",
    default="keyword,vector,graph",
    show_default=True,
    help="Comma-separated: keyword, vector, graph.",
)
@click.option("--no-sync", is_flag=True, help="Do not bring the index up to date first.")
@click.option("--no-rerank", is_flag=True, help="Skip the reranker [search.rerank] sets.")
@json_option
@pass_app
@handle_errors
def search(
    app: Context,
    query: str,
    k: int,
    kinds: tuple[str, ...],
    domains: tuple[str, ...],
    projects: tuple[str, ...],
    folders: tuple[str, ...],
    tags: tuple[str, ...],
    since: str | None,
    until: str | None,
    max_tokens: int | None,
    as_of: str | None,
    recorded_as_of: str | None,
    signals: str,
    no_sync: bool,
    no_rerank: bool,
    as_json: bool,
) -> None:
    """Hybrid search (keyword + meaning + links); one hit per note."""
    from mnemex.retrieve import search as run_search

    brain = app.brain
    if not no_sync:
        brain.sync(progress_for(as_json, BACKGROUND_STEPS))
    scope = Scope(
        kinds=kinds,
        domains=domains,
        projects=projects,
        folders=folders,
        tags=tags,
        since=since,
        until=until,
    )
    wanted = tuple(s.strip() for s in signals.split(",") if s.strip())
    unknown = set(wanted) - {"keyword", "vector", "graph"}
    if unknown:
        raise click.BadParameter(
            f"unknown signal(s): {', '.join(sorted(unknown))}", param_hint="--signals"
        )
    result = run_search(
        brain,
        query,
        scope=scope,
        k=k,
        max_tokens=max_tokens,
        signals=wanted,
        rerank=not no_rerank,
        as_of=iso_day(as_of, "--as-of"),
        recorded_as_of=iso_day(recorded_as_of, "--recorded-as-of"),
    )

    def text() -> None:
        if not result.hits:
            click.echo("no matches")
        for hit in result.hits:
            where = f" § {hit.heading}" if hit.heading else ""
            click.echo(f"{hit.score:.4f}  {hit.path}{where}  ({hit.title})")
            click.echo(f"        {hit.snippet[:160]}")
            click.echo(f"        why: {why_line(hit.why)}")
        if result.truncated:
            click.echo(f"(more hits left out to fit --max-tokens {max_tokens})")

    emit([h.to_dict() for h in result.hits], as_json, text)


def why_line(why: dict[str, object]) -> str:
    """A hit's ``why`` on one line: ``keyword #1 · vector #3 · cosine 0.52 · coverage 0.8
    (auth, token)``."""
    parts = [
        f"{signal} #{why[signal]}" for signal in ("keyword", "vector", "graph") if signal in why
    ]
    parts += [f"{key} {why[key]}" for key in ("cosine", "coverage", "rerank") if key in why]
    terms = why.get("terms")
    line = " · ".join(parts)
    return f"{line} ({', '.join(map(str, terms))})" if isinstance(terms, list) and terms else line


@click.command()
@click.argument("path")
@json_option
@pass_app
@handle_errors
def backlinks(app: Context, path: str, as_json: bool) -> None:
    """Notes that link to PATH."""
    from mnemex.retrieve import backlinks as get_backlinks

    brain = app.brain
    brain.sync(progress_for(as_json, BACKGROUND_STEPS))
    links = get_backlinks(brain.backend, brain.vault.rel_path(path))
    lines = [f"{lk.src_path}:{lk.line}  {lk.src_title}" for lk in links]
    rows = [lk.to_dict() for lk in links]
    emit(rows, as_json, lambda: click.echo("\n".join(lines) or "no backlinks"))


@click.command()
@click.argument("path")
@click.option("--depth", default=2, show_default=True, type=click.IntRange(1, 3))
@click.option("--limit", default=30, show_default=True, type=click.IntRange(min=1))
@json_option
@pass_app
@handle_errors
def related(app: Context, path: str, depth: int, limit: int, as_json: bool) -> None:
    """Notes connected to PATH through links, nearest first."""
    from mnemex.retrieve import connected

    brain = app.brain
    brain.sync(progress_for(as_json, BACKGROUND_STEPS))
    nodes = connected(brain.backend, brain.vault.rel_path(path), depth=depth, limit=limit)
    lines = [f"{n['distance']}  {n['path']}  ({', '.join(n['relation'])})" for n in nodes]
    emit(nodes, as_json, lambda: click.echo("\n".join(lines) or "no connected notes"))


@click.command()
@json_option
@pass_app
@handle_errors
def graph(app: Context, as_json: bool) -> None:
    """Overview of the link graph: counts, pages by type, hubs, orphans, tags."""
    from mnemex.retrieve import overview

    brain = app.brain
    brain.sync(progress_for(as_json, BACKGROUND_STEPS))
    data = overview(brain.backend, unresolved=brain.links_to_nowhere(limit=0)[0])

    def text() -> None:
        click.echo(
            f"{data['nodes']} notes, {data['edges']} links, "
            f"{data['unresolved_links']} unresolved, {data['orphan_count']} orphans"
        )
        click.echo("by type: " + ", ".join(f"{k} {v}" for k, v in data["pages_by_type"].items()))
        click.echo("hubs:")
        for hub in data["hubs"][:10]:
            click.echo(f"  {hub['degree']:4d}  {hub['path']}")
        if data["top_tags"]:
            click.echo(
                "tags: " + ", ".join(f"#{t['tag']} {t['notes']}" for t in data["top_tags"][:10])
            )

    emit(data, as_json, text)


def register(cli: click.Group) -> None:
    """Add search, backlinks, related and graph to the command tree."""
    for command in (search, backlinks, related, graph):
        cli.add_command(command)


__all__ = ["register"]
