"""``mnemex team init|join|leave|status|contribute|synthesise|pull|remove-member``.

Registered onto the command tree by :func:`register`. The commands that write (contribute,
synthesise, pull, leave) print the shared counts, and each exits 1 when a push failed or a file
was refused (a quarantined contribution is counted as refused but is not a failure of the
synthesis); a refusal of the whole command (not an admin, an empty wiki, an unreachable
remote) is one line on stderr and exit 1 (docs/team.md).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import click

from mnemex.cli.app import Context, emit, handle_errors, json_option, open_vault, pass_app
from mnemex.report import OUTCOMES
from mnemex.team import ops
from mnemex.vault import Vault

_TEAM = click.argument("team", required=False)


@contextlib.contextmanager
def _team_vault(app: Context) -> Iterator[Vault]:
    """The vault, with its team lock held: two team commands on one vault (a scheduled
    contribute and a synthesis by hand) share one clone, so they take turns."""
    vault = open_vault(app)
    with vault.lock("team"):
        yield vault


def _domains(value: str) -> list[str]:
    return [d.strip() for d in value.split(",") if d.strip()]


def _counts(report: dict[str, Any]) -> str:
    return ", ".join(f"{report.get(o, 0)} {o}" for o in OUTCOMES)


def _problems(report: dict[str, Any]) -> None:
    for outcome, items in report.get("problems", {}).items():
        for item in items:
            click.echo(f"  {outcome}: {item['path']}: {item['reason']}", err=True)
    for item in report.get("warnings", []):
        click.echo(f"  warning: {item['path']}: {item['reason']}", err=True)


def _exit(report: dict[str, Any]) -> None:
    if report.get("failed") or report.get("refused"):
        raise SystemExit(1)


@click.group()
def team() -> None:
    """A shared team brain: contribute opted-in domains, synthesise, pull the mirror."""


@team.command("init")
@click.argument("name")
@click.option("--remote", required=True, help="The shared git repository (URL or path).")
@click.option("--member", required=True, help="Your member id in the team (a-z, 0-9, -).")
@click.option("--domains", required=True, help="Your domains to contribute, comma-separated.")
@click.option("--anonymous", is_flag=True, help="Name contributors by anonymous ids on the wiki.")
@json_option
@pass_app
@handle_errors
def team_init(
    app: Context, name: str, remote: str, member: str, domains: str, anonymous: bool, as_json: bool
) -> None:
    """Start team NAME in an empty shared repository; you are its admin."""
    with _team_vault(app) as vault:
        result = ops.init_team(vault, name, remote, member, _domains(domains), anonymous)
    domains_text = ", ".join(result["domains"])
    emit(result, as_json, lambda: click.echo(
        f"team {name} started at {remote}: {member} (admin) contributes {domains_text}"
    ))  # fmt: skip


@team.command("join")
@click.argument("name")
@click.option("--remote", required=True, help="The shared git repository (URL or path).")
@click.option("--member", required=True, help="Your member id in the team (a-z, 0-9, -).")
@click.option("--domains", required=True, help="Your domains to contribute, comma-separated.")
@json_option
@pass_app
@handle_errors
def team_join(
    app: Context, name: str, remote: str, member: str, domains: str, as_json: bool
) -> None:
    """Join team NAME, opting in the given domains (never a private one)."""
    with _team_vault(app) as vault:
        result = ops.join_team(vault, name, remote, member, _domains(domains))
    emit(result, as_json, lambda: click.echo(
        f"joined {name} as {member}; contributing {', '.join(result['domains'])}"
    ))  # fmt: skip


@team.command("leave")
@_TEAM
@click.option("--withdraw", is_flag=True, help="Also take your contributions out of the wiki.")
@json_option
@pass_app
@handle_errors
def team_leave(app: Context, team: str | None, withdraw: bool, as_json: bool) -> None:
    """Leave a team: its mirror and clone go. Your contributions stay unless --withdraw."""
    with _team_vault(app) as vault:
        result = ops.leave_team(vault, team, withdraw)

    def text() -> None:
        click.echo(f"left {result['team']}; your contributions were {result['contributions']}")
        click.echo(f"  team.toml: {result['members']}")
        click.echo(f"  mirror: {_counts(result['mirror'])}")
        _problems(result["mirror"])

    emit(result, as_json, text)
    _exit(result["mirror"])


@team.command("status")
@_TEAM
@json_option
@pass_app
@handle_errors
def team_status(app: Context, team: str | None, as_json: bool) -> None:
    """Where you stand: opted-in domains, your stream, waiting pushes, quarantine, mirror."""
    with _team_vault(app) as vault:
        result = ops.status(vault, team)

    def text() -> None:
        click.echo(f"team {result['team']} at {result['remote']}: you are {result['member']}")
        for domain, pages in result["domains"].items():
            click.echo(f"  domain {domain}: {pages} pages opted in")
        if not result["reachable"]:
            click.echo(f"  unreachable: {result['error']}")
            return
        click.echo(
            f"  stream {result['stream']}: sequence {result['sequence']}, "
            f"{result['waiting']} contribution file(s) waiting to be pushed"
        )
        click.echo(
            f"  members {', '.join(result['members'])} (admins {', '.join(result['admins'])}); "
            f"{result['streams']} streams, {result['wiki_pages']} wiki pages, "
            f"{result['mirror_pages']} in your mirror"
        )
        for item in result["quarantined"]:
            click.echo(f"  quarantined: {item['path']}: {item['reason']}")

    emit(result, as_json, text)
    if not result["reachable"]:
        raise SystemExit(1)


@team.command("contribute")
@_TEAM
@json_option
@pass_app
@handle_errors
def team_contribute(app: Context, team: str | None, as_json: bool) -> None:
    """Send what changed in your opted-in domains (every one, every time) to the team."""
    with _team_vault(app) as vault:
        result = ops.contribute(vault, team)

    def text() -> None:
        for domain, count in result["domains"].items():
            click.echo(
                f"domain {domain}: {count['pages']} pages, {count['facts']} statements; "
                f"withheld {count['withheld_links']} links, {count['withheld_pages']} private pages"
            )
        seqs = result["sequences"]
        done = f"contribution {', '.join(map(str, seqs))}" if seqs else "nothing new"
        if result["retried"]:
            done += f" (and {', '.join(map(str, result['retried']))} from an earlier failed push)"
        state = "pushed" if result["pushed"] else f"NOT pushed ({result['waiting']} waiting)"
        click.echo(f"{result['team']} {result['stream']}: {done}; {state}")
        click.echo(_counts(result["report"]))
        _problems(result["report"])

    emit(result, as_json, text)
    _exit(result["report"])


@team.command("synthesise")
@_TEAM
@click.option("--allow-shrink", is_flag=True, help="Apply a result that removes most pages.")
@json_option
@pass_app
@handle_errors
def team_synthesise(app: Context, team: str | None, allow_shrink: bool, as_json: bool) -> None:
    """Build the collective wiki from every member's contributions and push it."""
    with _team_vault(app) as vault:
        result = ops.synthesise(vault, team, allow_shrink)

    def text() -> None:
        click.echo(
            f"{result['team']}: {result['contributions']} contributions from "
            f"{result['streams']} streams -> {result['pages']} pages; "
            f"{'pushed' if result['pushed'] else 'NOT pushed'}"
        )
        click.echo(_counts(result["report"]))
        _problems(result["report"])

    emit(result, as_json, text)
    if not result["pushed"] or result["report"].get("failed"):
        raise SystemExit(1)


@team.command("pull")
@_TEAM
@click.option("--allow-shrink", is_flag=True, help="Apply a pull that empties the mirror.")
@json_option
@pass_app
@handle_errors
def team_pull(app: Context, team: str | None, allow_shrink: bool, as_json: bool) -> None:
    """Bring the collective wiki into wiki/shared-<team>/ (read-only, searchable)."""
    with _team_vault(app) as vault:
        result = ops.pull(vault, team, allow_shrink)
    if result["report"]["created"] or result["report"]["updated"] or result["report"]["deleted"]:
        app.brain.sync()

    def text() -> None:
        click.echo(f"{result['team']}: {result['pages']} pages in {result['mirror']}/")
        click.echo(_counts(result["report"]))
        _problems(result["report"])

    emit(result, as_json, text)
    _exit(result["report"])


@team.command("remove-member")
@click.argument("member")
@_TEAM
@click.option("--yes", is_flag=True, help="Apply: without it, only list what would go.")
@json_option
@pass_app
@handle_errors
def team_remove_member(
    app: Context, member: str, team: str | None, yes: bool, as_json: bool
) -> None:
    """(Admins) take MEMBER and the statements only they backed out of the wiki."""
    with _team_vault(app) as vault:
        result = ops.remove_member(vault, member, team, yes)

    def text() -> None:
        verb = "removed" if result["applied"] else "would remove"
        click.echo(
            f"{verb} {member} from {result['team']}: {result['contributions']} contributions, "
            f"{len(result['pages_removed'])} pages, {len(result['statements_removed'])} statements"
        )
        for page in result["pages_removed"]:
            click.echo(f"  page: {page}")
        for line in result["statements_removed"]:
            click.echo(f"  statement: {line}")
        if not result["applied"]:
            click.echo("nothing changed: run it again with --yes to apply")

    emit(result, as_json, text)


def register(cli: click.Group) -> None:
    cli.add_command(team)


__all__ = ["register"]
