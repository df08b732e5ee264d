"""Recall of harvested sessions: offline digests vs. plain transcript chunks (issue 5).

    python bench/harvest_recall.py [--embedder minilm|hashing] [--workdir DIR] [--show-misses]

Builds 42 synthetic sessions over 6 projects (``bench/data/harvest_sessions.json``), written
in all four transcript formats (Claude Code, Codex CLI, Gemini CLI, Aider) with the usual
mechanics around the facts: file reads with long outputs, greps, chatter, a side request,
failing and passing commands. Then it asks the golden questions of
``bench/data/harvest_golden.json`` two ways, with the same hybrid search and embedder:

(a) **digests**: ``harvest_sessions`` into a vault, index sync, ``search_memories``;
(b) **raw chunks**: the same transcripts read by the same readers, their user and assistant
    messages (no tool output) in order, packed into ~800-character chunks at message
    boundaries, one note per chunk, ``search`` over that vault.

A hit is any note of an answering session. It prints recall@5 (an answering session in the
top 5) and MRR (first answering session's rank, over the top 10) overall and per question
kind, and writes ``bench/out/harvest_recall.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.harvest.readers import load_reader
from mnemex.harvest.run import harvest_sessions
from mnemex.memories.recall import search_memories
from mnemex.retrieve.search import search
from mnemex.vault import Vault
from mnemex.vault.layout import init_vault

DATA = Path(__file__).parent / "data"
OUT = Path(__file__).parent / "out"
HARNESSES = ("claude-code", "codex", "gemini-cli", "aider")
CHUNK_CHARS = 800
K = 5
ROUTINES = 8  # routine sessions per project, besides the scenarios

Event = tuple[str, ...]
# ("user", text) ("say", text) ("read", path, output) ("run", cmd, exit, output)
# ("edit", path) — the mechanics of a session, written by each format's writer below

SIDE_REQUESTS = (
    ("Also fix the typo in the README while you are there.", "README.md"),
    ("Can you add a changelog entry for this?", "CHANGELOG.md"),
    ("Please also bump the version number.", "VERSION"),
)
CHATTER = (
    "Let me look at how this is wired up first.",
    "I'll check where else this code path is used.",
    "Let me search for the other callers.",
    "Now I'll run the tests to reproduce it.",
    "The output confirms the problem.",
    "Running the full suite now.",
)


EXPLAIN = (
    "{read} holds the {key} logic. It is called from the request handler and from the "
    "background worker, and the existing tests only cover the happy path.",
    "So {key} is built once at start-up and then shared; nothing resets it between calls. "
    "I'll keep the public signature as it is.",
    "The {key} code is older than the rest of the module and has no direct tests. I will add "
    "one that reproduces the report before changing anything.",
)
#: (request, command that fails, its output, what was done, final words) of routine sessions:
#: most real sessions are like these, and they share the projects' files and words.
ROUTINE = (
    (
        "Run the linter and fix whatever it complains about in {file}.",
        "{lint}",
        "{file}:12:1: unused import; {file}:40:5: line too long (112 > 100)",
        "Removed the unused import and wrapped the long line.",
        "Done: the linter is clean and the tests still pass.",
    ),
    (
        "Bump the dependencies to their latest minor versions.",
        "{test}",
        "2 tests failed after the upgrade: snapshot mismatch in {file}",
        "The snapshot changed only in whitespace, so I updated it.",
        "Dependencies are bumped and the lockfile is regenerated; all tests pass.",
    ),
    (
        "Add a unit test for {file}.",
        "{test}",
        "1 passed",
        "Added a test that covers the empty input case.",
        "The new test passes; coverage of {file} went from 61% to 78%.",
    ),
    (
        "Rename the helpers in {file} so they match the naming convention.",
        "{test}",
        "NameError: name '{stem}_old' is not defined",
        "Updated the last caller I had missed.",
        "Renamed; every caller is updated and the tests pass.",
    ),
)
_TOOLS = {
    "rs": ("cargo clippy -- -D warnings", "cargo test"),
    "ts": ("npx eslint src", "npm test"),
    "tsx": ("npx eslint src", "npm test"),
    "py": ("ruff check .", "pytest -q"),
    "tf": ("tflint", "terraform validate"),
}


def _code_noise(rng: random.Random, path: str, lines: int) -> str:
    words = re.findall(r"[a-z]+", path.lower()) or ["module"]
    out = []
    for n in range(lines):
        w = rng.choice(words)
        out.append(
            rng.choice(
                (
                    f"{n + 1:4d}  fn {w}_{rng.randint(1, 99)}(ctx: &Context) -> Result<()> {{",
                    f"{n + 1:4d}      let {w} = self.{w}s.get(&key).cloned();",
                    f"{n + 1:4d}      // keep {w} in step with the store",
                    f"{n + 1:4d}  }}",
                    f"{n + 1:4d}  import {{ {w} }} from './{w}';",
                    f"{n + 1:4d}  def {w}_handler(self, {w}_id: int) -> None:",
                )
            )
        )
    return "\n".join(out)


def script(s: dict[str, Any], rng: random.Random, cwd: str, side: int) -> list[Event]:
    """The events of one scenario's session: the facts plus ordinary mechanics."""
    key = (re.findall(r"[A-Za-z_]{5,}", s["read"]) or [Path(s["read"]).stem])[-1]
    events: list[Event] = [
        ("user", s["request"]),
        ("say", f"{CHATTER[0]} I'll read {s['read']}."),
        ("read", s["read"], _code_noise(rng, s["read"], rng.randint(40, 120))),
        ("say", rng.choice(EXPLAIN).format(read=s["read"], key=key)),
        ("say", CHATTER[rng.randint(1, 2)]),
        ("run", f"rg -n {key} .", "0", _code_noise(rng, key, rng.randint(5, 20))),
        ("say", CHATTER[3]),
        ("run", s["fail_cmd"], "1", f"{_code_noise(rng, 'build log', 8)}\n{s['fail_out']}"),
        ("say", f"{CHATTER[4]} {s['dead_end']}".strip()),
        ("say", s["decision"]),
    ]
    events += [("edit", f"{cwd}/{f}") for f in s["files"]]
    events += [("say", CHATTER[5]), ("run", s["pass_cmd"], "0", "ok: all checks passed")]
    if side >= 0:
        request, target = SIDE_REQUESTS[side]
        events += [("user", request), ("edit", f"{cwd}/{target}"), ("say", "Done.")]
    events.append(("say", s["final"]))
    return events


def routine(project: str, lang: str, files: list[str], n: int) -> dict[str, Any]:
    """A routine session of ``project`` shaped like a scenario (not in the golden set)."""
    request, fail_cmd, fail_out, fix, final = ROUTINE[n % len(ROUTINE)]
    lint, test = _TOOLS[lang]
    file = files[n % len(files)]
    fill = {"file": file, "stem": Path(file).stem, "lint": lint, "test": test}
    return {
        "id": f"R-{project}-{n}",
        "project": project,
        "request": request.format(**fill) + f" ({project}, chore {n + 1})",
        "read": file,
        "fail_cmd": fail_cmd.format(**fill),
        "fail_out": fail_out.format(**fill),
        "dead_end": "",
        "decision": fix,
        "files": [file],
        "pass_cmd": test,
        "final": final.format(**fill),
    }


def _stamps(start: dt.datetime, n: int) -> list[str]:
    return [
        (start + dt.timedelta(seconds=20 * i)).isoformat().replace("+00:00", "Z") for i in range(n)
    ]


def write_claude(root: Path, sid: str, cwd: str, events: list[Event], start: dt.datetime) -> None:
    folder = root / re.sub(r"[^A-Za-z0-9]", "-", cwd)
    folder.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, Any]] = []
    stamps = iter(_stamps(start, 4 * len(events)))

    def rec(kind: str, message: dict[str, Any]) -> None:
        n = len(lines)
        lines.append(
            {
                "type": kind,
                "uuid": f"{sid}-{n}",
                "parentUuid": f"{sid}-{n - 1}" if n else None,
                "sessionId": sid,
                "timestamp": next(stamps),
                "cwd": cwd,
                "gitBranch": "main",
                "version": "2.0.14",
                "message": message,
            }
        )

    for n, ev in enumerate(events):
        if ev[0] == "user":
            rec("user", {"role": "user", "content": ev[1]})
        elif ev[0] == "say":
            block = {"type": "text", "text": ev[1]}
            rec("assistant", {"id": f"msg_{n}", "role": "assistant", "content": [block]})
        else:
            tool_id = f"toolu_{sid[:8]}_{n}"
            use: dict[str, Any]
            if ev[0] == "read":
                use = {"name": "Read", "input": {"file_path": f"{cwd}/{ev[1]}"}}
                result, error = ev[2], False
            elif ev[0] == "run":
                use = {"name": "Bash", "input": {"command": ev[1]}}
                error = ev[2] != "0"
                result = (f"Exit code {ev[2]}\n" if error else "") + ev[3]
            else:
                use = {"name": "Edit", "input": {"file_path": ev[1], "old_string": "a"}}
                result, error = f"The file {ev[1]} has been updated.", False
            call = {"type": "tool_use", "id": tool_id, **use}
            rec("assistant", {"id": f"msg_{n}", "role": "assistant", "content": [call]})
            res: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, "content": result}
            if error:
                res["is_error"] = True
            rec("user", {"role": "user", "content": [res]})
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    (folder / f"{sid}.jsonl").write_text(text, encoding="utf-8")


def write_codex(root: Path, sid: str, cwd: str, events: list[Event], start: dt.datetime) -> None:
    folder = root / f"{start:%Y/%m/%d}"
    folder.mkdir(parents=True, exist_ok=True)
    stamps = iter(_stamps(start, 4 * len(events) + 4))
    lines: list[dict[str, Any]] = []

    def item(kind: str, payload: dict[str, Any]) -> None:
        lines.append({"timestamp": next(stamps), "type": kind, "payload": payload})

    item(
        "session_meta",
        {
            "id": sid,
            "timestamp": start.isoformat(),
            "cwd": cwd,
            "originator": "codex_cli_rs",
            "cli_version": "0.50.0",
            "git": {"branch": "main", "commit_hash": "0" * 40},
        },
    )
    item("turn_context", {"cwd": cwd, "model": "gpt-5-codex", "approval_policy": "on-request"})
    for n, ev in enumerate(events):
        if ev[0] in ("user", "say"):
            role = "user" if ev[0] == "user" else "assistant"
            kind = "input_text" if role == "user" else "output_text"
            item(
                "response_item",
                {"type": "message", "role": role, "content": [{"type": kind, "text": ev[1]}]},
            )
            mirror = "user_message" if role == "user" else "agent_message"
            item("event_msg", {"type": mirror, "message": ev[1]})
        elif ev[0] == "edit":
            rel = ev[1].removeprefix(cwd + "/")
            patch = f"*** Begin Patch\n*** Update File: {rel}\n@@\n-old\n+new\n*** End Patch\n"
            item(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "name": "apply_patch",
                    "call_id": f"c{n}",
                    "input": patch,
                },
            )
            out = {
                "output": f"Success. Updated the following files:\nM {rel}\n",
                "metadata": {"exit_code": 0},
            }
            item(
                "response_item",
                {"type": "custom_tool_call_output", "call_id": f"c{n}", "output": json.dumps(out)},
            )
        else:
            cmd = f"cat {ev[1]}" if ev[0] == "read" else ev[1]
            code = 0 if ev[0] == "read" else int(ev[2])
            output = ev[2] if ev[0] == "read" else ev[3]
            args = {"command": ["bash", "-lc", cmd], "workdir": cwd}
            item(
                "response_item",
                {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": json.dumps(args),
                    "call_id": f"c{n}",
                },
            )
            out = {"output": output, "metadata": {"exit_code": code, "duration_seconds": 1.2}}
            item(
                "response_item",
                {"type": "function_call_output", "call_id": f"c{n}", "output": json.dumps(out)},
            )
    name = f"rollout-{start:%Y-%m-%dT%H-%M-%S}-{sid}.jsonl"
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    (folder / name).write_text(text, encoding="utf-8")


def write_gemini(root: Path, sid: str, cwd: str, events: list[Event], start: dt.datetime) -> None:
    project_hash = re.sub(r"[^0-9a-f]", "", sid.replace("-", ""))[:8] + "0" * 56
    folder = root / project_hash
    (folder / "chats").mkdir(parents=True, exist_ok=True)
    (folder / ".project_root").write_text(cwd + "\n", encoding="utf-8")
    stamps = iter(_stamps(start, len(events) + 1))
    messages: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []

    def flush_calls(stamp: str) -> None:
        if calls:
            messages.append(
                {
                    "id": f"m{len(messages)}",
                    "timestamp": stamp,
                    "type": "gemini",
                    "content": "",
                    "toolCalls": list(calls),
                }
            )
            calls.clear()

    for n, ev in enumerate(events):
        stamp = next(stamps)
        if ev[0] in ("user", "say"):
            flush_calls(stamp)
            kind = "user" if ev[0] == "user" else "gemini"
            messages.append(
                {
                    "id": f"m{len(messages)}",
                    "timestamp": stamp,
                    "type": kind,
                    "content": ev[1],
                    "model": "gemini-2.5-pro",
                }
            )
            continue
        if ev[0] == "read":
            name, args, output, status = "read_file", {"absolute_path": f"{cwd}/{ev[1]}"}, ev[2], 0
        elif ev[0] == "run":
            name, args, status = "run_shell_command", {"command": ev[1]}, int(ev[2])
            output = f"Command: {ev[1]}\nStdout: {ev[3]}\nExit Code: {ev[2]}"
        else:
            name, args, output, status = "replace", {"file_path": ev[1]}, "Successfully modified", 0
        calls.append(
            {
                "id": f"{name}-{n}",
                "name": name,
                "args": args,
                "status": "error" if status else "success",
                "result": [
                    {
                        "functionResponse": {
                            "id": f"{name}-{n}",
                            "name": name,
                            "response": {"output": output},
                        }
                    }
                ],
            }
        )
    flush_calls(next(stamps))
    doc = {
        "sessionId": sid,
        "projectHash": project_hash,
        "startTime": start.isoformat(),
        "lastUpdated": start.isoformat(),
        "messages": messages,
    }
    name = f"session-{start:%Y-%m-%dT%H-%M}-{sid[:8]}.json"
    (folder / "chats" / name).write_text(json.dumps(doc, indent=1), encoding="utf-8")


def write_aider(root: Path, sid: str, cwd: str, events: list[Event], start: dt.datetime) -> None:
    repo = root / Path(cwd).name
    repo.mkdir(parents=True, exist_ok=True)
    out = [
        f"\n# aider chat started at {start.astimezone():%Y-%m-%d %H:%M:%S}\n",
        "> Aider v0.86.1",
        "> Main model: claude-sonnet-4 with diff edit format",
        "",
    ]
    for ev in events:
        if ev[0] == "user":
            out += [f"#### {ev[1]}", ""]
        elif ev[0] == "say":
            out += [ev[1], ""]
        elif ev[0] == "read":
            out += [f"> Added {ev[1]} to the chat.", ""]
        elif ev[0] == "run":
            out += [f"#### /run {ev[1]}", ""]
            out += [f"> {line}" for line in ev[3].splitlines()] + [""]
        else:
            out += [f"> Applied edit to {ev[1].removeprefix(cwd + '/')}", ""]
    with (repo / ".aider.chat.history.md").open("a", encoding="utf-8") as handle:
        handle.write("\n".join(out) + "\n")


WRITERS: dict[str, Callable[[Path, str, str, list[Event], dt.datetime], None]] = {
    "claude-code": write_claude,
    "codex": write_codex,
    "gemini-cli": write_gemini,
    "aider": write_aider,
}


def build_corpus(work: Path) -> tuple[dict[str, list[Path]], dict[str, str]]:
    """Write every scenario as a session; ``(sources, first request -> scenario id)``."""
    data = json.loads((DATA / "harvest_sessions.json").read_text(encoding="utf-8"))
    rng = random.Random(5)
    scenarios = [*data["scenarios"], *data["distractors"]]
    for project, about in data["projects"].items():
        files = sorted({f for s in scenarios if s["project"] == project for f in s["files"]})
        scenarios += [routine(project, about["lang"], files, n) for n in range(ROUTINES)]
    roots = {h: work / "transcripts" / h for h in HARNESSES}
    by_request: dict[str, str] = {}
    start = dt.datetime(2026, 9, 1, 9, 0, tzinfo=dt.UTC)
    for n, s in enumerate(scenarios):
        harness = HARNESSES[(n + n // len(HARNESSES)) % len(HARNESSES)]
        cwd = data["projects"][s["project"]]["cwd"]
        if harness == "aider":  # Aider's history lives in the repository itself
            cwd = str(roots["aider"] / s["project"])
        sid = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-4{n:03x}-8000-{n:012x}"
        side = n % 3 if n % 2 == 0 else -1
        when = start + dt.timedelta(days=n * 1.7, hours=rng.randint(0, 8))
        WRITERS[harness](roots[harness], sid, cwd, script(s, rng, cwd, side), when)
        by_request[s["request"]] = s["id"]
    old = time.time() - 3600
    for root in roots.values():
        for path in root.rglob("*"):
            if path.is_file():
                os.utime(path, (old, old))
    return {h: [r] for h, r in roots.items()}, by_request


def _scenario_of(session: Any, by_request: dict[str, str]) -> str | None:
    for turn in session.turns:
        if turn.role == "user" and turn.text.strip() in by_request:
            return by_request[turn.text.strip()]
    return None


def _turn_texts(session: Any, with_tools: bool) -> list[str]:
    """The messages of ``session`` in order; with ``with_tools`` also each command (or tool
    call) and the first 400 characters of each tool output."""
    texts = []
    for t in session.turns:
        if t.role in ("user", "assistant") and t.kind == "message" and t.text.strip():
            texts.append(f"{t.role}: {t.text.strip()}")
        if not with_tools:
            continue
        for call in t.tool_calls:
            texts.append(f"tool call: {call.command or f'{call.name} {call.input_summary}'}")
        texts += [f"tool output: {r.text.strip()[:400]}" for r in t.tool_results if r.text.strip()]
    return texts


def build_raw_vault(
    root: Path,
    sources: dict[str, list[Path]],
    by_request: dict[str, str],
    embedder: str,
    with_tools: bool = False,
) -> dict[str, str]:
    """Plain transcript chunks: user + assistant text (+ tool calls and outputs with
    ``with_tools``), ~800 characters at message boundaries, one note per chunk."""
    init_vault(root, git=False)
    _use_embedder(root, embedder)
    sessions: dict[str, str] = {}
    for harness, roots in sources.items():
        reader = load_reader(harness)
        for session in (s for r in roots for s in reader.read_all(r)):
            sid = _scenario_of(session, by_request)
            if sid is None:
                continue
            texts = _turn_texts(session, with_tools)
            chunks, current = [], ""
            for text in texts:
                if current and len(current) + len(text) > CHUNK_CHARS:
                    chunks.append(current)
                    current = ""
                current = f"{current}\n\n{text}".strip()
            chunks.append(current)
            for n, chunk in enumerate(chunks):
                rel = f"raw/{sid}/part-{n:02d}.md"
                path = root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                title = f"Transcript {session.id[:8]} part {n + 1}"
                path.write_text(f"---\ntitle: {title}\n---\n{chunk}\n", encoding="utf-8")
                sessions[rel] = sid
    return sessions


def _use_embedder(root: Path, name: str) -> None:
    settings = root / "mnemex.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(text.replace('name = "minilm"', f'name = "{name}"'), encoding="utf-8")


def _rank(found: list[str | None], answers: list[str]) -> int | None:
    ranked = list(dict.fromkeys(s for s in found if s))
    for n, sid in enumerate(ranked[:10], start=1):
        if sid in answers:
            return n
    return None


def _scores(ranks: list[int | None]) -> dict[str, float]:
    top1 = [1.0 if r == 1 else 0.0 for r in ranks]
    hits = [1.0 if r is not None and r <= K else 0.0 for r in ranks]
    mrr = [1.0 / r if r is not None else 0.0 for r in ranks]
    return {
        "recall@1": round(statistics.mean(top1), 3),
        "recall@5": round(statistics.mean(hits), 3),
        "mrr": round(statistics.mean(mrr), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--embedder", default="minilm", choices=("minilm", "hashing"))
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--raw-with-tools",
        action="store_true",
        help="the raw chunks also hold tool calls and (cut) tool outputs",
    )
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="mnemex-harvest-recall-"))
    for sub in ("transcripts", "digests", "raw"):
        shutil.rmtree(work / sub, ignore_errors=True)
    sources, by_request = build_corpus(work)
    golden = json.loads((DATA / "harvest_golden.json").read_text(encoding="utf-8"))["questions"]

    init_vault(work / "digests", git=False)
    _use_embedder(work / "digests", args.embedder)
    digests = Vault(work / "digests")
    report = harvest_sessions(digests, sources, settle_seconds=0)
    assert report.failed == 0, report.to_dict()
    session_of: dict[str, str] = {}
    for harness, roots in sources.items():
        for session in (s for r in roots for s in load_reader(harness).read_all(r)):
            sid = _scenario_of(session, by_request)
            if sid:
                session_of[session.id] = sid
    raw_paths = build_raw_vault(
        work / "raw", sources, by_request, args.embedder, args.raw_with_tools
    )

    rows: list[dict[str, Any]] = []
    with Brain(digests) as brain_d, Brain(Vault(work / "raw")) as brain_r:
        brain_d.sync()
        brain_r.sync()
        for q in golden:
            hits = search_memories(brain_d, q["q"], k=10, max_tokens=20_000)["hits"]
            d_rank = _rank([session_of.get(str(h.get("session"))) for h in hits], q["answers"])
            result = search(brain_r, q["q"], k=40)
            r_rank = _rank([raw_paths.get(h.path) for h in result.hits], q["answers"])
            rows.append({**q, "digest_rank": d_rank, "raw_rank": r_rank})
    table: dict[str, dict[str, dict[str, float]]] = {}
    for kind in ["all", *sorted({q["kind"] for q in golden})]:
        chosen = [r for r in rows if kind in ("all", r["kind"])]
        table[kind] = {
            "digests": _scores([r["digest_rank"] for r in chosen]),
            "raw": _scores([r["raw_rank"] for r in chosen]),
            "n": {"questions": len(chosen)},
        }
    tools = " (with tool calls and outputs)" if args.raw_with_tools else ""
    print(
        f"{report.created} digests, {len(raw_paths)} raw chunks{tools}, "
        f"{len(golden)} questions, embedder {args.embedder}"
    )
    print("| questions | n | digests R@1 | R@5 | MRR | raw chunks R@1 | R@5 | MRR |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, row in table.items():
        d, r = row["digests"], row["raw"]
        cells = [d["recall@1"], d["recall@5"], d["mrr"], r["recall@1"], r["recall@5"], r["mrr"]]
        shown = " | ".join(f"{c:.2f}" for c in cells)
        print(f"| {kind} | {int(row['n']['questions'])} | {shown} |")
    if args.show_misses:
        for r in rows:
            if r["digest_rank"] != 1 or r["raw_rank"] != 1:
                print(f"  {r['kind']:9} d={r['digest_rank']} raw={r['raw_rank']}  {r['q']}")
    OUT.mkdir(exist_ok=True)
    out = {"embedder": args.embedder, "raw_with_tools": args.raw_with_tools}
    out.update({"table": table, "rows": rows})
    name = "harvest_recall_tools.json" if args.raw_with_tools else "harvest_recall.json"
    (OUT / name).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
