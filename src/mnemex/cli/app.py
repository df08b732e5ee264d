"""The root of the command tree: the ``mnemex`` group, what every command shares (the
context, error handling, JSON or text output, progress bars), and ``init`` and ``demo``.

Each command: parse, call the library, print. The other commands live one module per
area beside this one, each adding its own with ``register``; :mod:`mnemex.cli` calls them.
"""

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
from mnemex.config import SETTINGS_FILE, resolve_vault
from mnemex.errors import ConfigError, MnemexError
from mnemex.index.sync import ProgressFactory
from mnemex.report import Report
from mnemex.vault import Vault

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


def open_vault(app: Context) -> Vault:
    """The vault ``--vault`` (or the usual resolution) names, without opening its index.

    Raises:
        ConfigError: the folder holds no ``mnemex.toml``.
    """
    location = resolve_vault(app.vault)
    if not (location.path / SETTINGS_FILE).is_file():
        raise ConfigError(
            f"{location.path} is not a vault (no {SETTINGS_FILE}); create it with "
            f"`mnemex init {location.path}` or pass --vault"
        )
    return Vault(location.path)


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
