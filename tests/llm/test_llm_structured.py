"""complete_json: parsed, checked, retried with the problem fed back, or ModelOutputError."""

from __future__ import annotations

from typing import Any

import pytest

from fake_provider import PROVIDERS, FakeProvider
from mnemex.errors import ModelOutputError
from mnemex.llm import Message, check_schema, complete_json, parse_json_answer

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["title", "tags"],
    "properties": {
        "title": {"type": "string", "maxLength": 40},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "kind": {"type": "string", "enum": ["entity", "concept"]},
        "importance": {"type": "number", "minimum": 0, "maximum": 1},
        "count": {"type": "integer"},
        "done": {"type": "boolean"},
    },
}
ASK = [Message("user", "Describe SQLite.")]
GOOD = {"title": "SQLite", "tags": ["db"], "kind": "entity", "importance": 0.5}


def test_the_validator_names_each_problem_by_path() -> None:
    bad = {"title": 3, "tags": ["a", "b", "c", "d"], "kind": "x", "importance": 2, "count": True}
    problems = check_schema(SCHEMA, bad)
    assert "$.title: expected string, got int" in problems
    assert "$.tags: 4 items, at most 3 allowed" in problems
    assert any(p.startswith("$.kind: 'x' is not one of") for p in problems)
    assert "$.importance: 2 is above the maximum 1" in problems
    assert "$.count: expected integer, got bool" in problems
    assert check_schema(SCHEMA, {"title": "x"}) == ["$: missing required property 'tags'"]
    assert check_schema(SCHEMA, GOOD) == []


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```',
        'Here is the JSON you asked for:\n{"a": 1}\nHope it helps.',
    ],
)
def test_fences_and_stray_prose_are_stripped(text: str) -> None:
    assert parse_json_answer(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", '{"a": 1', "no json at all"])
def test_unreadable_answers_raise_value_error(text: str) -> None:
    with pytest.raises(ValueError, match=r"empty|not valid JSON"):
        parse_json_answer(text)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_good_answer_is_returned_first_time(fake: FakeProvider, provider: str) -> None:
    fake.queue(fake.json(GOOD))
    assert complete_json(fake.client(provider), ASK, SCHEMA, purpose="t") == GOOD
    system = fake.requests[0].prompt_text()
    assert "JSON Schema" in system and "maxItems" in system  # schema also in the prompt


def test_malformed_then_good_retries_with_the_error_fed_back(fake: FakeProvider) -> None:
    fake.queue(fake.text('{"title": "SQLite", "tags": ['), fake.json(GOOD))
    assert complete_json(fake.client("anthropic"), ASK, SCHEMA, purpose="t") == GOOD
    retry = fake.requests[1].body["messages"]
    assert [m["role"] for m in retry] == ["user", "assistant", "user"]
    assert "not valid JSON" in retry[2]["content"]


def test_an_answer_that_breaks_the_schema_is_retried(fake: FakeProvider) -> None:
    fake.queue(fake.json({"title": "SQLite"}), fake.json(GOOD))
    assert complete_json(fake.client(), ASK, SCHEMA, purpose="t") == GOOD
    assert "missing required property 'tags'" in fake.requests[1].prompt_text()


def test_an_answer_cut_at_max_tokens_is_retried_asking_for_less(fake: FakeProvider) -> None:
    fake.queue(fake.cut('{"title": "SQLite", "ta'), fake.json(GOOD))
    assert complete_json(fake.client("gemini"), ASK, SCHEMA, purpose="t") == GOOD
    assert "cut off at the output limit" in fake.requests[1].prompt_text()


def test_always_malformed_raises_model_output_error_after_the_retries(fake: FakeProvider) -> None:
    fake.queue(*[fake.text("not json")] * 3)
    with pytest.raises(ModelOutputError, match=r"after 3 attempt\(s\): not valid JSON"):
        complete_json(fake.client(), ASK, SCHEMA, purpose="t", retries=2)
    assert fake.pending == 0


def test_the_callers_own_check_counts_as_a_problem(fake: FakeProvider) -> None:
    fake.queue(fake.json(GOOD), fake.json({**GOOD, "title": "SQLite database"}))

    def long_title(value: dict[str, Any]) -> list[str]:
        return [] if " " in value["title"] else ["title must have two words"]

    result = complete_json(fake.client(), ASK, SCHEMA, purpose="t", validate=long_title)
    assert result["title"] == "SQLite database"


def test_a_server_that_rejects_response_format_is_asked_again_without_it(
    fake: FakeProvider,
) -> None:
    fake.queue(fake.status(400, message="response_format json_schema not supported"))
    fake.queue(fake.json(GOOD))
    assert complete_json(fake.client(), ASK, SCHEMA, purpose="t") == GOOD
    assert "response_format" in fake.requests[0].body
    assert "response_format" not in fake.requests[1].body
