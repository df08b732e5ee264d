"""A real HTTP server on 127.0.0.1 that speaks the three model providers' wire formats.

Use it in any test that needs a model (``from fake_provider import FakeProvider``), or ask for
the ``fake`` fixture of conftest.py, one started server per test::

    with FakeProvider() as fake:
        fake.queue(fake.json({"title": "x"}), fake.status(429, retry_after=2), fake.text("hi"))
        client = fake.client("anthropic")          # a ModelClient pointed at the fake
        ...
        assert fake.requests[0].body["max_tokens"] == 2048

Endpoints: OpenAI-compatible ``POST /v1/chat/completions``; Anthropic ``POST /v1/messages``
(requires ``anthropic-version`` and ``max_tokens``, like the real API); Gemini
``POST /v1beta/models/{model}:generateContent`` (key by ``x-goog-api-key`` or ``?key=``).
Each queued :class:`Canned` answer is rendered in the format of the endpoint that was hit:
text and finish reason, usage, or an error status with the provider's error body. A queued
callable gets the :class:`Recorded` request and returns a :class:`Canned` (for answers that
depend on the prompt). An empty queue answers 500 "no canned response queued".
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from mnemex.llm import ModelClient, parse_model_config

PROVIDERS = ("openai", "anthropic", "gemini")
_GEMINI_PATH = re.compile(r"^/v1beta/models/(?P<model>[^/:]+):generateContent$")
_FINISH = {
    "openai": {"stop": "stop", "length": "length"},
    "anthropic": {"stop": "end_turn", "length": "max_tokens"},
    "gemini": {"stop": "STOP", "length": "MAX_TOKENS"},
}


@dataclass
class Canned:
    """One scripted answer. ``raw`` is sent verbatim; ``truncate`` promises more bytes than
    it sends and closes the connection; ``delay`` waits first (to provoke a timeout)."""

    text: str = ""
    finish: str = "stop"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    truncate: bool = False
    delay: float = 0.0
    input_tokens: int = 100
    output_tokens: int = 20
    usage: bool = True
    message: str = ""


@dataclass
class Recorded:
    """A request the fake received (header names in lower case; ``body`` parsed JSON)."""

    provider: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    raw: bytes

    def prompt_text(self) -> str:
        """Every piece of text sent (system and messages), for asserting what reached a model."""
        return json.dumps(self.body, ensure_ascii=False)


Script = Canned | Callable[[Recorded], Canned]


class FakeProvider:
    """The server; a context manager. ``api_key`` set: requests without it get a 401."""

    def __init__(self, api_key: str | None = None) -> None:
        self.api_key = api_key
        self.requests: list[Recorded] = []
        self.sleeps: list[float] = []
        self._queue: list[Script] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        # a short poll so close() returns at once (the default 0.5 s adds up over a suite)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def base_url(self, provider: str) -> str:
        return f"{self.url}/v1beta" if provider == "gemini" else f"{self.url}/v1"

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # scripting ---------------------------------------------------------------------------

    def queue(self, *answers: Script) -> FakeProvider:
        with self._lock:
            self._queue.extend(answers)
        return self

    @property
    def pending(self) -> int:
        return len(self._queue)

    def _next(self, request: Recorded) -> Canned:
        with self._lock:
            script = self._queue.pop(0) if self._queue else None
        if script is None:
            return Canned(status=500, message="fake provider: no canned response queued")
        return script(request) if callable(script) else script

    @staticmethod
    def text(text: str, **extra: Any) -> Canned:
        return Canned(text=text, **extra)

    @staticmethod
    def json(value: Any, **extra: Any) -> Canned:
        return Canned(text=json.dumps(value), **extra)

    @staticmethod
    def cut(text: str, **extra: Any) -> Canned:
        """An answer cut at the output limit (finish reason length / max_tokens)."""
        return Canned(text=text, finish="length", **extra)

    @staticmethod
    def status(code: int, retry_after: float | str | None = None, message: str = "") -> Canned:
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        return Canned(status=code, headers=headers, message=message or f"fake HTTP {code}")

    @staticmethod
    def raw_json(value: Any, status: int = 200) -> Canned:
        """A body sent as it is, whatever the endpoint (a provider's unusual answer)."""
        return Canned(raw=json.dumps(value).encode(), status=status)

    @staticmethod
    def malformed_body() -> Canned:
        return Canned(raw=b'{"choices": [ this is not json')

    @staticmethod
    def truncated_body() -> Canned:
        return Canned(text="this answer is cut mid-body", truncate=True)

    # clients -----------------------------------------------------------------------------

    def model_table(self, provider: str, **extra: Any) -> dict[str, Any]:
        """A ``[model]`` table pointed at this server (extra settings override)."""
        return {
            "provider": provider,
            "model": extra.pop("model", "fake-model"),
            "base_url": self.base_url(provider),
            "timeout": 5,
            **extra,
        }

    def client(
        self,
        provider: str = "openai",
        *,
        ledger: Path | None = None,
        env: dict[str, str] | None = None,
        **extra: Any,
    ) -> ModelClient:
        """A :class:`ModelClient` for this server; its backoff sleeps are recorded, not slept."""
        config = parse_model_config(self.model_table(provider, **extra), env or {})
        return ModelClient(config, ledger=ledger, env=env or {}, sleep=self.sleeps.append)

    def write_config(self, vault_root: Path, provider: str = "openai", **extra: Any) -> None:
        """Append a ``[model]`` table for this server to ``<vault_root>/mnemex.toml``."""
        lines = ["", "[model]"]
        for key, value in self.model_table(provider, **extra).items():
            lines.append(f"{key} = {json.dumps(value)}")
        path = vault_root / "mnemex.toml"
        existing = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(existing + "\n".join(lines) + "\n", encoding="utf-8")

    # serving -----------------------------------------------------------------------------

    def _handle(self, provider: str, request: Recorded) -> tuple[int, dict[str, str], bytes, bool]:
        with self._lock:
            self.requests.append(request)
        problem = _wire_problem(provider, request, self.api_key)
        if problem is not None:  # refused as the real API would, before any canned answer
            status, message = problem
            return status, {}, _error_body(provider, status, message), False
        canned = self._next(request)
        if canned.delay:
            time.sleep(canned.delay)
        if canned.raw is not None:
            return canned.status, canned.headers, canned.raw, canned.truncate
        if canned.status != 200:
            body = _error_body(provider, canned.status, canned.message)
            return canned.status, canned.headers, body, canned.truncate
        body = json.dumps(_answer(provider, canned, request)).encode()
        return 200, canned.headers, body, canned.truncate


def _wire_problem(provider: str, request: Recorded, key: str | None) -> tuple[int, str] | None:
    """Why the real API would refuse this request, or None."""
    body, headers = request.body, request.headers
    if not isinstance(body, dict):
        return 400, "request body is not a JSON object"
    if provider == "openai":
        sent = headers.get("authorization")
        if key and sent != f"Bearer {key}":
            return 401, "Incorrect API key provided"
        if not isinstance(body.get("model"), str) or not body.get("messages"):
            return 400, "model and messages are required"
    elif provider == "anthropic":
        if key and headers.get("x-api-key") != key:
            return 401, "invalid x-api-key"
        if "anthropic-version" not in headers:
            return 400, "anthropic-version header is required"
        if not isinstance(body.get("max_tokens"), int) or not body.get("messages"):
            return 400, "max_tokens and messages are required"
        if any(m.get("role") not in ("user", "assistant") for m in body["messages"]):
            return 400, "messages: roles must be user or assistant (system is top-level)"
    else:
        sent = headers.get("x-goog-api-key") or (request.query.get("key") or [None])[0]
        if key and sent != key:
            return 403, "API key not valid. Please pass a valid API key."
        if not body.get("contents"):
            return 400, "contents is required"
    return None


def _error_body(provider: str, status: int, message: str) -> bytes:
    if provider == "anthropic":
        kind = {401: "authentication_error", 429: "rate_limit_error"}.get(status, "api_error")
        return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
    if provider == "gemini":
        return json.dumps(
            {"error": {"code": status, "message": message, "status": "ERROR"}}
        ).encode()
    return json.dumps({"error": {"message": message, "type": "error", "code": status}}).encode()


def _answer(provider: str, canned: Canned, request: Recorded) -> dict[str, Any]:
    finish = _FINISH[provider].get(canned.finish, canned.finish)
    model = str(request.body.get("model", "fake-model"))
    if provider == "openai":
        out: dict[str, Any] = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": canned.text},
                    "finish_reason": finish,
                }
            ],
        }
        if canned.usage:
            out["usage"] = {
                "prompt_tokens": canned.input_tokens,
                "completion_tokens": canned.output_tokens,
                "total_tokens": canned.input_tokens + canned.output_tokens,
            }
        return out
    if provider == "anthropic":
        out = {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": canned.text}],
            "stop_reason": finish,
            "stop_sequence": None,
        }
        if canned.usage:
            out["usage"] = {
                "input_tokens": canned.input_tokens,
                "output_tokens": canned.output_tokens,
            }
        return out
    match = _GEMINI_PATH.match(request.path)
    out = {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": canned.text}]},
                "finishReason": finish,
                "index": 0,
            }
        ],
        "modelVersion": match.group("model") if match else "fake-model",
    }
    if canned.usage:
        out["usageMetadata"] = {
            "promptTokenCount": canned.input_tokens,
            "candidatesTokenCount": canned.output_tokens,
            "totalTokenCount": canned.input_tokens + canned.output_tokens,
        }
    return out


def _provider_of(path: str) -> str | None:
    if path == "/v1/chat/completions":
        return "openai"
    if path == "/v1/messages":
        return "anthropic"
    if _GEMINI_PATH.match(path):
        return "gemini"
    return None


def _handler_for(fake: FakeProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def do_POST(self) -> None:
            parsed = urlparse(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            provider = _provider_of(parsed.path)
            if provider is None:
                self._send(404, {}, b'{"error": {"message": "no such endpoint"}}', False)
                return
            try:
                body: Any = json.loads(raw)
            except json.JSONDecodeError:
                body = None
            recorded = Recorded(
                provider=provider,
                path=parsed.path,
                query=parse_qs(parsed.query),
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
                raw=raw,
            )
            status, headers, payload, truncate = fake._handle(provider, recorded)
            self._send(status, headers, payload, truncate)

        def _send(self, status: int, headers: dict[str, str], payload: bytes, cut: bool) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload) + (500 if cut else 0)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload[: len(payload) // 2] if cut else payload)
                self.wfile.flush()
            except OSError:  # the client gave up (a timeout test): nothing to answer
                pass
            self.close_connection = True

    return Handler


__all__ = ["PROVIDERS", "Canned", "FakeProvider", "Recorded"]
