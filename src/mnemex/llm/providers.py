"""The three wire formats: how a request is written and an answer read, per provider.

A :class:`Wire` only translates; it does no I/O, so the client's retry, ledger and
redaction logic is the same for every provider. The formats follow the public APIs:

- ``openai``: ``POST {base}/chat/completions`` (OpenAI, OpenRouter, Ollama, LM Studio,
  llama.cpp, vLLM), ``Authorization: Bearer``, ``max_tokens`` (``max_completion_tokens`` on
  api.openai.com); ``choices[0].message.content``,
  ``usage.prompt_tokens``/``completion_tokens``; structured output through
  ``response_format = {"type": "json_schema", ...}``.
- ``anthropic``: ``POST {base}/messages`` (Messages API, ``anthropic-version: 2023-06-01``),
  ``x-api-key``; text blocks of ``content``, ``usage.input_tokens``/``output_tokens``,
  ``stop_reason``. No schema parameter is sent: the schema travels in the prompt.
- ``gemini``: ``POST {base}/models/{model}:generateContent``, ``x-goog-api-key`` (a header, so
  the key is never in a URL or a log); ``candidates[0].content.parts[].text``,
  ``usageMetadata.promptTokenCount``/``candidatesTokenCount``; structured output through
  ``generationConfig.responseMimeType``/``responseSchema``.

Finish reasons are normalised to ``stop``, ``length`` (cut at the token limit) or the
provider's own word in lower case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from mnemex.llm.config import ModelConfig

ANTHROPIC_VERSION = "2023-06-01"
Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class Message:
    """One turn of a conversation sent to a model."""

    role: Role
    content: str


@dataclass(frozen=True)
class Request:
    """What a wire wants sent: URL, headers (the key among them) and the JSON body."""

    url: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """What a wire read from a provider's answer. Token counts are None when not reported."""

    text: str
    input_tokens: int | None
    output_tokens: int | None
    finish_reason: str
    model: str


class WireFormatError(ValueError):
    """The answer parsed as JSON but does not have the provider's shape."""


def _finish(value: Any, length_words: set[str]) -> str:
    word = str(value or "unknown").lower()
    if word in length_words:
        return "length"
    if word in {"stop", "end_turn", "stop_sequence", "eos"}:
        return "stop"
    return word


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Wire:
    """Base of the provider adapters; one per ``provider`` name."""

    name = ""

    def __init__(self, config: ModelConfig, api_key: str | None) -> None:
        self.config = config
        self._api_key = api_key

    def build(
        self,
        messages: list[Message],
        system: str | None,
        max_tokens: int,
        json_schema: dict[str, Any] | None,
    ) -> Request:
        raise NotImplementedError

    def parse(self, payload: Any) -> Answer:
        raise NotImplementedError

    @staticmethod
    def error_message(payload: Any) -> str:
        """The provider's own error text from an error body (all three use ``error.message``)."""
        if isinstance(payload, dict):
            error = payload.get("error")
            if isinstance(error, dict) and error.get("message"):
                return str(error["message"])
            if isinstance(error, str):
                return error
        return ""


class OpenAIWire(Wire):
    name = "openai"

    @property
    def token_limit_param(self) -> str:
        """OpenAI itself deprecated ``max_tokens`` and refuses it for its reasoning models
        (o1, o3, gpt-5: HTTP 400 "use max_completion_tokens"); the compatible servers
        (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter) all read ``max_tokens``."""
        return "max_completion_tokens" if self.config.host == "api.openai.com" else "max_tokens"

    def build(
        self,
        messages: list[Message],
        system: str | None,
        max_tokens: int,
        json_schema: dict[str, Any] | None,
    ) -> Request:
        turns = [{"role": "system", "content": system}] if system else []
        turns += [{"role": m.role, "content": m.content} for m in messages]
        body: dict[str, Any] = {"model": self.config.model, "messages": turns}
        body[self.token_limit_param] = max_tokens
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": json_schema, "strict": False},
            }
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return Request(f"{self.config.base_url}/chat/completions", headers, body)

    def parse(self, payload: Any) -> Answer:
        try:
            choice = payload["choices"][0]
            content = choice["message"].get("content")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise WireFormatError(f"no choices[0].message in the answer ({exc!r})") from exc
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        return Answer(
            text=content if isinstance(content, str) else "",
            input_tokens=_int_or_none(usage.get("prompt_tokens")),
            output_tokens=_int_or_none(usage.get("completion_tokens")),
            finish_reason=_finish(choice.get("finish_reason"), {"length"}),
            model=str(payload.get("model") or self.config.model),
        )


class AnthropicWire(Wire):
    name = "anthropic"

    def build(
        self,
        messages: list[Message],
        system: str | None,
        max_tokens: int,
        json_schema: dict[str, Any] | None,
    ) -> Request:
        body: dict[str, Any] = {
            "model": self.config.model,
            "max_tokens": max_tokens,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if system:
            body["system"] = system
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        headers = {"Content-Type": "application/json", "anthropic-version": ANTHROPIC_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return Request(f"{self.config.base_url}/messages", headers, body)

    def parse(self, payload: Any) -> Answer:
        try:
            blocks = payload["content"]
            text = "".join(
                b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"
            )
        except (KeyError, TypeError) as exc:
            raise WireFormatError(f"no content blocks in the answer ({exc!r})") from exc
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        return Answer(
            text=text,
            input_tokens=_int_or_none(usage.get("input_tokens")),
            output_tokens=_int_or_none(usage.get("output_tokens")),
            finish_reason=_finish(payload.get("stop_reason"), {"max_tokens"}),
            model=str(payload.get("model") or self.config.model),
        )


_GEMINI_SCHEMA_KEYS = frozenset(
    {"properties", "required", "items", "enum", "description", "maxItems", "minItems"}
)
_GEMINI_NUMBER_KEYS = frozenset({"minimum", "maximum"})


def gemini_schema(schema: Any) -> Any:
    """The subset of a JSON schema that Gemini's ``responseSchema`` (OpenAPI 3.0) accepts."""
    if isinstance(schema, list):
        return [gemini_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: gemini_schema(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = gemini_schema(value)
        elif key == "type":
            out.update(_gemini_type(value))
        elif key in _GEMINI_SCHEMA_KEYS or key in _GEMINI_NUMBER_KEYS:
            out[key] = value
    return out


def _gemini_type(value: Any) -> dict[str, Any]:
    """Gemini's ``Type`` is an enum written in capitals (``OBJECT``), one type per schema;
    ``["string", "null"]`` becomes ``STRING`` with ``nullable``."""
    names = [value] if isinstance(value, str) else [str(v) for v in value]
    concrete = [n for n in names if n != "null"]
    out: dict[str, Any] = {"type": (concrete[0] if concrete else "string").upper()}
    if "null" in names:
        out["nullable"] = True
    return out


class GeminiWire(Wire):
    name = "gemini"

    def build(
        self,
        messages: list[Message],
        system: str | None,
        max_tokens: int,
        json_schema: dict[str, Any] | None,
    ) -> Request:
        contents = [
            {"role": "model" if m.role == "assistant" else "user", "parts": [{"text": m.content}]}
            for m in messages
        ]
        generation: dict[str, Any] = {"maxOutputTokens": max_tokens}
        if self.config.temperature is not None:
            generation["temperature"] = self.config.temperature
        if json_schema is not None:
            generation["responseMimeType"] = "application/json"
            generation["responseSchema"] = gemini_schema(json_schema)
        body: dict[str, Any] = {"contents": contents, "generationConfig": generation}
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["x-goog-api-key"] = self._api_key
        model = quote(self.config.model, safe="/-_.")
        return Request(f"{self.config.base_url}/models/{model}:generateContent", headers, body)

    def parse(self, payload: Any) -> Answer:
        feedback = payload.get("promptFeedback") if isinstance(payload, dict) else None
        if (
            isinstance(feedback, dict)
            and feedback.get("blockReason")
            and not payload.get("candidates")
        ):
            raise WireFormatError(f"the prompt was blocked ({feedback['blockReason']})")
        try:
            candidate = payload["candidates"][0]
            parts = candidate.get("content", {}).get("parts", [])
            text = "".join(p.get("text", "") for p in parts if isinstance(p, dict))
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise WireFormatError(f"no candidates[0] in the answer ({exc!r})") from exc
        usage = payload.get("usageMetadata")
        usage = usage if isinstance(usage, dict) else {}
        return Answer(
            text=text,
            input_tokens=_int_or_none(usage.get("promptTokenCount")),
            output_tokens=_int_or_none(usage.get("candidatesTokenCount")),
            finish_reason=_finish(candidate.get("finishReason"), {"max_tokens"}),
            model=str(payload.get("modelVersion") or self.config.model),
        )


WIRES: dict[str, type[Wire]] = {
    "openai": OpenAIWire,
    "anthropic": AnthropicWire,
    "gemini": GeminiWire,
}

__all__ = [
    "ANTHROPIC_VERSION",
    "WIRES",
    "Answer",
    "AnthropicWire",
    "GeminiWire",
    "Message",
    "OpenAIWire",
    "Request",
    "Wire",
    "WireFormatError",
    "gemini_schema",
]
