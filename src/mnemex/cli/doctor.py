"""``mnemex doctor``: is the brain healthy enough to trust (:mod:`mnemex.health.doctor`).

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import sys

import click

from mnemex.brain import Brain
from mnemex.cli.app import Context, emit, handle_errors, json_option, pass_app
from mnemex.errors import ConfigError, IndexUnavailable


@click.command()
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
    # An index that cannot be opened (a PostgreSQL server down, pgvector missing) is a
    # failed `backend` check, and the checks that need no index still run.
    from mnemex.config import resolve_vault
    from mnemex.health.doctor import diagnose, diagnose_secrets, diagnose_unopened
    from mnemex.vault import Vault

    location = resolve_vault(app.vault)
    if secrets:
        found = diagnose_secrets(Vault(location.path).root)  # the index is not needed

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

    from mnemex.index.open import backend_name
    from mnemex.mcp.probe import serve_check

    vault = Vault(location.path)
    try:
        brain = Brain(vault, location=location)
    except (IndexUnavailable, ConfigError) as exc:  # the index's backend, not the vault
        try:
            name = backend_name(vault)
        except ConfigError:
            name = "index"
        data = diagnose_unopened(
            vault,
            location,
            str(exc),
            name,
            load_embedder=not no_embedder,
            serve_check=serve_check,
        )
    else:
        with brain:
            data = diagnose(brain, load_embedder=not no_embedder, serve_check=serve_check)

    def text() -> None:
        marks = {"ok": "ok  ", "warn": "WARN", "fail": "FAIL"}
        for check in data["checks"]:
            click.echo(f"{marks[check['status']]}  {check['name']}: {check['detail']}")
        for problem in data["problems"]:
            click.echo(f"      {problem['path']}: {problem['reason']}")

    emit(data, as_json, text)
    if data["status"] == "fail":
        sys.exit(1)


def register(cli: click.Group) -> None:
    """Add ``doctor`` to the command tree."""
    cli.add_command(doctor)


__all__ = ["register"]
