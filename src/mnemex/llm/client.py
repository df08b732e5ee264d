"""The model client: one ``complete`` for every provider, metered, retried, redacted.

:meth:`ModelClient.complete` redacts the outgoing text (the last line of defence: callers
redact first), sends it in the provider's wire format (:mod:`mnemex.llm.providers`)
with the standard library's HTTP client, retries what is worth retrying (429, 5xx,
timeouts, a connection cut mid-answer) with exponential backoff that honours
``Retry-After``, and records the call in the ledger whatever the outcome.

Errors: 401/403 → :class:`ModelAuthError` (names the env var, never the key); 429/5xx/
timeouts after the retries → :class:`ModelUnavailable`; an answer that is not JSON or not
the provider's shape → :class:`ModelOutputError`; any other 4xx → :class:`ModelError`.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mnemex.errors import ModelAuthError, ModelError, ModelOutputError, ModelUnavailable
from mnemex.llm.config import ModelConfig
from mnemex.llm.cost import price_of
from mnemex.llm.ledger import LedgerEntry, append_entry
from mnemex.llm.providers import WIRES, Answer, Message, Request, Wire, WireFormatError
from mnemex.text.dates import utc_iso
from mnemex.text.redact import redact_text
from mnemex.text.tokens import estimate_tokens

#: Longest wait between two attempts, whatever ``Retry-After`` asks for.
MAX_RETRY_WAIT = 30.0
BACKOFF_BASE = 1.0
_DETAIL_CHARS = 300


@dataclass(frozen=True)
class Completion:
    """A model's answer. ``cost_usd`` is None when the price is unknown; ``finish_reason`` is
    ``stop``, ``length`` (cut at the output limit) or the provider's own word."""

    text: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    finish_reason: str
    model: str
    latency_ms: int = 0
    attempts: int = 1
    usage_estimated: bool = False


class _Retry(Exception):
    """An attempt failed in a way worth another try; ``wait`` is the server's Retry-After."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


class ModelClient:
    """A configured model. Made by :func:`mnemex.llm.load_model`; safe to share in a thread.

    ``sleep`` is injectable so tests of the backoff do not wait; ``ledger`` is the JSONL file
    calls are recorded in (None: not recorded).
    """

    def __init__(
        self,
        config: ModelConfig,
        *,
        ledger: Path | None = None,
        env: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.ledger = ledger
        self._sleep = sleep
        environ = os.environ if env is None else env
        key = environ.get(config.api_key_env) if config.api_key_env else None
        self._wire: Wire = WIRES[config.provider](config, key or None)

    def __repr__(self) -> str:
        return f"ModelClient({self.identity!r})"

    @property
    def identity(self) -> str:
        return self.config.identity

    @property
    def context_tokens(self) -> int:
        return self.config.context_tokens

    @property
    def max_output_tokens(self) -> int:
        return self.config.max_output_tokens

    def complete(
        self,
        messages: list[Message],
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        json_schema: dict[str, Any] | None = None,
        purpose: str,
    ) -> Completion:
        """Send ``messages`` and return the answer; ``purpose`` labels the call in the ledger.

        Raises:
            ModelAuthError, ModelUnavailable, ModelOutputError, ModelError: see the module.
        """
        if not messages:
            raise ModelError("complete() needs at least one message")
        safe = [Message(m.role, redact_text(m.content)) for m in messages]
        safe_system = redact_text(system) if system else None
        limit = min(max_tokens or self.max_output_tokens, self.max_output_tokens)
        request = self._wire.build(safe, safe_system, limit, json_schema)
        started = time.monotonic()
        attempts = 0
        try:
            answer, attempts = self._send_with_retries(request)
        except ModelError as exc:
            self._record(purpose, 0, 0, None, started, max(attempts, 1), str(exc), False)
            raise
        sent = "\n".join([safe_system or "", *(m.content for m in safe)])
        estimated = answer.input_tokens is None or answer.output_tokens is None
        tokens_in = (
            answer.input_tokens if answer.input_tokens is not None else estimate_tokens(sent)
        )
        tokens_out = (
            answer.output_tokens
            if answer.output_tokens is not None
            else estimate_tokens(answer.text)
        )
        cost = price_of(self.config, tokens_in, tokens_out)
        latency = self._record(
            purpose, tokens_in, tokens_out, cost, started, attempts, None, estimated
        )
        return Completion(
            text=answer.text,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            cost_usd=cost,
            finish_reason=answer.finish_reason,
            model=answer.model,
            latency_ms=latency,
            attempts=attempts,
            usage_estimated=estimated,
        )

    def _record(
        self,
        purpose: str,
        tokens_in: int,
        tokens_out: int,
        cost: float | None,
        started: float,
        attempts: int,
        error: str | None,
        estimated: bool,
    ) -> int:
        latency = int((time.monotonic() - started) * 1000)
        if self.ledger is not None:
            entry = LedgerEntry(
                time=utc_iso(),
                provider=self.config.provider,
                model=self.config.model,
                purpose=purpose,
                input_tokens=tokens_in,
                output_tokens=tokens_out,
                cost_usd=cost,
                ok=error is None,
                error=error,
                latency_ms=latency,
                attempts=attempts,
                usage_estimated=estimated,
            )
            append_entry(self.ledger, entry)
        return latency

    def _send_with_retries(self, request: Request) -> tuple[Answer, int]:
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._send_once(request), attempt
            except _Retry as retry:
                if attempt > self.config.max_retries:
                    raise ModelUnavailable(
                        f"{self.identity}: {retry.reason} (gave up after {attempt} attempt(s))"
                    ) from None
                backoff = BACKOFF_BASE * 2 ** (attempt - 1)
                self._sleep(min(MAX_RETRY_WAIT, max(backoff, retry.wait or 0.0)))

    def _send_once(self, request: Request) -> Answer:
        data = json.dumps(request.body, ensure_ascii=False).encode("utf-8")
        http_request = urllib.request.Request(
            request.url, data=data, headers=request.headers, method="POST"
        )
        try:
            with urllib.request.urlopen(http_request, timeout=self.config.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            try:
                raise self._http_error(exc) from None
            finally:
                exc.close()
        except (TimeoutError, http.client.IncompleteRead, ConnectionError) as exc:
            raise _Retry(f"no complete answer ({type(exc).__name__}: {exc})") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise _Retry(f"timed out after {self.config.timeout:g} s") from None
            raise _Retry(f"cannot reach {self.config.base_url} ({exc.reason})") from None
        except http.client.HTTPException as exc:
            raise _Retry(f"broken answer ({type(exc).__name__}: {exc})") from None
        try:
            payload = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ModelOutputError(
                f"{self.identity}: the answer body is not JSON ({exc}): {_snippet(raw)}"
            ) from None
        try:
            return self._wire.parse(payload)
        except WireFormatError as exc:
            raise ModelOutputError(f"{self.identity}: unexpected answer shape: {exc}") from None

    def _http_error(self, exc: urllib.error.HTTPError) -> Exception:
        try:
            raw = exc.read()
        except (OSError, http.client.HTTPException):
            raw = b""
        try:
            detail = self._wire.error_message(json.loads(raw)) or _snippet(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            detail = _snippet(raw)
        detail = redact_text(detail)[:_DETAIL_CHARS]
        code = exc.code
        if code in (401, 403):
            env = self.config.api_key_env
            hint = (
                f"check the key in the environment variable {env}"
                if env
                else "this server wants a key: set api_key_env in [model] to the variable's name"
            )
            return ModelAuthError(f"{self.identity}: HTTP {code} (key refused): {hint}. {detail}")
        if code == 429 or code >= 500:
            return _Retry(f"HTTP {code}: {detail}", _retry_after(exc.headers.get("Retry-After")))
        return ModelError(f"{self.identity}: HTTP {code}: {detail}")


def _snippet(raw: bytes) -> str:
    return redact_text(raw[:_DETAIL_CHARS].decode("utf-8", "replace"))


__all__ = ["BACKOFF_BASE", "MAX_RETRY_WAIT", "Completion", "ModelClient"]
