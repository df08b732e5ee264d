"""The OpenAI-compatible client against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import numpy as np
import pytest

from mnemex.embed import load_embedder
from mnemex.embed.openai import OpenAIEmbedder
from mnemex.errors import ConfigError, EmbedderError


class FakeEmbeddings(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict[str, Any]]] = []
    mode = "ok"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )
        if self.mode == "error":
            self._send(500, b'{"error": "model not loaded"}')
            return
        data = [
            {"index": i, "embedding": [float(len(t)), 1.0, 0.0]}
            for i, t in enumerate(body["input"])
        ]
        data.reverse()  # servers may answer out of order; the index field decides
        self._send(200, json.dumps({"data": data, "model": body["model"]}).encode())

    def _send(self, code: int, payload: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    FakeEmbeddings.requests = []
    FakeEmbeddings.mode = "ok"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeEmbeddings)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_vectors_come_back_in_input_order_and_normalised(server: str) -> None:
    emb = OpenAIEmbedder(server, "nomic-embed-text", api_key="sk-test")
    vectors = emb.embed_batch(["a", "abcd"])
    assert vectors.shape == (2, 3)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[1][0] > vectors[0][0]
    sent = FakeEmbeddings.requests[0]
    assert sent["path"] == "/v1/embeddings"
    assert sent["auth"] == "Bearer sk-test"
    assert sent["body"] == {"model": "nomic-embed-text", "input": ["a", "abcd"]}


def test_the_key_is_read_from_the_named_environment_variable(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_KEY", "from-env")
    emb = load_embedder("openai", {"base_url": server, "model": "m", "api_key_env": "MY_KEY"})
    emb.embed_query("x")
    assert FakeEmbeddings.requests[0]["auth"] == "Bearer from-env"
    assert emb.identity == f"openai:m@{server}"


def test_a_server_error_is_an_embedder_error_with_its_message(server: str) -> None:
    FakeEmbeddings.mode = "error"
    with pytest.raises(EmbedderError, match=r"HTTP 500.*model not loaded"):
        OpenAIEmbedder(server, "m").embed_batch(["x"])


def test_an_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(EmbedderError, match="cannot reach"):
        OpenAIEmbedder("http://127.0.0.1:9/v1", "m", timeout=2).embed_batch(["x"])


def test_missing_settings_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match="base_url and model"):
        load_embedder("openai", {})
