"""The command tree. Each command: parse, call the library, print."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from mnemex import __version__
from mnemex.brain import Brain
from mnemex.errors import MnemexError
from mnemex.index.backend import Scope
from mnemex.index.sync import ProgressFactory, SyncResult
from mnemex.report import Report

F = TypeVar("F", bound=Callable[..., Any])


class Context:
    """What every command shares: the ``--vault`` choice and the brain, opened on demand."""

    def __init__(self, vault: str | None) -> None:
        self.vault = vault
        self._brain: Brain | None = None

    @property
    def brain(self) -> Brain:
        if self._brain is None:
            self._brain = Brain.open(self.vault)
        return self._brain


def handle_errors(func: F) -> F:
    """Turn library errors into one clean line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MnemexError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def emit(data: Any, as_json: bool, text: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        text()


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")


#: A sync that a reading command runs on the way (search, backlinks, ...) shows a bar only
#: for a job this big: a bar over a note or two changed since the last search is noise.
BACKGROUND_STEPS = 64


def progress_bar(total: int, label: str, minimum: int = 2) -> Callable[[int], None]:
    """A progress bar on stderr (only when it is a terminal and there are at least ``minimum``
    steps); returns the ``advance`` callable."""
    if not sys.stderr.isatty() or total < minimum:
        return lambda n: None
    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.__enter__()
    done = [0]

    def advance(n: int) -> None:
        done[0] += n
        bar.update(n)
        if done[0] >= total:
            bar.__exit__(None, None, None)

    return advance


def progress_for(as_json: bool, minimum: int = 2) -> ProgressFactory | None:
    """The progress bars a command hands the library: none in ``--json`` mode (a script is
    reading) or when stderr is not a terminal (a log would fill with bar redraws)."""
    if as_json or not sys.stderr.isatty():
        return None
    return functools.partial(progress_bar, minimum=minimum)


def print_report(report: Report, extra: str = "") -> None:
    click.echo(report.summary() + extra)
    for outcome, problems in report.problems.items():
        for problem in problems:
            click.echo(f"  {outcome}: {problem}", err=True)
    for warning in report.warnings:
        click.echo(f"  warning: {warning}", err=True)


def print_sync(result: SyncResult) -> None:
    extra = f"; {result.removed} removed, {result.moved} moved, {result.embedded} chunks embedded"
    extra += f" in {result.seconds:.2f} s"
    print_report(result.report, extra)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--vault",
    type=click.Path(file_okay=False, path_type=str),
    help="The vault folder (else $MNEMEX_VAULT, else the nearest folder with mnemex.toml, "
    "else the user default).",
)
@click.version_option(__version__, prog_name="mnemex")
@click.pass_context
def cli(ctx: click.Context, vault: str | None) -> None:
    """mnemex: a local-first second brain for AI agents."""
    ctx.obj = Context(vault)


pass_app = click.make_pass_decorator(Context)


# -- init, demo ---------------------------------------------------------------


@cli.command()
@click.argument("path", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="The vault's name in mnemex.toml (default: the folder name).")
@click.option("--no-git", is_flag=True, help="Do not create a git repository.")
@json_option
@pass_app
@handle_errors
def init(app: Context, path: Path | None, name: str | None, no_git: bool, as_json: bool) -> None:
    """Create a vault at PATH (default: --vault, else the current folder).

    An existing folder of notes (an Obsidian vault) is kept as it is: mnemex
    adds its folders and settings, and appends to .gitignore.
    """
    from mnemex.vault import init_vault

    target = path or Path(app.vault or ".")
    report = init_vault(target, name=name, git=not no_git)

    def text() -> None:
        print_report(report)
        click.echo(f"vault ready at {target.resolve()}")

    emit(report.to_dict(), as_json, text)


@cli.command()
@click.option(
    "--path",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to build the demo vault (default: a new temporary folder).",
)
@click.option(
    "--embedder", default=None, help="Embedder to use (default: the vault default, minilm)."
)
@json_option
@handle_errors
def demo(path: Path | None, embedder: str | None, as_json: bool) -> None:
    """Build a small demo brain from sample notes, index it, and run a few searches."""
    from mnemex.demo import run_demo

    result = run_demo(path, embedder=embedder)
    if as_json:
        click.echo(json.dumps(result, indent=2, default=str))
        return
    click.echo(f"demo vault: {result['vault']}")
    click.echo(
        f"indexed: {result['index']['created']} notes, {result['index']['embedded']} "
        f"chunks embedded in {result['index']['seconds']:.2f} s"
    )
    for item in result["searches"]:
        click.echo(f"\n? {item['query']}")
        for hit in item["hits"]:
            click.echo(f"  {hit['score']:.4f}  {hit['path']}  — {hit['snippet'][:90]}")
    click.echo(f'\ntry: mnemex --vault {result["vault"]} search "how do we deploy"')


# -- notes ----------------------------------------------------------------------


@cli.group()
def note() -> None:
    """Add notes."""


@note.command("add")
@click.argument("source", required=False, default="-")
@click.option(
    "--kind",
    default="note",
    show_default=True,
    type=click.Choice(["note", "entity", "concept", "summary"]),
)
@click.option("--title", help="Title (default: the first heading or line).")
@click.option("--tag", "tags", multiple=True, help="A tag; repeat for more.")
@click.option("--domain", help="Knowledge domain for entity/concept/summary (default: the first).")
@click.option("--path", "rel", help="Vault-relative path (default: from kind and title).")
@json_option
@pass_app
@handle_errors
def note_add(
    app: Context,
    source: str,
    kind: str,
    title: str | None,
    tags: tuple[str, ...],
    domain: str | None,
    rel: str | None,
    as_json: bool,
) -> None:
    """Add a note from SOURCE (a file, or - for standard input)."""
    from mnemex.pages.notes import add_note

    if source == "-":
        body = sys.stdin.read()
    else:
        try:
            body = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"{source}: cannot read it as UTF-8 text ({exc})") from exc
    added = add_note(
        app.brain, body, kind=kind, title=title, tags=list(tags), domain=domain, path=rel
    )
    emit(added.to_dict(), as_json, lambda: click.echo(f"{added.outcome} {added.path}"))


@cli.command()
@click.argument("path")
@click.option("--section", help="Only the part under this heading.")
@click.option("--max-tokens", type=click.IntRange(min=1), help="Cut the body to this many tokens.")
@json_option
@pass_app
@handle_errors
def read(
    app: Context, path: str, section: str | None, max_tokens: int | None, as_json: bool
) -> None:
    """Print a note (PATH is vault-relative; .md optional)."""
    from mnemex.retrieve.read import read_note

    data = read_note(app.brain, path, section=section, max_tokens=max_tokens)
    emit(data, as_json, lambda: click.echo(data["content"], nl=False))


# -- search and graph -------------------------------------------------------------


@cli.command()
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
@click.option(
    "--signals",
    default="keyword,vector,graph",
    show_default=True,
    help="Comma-separated: keyword, vector, graph.",
)
@click.option("--no-sync", is_flag=True, help="Do not bring the index up to date first.")
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
    signals: str,
    no_sync: bool,
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
    result = run_search(brain, query, scope=scope, k=k, max_tokens=max_tokens, signals=wanted)

    def text() -> None:
        if not result.hits:
            click.echo("no matches")
        for hit in result.hits:
            where = f" § {hit.heading}" if hit.heading else ""
            click.echo(f"{hit.score:.4f}  {hit.path}{where}  ({hit.title})")
            click.echo(f"        {hit.snippet[:160]}")
        if result.truncated:
            click.echo(f"(more hits left out to fit --max-tokens {max_tokens})")

    emit([h.to_dict() for h in result.hits], as_json, text)


@cli.command()
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
    lines = [f"{lk['src_path']}:{lk['line']}  {lk['src_title']}" for lk in links]
    emit(links, as_json, lambda: click.echo("\n".join(lines) or "no backlinks"))


@cli.command()
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


@cli.command()
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


# -- index --------------------------------------------------------------------------


@cli.group(invoke_without_command=True)
@click.option(
    "--allow-empty", is_flag=True, help="Allow a sync that would remove every note from the index."
)
@json_option
@click.pass_context
@handle_errors
def index(ctx: click.Context, allow_empty: bool, as_json: bool) -> None:
    """Bring the index up to date with the vault (incremental)."""
    if ctx.invoked_subcommand is not None:
        return
    app: Context = ctx.obj
    brain = app.brain
    _refuse_emptying(brain, allow_empty)
    result = brain.sync(progress_for(as_json))
    emit(result.to_dict(), as_json, lambda: print_sync(result))


def _refuse_emptying(brain: Brain, allowed: bool) -> None:
    """A sync or rebuild that would empty a non-empty index looks like data loss."""
    if allowed:
        return
    indexed = brain.backend.stats()["notes"]
    if indexed and next(iter(brain.vault.iter_files()), None) is None:
        raise MnemexError(
            f"the vault at {brain.vault.root} has no notes but the index has {indexed}: "
            "is the folder unmounted or emptied by mistake? Nothing was changed; "
            "pass --allow-empty to empty the index"
        )


@index.command("status")
@json_option
@pass_app
@handle_errors
def index_status(app: Context, as_json: bool) -> None:
    """Counts, and every file that could not be indexed, with the reason."""
    brain = app.brain
    stats = brain.backend.stats()
    problems = brain.backend.problems()
    stats["unresolved_links"], unresolved = brain.links_to_nowhere(limit=50)
    data = {
        **stats,
        "problem_files": [{"path": p, "reason": r} for p, r in problems],
        "unresolved": unresolved,
    }

    def text() -> None:
        click.echo(
            f"{stats['notes']} notes, {stats['chunks']} chunks, {stats['links']} links "
            f"({stats['unresolved_links']} unresolved), {stats['tags']} tags"
        )
        click.echo(
            f"embedder: {stats['embedder'] or 'none yet'}; vectors: "
            + (", ".join(f"{k} {v}" for k, v in stats["vectors"].items()) or "0")
        )
        click.echo(f"last sync: {stats['last_sync'] or 'never'}; index: {stats['path']}")
        for path, reason in problems:
            click.echo(f"  {path}: {reason}")
        for link in unresolved:
            click.echo(f"  {link['path']}:{link['line']}: link to nowhere: [[{link['target']}]]")
        if stats["unresolved_links"] > len(unresolved):
            click.echo(f"  … {stats['unresolved_links'] - len(unresolved)} more links to nowhere")

    emit(data, as_json, text)


@index.command("rebuild")
@click.option("--allow-empty", is_flag=True, help="Allow a rebuild that leaves the index empty.")
@json_option
@pass_app
@handle_errors
def index_rebuild(app: Context, allow_empty: bool, as_json: bool) -> None:
    """Throw the index away and build it again from the files."""
    brain = app.brain
    _refuse_emptying(brain, allow_empty)
    result = brain.rebuild(progress_for(as_json))
    emit(result.to_dict(), as_json, lambda: print_sync(result))


# -- doctor, eval -------------------------------------------------------------------


@cli.command()
@click.option("--no-embedder", is_flag=True, help="Skip loading the embedder.")
@click.option(
    "--secrets",
    is_flag=True,
    help="Only scan the vault's files and git history for secrets (fails if any).",
)
@json_option
@pass_app
@handle_errors
def doctor(app: Context, no_embedder: bool, secrets: bool, as_json: bool) -> None:
    """Check the vault, the index's freshness, the embedder, that `mnemex serve` answers a
    client within 10 s (and each installed client's server); list files not indexed."""
    from mnemex.health.doctor import diagnose, diagnose_secrets

    if secrets:
        found = diagnose_secrets(app.brain.vault.root)

        def secrets_text() -> None:
            check = found["checks"][0]
            click.echo(
                f"{'FAIL' if check['status'] == 'fail' else 'ok  '}  secrets: {check['detail']}"
            )
            for f in found["findings"]:
                where = f"commit {f['commit']}" if f["commit"] else "working tree"
                click.echo(f"      {f['kind']}: {f['path']}:{f['line']} ({where})")
            if found["purge"]:
                click.echo(f"\n{found['purge']}")

        emit(found, as_json, secrets_text)
        if found["status"] == "fail":
            sys.exit(1)
        return

    from mnemex.mcp.probe import serve_check

    data = diagnose(app.brain, load_embedder=not no_embedder, serve_check=serve_check)

    def text() -> None:
        marks = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}
        for check in data["checks"]:
            click.echo(f"{marks[check['status']]}  {check['name']}: {check['detail']}")
        for problem in data["problems"]:
            click.echo(f"      {problem['path']}: {problem['reason']}")

    emit(data, as_json, text)
    if data["status"] == "fail":
        sys.exit(1)


@cli.group("eval")
def eval_group() -> None:
    """Measure retrieval quality on a dataset."""


@eval_group.command("retrieval")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--signals",
    default="keyword,vector",
    show_default=True,
    help="Comma-separated: keyword, vector.",
)
@click.option("--groups", help="Comma-separated groups to evaluate (default: all).")
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the evaluation vault and index here, to reuse them next run.",
)
@click.option("--embedder", default="minilm", show_default=True)
@json_option
@handle_errors
def eval_retrieval(
    dataset: Path,
    signals: str,
    groups: str | None,
    workdir: Path | None,
    embedder: str,
    as_json: bool,
) -> None:
    """Run the real pipeline on DATASET (corpus.jsonl + queries.jsonl) and print metrics."""
    from mnemex.embed import load_embedder
    from mnemex.evaluate.retrieval import run_retrieval_eval

    wanted = tuple(s.strip() for s in signals.split(",") if s.strip())
    result = run_retrieval_eval(
        dataset,
        signals=wanted,
        groups=[g.strip() for g in groups.split(",")] if groups else None,
        workdir=workdir,
        embedder=load_embedder(embedder),
        progress=progress_for(as_json),
    )

    def text() -> None:
        keys = ["recall@1", "recall@5", "recall@10", "hit@5", "all@5", "ndcg@10", "mrr"]
        click.echo(f"{'':14}" + "".join(f"{k:>11}" for k in keys) + f"{'n':>7}")
        rows = [("overall", result["overall"]), *sorted(result["by_category"].items())]
        for name, metrics in rows:
            click.echo(
                f"{name:14}"
                + "".join(f"{metrics[k]:11.3f}" for k in keys)
                + f"{metrics.get('count', 0):7d}"
            )
        t = result["timings"]
        click.echo(
            f"index {t['index_seconds']:.1f} s; query p50 {t['query_ms_p50']:.1f} ms, "
            f"p95 {t['query_ms_p95']:.1f} ms over {t['queries']} queries"
        )

    emit(result, as_json, text)


@eval_group.command("locomo")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--all-categories", is_flag=True, help="Keep category 5 (adversarial) too.")
@json_option
@handle_errors
def eval_locomo(source: Path, out: Path, all_categories: bool, as_json: bool) -> None:
    """Convert LoCoMo's locomo10.json at SOURCE into the eval format in OUT."""
    from mnemex.evaluate.locomo import convert_locomo

    stats = convert_locomo(
        source, out, categories=(1, 2, 3, 4, 5) if all_categories else (1, 2, 3, 4)
    )
    emit(stats, as_json, lambda: click.echo(json.dumps(stats, indent=2)))
