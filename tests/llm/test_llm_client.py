"""ModelClient against a real HTTP server speaking each provider's wire format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fake_provider import PROVIDERS, FakeProvider
from mnemex.errors import ModelAuthError, ModelError, ModelOutputError, ModelUnavailable
from mnemex.llm import Message, ledger_path, ledger_totals, load_model
from mnemex.vault import Vault

HELLO = [Message("user", "Say hello.")]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_completion_reads_text_usage_and_finish_reason_in_each_wire_format(
    fake: FakeProvider, provider: str
) -> None:
    fake.queue(fake.text("Hello there.", input_tokens=11, output_tokens=3))
    client = fake.client(provider, price_in_per_mtok=1.0, price_out_per_mtok=2.0)
    answer = client.complete(HELLO, system="Be brief.", max_tokens=50, purpose="test")
    assert answer.text == "Hello there."
    assert (answer.input_tokens, answer.output_tokens) == (11, 3)
    assert answer.finish_reason == "stop"
    assert answer.cost_usd == pytest.approx((11 * 1.0 + 3 * 2.0) / 1e6)
    assert not answer.usage_estimated


def test_openai_requests_carry_system_first_max_tokens_and_the_json_schema(
    fake: FakeProvider,
) -> None:
    fake.queue(fake.text("{}"))
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    fake.client("openai").complete(
        HELLO, system="sys", max_tokens=64, json_schema=schema, purpose="t"
    )
    body = fake.requests[0].body
    assert body["messages"][0] == {"role": "system", "content": "sys"}
    assert body["messages"][1] == {"role": "user", "content": "Say hello."}
    assert body["max_tokens"] == 64
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == schema


def test_anthropic_requests_use_the_messages_api_headers_and_a_top_level_system(
    fake: FakeProvider,
) -> None:
    fake.api_key = "sk-ant-test-key-0123456789abcdef"
    fake.queue(fake.text("ok"))
    client = fake.client(
        "anthropic", api_key_env="ANTHROPIC_API_KEY", env={"ANTHROPIC_API_KEY": fake.api_key}
    )
    client.complete(HELLO, system="sys", purpose="t")
    sent = fake.requests[0]
    assert sent.path == "/v1/messages"
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert sent.headers["x-api-key"] == fake.api_key
    assert sent.body["system"] == "sys"
    assert sent.body["max_tokens"] == 2048
    assert [m["role"] for m in sent.body["messages"]] == ["user"]


def test_gemini_requests_put_the_key_in_a_header_and_the_schema_in_generation_config(
    fake: FakeProvider,
) -> None:
    fake.api_key = "gemini-test-key"
    fake.queue(fake.text("{}"))
    client = fake.client(
        "gemini",
        model="gemini-2.0-flash",
        api_key_env="GEMINI_API_KEY",
        env={"GEMINI_API_KEY": "gemini-test-key"},
    )
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
    }
    answer = client.complete(
        [Message("user", "q"), Message("assistant", "a"), Message("user", "q2")],
        system="sys",
        json_schema=schema,
        purpose="t",
    )
    sent = fake.requests[0]
    assert sent.path == "/v1beta/models/gemini-2.0-flash:generateContent"
    assert sent.query == {}  # the key is never in the URL
    assert sent.headers["x-goog-api-key"] == "gemini-test-key"
    assert [c["role"] for c in sent.body["contents"]] == ["user", "model", "user"]
    assert sent.body["systemInstruction"] == {"parts": [{"text": "sys"}]}
    config = sent.body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseSchema"] == {
        "type": "OBJECT",
        "properties": {"a": {"type": "STRING"}},
    }
    assert answer.model == "gemini-2.0-flash"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_answer_cut_at_the_output_limit_finishes_with_length(
    fake: FakeProvider, provider: str
) -> None:
    fake.queue(fake.cut("Hello th"))
    answer = fake.client(provider).complete(HELLO, purpose="t")
    assert (answer.text, answer.finish_reason) == ("Hello th", "length")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_is_retried_honouring_retry_after_and_then_succeeds(
    fake: FakeProvider, provider: str
) -> None:
    fake.queue(fake.status(429, retry_after=7), fake.status(503), fake.text("fine"))
    answer = fake.client(provider).complete(HELLO, purpose="t")
    assert answer.text == "fine"
    assert answer.attempts == 3
    assert fake.sleeps == [7.0, 2.0]  # Retry-After wins over the 1 s backoff; then 2 s


def test_retry_after_is_capped_so_a_hostile_server_cannot_park_a_run(fake: FakeProvider) -> None:
    fake.queue(fake.status(429, retry_after=86400), fake.text("ok"))
    fake.client().complete(HELLO, purpose="t")
    assert fake.sleeps == [30.0]


def test_persistent_5xx_gives_model_unavailable_after_max_retries(fake: FakeProvider) -> None:
    fake.queue(*[fake.status(500, message="boom")] * 3)
    with pytest.raises(ModelUnavailable, match=r"HTTP 500: boom .*3 attempt"):
        fake.client(max_retries=2).complete(HELLO, purpose="t")
    assert len(fake.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_refused_key_names_the_env_var_and_never_the_key(
    fake: FakeProvider, provider: str
) -> None:
    fake.api_key = "the-right-key"
    env = {"MY_KEY": "sk-wrong-key-that-must-not-leak-0123456789"}
    client = fake.client(provider, api_key_env="MY_KEY", env=env)
    with pytest.raises(ModelAuthError) as caught:
        client.complete(HELLO, purpose="t")
    assert "MY_KEY" in str(caught.value)
    assert env["MY_KEY"] not in str(caught.value)
    assert fake.sleeps == []  # a 401 is not retried


def test_a_body_that_is_not_json_is_a_model_output_error(fake: FakeProvider) -> None:
    fake.queue(fake.malformed_body())
    with pytest.raises(ModelOutputError, match="not JSON"):
        fake.client().complete(HELLO, purpose="t")


def test_a_body_cut_mid_transfer_is_retried(fake: FakeProvider) -> None:
    fake.queue(fake.truncated_body(), fake.text("whole"))
    assert fake.client().complete(HELLO, purpose="t").text == "whole"
    assert len(fake.sleeps) == 1


def test_a_timeout_is_retried_then_model_unavailable(fake: FakeProvider) -> None:
    fake.queue(fake.text("late", delay=1.0), fake.text("late", delay=1.0))
    with pytest.raises(ModelUnavailable, match=r"timed out|no complete answer"):
        fake.client(timeout=0.2, max_retries=1).complete(HELLO, purpose="t")


def test_nothing_listening_is_model_unavailable(fake: FakeProvider) -> None:
    client = fake.client(max_retries=0)
    fake.close()
    with pytest.raises(ModelUnavailable, match="cannot reach"):
        client.complete(HELLO, purpose="t")


def test_another_4xx_is_a_model_error_with_the_providers_message(fake: FakeProvider) -> None:
    fake.queue(fake.status(400, message="model 'nope' not found"))
    with pytest.raises(ModelError, match="HTTP 400: model 'nope' not found"):
        fake.client().complete(HELLO, purpose="t")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_planted_key_is_redacted_before_it_leaves_the_machine(
    fake: FakeProvider, provider: str
) -> None:
    planted = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
    fake.queue(fake.text("ok"))
    fake.client(provider).complete(
        [Message("user", f"my key is {planted} please fix the bug")],
        system=f"context: OPENAI_API_KEY={planted}",
        purpose="t",
    )
    sent = fake.requests[0].raw.decode()
    assert planted not in sent
    assert "[redacted:" in sent


def test_missing_usage_is_estimated_and_marked(fake: FakeProvider) -> None:
    fake.queue(fake.text("a short answer", usage=False))
    answer = fake.client().complete(HELLO, purpose="t")
    assert answer.usage_estimated
    assert answer.input_tokens > 0 and answer.output_tokens > 0


def test_every_call_success_or_failure_is_one_ledger_line(
    fake: FakeProvider, vault_dir: Path
) -> None:
    fake.write_config(vault_dir, "openai", price_in_per_mtok=0.15, price_out_per_mtok=0.6)
    client = load_model(Vault(vault_dir), sleep=fake.sleeps.append)
    assert client is not None
    fake.queue(fake.text("one", input_tokens=1000, output_tokens=100))
    fake.queue(fake.status(401))
    client.complete(HELLO, purpose="ingest")
    with pytest.raises(ModelAuthError):
        client.complete(HELLO, purpose="digest")
    lines = ledger_path(vault_dir).read_text().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["ok"] and first["purpose"] == "ingest" and first["input_tokens"] == 1000
    assert first["cost_usd"] == pytest.approx(1000 * 0.15 / 1e6 + 100 * 0.6 / 1e6)
    assert not second["ok"] and "HTTP 401" in second["error"]
    assert set(first) >= {"time", "provider", "model", "latency_ms", "output_tokens"}
    totals = ledger_totals(vault_dir)
    assert totals.total.calls == 2 and totals.total.failed == 1
    assert set(totals.by_purpose) == {"ingest", "digest"}
    assert totals.by_model["openai:fake-model"].input_tokens == 1000


def test_openai_itself_gets_max_completion_tokens_and_compatible_servers_max_tokens() -> None:
    from mnemex.llm import parse_model_config
    from mnemex.llm.providers import OpenAIWire

    remote = parse_model_config({"provider": "openai", "model": "o3-mini"}, {"OPENAI_API_KEY": "k"})
    body = OpenAIWire(remote, "k").build(HELLO, None, 100, None).body
    assert body["max_completion_tokens"] == 100 and "max_tokens" not in body
    router = parse_model_config(
        {"provider": "openai", "model": "m", "base_url": "https://openrouter.ai/api/v1"},
        {"OPENAI_API_KEY": "k"},
    )
    assert OpenAIWire(router, "k").build(HELLO, None, 100, None).body["max_tokens"] == 100


def test_a_nullable_type_becomes_geminis_nullable() -> None:
    from mnemex.llm.providers import gemini_schema

    assert gemini_schema({"type": ["string", "null"], "maxLength": 3}) == {
        "type": "STRING",
        "nullable": True,
    }


def test_a_gemini_prompt_blocked_by_safety_says_why(fake: FakeProvider) -> None:
    fake.queue(fake.raw_json({"promptFeedback": {"blockReason": "SAFETY"}}))
    with pytest.raises(ModelOutputError, match=r"the prompt was blocked \(SAFETY\)"):
        fake.client("gemini").complete(HELLO, purpose="t")
