"""Several members at once, as separate processes with separate vaults against one bare
repository: concurrent contribute and synthesise, the same new page created by two members at
once, a member whose clock is days off, a malformed contribution pushed mid-term, and a member
removed mid-term. What is measured: contributions made / synthesised / lost (0 lost), that
nobody got an error, and that every statement a present member made is in the wiki.

No time is asserted; every wait is bounded by the subprocess timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

from team_support import Member, bare, page, shared_files

ROUNDS = int(os.environ.get("MNEMEX_TEAM_ROUNDS", "3"))
NAMES = ("ada", "bob", "cy", "dee")
SKEWED = "dee"  # her machine's clock is ten days behind (faketime): git dates and all
REMOVED = "cy"


def _marker(member: str, n: int) -> str:
    return f"zq{member}{n}x"


class Log:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.acknowledged: dict[str, list[int]] = {}  # member -> sequences pushed
        self.markers: dict[str, list[str]] = {}
        self.errors: list[str] = []
        self.refused: list[str] = []  # what the removed member tried after removal
        self.removed = threading.Event()


def _member(m: Member, log: Log, start: threading.Barrier) -> None:
    start.wait(timeout=120)
    for n in range(ROUNDS):
        marker = _marker(m.name, n)
        m.write(
            f"wiki/general/entities/{m.name}-{n}.md",
            page(f"{m.name} topic {n}", f"The word {marker} marks what {m.name} learned."),
        )
        if n == 0:  # everyone creates the same new page at once
            m.write(
                "wiki/general/entities/harbour.md",
                page("Harbour Project", f"The harbour project was seen by {m.name}."),
            )
        done = m.team("contribute", ok=False)
        with log.lock:
            if done["exit"] != 0 and m.name == REMOVED and "was removed" in done["stderr"]:
                log.refused.append(m.name)
                continue
            if done["exit"] != 0:
                log.errors.append(f"{m.name} contribute: {done['stderr']}")
            else:
                log.acknowledged.setdefault(m.name, []).extend(done["sequences"] + done["retried"])
                log.markers.setdefault(m.name, []).append(marker)
        if m.name == "ada" and n == 1:
            plan = m.team("remove-member", REMOVED, "--yes", ok=False)
            if plan["exit"] != 0:
                log.errors.append(f"remove-member: {plan['stderr']}")
            log.removed.set()
        if n % 2 == 0 or m.name == "bob":
            built = m.team("synthesise", ok=False)
            if built["exit"] != 0 and m.name == REMOVED and "was removed" in built["stderr"]:
                continue
            if built["exit"] != 0:
                log.errors.append(f"{m.name} synthesise: {built['stderr']}")


def test_members_at_once_lose_nothing(tmp_path: Path) -> None:
    origin = bare(tmp_path)
    members = {name: Member(tmp_path, name, -10 if name == SKEWED else 0) for name in NAMES}
    ada = members["ada"]
    ada.team("init", "acme", "--remote", str(origin), "--member", "ada", "--domains", "general")
    for name in NAMES[1:]:
        members[name].team(
            "join", "acme", "--remote", str(origin), "--member", name, "--domains", "general"
        )
    log = Log()
    start = threading.Barrier(len(NAMES) + 1)
    threads = [threading.Thread(target=_member, args=(m, log, start)) for m in members.values()]
    for thread in threads:
        thread.start()
    start.wait(timeout=120)
    # a malformed contribution lands mid-term, pushed by hand
    rogue = tmp_path / "rogue"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(origin), str(rogue)], check=True)
    bad = rogue / "contributions/mallory/00000bad/00000001.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"format": 1, "pages": "oops"', encoding="utf-8")
    for _ in range(20):  # the members push too: retry until it lands
        subprocess.run(["git", "add", "-A"], cwd=rogue, check=True)
        subprocess.run(["git", "commit", "-qm", "bad", "--allow-empty"], cwd=rogue, env=ada.env)
        pushed = subprocess.run(["git", "push", "-q", "origin", "HEAD:main"], cwd=rogue)
        if pushed.returncode == 0:
            break
        subprocess.run(["git", "pull", "-q", "--rebase", "origin", "main"], cwd=rogue, env=ada.env)
    for thread in threads:
        thread.join(timeout=900)
        assert not thread.is_alive()

    assert log.errors == []
    final = ada.team("synthesise")
    files = shared_files(origin)
    wiki = "\n".join(text for name, text in files.items() if name.startswith("wiki/"))

    # made / synthesised / lost, for the members still in the team
    present = [n for n in NAMES if n != REMOVED]
    made = sum(len(log.acknowledged[n]) for n in present)
    on_remote = [
        n for n in files if n.split("/")[0] == "contributions" and n.split("/")[1] in present
    ]
    assert sorted(on_remote) == sorted(
        f"contributions/{n}/{p}"
        for n in present
        for p in _stream_files(files, n)  # every acknowledged sequence is there, once
    )
    assert made == len(on_remote) == final["contributions"]
    lost = [m for n in present for m in log.markers[n] if m not in wiki]
    assert lost == []
    assert len(log.markers[SKEWED]) == ROUNDS  # the skewed clock dropped nothing
    log_lines = subprocess.run(
        ["git", "log", "--format=%an %ct", "main"], cwd=origin, capture_output=True, text=True
    ).stdout.splitlines()
    started = int(log_lines[-1].split()[1])  # ada's first commit, before anyone else's
    skewed = [int(line.split()[1]) for line in log_lines if line.startswith(f"{SKEWED} ")]
    assert skewed and max(skewed) < started  # her commits say they came days earlier
    # cy's own statements left with her; the page all four made at once stayed one page
    assert not any(m in wiki for m in log.markers.get(REMOVED, []))
    harbour = files["wiki/harbour-project.md"]
    assert "contributors:\n- ada\n- bob\n- dee\n" in harbour
    assert [q["path"] for q in final["quarantined"]] == [
        "contributions/mallory/00000bad/00000001.json"
    ]
    record = json.loads(files["synthesis.json"])
    assert record["contributions"] == made


def _stream_files(files: dict[str, str], member: str) -> list[str]:
    prefix = f"contributions/{member}/"
    return [n[len(prefix) :] for n in files if n.startswith(prefix)]
