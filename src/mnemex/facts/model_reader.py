"""Reading a note's facts with a model, checked against what the brain knows.

With a ``[model]`` in ``mnemex.toml``, the consolidation pass asks the model for the facts
a note states, as JSON (:func:`mnemex.llm.complete_json`), instead of the offline rule
reader. The model only reads; the brain checks what it says, so a model cannot invent a
fact:

- the **subject** must be a name the brain knows (the name book: the owner, wiki people,
  organisations and places, projects); anything else is dropped;
- the **statement** must be a sentence of the note (its words, white space aside); a
  claim whose statement is not in the note is dropped;
- the **predicate** is one of the closed list, the **kind** or **key** one of the reader's
  own (so the model's claims and the offline reader's land in the same slots), dates
  ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``.

A note's answer is kept in ``.mnemex/consolidate/claims/<sha256>-<model>.json`` so a plan
and its apply, or a second pass over an edited vault, pay once per note. A run is
estimated first and gated by ``[model] confirm_above_usd`` (``--yes`` accepts the cost);
a note over the budget, or whose call fails, is read offline and the pass says so in a
warning.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemex.errors import CostConfirmationRequired, ModelAuthError, ModelError
from mnemex.facts.claims import KEYED, KINDED, PREDICATES, Claim, NameBook
from mnemex.facts.extract import KEYS, KINDS
from mnemex.facts.model import When
from mnemex.llm import (
    Estimate,
    Message,
    ModelClient,
    check_budget,
    complete_json,
    estimate_cost,
    estimate_tokens,
)
from mnemex.text.redact import redact_text

PURPOSE = "consolidate"
MAX_ANSWER_TOKENS = 1_200
#: A note's text sent at most (characters); a longer note is read offline.
MAX_NOTE_CHARS = 24_000
_DATE = {"type": ["string", "null"], "maxLength": 10}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "maxItems": 40,
            "items": {
                "type": "object",
                "properties": {
                    "statement": {"type": "string", "maxLength": 400},
                    "subject": {"type": "string", "maxLength": 200},
                    "predicate": {"type": "string", "enum": list(PREDICATES)},
                    "kind": {"type": ["string", "null"], "enum": [*KINDS, None]},
                    "key": {"type": ["string", "null"], "enum": [*KEYS, None]},
                    "value": {"type": "string", "maxLength": 200},
                    "condition": {"type": ["string", "null"], "maxLength": 200},
                    "valid_from": _DATE,
                    "valid_until": _DATE,
                    "planned": {"type": "boolean"},
                    "hedged": {"type": "boolean"},
                },
                "required": ["statement", "subject", "predicate", "value"],
            },
        }
    },
    "required": ["facts"],
}
SYSTEM = (
    "You read a note from a person's second brain and list the facts it states about people "
    "and projects: where someone works (works_at) or lives (lives_in), their role, what they "
    "use or prefer (with its kind), a project's attribute (with its key), a status such as "
    "on_leave. Only what the note states, in its own sentence (statement: copied verbatim). "
    "Dates: valid_from is the first day it holds, valid_until the first day it no longer "
    "holds, as YYYY-MM-DD, YYYY-MM or YYYY, resolved against the note's date; null when the "
    "note does not say. planned: the note speaks of the future. hedged: a guess or a draft. "
    "First person is the speaker named below, or nobody when none is named."
)


@dataclass
class ModelReading:
    """The claims a model read in one note, and what was dropped or went wrong."""

    claims: list[Claim]
    dropped: list[dict[str, str]] = field(default_factory=list)
    warning: str | None = None  # the note was read offline, and why


def _cache_path(local_dir: Path, sha256: str, identity: str) -> Path:
    tag = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:12]
    return local_dir / "consolidate" / "claims" / f"{sha256}-{tag}.json"


def _words(text: str) -> str:
    return " ".join(re.sub(r"[*_`>#\[\]]", " ", text).split()).lower()


def _when(raw: Any) -> tuple[dt.date | None, str]:
    if not isinstance(raw, str) or not raw.strip():
        return None, "day"
    try:
        when = When.parse(raw)
    except ValueError:
        return None, "day"
    return when.day, when.precision


def claims_of(
    answer: dict[str, Any], text: str, book: NameBook, speaker: str | None
) -> tuple[list[Claim], list[dict[str, str]]]:
    """The model's answer as claims, each checked against the name book and the note."""
    said = _words(text)
    claims: list[Claim] = []
    dropped: list[dict[str, str]] = []
    for item in answer.get("facts") or []:
        statement = " ".join(str(item.get("statement") or "").split())
        subject = str(item.get("subject") or "")
        if subject.strip().lower() in ("i", "me", "my") and speaker:
            subject = speaker
        name = book.lookup(subject)
        if name is None:
            dropped.append({"sentence": statement[:300], "reason": "model: unknown subject"})
            continue
        if not statement or _words(statement) not in said:
            dropped.append({"sentence": statement[:300], "reason": "model: not in the note"})
            continue
        predicate = str(item.get("predicate"))
        kind = item.get("kind") if predicate in KINDED else None
        key = item.get("key") if predicate in KEYED else None
        if (predicate in KINDED and not kind) or (predicate in KEYED and not key):
            dropped.append({"sentence": statement[:300], "reason": "model: no kind or key"})
            continue
        start, precision = _when(item.get("valid_from"))
        until, _ = _when(item.get("valid_until"))
        claims.append(
            Claim(
                subject=name.canonical,
                predicate=predicate,
                value=" ".join(str(item["value"]).split()),
                statement=statement,
                kind=kind,
                key=key,
                condition=item.get("condition") or None,
                valid_from=start,
                valid_until=until,
                from_precision=precision,  # type: ignore[arg-type]
                planned=bool(item.get("planned")),
                hedged=bool(item.get("hedged")),
            )
        )
    return claims, dropped


class ModelReader:
    """Reads notes with ``client`` for one pass, with the pass's cost gate and cache."""

    def __init__(
        self,
        client: ModelClient,
        local_dir: Path,
        *,
        confirmed: bool = False,
        cache_only: bool = False,
    ) -> None:
        self.client = client
        self.local_dir = local_dir
        self.confirmed = confirmed
        self.cache_only = cache_only  # applying a plan: read as the plan read, no new call
        self.estimated: Estimate = estimate_cost(client, 0, 0, calls=0)
        self.refused: str | None = None

    def cached(self, sha256: str) -> dict[str, Any] | None:
        path = _cache_path(self.local_dir, sha256, self.client.identity)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def read(
        self,
        text: str,
        *,
        sha256: str,
        evidence_date: dt.date,
        book: NameBook,
        speaker: str | None,
    ) -> ModelReading:
        """The note's claims as the model reads them; with ``warning`` set (and no claims)
        when it must be read offline instead."""
        answer = self.cached(sha256)
        if answer is None:
            if self.cache_only:
                return ModelReading([], warning="not read by the model when planned: read offline")
            if self.refused is not None:
                return ModelReading([], warning=self.refused)
            if len(text) > MAX_NOTE_CHARS:
                return ModelReading([], warning=f"{len(text):,} characters: read offline")
            sent = redact_text(text)
            if not self.confirmed:
                guess = estimate_cost(
                    self.client, estimate_tokens(sent) + 400, MAX_ANSWER_TOKENS // 2
                )
                total = self.estimated + guess
                try:
                    check_budget(self.client, total, confirmed=False)
                except CostConfirmationRequired as exc:
                    return ModelReading([], warning=f"model not used: {exc}")
                self.estimated = total
            who = f"The speaker is {speaker}." if speaker else "No speaker is named."
            prompt = f"Note dated {evidence_date.isoformat()}. {who}\n\n{sent}"
            try:
                answer = complete_json(
                    self.client,
                    [Message("user", prompt)],
                    SCHEMA,
                    purpose=PURPOSE,
                    system=SYSTEM,
                    max_tokens=min(self.client.max_output_tokens, MAX_ANSWER_TOKENS),
                )
            except ModelAuthError as exc:
                self.refused = f"model refused ({type(exc).__name__}: {exc}): read offline"
                return ModelReading([], warning=self.refused)
            except ModelError as exc:
                return ModelReading([], warning=f"model failed ({type(exc).__name__}: {exc})")
            path = _cache_path(self.local_dir, sha256, self.client.identity)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
        claims, dropped = claims_of(answer, text, book, speaker)
        return ModelReading(claims, dropped)


__all__ = ["PURPOSE", "SCHEMA", "ModelReader", "ModelReading", "claims_of"]
