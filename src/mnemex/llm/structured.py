"""JSON answers from a model, checked against a schema, or an error: never half-valid data.

:func:`complete_json` asks for JSON in two ways at once (the provider's structured-output
parameter where it has one, and the schema in the system prompt, which every model
reads), strips code fences and stray prose, parses, validates, and on a bad answer asks
again with the problem fed back. After the retries it raises :class:`ModelOutputError`
so the caller can fall back to its offline path.

:func:`check_schema` checks the subset of JSON Schema mnemex uses: ``type`` (object, array,
string, number, integer, boolean, null, or a list of them), ``properties``, ``required``,
``items``, ``enum``, ``minItems``/``maxItems``, ``maxLength``, ``minimum``/``maximum``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from mnemex.errors import ModelError, ModelOutputError
from mnemex.llm.client import Completion, ModelClient
from mnemex.llm.providers import Message

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)
_ECHO_CHARS = 2_000
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _check_type(schema: dict[str, Any], value: Any, where: str) -> str | None:
    wanted = schema.get("type")
    if wanted is None:
        return None
    names = [wanted] if isinstance(wanted, str) else list(wanted)
    if any(_TYPES.get(name, lambda v: False)(value) for name in names):
        return None
    return f"{where}: expected {' or '.join(names)}, got {type(value).__name__}"


def check_schema(schema: dict[str, Any], value: Any, where: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty: it conforms), each naming its path."""
    problem = _check_type(schema, value, where)
    if problem:
        return [problem]
    problems: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r} is not one of {schema['enum']!r}")
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                problems.append(f"{where}: missing required property {name!r}")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                problems += check_schema(sub, value[name], f"{where}.{name}")
    if isinstance(value, list):
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(f"{where}: {len(value)} items, at most {schema['maxItems']} allowed")
        if "minItems" in schema and len(value) < schema["minItems"]:
            problems.append(f"{where}: {len(value)} items, at least {schema['minItems']} needed")
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                problems += check_schema(schema["items"], item, f"{where}[{i}]")
    if isinstance(value, str) and "maxLength" in schema and len(value) > schema["maxLength"]:
        problems.append(f"{where}: {len(value)} characters, at most {schema['maxLength']}")
    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where}: {value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{where}: {value} is above the maximum {schema['maximum']}")
    return problems


def parse_json_answer(text: str) -> Any:
    """The JSON in a model's answer: code fences stripped, and, when the model wrapped the
    object in prose, the span from the first ``{`` to the last ``}``.

    Raises:
        ValueError: no JSON could be read (the message says why, for the model to fix).
    """
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    if not body:
        raise ValueError("the answer was empty")
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        first, last = body.find("{"), body.rfind("}")
        if 0 <= first < last and (first, last) != (0, len(body) - 1):
            try:
                return json.loads(body[first : last + 1])
            except json.JSONDecodeError:
                pass
        raise ValueError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


def schema_prompt(schema: dict[str, Any]) -> str:
    return (
        "Answer with exactly one JSON object and nothing else: no prose, no code fences. "
        "It must conform to this JSON Schema:\n" + json.dumps(schema, ensure_ascii=False)
    )


def _ask(
    client: ModelClient,
    conversation: list[Message],
    system: str,
    schema: dict[str, Any],
    structured: bool,
    max_tokens: int | None,
    purpose: str,
) -> tuple[Completion, bool]:
    """One call; a server that rejects the structured-output parameter (HTTP 400, common on
    older local servers) is asked again without it, with the schema still in the prompt."""
    try:
        answer = client.complete(
            conversation,
            system=system,
            max_tokens=max_tokens,
            json_schema=schema if structured else None,
            purpose=purpose,
        )
        return answer, structured
    except ModelError as exc:
        if not structured or type(exc) is not ModelError or "HTTP 400" not in str(exc):
            raise
    answer = client.complete(
        conversation, system=system, max_tokens=max_tokens, json_schema=None, purpose=purpose
    )
    return answer, False


def complete_json(
    client: ModelClient,
    messages: list[Message],
    schema: dict[str, Any],
    *,
    purpose: str,
    system: str | None = None,
    validate: Callable[[dict[str, Any]], Sequence[str]] | None = None,
    retries: int = 2,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """Ask for a JSON object conforming to ``schema`` and return it, parsed and checked.

    ``validate`` may add the caller's own checks (it returns problems; empty = fine).
    A bad answer (not JSON, not conforming, cut at the output limit) is sent back with the
    problem, at most ``retries`` times.

    Raises:
        ModelOutputError: still no valid answer after the retries (the last problem is named).
        ModelAuthError, ModelUnavailable, ModelError: the call itself failed.
    """
    prompt = schema_prompt(schema)
    full_system = f"{system}\n\n{prompt}" if system else prompt
    conversation = list(messages)
    structured = True
    problems: list[str] = []
    for _attempt in range(retries + 1):
        answer, structured = _ask(
            client, conversation, full_system, schema, structured, max_tokens, purpose
        )
        problems = _problems(answer, schema, validate)
        if not problems:
            return dict(parse_json_answer(answer.text))
        conversation += [
            Message("assistant", answer.text[:_ECHO_CHARS] or "(empty)"),
            Message(
                "user",
                "That answer cannot be used: "
                + "; ".join(problems[:8])
                + ". Reply again with only the corrected JSON object.",
            ),
        ]
    raise ModelOutputError(
        f"{client.identity}: no valid JSON for {purpose} after {retries + 1} attempt(s): "
        + "; ".join(problems[:5])
    )


def _problems(
    answer: Completion,
    schema: dict[str, Any],
    extra: Callable[[dict[str, Any]], Sequence[str]] | None,
) -> list[str]:
    if answer.finish_reason == "length":
        return [
            f"the answer was cut off at the output limit ({answer.output_tokens} tokens); "
            "give a shorter answer"
        ]
    try:
        value = parse_json_answer(answer.text)
    except ValueError as exc:
        return [str(exc)]
    if not isinstance(value, dict):
        return [f"$: expected a JSON object, got {type(value).__name__}"]
    problems = check_schema(schema, value)
    if not problems and extra is not None:
        problems = list(extra(value))
    return problems


__all__ = ["check_schema", "complete_json", "parse_json_answer", "schema_prompt"]
