"""The team operations: init, join, leave, status, contribute, synthesise, pull, remove a member.

Each returns a dict with the shared counts (``report``) and what it did, and raises
:class:`~mnemex.errors.TeamError` when it refuses or cannot reach the shared repository.
A member's part in a team is the ``[team.<name>]`` table of their ``mnemex.toml`` (remote,
member id, opted-in domains: it syncs, so each of the member's machines contributes the same
domains); the team's own settings are ``team.toml`` in the shared repository.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from mnemex.config import SETTINGS_FILE
from mnemex.errors import TeamError
from mnemex.report import Report
from mnemex.team.model import (
    CONTRIBUTIONS,
    FORMAT,
    MAX_CONTRIBUTION_BYTES,
    Contribution,
    Malformed,
    canonical,
    chunk_pages,
    contribution_path,
    delta,
    fold,
    read_contribution,
    state_digest,
    valid_id,
)
from mnemex.team.pages import read_state
from mnemex.team.repo import AUDIT_FILE, PUSH_ATTEMPTS, TEAM_FILE, SharedRepo
from mnemex.team.synthesise import (
    SHRINK_FLOOR,
    SHRINK_LIMIT,
    WIKI,
    build,
    contributor_label,
)
from mnemex.text.sanitise import sanitise
from mnemex.vault import Vault
from mnemex.vault.history import commit_change, crash_point
from mnemex.vault.layout import append_ignores, ignore_lines, mirror_folder
from mnemex.vault.machine import machine_id
from mnemex.vault.privacy import is_private
from mnemex.vault.vault import atomic_write, sha256_bytes

SYNTHESIS_FILE = "synthesis.json"
_T = TypeVar("_T")


@dataclass
class Membership:
    """This vault's part in a team: ``[team.<name>]`` of ``mnemex.toml``."""

    team: str
    remote: str
    member: str
    domains: list[str]

    def repo(self, vault: Vault) -> SharedRepo:
        return SharedRepo(vault.local_dir / "team" / self.team / "repo", self.remote, self.member)

    def stream_folder(self, vault: Vault) -> str:
        return f"{CONTRIBUTIONS}/{self.member}/{machine_id(vault)}"


def membership(vault: Vault, team: str | None = None) -> Membership:
    """The team this vault takes part in (``team`` may be omitted when there is one).

    Raises:
        TeamError: no such team here, or its table is incomplete.
    """
    teams = vault.settings.teams
    if team is None:
        if not teams:
            raise TeamError(
                "this vault is in no team: start one (`mnemex team init NAME --remote R --member "
                "ID --domains D`) or join one (`mnemex team join ...`)"
            )
        if len(teams) != 1:
            names = ", ".join(sorted(teams)) or "none"
            raise TeamError(f"name the team (this vault's teams: {names})")
        team = next(iter(teams))
    table = teams.get(team)
    if table is None:
        raise TeamError(f"this vault is not in team {team!r}: `mnemex team join {team} ...` first")
    remote, member, domains = table.get("remote"), table.get("member"), table.get("domains")
    if not isinstance(remote, str) or not isinstance(member, str) or not valid_id(member):
        raise TeamError(f"{SETTINGS_FILE}: [team.{team}] needs remote and member (an id)")
    if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
        raise TeamError(f"{SETTINGS_FILE}: [team.{team}] domains must be a list of names")
    return Membership(team, remote, member, list(domains))


# -- the shared repository's own settings --------------------------------------


def _team_settings(repo: SharedRepo, team: str) -> dict[str, Any]:
    data = repo.read_toml(TEAM_FILE)
    if not data:
        raise TeamError(f"{repo.remote} holds no team ({TEAM_FILE} is missing): `team init` it")
    if data.get("name") != team:
        raise TeamError(f"{repo.remote} is the team {data.get('name')!r}, not {team!r}")
    for key in ("admins", "members", "removed"):
        data.setdefault(key, [])
    data.setdefault("attribution", "named")
    return data


def _write_team_settings(repo: SharedRepo, data: dict[str, Any]) -> None:
    def value(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(json.dumps(x) for x in v) + "]"
        return json.dumps(v)

    lines = ["# the team's settings (mnemex team): who may remove members, how they are named"]
    lines += [f"{key} = {value(data[key])}" for key in sorted(data)]
    (repo.root / TEAM_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _audit(repo: SharedRepo, entry: dict[str, Any]) -> None:
    with (repo.root / AUDIT_FILE).open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")


def _land(
    repo: SharedRepo, change: Callable[[], _T], message: str, keep: str | None
) -> tuple[_T, str | None]:
    """Refresh from the remote, make ``change``, commit and push; on a lost race, again.

    Returns what the last ``change`` returned and, when the push never landed, why.
    """
    why: str | None = None
    result: _T
    for attempt in range(PUSH_ATTEMPTS):
        if attempt:  # another member pushed first: try again on the new tip, a little later
            time.sleep(random.uniform(0, 0.1 * 2**attempt))
        repo.refresh(keep)
        result = change()
        repo.commit(message)
        if not repo.ahead():
            return result, None
        crash_point("team-push")
        why = repo.push()
        if why is None:
            return result, None
    return result, why


# -- the member's mnemex.toml ---------------------------------------------------


def _write_membership(vault: Vault, m: Membership) -> None:
    path = vault.root / SETTINGS_FILE
    text = _without_table(path.read_text(encoding="utf-8"), m.team)
    domains = ", ".join(json.dumps(d) for d in m.domains)
    block = (
        f"\n[team.{m.team}]  # a shared team brain (docs/team.md)\n"
        f"remote = {json.dumps(m.remote)}\nmember = {json.dumps(m.member)}\n"
        f"domains = [{domains}]  # opted in: contributed every time\n"
    )
    path.write_text(text.rstrip("\n") + "\n" + block, encoding="utf-8")
    vault.settings.teams[m.team] = {"remote": m.remote, "member": m.member, "domains": m.domains}
    append_ignores(vault.root, ignore_lines(vault.settings))
    commit_change(vault, [SETTINGS_FILE, ".gitignore"], "team", f"join {m.team}")


def _without_table(text: str, team: str) -> str:
    pattern = re.compile(rf"(?ms)^\[team\.{re.escape(team)}\][^\n]*\n.*?(?=^\[|\Z)")
    return pattern.sub("", text)


def _check_domains(vault: Vault, domains: list[str]) -> None:
    if not domains:
        raise TeamError("opt in at least one domain (--domains a,b): nothing else is contributed")
    for domain in domains:
        if is_private(vault.settings, domain):
            raise TeamError(f"domain {domain!r} is private: it never leaves this machine")
        if domain not in vault.settings.domains:
            raise TeamError(
                f"{domain!r} is not a domain of this vault ({', '.join(vault.settings.domains)})"
            )


def _check_ids(team: str, member: str, remote: str) -> None:
    for what, value in (("team name", team), ("member id", member)):
        if not valid_id(value):
            raise TeamError(f"{what} {value!r}: use lower-case letters, digits and '-'")
    if "://" in remote and urlsplit(remote).password:
        raise TeamError(
            "the remote holds a password, and mnemex.toml (which syncs) would keep it: "
            "give git the credential instead (a credential helper, or an SSH key)"
        )


# -- init, join, leave ----------------------------------------------------------


def init_team(
    vault: Vault, team: str, remote: str, member: str, domains: list[str], anonymous: bool
) -> dict[str, Any]:
    """Start a team in an empty shared repository, with this member as its admin."""
    _check_ids(team, member, remote)
    _check_domains(vault, domains)
    m = Membership(team, remote, member, domains)
    repo = m.repo(vault)
    repo.ensure()

    def change() -> None:
        if (repo.root / TEAM_FILE).exists():
            raise TeamError(f"{remote} already holds a team: `mnemex team join` it instead")
        settings = {
            "name": team,
            "format": FORMAT,
            "attribution": "anonymous" if anonymous else "named",
            "admins": [member],
            "members": [member],
            "removed": [],
        }
        _write_team_settings(repo, settings)
        _audit(repo, {"action": "init", "member": member})

    _, why = _land(repo, change, f"team {team}: started by {member}", m.stream_folder(vault))
    if why:
        raise TeamError(f"could not push to {remote}: {why}")
    _write_membership(vault, m)
    return {"team": team, "member": member, "domains": domains, "admin": True}


def join_team(
    vault: Vault, team: str, remote: str, member: str, domains: list[str]
) -> dict[str, Any]:
    """Join a team that exists: add this member to ``team.toml``, opt the domains in."""
    _check_ids(team, member, remote)
    _check_domains(vault, domains)
    m = Membership(team, remote, member, domains)
    repo = m.repo(vault)
    repo.ensure()

    def change() -> None:
        data = _team_settings(repo, team)
        if member in data["removed"]:
            raise TeamError(f"member {member!r} was removed from {team!r}; an admin must re-add")
        if member not in data["members"]:
            data["members"] = [*data["members"], member]
            _write_team_settings(repo, data)
            _audit(repo, {"action": "join", "member": member})

    _, why = _land(repo, change, f"team {team}: {member} joined", m.stream_folder(vault))
    if why:
        raise TeamError(f"could not push to {remote}: {why}")
    _write_membership(vault, m)
    return {"team": team, "member": member, "domains": domains}


def leave_team(vault: Vault, team: str | None, withdraw: bool) -> dict[str, Any]:
    """Stop taking part: this vault's table, clone and mirror go. With ``withdraw``, this
    member's contributions (from every machine) leave the collective wiki too; without it
    they stay, as the report says."""
    m = membership(vault, team)
    result: dict[str, Any] = {"team": m.team, "member": m.member, "contributions": "kept"}
    if withdraw:
        result["withdrawn"] = _remove(vault, m, m.member, by=m.member, action="withdraw")
        result["contributions"] = "withdrawn"
    result["members"] = _leave_members(vault, m, keep=None if withdraw else m.stream_folder(vault))
    result["mirror"] = _drop_mirror(vault, m.team).to_dict()
    shutil.rmtree(vault.local_dir / "team" / m.team, ignore_errors=True)
    path = vault.root / SETTINGS_FILE
    path.write_text(_without_table(path.read_text(encoding="utf-8"), m.team), encoding="utf-8")
    vault.settings.teams.pop(m.team, None)
    commit_change(vault, [SETTINGS_FILE], "team", f"leave {m.team}")
    return result


def _leave_members(vault: Vault, m: Membership, keep: str | None) -> str:
    """Take this member off ``members`` (and ``admins``, unless no admin would be left);
    the push also carries this machine's waiting contributions. What happened, in words:
    an unreachable repository does not stop a member from leaving."""
    repo = m.repo(vault)
    sole_admin: list[bool] = []

    def change() -> None:
        data = _team_settings(repo, m.team)
        if m.member not in data["members"]:
            return
        data["members"] = [x for x in data["members"] if x != m.member]
        others = [x for x in data["admins"] if x != m.member]
        sole_admin[:] = [m.member in data["admins"] and not others]
        data["admins"] = others or data["admins"]
        _write_team_settings(repo, data)
        _audit(repo, {"action": "leave", "member": m.member})

    try:
        repo.ensure()
        _, why = _land(repo, change, f"team {m.team}: {m.member} left", keep)
    except TeamError as exc:
        why = str(exc)
    if why:
        return f"still listed in team.toml (the shared repository was not updated: {why})"
    if sole_admin and sole_admin[0]:
        return "taken off members; still the team's only admin (name another in team.toml)"
    return "taken off members"


# -- contribute -----------------------------------------------------------------


def _stream_contributions(
    repo: SharedRepo, folder: str, team: str
) -> tuple[list[Contribution], int]:
    """This stream's valid contributions in the clone, and the highest sequence ever taken
    (a file withdrawn or removed upstream keeps its number: a new one never reuses it)."""
    base = repo.root / folder
    valid: list[Contribution] = []
    taken = (Path(rel).stem for rel in repo.ever_held(folder))
    highest = max((int(stem) for stem in taken if stem.isdigit()), default=0)
    for path in sorted(base.glob("*.json")) if base.is_dir() else []:
        rel = path.relative_to(repo.root).as_posix()
        if path.stem.isdigit():
            highest = max(highest, int(path.stem))
        try:
            valid.append(read_contribution(rel, path.read_bytes(), team))
        except Malformed:
            continue  # quarantined by synthesis; the next delta repairs the stream
    return valid, highest


def contribute(vault: Vault, team: str | None = None) -> dict[str, Any]:
    """Turn the opted-in pages' changes into this stream's next contribution and push it.

    Every opted-in domain is read every time (the result counts each); nothing is written
    when the pages say what the stream already said. A push that fails leaves the
    contribution in this machine's clone, and the next command pushes it.
    """
    m = membership(vault, team)
    report = Report()
    state, counts = read_state(vault, m.domains)
    covers = state_digest(state)
    repo = m.repo(vault)
    repo.ensure()
    folder = m.stream_folder(vault)
    machine = folder.rsplit("/", 1)[1]
    created: set[int] = set()  # over every attempt: a retry finds its file already there
    retried: set[int] = set()  # left unpushed by an earlier command, pushed now

    def change() -> list[int]:
        if m.member in _team_settings(repo, m.team)["removed"]:
            raise TeamError(f"{m.member!r} was removed from {m.team!r}: nothing is contributed")
        pending = {int(Path(r).stem) for r in repo.unpushed(folder) if Path(r).stem.isdigit()}
        pending -= created
        if not created:
            retried.update(pending)
        existing, highest = _stream_contributions(repo, folder, m.team)
        pages = delta(fold(existing), state)
        if not pages:
            return []
        seqs: list[int] = []
        for chunk in chunk_pages(pages):
            highest += 1
            doc = {
                "format": FORMAT,
                "team": m.team,
                "member": m.member,
                "machine": machine,
                "seq": highest,
                "covers": covers,
                "pages": chunk,
            }
            path = repo.root / contribution_path(m.member, machine, highest)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1).encode())
            seqs.append(highest)
        created.update(seqs)
        return seqs

    _, why = _land(repo, change, f"contribute: {m.member}", folder)
    written = sorted(created)
    for seq in written:
        report.add("created", contribution_path(m.member, machine, seq))
    if not written:
        report.add("unchanged", folder, None)
    waiting = len(repo.unpushed(folder))
    if why:
        report.add(
            "failed",
            folder,
            f"push failed ({why}); {waiting} contribution file(s) wait in this machine's "
            "clone: the next contribute or synthesise pushes them",
        )
    domains = {d: asdict(c) for d, c in counts.items()}
    for d, c in counts.items():
        for problem in c.problems:
            report.warn(f"wiki/{d}", problem)
    return {
        "team": m.team,
        "stream": folder.split("/", 1)[1],
        "domains": domains,
        "pages": len(state),
        "sequences": written,
        "retried": sorted(retried),
        "pushed": why is None,
        "waiting": waiting if why else 0,
        "report": report.to_dict(),
    }


# -- synthesise -------------------------------------------------------------------


def _contributions(
    repo: SharedRepo, team: str, removed: set[str]
) -> tuple[list[Contribution], list[dict[str, str]]]:
    """Every valid contribution of the shared repository, and the quarantined ones with why."""
    valid: list[Contribution] = []
    quarantined: list[dict[str, str]] = []
    base = repo.root / CONTRIBUTIONS
    for path in sorted(base.rglob("*")) if base.is_dir() else []:
        if not path.is_file():
            continue
        rel = path.relative_to(repo.root).as_posix()
        if rel.split("/")[1] in removed:
            continue
        try:
            size = path.stat().st_size
            if size > MAX_CONTRIBUTION_BYTES:
                raise Malformed(f"{size:,} bytes, over the {MAX_CONTRIBUTION_BYTES:,}-byte limit")
            valid.append(read_contribution(rel, path.read_bytes(), team))
        except Malformed as exc:
            quarantined.append({"path": rel, "reason": str(exc)})
    return valid, quarantined


def _wiki_files(repo: SharedRepo) -> dict[str, bytes]:
    base = repo.root / WIKI
    return {
        p.relative_to(repo.root).as_posix(): p.read_bytes()
        for p in (sorted(base.glob("*.md")) if base.is_dir() else [])
    }


def _shrinks(before: int, after: int) -> str | None:
    if before and not after:
        return f"the collective wiki would go from {before} pages to none"
    if before >= SHRINK_FLOOR and before - after > before * SHRINK_LIMIT:
        return f"the collective wiki would lose {before - after} of its {before} pages"
    return None


def synthesise(vault: Vault, team: str | None = None, allow_shrink: bool = False) -> dict[str, Any]:
    """Build the collective wiki from every valid contribution and push it.

    Refused (and nothing pushed) when the result would empty the wiki or remove most of
    its pages, unless ``allow_shrink``.
    """
    m = membership(vault, team)
    repo = m.repo(vault)
    repo.ensure()
    outcome: dict[str, Any] = {}

    def change() -> dict[str, Any]:
        data = _team_settings(repo, m.team)
        if m.member in data["removed"]:
            raise TeamError(f"{m.member!r} was removed from {m.team!r}: synthesis refused")
        valid, quarantined = _contributions(repo, m.team, set(data["removed"]))
        files = build(valid, m.team, str(data["attribution"]))
        before = _wiki_files(repo)
        gone = sorted(set(before) - set(files))
        shrink = _shrinks(len(before), len(before) - len(gone) + len(set(files) - set(before)))
        if shrink and not allow_shrink:
            raise TeamError(
                f"synthesis refused: {shrink} (read {len(valid)} contributions, "
                f"{len(quarantined)} quarantined); nothing was pushed. If that is right, "
                "run it again with --allow-shrink"
            )
        report = Report()
        for n, (rel, body) in enumerate(sorted(files.items())):
            if n == len(files) // 2:
                crash_point("team-synthesise")
            if before.get(rel) == body:
                report.add("unchanged")
                continue
            path = repo.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, body)
            report.add("updated" if rel in before else "created", rel)
        for rel in gone:
            (repo.root / rel).unlink()
            report.add("deleted", rel)
        for item in quarantined:
            report.add("refused", item["path"], f"quarantined: {item['reason']}")
        record = {
            "contributions": len(valid),
            "streams": len({c.stream for c in valid}),
            "pages": len(files),
            "quarantined": quarantined,
            "input": "sha256:"
            + hashlib.sha256(
                canonical(sorted((c.path, c.covers, c.seq) for c in valid))
            ).hexdigest(),
        }
        (repo.root / SYNTHESIS_FILE).write_text(
            json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        outcome.update(record)
        return report.to_dict()

    report, why = _land(repo, change, f"synthesise: {m.team}", m.stream_folder(vault))
    result = {"team": m.team, **outcome, "pushed": why is None, "report": report}
    if why:
        report["failed"] += 1
        report.setdefault("problems", {}).setdefault("failed", []).append(
            {"path": WIKI, "reason": f"push failed after {PUSH_ATTEMPTS} tries: {why}"}
        )
    return result


# -- pull: the mirror -------------------------------------------------------------


def _manifest_path(vault: Vault, team: str) -> Path:
    return vault.local_dir / "team" / team / "mirror.json"


def _read_manifest(vault: Vault, team: str) -> dict[str, str]:
    path = _manifest_path(vault, team)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def mirror_name(slug: str, team: str) -> str:
    """A mirror page's file name: ``<slug>--<team>``. No slug holds ``--``, so a link of
    the member's own (``[[pgvector]]``) never resolves into the mirror, in mnemex or in
    Obsidian, whose rule picks the shortest path among files of one name."""
    return f"{slug}--{team}"


def _mirror_text(text: str, team: str, slugs: set[str]) -> str:
    """A collective page as it lands in the mirror: sanitised, links into the mirror."""
    prefix = mirror_folder(team).split("/", 1)[1]

    def link(match: re.Match[str]) -> str:
        target, bar, alias = match[1].partition("|")
        if target in slugs:
            return f"[[{prefix}/{mirror_name(target, team)}{bar}{alias}]]"
        return alias or target

    return re.sub(r"\[\[([^\[\]\n]+?)\]\]", link, sanitise(text, defang_urls=False))


def pull(vault: Vault, team: str | None = None, allow_shrink: bool = False) -> dict[str, Any]:
    """Bring the collective wiki into ``wiki/shared-<team>/``: the mirror, read-only.

    A mirror file changed by hand since the last pull is kept and reported, never
    overwritten; a pull that would empty a non-empty mirror is refused.
    """
    m = membership(vault, team)
    repo = m.repo(vault)
    repo.ensure()
    repo.refresh(m.stream_folder(vault))
    files = _wiki_files(repo)
    slugs = {Path(rel).stem for rel in files}
    folder = mirror_folder(m.team)
    manifest = _read_manifest(vault, m.team)
    wanted = {
        f"{folder}/{mirror_name(Path(rel).stem, m.team)}.md": _mirror_text(
            body.decode("utf-8", "replace"), m.team, slugs
        ).encode()
        for rel, body in files.items()
    }
    if manifest and not wanted and not allow_shrink:
        raise TeamError(
            f"pull refused: the collective wiki of {m.team!r} is empty and your mirror holds "
            f"{len(manifest)} pages; nothing was changed (--allow-shrink to empty it)"
        )
    report = Report()
    new_manifest: dict[str, str] = {}
    for rel, body in sorted(wanted.items()):
        path = vault.root / rel
        current = sha256_bytes(path.read_bytes()) if path.is_file() else None
        if current is not None and rel in manifest and current != manifest[rel]:
            report.add("refused", rel, "changed by hand since the last pull: kept; move your edit "
                       "to a page of your own domain")  # fmt: skip
            new_manifest[rel] = manifest[rel]
            continue
        if current is not None and rel not in manifest and current != sha256_bytes(body):
            report.add("refused", rel, "a file the pull did not write is in the way: kept")
            continue
        new_manifest[rel] = sha256_bytes(body)
        if current == new_manifest[rel]:
            report.add("unchanged")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, body)
        report.add("updated" if current else "created", rel)
    for rel in sorted(set(manifest) - set(wanted)):
        path = vault.root / rel
        if path.is_file() and sha256_bytes(path.read_bytes()) != manifest[rel]:
            report.add("refused", rel, "gone from the collective wiki but changed by hand: kept")
            continue
        path.unlink(missing_ok=True)
        report.add("deleted", rel)
    target = _manifest_path(vault, m.team)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, json.dumps(new_manifest, indent=1, sort_keys=True).encode())
    return {"team": m.team, "mirror": folder, "pages": len(wanted), "report": report.to_dict()}


def _drop_mirror(vault: Vault, team: str) -> Report:
    report = Report()
    manifest = _read_manifest(vault, team)
    for rel, sha in sorted(manifest.items()):
        path = vault.root / rel
        if path.is_file() and sha256_bytes(path.read_bytes()) != sha:
            report.add("refused", rel, "changed by hand: kept")
            continue
        path.unlink(missing_ok=True)
        report.add("deleted", rel)
    return report


# -- members ----------------------------------------------------------------------


def _remove(vault: Vault, m: Membership, who: str, by: str, action: str) -> dict[str, Any]:
    """Take ``who``'s contributions out and resynthesise; what that removed."""
    repo = m.repo(vault)
    listing: dict[str, Any] = {}

    def change() -> None:
        data = _team_settings(repo, m.team)
        removed = set(data["removed"])
        valid, _ = _contributions(repo, m.team, removed)
        listing.update(_what_goes(valid, who, m.team, str(data["attribution"])))
        folder = repo.root / CONTRIBUTIONS / who
        if folder.is_dir():
            shutil.rmtree(folder)
        if action == "remove-member":
            data["removed"] = sorted(removed | {who})
            data["members"] = [x for x in data["members"] if x != who]
            data["admins"] = [x for x in data["admins"] if x != who]
            _write_team_settings(repo, data)
        # counts only: quoting what was removed would keep it at HEAD
        counts = {k: len(v) if isinstance(v, list) else v for k, v in listing.items()}
        _audit(repo, {"action": action, "member": who, "by": by, **counts})

    keep = None if who == m.member else m.stream_folder(vault)  # a withdrawal takes all
    _, why = _land(repo, change, f"team {m.team}: {action} {who}", keep)
    if why:
        raise TeamError(f"could not push the removal to {m.remote}: {why}")
    listing["synthesis"] = synthesise(vault, m.team, allow_shrink=True)
    if not listing["synthesis"]["pushed"]:
        raise TeamError(
            f"{who}'s contributions were taken out, but the new wiki could not be pushed: "
            "run `mnemex team synthesise` again"
        )
    return listing


def _what_goes(valid: list[Contribution], who: str, team: str, attribution: str) -> dict[str, Any]:
    """The pages and statements that only ``who`` backs: what removing them takes out."""
    label = contributor_label(who, team, attribution)
    before = build(valid, team, attribution)
    after = build([c for c in valid if c.member != who], team, attribution)
    statements: list[str] = []
    for rel, body in before.items():
        for line in body.decode().splitlines():
            line = line.strip().removeprefix("- ").removeprefix("differs: ")
            if line.endswith(f" — {label}"):
                statements.append(f"{Path(rel).stem}: {line.rsplit(' — ', 1)[0]}")
    return {
        "contributions": sum(1 for c in valid if c.member == who),
        "pages_removed": sorted(Path(rel).stem for rel in set(before) - set(after)),
        "statements_removed": statements,
    }


def remove_member(
    vault: Vault, who: str, team: str | None = None, yes: bool = False
) -> dict[str, Any]:
    """An admin takes a member out: their contributions and what only they backed.

    Without ``yes`` this is a plan: it lists exactly what would go and changes nothing.
    """
    m = membership(vault, team)
    repo = m.repo(vault)
    repo.ensure()
    repo.refresh(m.stream_folder(vault))
    data = _team_settings(repo, m.team)
    if m.member not in data["admins"]:
        raise TeamError(
            f"only an admin of {m.team!r} ({', '.join(data['admins'])}) may remove a member"
        )
    if who not in data["members"] and not (repo.root / CONTRIBUTIONS / who).is_dir():
        raise TeamError(f"{who!r} is not a member of {m.team!r}")
    if not yes:
        valid, _ = _contributions(repo, m.team, set(data["removed"]))
        plan = _what_goes(valid, who, m.team, str(data["attribution"]))
        return {"team": m.team, "member": who, "applied": False, **plan}
    return {
        "team": m.team,
        "member": who,
        "applied": True,
        **_remove(vault, m, who, m.member, "remove-member"),
    }


# -- status -----------------------------------------------------------------------


def status(vault: Vault, team: str | None = None) -> dict[str, Any]:
    """Where this vault stands in a team: settings, streams, waiting pushes, quarantine."""
    m = membership(vault, team)
    repo = m.repo(vault)
    out: dict[str, Any] = {"team": m.team, "member": m.member, "remote": m.remote}
    _, counts = read_state(vault, m.domains)
    out["domains"] = {d: c.pages for d, c in counts.items()}
    try:
        repo.ensure()
        repo.refresh(m.stream_folder(vault))
        out["reachable"] = True
    except TeamError as exc:
        out["reachable"] = False
        out["error"] = str(exc)
        return out
    data = _team_settings(repo, m.team)
    out.update({k: data[k] for k in ("attribution", "admins", "members", "removed")})
    valid, _ = _contributions(repo, m.team, set(data["removed"]))
    mine = [c for c in valid if c.stream == m.stream_folder(vault).split("/", 1)[1]]
    out["stream"] = m.stream_folder(vault).split("/", 1)[1]
    out["sequence"] = max((c.seq for c in mine), default=0)
    out["waiting"] = len(repo.unpushed(m.stream_folder(vault)))
    out["streams"] = len({c.stream for c in valid})
    out["wiki_pages"] = len(_wiki_files(repo))
    record = repo.root / SYNTHESIS_FILE
    out["quarantined"] = (
        json.loads(record.read_text(encoding="utf-8")).get("quarantined", [])
        if record.is_file()
        else []
    )
    out["mirror_pages"] = len(_read_manifest(vault, m.team))
    return out


__all__ = [
    "Membership",
    "contribute",
    "init_team",
    "join_team",
    "leave_team",
    "membership",
    "mirror_name",
    "pull",
    "remove_member",
    "status",
    "synthesise",
]
