"""Tool arguments as the model sees them, takes them, and hears about them when they are wrong.

The SDK derives each tool's input schema from its type hints with pydantic, which
adds what no model needs and every session pays for: a title per argument, an
``anyOf`` with ``null`` for each optional one, ``"default": null``, and the length
caps that only guard the server. :func:`compact_schema` keeps what tells a model how
to call the tool (types, enums, numeric ranges, defaults, descriptions); the server
still checks everything, and :func:`argument_error` turns a failed check into one
sentence naming the argument and what it must be. Models often send a string where
a list of strings is expected; :func:`coerce_arguments` takes it as a one-item list.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

#: Schema keys left out of the listing: pydantic's titles, and caps that guard the
#: server (a string's length, a list's size, a name's pattern), which it enforces and
#: explains when they are crossed; descriptions say what a value is.
_DROPPED = frozenset({"title", "maxLength", "minLength", "maxItems", "minItems", "pattern"})
#: An argument's schema may name more keys to leave out of the listing (a guard such as
#: max_tokens's range): ``Field(json_schema_extra={UNLISTED: ["minimum", "maximum"]})``.
UNLISTED = "x-unlisted"


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``anyOf: [X, null]`` as plain X (an optional argument is simply not required)."""
    arms = schema.get("anyOf")
    if not isinstance(arms, list):
        return schema
    kept = [a for a in arms if a.get("type") != "null"]
    if len(kept) == len(arms):
        return schema
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    if rest.get("default", 0) is None:
        del rest["default"]
    if len(kept) == 1:
        return {**kept[0], **rest}
    return {**rest, "anyOf": kept}


def compact_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without what only costs a model tokens (see the module's docstring)."""
    out: dict[str, Any] = {}
    schema = _without_null(schema)
    dropped = _DROPPED | {UNLISTED, *schema.get(UNLISTED, ())}
    for key, value in schema.items():
        if key in dropped or (key == "additionalProperties" and value is True):
            continue  # additionalProperties is true unless said otherwise
        if key == "default" and value is False and schema.get("type") == "boolean":
            continue  # a flag is off unless given
        if key == "properties":
            value = {name: compact_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            value = compact_schema(value)
        elif key == "anyOf":
            value = [compact_schema(arm) for arm in value]
        out[key] = value
    return out


def _accepts_list(schema: dict[str, Any]) -> bool:
    arms = schema.get("anyOf", [schema])
    return any(arm.get("type") == "array" for arm in arms)


def coerce_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` with a bare string taken as a one-item list where a list is expected.

    A string holding a JSON list is left alone: the SDK parses those itself.
    """
    props = schema.get("properties", {})
    out = dict(arguments)
    for name, value in arguments.items():
        sub = props.get(name)
        if not isinstance(value, str) or sub is None or not _accepts_list(sub):
            continue
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            parsed = None
        if not isinstance(parsed, list):
            out[name] = [value]
    return out


def _range(kind: str, schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{kind} between {low:g} and {high:g}"
    if low is not None:
        return f"{kind} of at least {low:g}"
    if high is not None:
        return f"{kind} of at most {high:g}"
    return kind


def _length(schema: dict[str, Any], unit: str) -> str:
    low = schema.get("minLength" if unit == "characters" else "minItems")
    high = schema.get("maxLength" if unit == "characters" else "maxItems")
    if low and high:
        return f" of {low} to {high:,} {unit}"
    if high:
        return f" of at most {high:,} {unit}"
    if low:
        return f" of at least {low} {unit}" if low > 1 else " that is not empty"
    return ""


def expectation(schema: dict[str, Any]) -> str:
    """What a value of ``schema`` must be, in words ("an integer between 1 and 50")."""
    schema = _without_null(schema)
    if "anyOf" in schema:
        return " or ".join(expectation(arm) for arm in schema["anyOf"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return _range("an integer", schema)
    if kind == "number":
        return _range("a number", schema)
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        text = "a string" + _length(schema, "characters")
        if "pattern" in schema:
            text += f" matching {schema['pattern']}"
        return text
    if kind == "array":
        items = schema.get("items")
        of = f" of {_plural(expectation(items))}" if isinstance(items, dict) and items else ""
        return "a list" + of + _length(schema, "items")
    if kind == "object":
        return "an object"
    return "a valid value"


def _plural(what: str) -> str:
    """ "an integer between 1 and 5" -> "integers between 1 and 5", for "a list of ..."."""
    for article, noun, plural in (
        ("an ", "integer", "integers"),
        ("a ", "number", "numbers"),
        ("a ", "list", "lists"),
        ("an ", "object", "objects"),
    ):
        if what.startswith(article + noun):
            return plural + what[len(article + noun) :]
    if what.startswith("one of "):
        return "values, each " + what
    if what.startswith("a string"):
        return "strings" + what[len("a string") :]
    return what


def argument_error(schema: dict[str, Any], error: ValidationError) -> str:
    """One sentence for a failed argument check: which argument, and what it must be."""
    problems = [e for e in error.errors() if e.get("loc")]
    if not problems:
        return f"the arguments are not valid: {error.errors()[0].get('msg', 'rejected')}"
    first = problems[0]
    loc = tuple(first["loc"])
    sub = schema.get("properties", {}).get(str(loc[0]), {})
    where = str(loc[0])
    for part in loc[1:]:  # down to the element that failed, as far as the schema says
        sub = _without_null(sub)
        if "anyOf" in sub:
            break  # pydantic names the union's branches next; the union says what it takes
        if isinstance(part, int) and isinstance(sub.get("items"), dict):
            sub, where = sub["items"], f"{where}[{part}]"
        elif isinstance(sub.get("additionalProperties"), dict):
            sub, where = sub["additionalProperties"], f"{where}.{part}"
        else:
            break
    what = expectation(sub) if sub else "not given"
    if first.get("type") == "missing":
        sentence = f"{where} is required: it must be {what}"
    elif sub:
        sentence = f"{where} must be {what}"
    else:
        sentence = f"{where} is not an argument of this tool"
    others = sorted({str(e["loc"][0]) for e in problems[1:]} - {str(loc[0])})
    if others:
        sentence += f" (check {', '.join(others)} too)"
    return sentence


__all__ = ["UNLISTED", "argument_error", "coerce_arguments", "compact_schema", "expectation"]
