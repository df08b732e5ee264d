"""A team as its members meet it: separate vaults and HOMEs, the real ``mnemex team``
command in its own process, a bare repository on disk as the shared remote."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from team_support import MNEMEX, Member, bare, every_byte, page, shared_files

SECRET = "ghp_" + "Zq7" * 12  # a GitHub token shape the redactor knows


def _team(tmp: Path) -> tuple[Path, Member, Member]:
    origin = bare(tmp)
    ada, bob = Member(tmp, "ada"), Member(tmp, "bob")
    ada.team(
        "init", "acme", "--remote", str(origin), "--member", "ada", "--domains", "general,work"
    )
    bob.team("join", "acme", "--remote", str(origin), "--member", "bob", "--domains", "general")
    return origin, ada, bob


def _planted(ada: Member) -> None:
    """Opted-in pages that link to private things, and private things that must stay."""
    ada.write(
        "wiki/general/entities/kestrel-systems.md",
        page(
            "Kestrel Systems",
            "Kestrel Systems builds flight software.",
            [
                "Priya Raman joined in 2026, see [[divorce-lawyer]] for why.",
                f"The deploy token is {SECRET} for now.",
                "The papers are in notes/divorce-lawyer.md and wiki/general/sources/report.txt.",
                "Its site is https://example.org/kestrel/about for now.",
                "Its office is in Lisbon ([[type-hints-summary]], 2025-03-01).",
            ],
            ["Priya Raman", "divorce-lawyer", "Diary Entry", "case"],
            aliases=["Kestrel"],
        ),
    )
    ada.write(
        "wiki/general/summaries/type-hints-summary.md",
        "---\ntype: summary\ntitle: Kestrel annual report\nurl: https://example.org/report\n"
        "date: '2025-03-01'\n---\n# Kestrel annual report\nA report.\n",
    )
    ada.write("wiki/general/sources/report.txt", "SOURCE-ORIGINAL-TEXT-zq1 never leaves\n")
    ada.write(
        "wiki/work/concepts/blue-green.md",
        page("Blue green deploy", "Two fleets, one live.", type="concept"),
    )
    ada.write("notes/divorce-lawyer.md", "# Divorce lawyer\nPRIVATE-NOTE-zq2 Ms Alvarez.\n")
    ada.write("wiki/health/entities/diary-entry.md", page("Diary Entry", "PRIVATE-DOMAIN-zq3"))
    ada.write("wiki/private/entities/x.md", page("Hidden", "PRIVATE-DOMAIN-zq4"))
    ada.write("wiki/general/entities/priya-raman.md", page("Priya Raman", "An engineer."))
    ada.write(
        "wiki/general/entities/case.md",
        page("The Case", "PRIVATE-PROJECT-zq5 filed in general.", project="private"),
    )


def test_contribute_synthesise_pull_end_to_end_and_nothing_private_leaves(tmp_path: Path) -> None:
    origin, ada, bob = _team(tmp_path)
    _planted(ada)
    bob.write(
        "wiki/general/entities/kestrel.md",
        page("Kestrel", "Kestrel Systems builds flight software.", ["Its office is in Porto."]),
    )

    sent = ada.team("contribute")
    assert sent["exit"] == 0 and sent["pushed"] and sent["sequences"] == [1]
    # every opted-in domain, every time, each named with its count
    assert set(sent["domains"]) == {"general", "work"}
    assert sent["domains"]["general"]["pages"] == 3  # sources/ is not a page that leaves
    assert sent["domains"]["general"]["withheld_pages"] == 1  # project: private stays
    assert sent["domains"]["work"]["pages"] == 1
    assert sent["domains"]["general"]["withheld_links"] >= 2
    assert bob.team("contribute")["sequences"] == [1]
    again = ada.team("contribute")  # nothing changed: nothing written, and it says so
    assert again["sequences"] == [] and again["report"]["unchanged"] == 1

    built = bob.team("synthesise")
    assert built["exit"] == 0 and built["pushed"] and built["contributions"] == 2
    files = shared_files(origin)
    kestrel = files["wiki/kestrel-systems.md"]  # one page for both members' Kestrel
    assert "contributors:\n- ada\n- bob" in kestrel
    assert "Kestrel Systems builds flight software. — ada, bob" in kestrel  # one statement
    assert "(Kestrel annual report; https://example.org/report; 2025-03-01)" in kestrel
    # the same thing said two ways is kept side by side, each with who said it
    assert "## Differing statements" in kestrel
    assert "Lisbon" in kestrel and "Porto" in kestrel
    assert "[[priya-raman|Priya Raman]]" in kestrel  # links fixed across members
    assert "The papers are in [path withheld] and [path withheld]." in kestrel
    assert "https://example.org/kestrel/about" in kestrel  # a web address is not a path
    assert "## Provenance" in kestrel

    # nothing private left ada's machine: every byte of every object of the shared repo
    everything = every_byte(origin)
    for planted in (
        b"divorce",
        b"Alvarez",
        b"PRIVATE-",
        SECRET.encode(),
        b"SOURCE-ORIGINAL",
        b"Diary",
        b"notes/",
        b"wiki/general",
        b"sources/",
        b"type-hints-summary",
        b"zq5",
        b"The Case",  # a private-project page's title, linked from an opted-in page
    ):
        assert planted not in everything, planted

    pulled = ada.team("pull")
    assert pulled["exit"] == 0 and pulled["report"]["created"] == len(
        [f for f in files if f.startswith("wiki/")]
    )
    mirror = ada.root / "wiki/shared-acme/kestrel-systems--acme.md"
    assert "[[shared-acme/priya-raman--acme|Priya Raman]]" in mirror.read_text(encoding="utf-8")
    assert "wiki/shared-acme/" in ada.git("check-ignore", "-v", str(mirror))
    # searchable like the member's own pages, named as the team's
    hits = json.loads(ada.run("search", "Porto office", "--json").stdout)
    assert any(h["path"] == "wiki/shared-acme/kestrel-systems--acme.md" for h in hits)
    # the mirror never takes over the member's own links: nothing new to contribute
    assert ada.team("contribute")["sequences"] == []
    # read-only to the write tools, pointing to the member's own domain
    ada.write("draft.md", "# Mine\nMy own words.\n")
    refused = ada.run(
        "note", "add", str(ada.root / "draft.md"), "--path", "wiki/shared-acme/mine.md", ok=False
    )
    assert refused.returncode == 1 and "your own domain" in refused.stderr
    assert not ada.git("status", "--porcelain", "--", "wiki/shared-acme")
    status = ada.team("status")
    assert status["mirror_pages"] == pulled["pages"] and status["waiting"] == 0
    # a file the pull did not write is never overwritten
    (mirror.parent / "priya-raman--acme.md").write_text("mine\n", encoding="utf-8")
    (ada.root / ".mnemex/team/acme/mirror.json").unlink()
    again = ada.team("pull", ok=False)
    assert again["exit"] == 1 and again["report"]["refused"] == 1
    assert (mirror.parent / "priya-raman--acme.md").read_text(encoding="utf-8") == "mine\n"


def test_a_private_domain_cannot_be_opted_in(tmp_path: Path) -> None:
    origin = bare(tmp_path)
    ada = Member(tmp_path, "ada")
    for domain in ("health", "private"):
        done = ada.team(
            "init",
            "acme",
            "--remote",
            str(origin),
            "--member",
            "ada",
            "--domains",
            domain,
            ok=False,
        )
        assert done["exit"] == 1 and "private" in done["stderr"]
    leaky = ada.team(
        "init", "acme", "--remote", "https://ada:hunter2@git.example.org/acme.git",
        "--member", "ada", "--domains", "general", ok=False,
    )  # fmt: skip
    assert leaky["exit"] == 1 and "holds a password" in leaky["stderr"]
    assert "hunter2" not in leaky["stderr"]
    assert not shared_files_exist(origin)
    assert "[team" not in (ada.root / "mnemex.toml").read_text(encoding="utf-8")


def shared_files_exist(origin: Path) -> bool:
    return bool(
        subprocess.run(
            ["git", "rev-parse", "-q", "--verify", "main"], cwd=origin, capture_output=True
        ).stdout
    )


def test_a_malformed_or_oversized_contribution_is_quarantined_not_fatal(tmp_path: Path) -> None:
    origin, ada, bob = _team(tmp_path)
    ada.write("wiki/general/entities/tide.md", page("Tidewater Labs", "A lab by the sea."))
    ada.team("contribute")
    # a hostile member pushes garbage straight into the shared repository
    rogue = tmp_path / "rogue"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(origin), str(rogue)], check=True)
    stream = rogue / "contributions/mallory/0000beef"
    stream.mkdir(parents=True)
    (stream / "00000001.json").write_text("{not json", encoding="utf-8")
    (stream / "00000002.json").write_text(" " * 1_100_000, encoding="utf-8")
    (stream / "00000003.json").write_text(
        json.dumps({"format": 1, "team": "acme"}), encoding="utf-8"
    )
    for cmd in (["add", "-A"], ["commit", "-qm", "rogue"], ["push", "-q", "origin", "HEAD:main"]):
        subprocess.run(["git", *cmd], cwd=rogue, check=True, env=ada.env)

    built = bob.team("synthesise")
    assert built["exit"] == 0 and built["pushed"]  # the good ones still made the wiki
    assert "wiki/tidewater-labs.md" in shared_files(origin)
    reasons = {q["path"].rsplit("/", 1)[1]: q["reason"] for q in built["quarantined"]}
    assert "not JSON" in reasons["00000001.json"]
    assert "over the 1,000,000-byte limit" in reasons["00000002.json"]
    assert "differ from the file's path" in reasons["00000003.json"]
    assert built["report"]["refused"] == 3
    assert len(bob.team("status")["quarantined"]) == 3


def test_a_synthesis_that_would_empty_the_wiki_is_refused(tmp_path: Path) -> None:
    origin, ada, bob = _team(tmp_path)
    for n in range(5):
        ada.write(f"wiki/general/entities/p{n}.md", page(f"Page {n}", f"Statement number {n}."))
    ada.team("contribute")
    ada.team("synthesise")
    before = shared_files(origin)
    # the contributions vanish (a bad merge, a wrong checkout): the result would be empty
    rogue = tmp_path / "rogue"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(origin), str(rogue)], check=True)
    for cmd in (
        ["rm", "-rq", "contributions"],
        ["commit", "-qm", "oops"],
        ["push", "-q", "origin", "HEAD:main"],
    ):
        subprocess.run(["git", *cmd], cwd=rogue, check=True, env=ada.env)
    refused = bob.team("synthesise", ok=False)
    assert refused["exit"] == 1
    assert (
        "synthesis refused: the collective wiki would go from 5 pages to none" in refused["stderr"]
    )
    after = shared_files(origin)
    assert {k: v for k, v in after.items() if k.startswith("wiki/")} == {
        k: v for k, v in before.items() if k.startswith("wiki/")
    }
    # and a pull of a wiki that is empty never empties the mirror silently either
    assert bob.team("pull")["pages"] == 5


def test_a_push_that_fails_is_reported_and_retried_by_the_next_command(tmp_path: Path) -> None:
    origin, ada, _ = _team(tmp_path)
    hook = origin / "hooks" / "pre-receive"
    hook.write_text(
        "#!/bin/sh\necho 'remote: refused for the test' >&2\nexit 1\n", encoding="utf-8"
    )
    hook.chmod(0o755)
    ada.write("wiki/general/entities/tide.md", page("Tidewater Labs", "A lab by the sea."))
    failed = ada.team("contribute", ok=False)
    assert failed["exit"] == 1 and not failed["pushed"] and failed["waiting"] >= 1
    assert failed["report"]["failed"] == 1 and "NOT" not in failed["stderr"]  # JSON mode
    assert ada.team("status")["waiting"] == 1
    hook.unlink()
    ada.write("wiki/general/entities/kes.md", page("Kestrel", "Flight software."))
    retried = ada.team("contribute")
    assert retried["pushed"] and retried["sequences"] == [2]  # the first one was kept
    assert retried["retried"] == [1]
    names = [n for n in shared_files(origin) if n.startswith("contributions/ada/")]
    assert [n.rsplit("/", 1)[1] for n in sorted(names)] == ["00000001.json", "00000002.json"]
    assert ada.team("status")["waiting"] == 0


def test_a_synthesis_killed_halfway_is_safe_to_run_again(tmp_path: Path) -> None:
    origin, ada, bob = _team(tmp_path)
    for n in range(12):
        ada.write(f"wiki/general/entities/p{n}.md", page(f"Page {n}", f"Statement number {n}."))
    ada.team("contribute")
    ada.env.update(
        {"MNEMEX_TEST_CRASH": "team-synthesise", "MNEMEX_TEST_CRASH_CONFIRM": "kill this process"}
    )
    killed = ada.run("team", "synthesise", ok=False)
    assert killed.returncode == -9
    assert not any(n.startswith("wiki/") for n in shared_files(origin))  # nothing half-pushed
    del ada.env["MNEMEX_TEST_CRASH"]
    assert ada.team("synthesise")["pushed"]
    first = shared_files(origin)
    assert bob.team("synthesise")["report"]["created"] == 0  # same input, same bytes: no-op
    assert shared_files(origin) == first


def test_remove_member_takes_only_what_they_alone_backed(tmp_path: Path) -> None:
    origin, ada, bob = _team(tmp_path)
    ada.write(
        "wiki/general/entities/k.md", page("Kestrel", "Flight software.", ["Founded in Porto."])
    )
    bob.write(
        "wiki/general/entities/k.md",
        page("Kestrel", "Flight software.", ["Has 40 staff.", "Founded in Braga."]),
    )
    bob.write("wiki/general/entities/b.md", page("Bob Only", "Only bob says this."))
    ada.team("contribute")
    bob.team("contribute")
    ada.team("synthesise")
    refused = bob.team("remove-member", "ada", ok=False)
    assert refused["exit"] == 1 and "only an admin" in refused["stderr"]
    plan = ada.team("remove-member", "bob")
    assert plan["applied"] is False and plan["pages_removed"] == ["bob-only"]
    assert "kestrel: Has 40 staff." in plan["statements_removed"]
    assert "kestrel: Founded in Braga." in plan["statements_removed"]  # a differing one too
    assert "wiki/bob-only.md" in shared_files(origin)  # a plan changes nothing
    done = ada.team("remove-member", "bob", "--yes")
    assert done["applied"] and done["pages_removed"] == ["bob-only"]
    files = shared_files(origin)
    assert "wiki/bob-only.md" not in files
    assert "Flight software." in files["wiki/kestrel.md"]  # ada backs it too: it stays
    assert "40 staff" not in files["wiki/kestrel.md"]
    assert not any(n.startswith("contributions/bob/") for n in files)
    audit = [json.loads(line) for line in files["audit.jsonl"].splitlines()]
    assert audit[-1]["action"] == "remove-member" and audit[-1]["member"] == "bob"
    assert audit[-1]["pages_removed"] == 1  # counts: quoting it would keep it at HEAD
    assert "40 staff" not in files["audit.jsonl"]
    assert 'removed = ["bob"]' in files["team.toml"]
    # a removed member's later contributions are not synthesised
    bob.write("wiki/general/entities/c.md", page("Comeback", "Bob again."))
    refused = bob.team("contribute", ok=False)
    assert refused["exit"] == 1 and "was removed" in refused["stderr"]
    assert bob.team("synthesise", ok=False)["exit"] == 1
    ada.team("synthesise")
    files = shared_files(origin)
    assert "wiki/comeback.md" not in files
    assert not any(n.startswith("contributions/bob/") for n in files)  # never pushed back


@pytest.mark.parametrize("withdraw", [False, True])
def test_leave_says_whether_contributions_stay(tmp_path: Path, withdraw: bool) -> None:
    origin, ada, bob = _team(tmp_path)
    bob.write("wiki/general/entities/b.md", page("Bob Only", "Only bob says this."))
    ada.write("wiki/general/entities/a.md", page("Ada Only", "Only ada says this."))
    bob.team("contribute")
    ada.team("contribute")
    bob.team("synthesise")
    bob.team("pull")
    left = bob.team("leave", *(["--withdraw"] if withdraw else []))
    assert left["contributions"] == ("withdrawn" if withdraw else "kept")
    assert not (bob.root / "wiki/shared-acme").exists() or not any(
        (bob.root / "wiki/shared-acme").iterdir()
    )
    assert "[team.acme]" not in (bob.root / "mnemex.toml").read_text(encoding="utf-8")
    assert ("wiki/bob-only.md" in shared_files(origin)) is not withdraw
    assert left["members"] == "taken off members"
    assert 'members = ["ada"]' in shared_files(origin)["team.toml"]
    # the only admin leaving stays its admin, and says so
    assert "only admin" in ada.team("leave")["members"]
    assert 'admins = ["ada"]' in shared_files(origin)["team.toml"]
    if withdraw:  # back again: a new contribution never reuses a withdrawn one's number
        bob.team("join", "acme", "--remote", str(origin), "--member", "bob", "--domains", "general")
        assert bob.team("contribute")["sequences"] == [2]


def test_a_contribute_killed_before_its_push_loses_nothing(tmp_path: Path) -> None:
    origin, ada, _ = _team(tmp_path)
    ada.write("wiki/general/entities/tide.md", page("Tidewater Labs", "A lab by the sea."))
    crash = {"MNEMEX_TEST_CRASH": "team-push", "MNEMEX_TEST_CRASH_CONFIRM": "kill this process"}
    ada.env.update(crash)
    assert ada.run("team", "contribute", ok=False).returncode == -9
    for key in crash:
        del ada.env[key]
    assert not any(n.startswith("contributions/ada/") for n in shared_files(origin))
    assert ada.team("status")["waiting"] == 1
    again = ada.team("contribute")
    assert again["pushed"] and again["retried"] == [1] and again["sequences"] == []
    assert ada.team("synthesise")["pushed"]
    assert "wiki/tidewater-labs.md" in shared_files(origin)


def test_team_commands_on_one_vault_take_turns(tmp_path: Path) -> None:
    """A scheduled contribute and a synthesis by hand share the vault's one clone."""
    origin, ada, _ = _team(tmp_path)
    for n in range(6):
        ada.write(f"wiki/general/entities/p{n}.md", page(f"Page {n}", f"Statement number {n}."))
    runs = [
        subprocess.Popen(
            [*MNEMEX, "--vault", str(ada.root), "team", command],
            env=ada.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in ("contribute", "synthesise", "contribute", "pull")
    ]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, (out, err)
    ada.team("synthesise")
    assert len([n for n in shared_files(origin) if n.startswith("wiki/")]) == 6
