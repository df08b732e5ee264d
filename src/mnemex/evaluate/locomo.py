"""LoCoMo (Maharana et al., ACL 2024) as a retrieval dataset.

The benchmark's own retrieval protocol: one group per conversation, one document
per turn (``"<speaker>: <text>"``, plus ``" [image: <caption>]"`` when the turn
shared an image), the session's date as the document's date; the question,
verbatim, is the query and its evidence turns are the relevant documents.

The file has a few malformed evidence ids (``"D:11:26"``, ``"D30:05"``, several ids
in one string, a bare ``"D"``): they are normalised when they can be read, and ids
that name no turn are dropped. A question left with no evidence is dropped. The
returned statistics count each case.

LoCoMo is CC BY-NC 4.0: read it from where it lives and write the converted copy
outside the project (see ``/work/shared/data/README.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mnemex.evaluate.retrieval import CORPUS_FILE, QUERIES_FILE, DatasetError

#: The usual comparison set: multi-hop, temporal, open-domain, single-hop.
STANDARD_CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}

_SESSION_RE = re.compile(r"session_(\d+)")
# "D1:3", "D:11:26", "D30:05", "D8:6; D9:17": a D, an optional stray colon, two numbers
_EVIDENCE_RE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def normalise_evidence(raw: str) -> list[str]:
    """Every turn id a (possibly malformed) evidence string names, canonical (``"D11:26"``)."""
    return [f"D{int(a)}:{int(b)}" for a, b in _EVIDENCE_RE.findall(raw)]


def _sessions(conversation: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]], str | None]]:
    out = []
    for key, turns in conversation.items():
        m = _SESSION_RE.fullmatch(key)
        if m and isinstance(turns, list):
            date = conversation.get(f"{key}_date_time")
            out.append((int(m.group(1)), turns, str(date) if date else None))
    return sorted(out, key=lambda s: s[0])


def turn_text(turn: dict[str, Any]) -> str:
    """``"<speaker>: <text>"`` plus the shared image's caption."""
    text = f"{turn.get('speaker', '')}: {turn.get('text', '')}"
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text += f" [image: {caption.strip()}]"
    return text


def convert_locomo(
    src: Path, out: Path, categories: Sequence[int] = STANDARD_CATEGORIES
) -> dict[str, Any]:
    """Write ``corpus.jsonl`` and ``queries.jsonl`` for LoCoMo into ``out``.

    Args:
        src: ``locomo10.json``.
        out: the dataset folder to write (created; existing files are replaced).
        categories: question categories to keep (1-4 is the standard set; 5 is adversarial).

    Returns:
        Statistics: ``conversations``, ``sessions``, ``turns``, ``questions`` (kept),
        ``dropped`` (questions with no usable evidence), ``skipped_category``,
        ``malformed_normalised`` (evidence strings rewritten into valid ids),
        ``malformed_unreadable`` (evidence strings naming no id), ``unknown_evidence``
        (ids naming no turn, dropped), and ``by_category`` (kept questions per category).

    Raises:
        DatasetError: ``src`` is not LoCoMo-shaped.
    """
    src, out = Path(src), Path(out)
    try:
        samples = json.loads(src.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{src}: cannot read LoCoMo JSON ({exc})") from exc
    if not isinstance(samples, list):
        raise DatasetError(f"{src}: expected a list of conversations")
    wanted = {int(c) for c in categories}
    stats: dict[str, Any] = {
        "conversations": 0,
        "sessions": 0,
        "turns": 0,
        "questions": 0,
        "dropped": 0,
        "skipped_category": 0,
        "malformed_normalised": 0,
        "malformed_unreadable": 0,
        "unknown_evidence": 0,
        "by_category": {},
    }
    out.mkdir(parents=True, exist_ok=True)
    with (
        (out / CORPUS_FILE).open("w", encoding="utf-8") as corpus,
        (out / QUERIES_FILE).open("w", encoding="utf-8") as queries,
    ):
        for index, sample in enumerate(samples):
            if not isinstance(sample, dict) or "conversation" not in sample:
                raise DatasetError(f"{src}: conversation {index} has no 'conversation'")
            sample_id = str(sample.get("sample_id") or f"conv-{index}")
            stats["conversations"] += 1
            turn_ids: set[str] = set()
            for number, turns, date in _sessions(sample["conversation"]):
                stats["sessions"] += 1
                for turn in turns:
                    dia_id = str(turn.get("dia_id", ""))
                    if not dia_id or dia_id in turn_ids:
                        continue  # a turn without an id, or a repeated id, cannot be evidence
                    turn_ids.add(dia_id)
                    stats["turns"] += 1
                    doc: dict[str, Any] = {
                        "id": f"{sample_id}:{dia_id}",
                        "group": sample_id,
                        "text": turn_text(turn),
                    }
                    if date:
                        doc["date"] = date
                    doc["meta"] = {"session": number, "dia_id": dia_id}
                    corpus.write(json.dumps(doc, ensure_ascii=False) + "\n")
            for number, qa in enumerate(sample.get("qa") or [], start=1):
                category = qa.get("category")
                if category not in wanted:
                    stats["skipped_category"] += 1
                    continue
                relevant: list[str] = []
                for raw in qa.get("evidence") or []:
                    raw = str(raw)
                    ids = normalise_evidence(raw)
                    if not ids:
                        stats["malformed_unreadable"] += 1
                        continue
                    if ids != [raw]:
                        stats["malformed_normalised"] += 1
                    for dia_id in ids:
                        if dia_id not in turn_ids:
                            stats["unknown_evidence"] += 1
                        elif f"{sample_id}:{dia_id}" not in relevant:
                            relevant.append(f"{sample_id}:{dia_id}")
                if not relevant:
                    stats["dropped"] += 1
                    continue
                stats["questions"] += 1
                by_cat = stats["by_category"]
                by_cat[str(category)] = by_cat.get(str(category), 0) + 1
                query = {
                    "id": f"{sample_id}:q{number}",
                    "group": sample_id,
                    "text": str(qa.get("question", "")),
                    "category": str(category),
                    "relevant": relevant,
                }
                queries.write(json.dumps(query, ensure_ascii=False) + "\n")
    stats["by_category"] = dict(sorted(stats["by_category"].items()))
    return stats


__all__ = [
    "CATEGORY_NAMES",
    "STANDARD_CATEGORIES",
    "convert_locomo",
    "normalise_evidence",
    "turn_text",
]
