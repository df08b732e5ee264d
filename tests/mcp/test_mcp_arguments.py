"""Arguments as a model sends them: one-sentence errors, a bare string taken as a list."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult
from mcp_support import call, error, make_vault, ok, state_for

from mnemex.mcp.arguments import compact_schema, expectation
from mnemex.mcp.server import tool_listing


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_vault(tmp_path_factory.mktemp("arguments") / "vault")


def over_stdio(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[CallToolResult]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(root), "serve"],
        env={**os.environ},
    )

    async def go() -> list[CallToolResult]:
        async with Client(params) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(go)


def test_a_bad_argument_gets_one_sentence_naming_it_and_what_it_must_be(root: Path) -> None:
    wrong_k, missing, wrong_kind = over_stdio(
        root,
        [
            ("search", {"query": "deploy", "k": 0}),
            ("read_page", {}),
            ("search", {"query": "deploy", "kind": ["nonsense"]}),
        ],
    )
    assert error(wrong_k) == "k must be an integer between 1 and 50"
    assert error(missing) == "path is required: it must be a string of 1 to 1,000 characters"
    assert error(wrong_kind).startswith('kind[0] must be one of "knowledge", "notes"')
    for result in (wrong_k, missing, wrong_kind):
        text = error(result)
        assert "\n" not in text and "validation error" not in text and "pydantic" not in text


def test_several_bad_arguments_name_the_first_and_the_others(root: Path) -> None:
    message = error(call(state_for(root), "search", query="x", k=99, max_tokens=1))
    assert message == "k must be an integer between 1 and 50 (check max_tokens too)"


def test_a_bad_element_names_where_it_is(root: Path) -> None:
    message = error(
        call(state_for(root), "save_handoff", project="p", headline="h", observations=[3])
    )
    assert message == "observations[0] must be a string or an object"


def test_a_string_where_a_list_of_strings_is_expected_is_taken_as_a_one_item_list(
    root: Path,
) -> None:
    as_string, as_list, kind = over_stdio(
        root,
        [
            ("search", {"query": "deploy", "tags": "ops"}),
            ("search", {"query": "deploy", "tags": ["ops"]}),
            ("search", {"query": "deploy", "kind": "knowledge"}),
        ],
    )
    assert ok(as_string)["hits"] == ok(as_list)["hits"]
    assert {h["path"] for h in ok(as_string)["hits"]} == {"notes/deploy.md", "notes/database.md"}
    assert [h["path"] for h in ok(kind)["hits"]] == ["wiki/general/concepts/bm25.md"]


def test_a_json_list_in_a_string_is_still_read_as_that_list(root: Path) -> None:
    hits = ok(call(state_for(root), "search", query="deploy", tags='["ops"]'))["hits"]
    assert {h["path"] for h in hits} == {"notes/deploy.md", "notes/database.md"}


def test_every_listed_argument_keeps_its_type_and_description() -> None:
    for tool in tool_listing():
        for name, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{name}"
            assert "type" in schema or "anyOf" in schema, f"{tool.name}.{name}"


def test_an_optional_argument_is_listed_as_its_plain_type() -> None:
    schema = {
        "properties": {
            "since": {
                "anyOf": [{"maxLength": 40, "type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Only notes since this date.",
                "title": "Since",
            }
        },
        "title": "searchArguments",
        "type": "object",
    }
    assert compact_schema(schema) == {
        "properties": {"since": {"type": "string", "description": "Only notes since this date."}},
        "type": "object",
    }


def test_what_an_argument_must_be_is_said_in_words() -> None:
    assert expectation({"type": "integer", "minimum": 1, "maximum": 50}) == (
        "an integer between 1 and 50"
    )
    assert expectation({"type": "array", "items": {"type": "string"}}) == "a list of strings"
    assert expectation({"anyOf": [{"type": "boolean"}, {"type": "null"}]}) == "true or false"
