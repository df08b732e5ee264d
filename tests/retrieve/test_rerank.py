"""The rerank client against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from helpers import write
from mnemex.brain import Brain
from mnemex.embed.hashing import HashingEmbedder
from mnemex.errors import ConfigError
from mnemex.retrieve import search
from mnemex.retrieve.rerank import Reranker, RerankError, RerankSettings, load_reranker
from mnemex.vault import Vault


class FakeRerank(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict[str, Any]]] = []
    mode: ClassVar[str] = "ok"
    release: ClassVar[threading.Event] = threading.Event()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )
        docs = body["documents"]
        results = [{"index": i, "relevance_score": float(len(d))} for i, d in enumerate(docs)]
        results.sort(key=lambda r: -r["relevance_score"])
        answer: Any = {"results": results, "model": body["model"]}
        if self.mode == "error":
            return self._send(500, b'{"error": "model not loaded"}')
        if self.mode == "text":
            return self._send(200, b"<html>not json</html>")
        if self.mode == "slow":
            self.release.wait(1.0)
        elif self.mode == "score":
            answer = {
                "results": [{"index": r["index"], "score": r["relevance_score"]} for r in results]
            }
        elif self.mode == "bare":
            answer = [{"index": r["index"], "score": r["relevance_score"]} for r in results]
        elif self.mode == "missing":
            answer["results"] = results[1:]
        elif self.mode == "out_of_range":
            results[0]["index"] = len(docs)
        self._send(200, json.dumps(answer).encode())

    def _send(self, code: int, payload: bytes) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:  # the client gave up (timeout test)
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    FakeRerank.requests = []
    FakeRerank.mode = "ok"
    FakeRerank.release = threading.Event()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeRerank)
    httpd.daemon_threads = False
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    FakeRerank.release.set()
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def make(base_url: str, **extra: Any) -> Reranker:
    return Reranker(RerankSettings.from_settings({"base_url": base_url, "model": "m", **extra}))


DOCS = ["a", "abcd", "ab"]


def test_request_shape_and_the_key_from_the_named_variable(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_RERANK_KEY", "sk-test")
    reranker = load_reranker(
        {"rerank": {"base_url": server + "/", "model": "bge", "api_key_env": "MY_RERANK_KEY"}}
    )
    assert reranker is not None
    assert reranker.identity == f"rerank:bge@{server}"
    reranker.scores("q", DOCS)
    sent = FakeRerank.requests[0]
    assert sent["path"] == "/v1/rerank"
    assert sent["auth"] == "Bearer sk-test"
    assert sent["body"] == {"model": "bge", "query": "q", "documents": DOCS, "top_n": 3}


def test_no_key_no_authorization_header(server: str) -> None:
    make(server).scores("q", DOCS)
    assert FakeRerank.requests[0]["auth"] is None


@pytest.mark.parametrize("mode", ["ok", "score", "bare"])
def test_scores_come_back_in_input_order(server: str, mode: str) -> None:
    FakeRerank.mode = mode
    assert make(server).scores("q", DOCS) == [1.0, 4.0, 2.0]


def test_empty_documents_make_no_request(server: str) -> None:
    assert make(server).scores("q", []) == []
    assert FakeRerank.requests == []


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("error", r"/v1/rerank: HTTP 500: .*model not loaded"),
        ("text", "not JSON"),
        ("missing", r"1 of 3 documents not scored"),
        ("out_of_range", r"index 3 is not in 0\.\.2"),
    ],
)
def test_bad_answers_are_rerank_errors(server: str, mode: str, message: str) -> None:
    FakeRerank.mode = mode
    with pytest.raises(RerankError, match=message):
        make(server).scores("q", DOCS)


def test_a_timeout_is_a_rerank_error(server: str) -> None:
    FakeRerank.mode = "slow"
    with pytest.raises(RerankError, match="cannot reach"):
        make(server, timeout=0.2).scores("q", DOCS)


def test_a_closed_port_is_a_rerank_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(RerankError, match=rf"127\.0\.0\.1:{port}/rerank: cannot reach"):
        make(f"http://127.0.0.1:{port}", timeout=2).scores("q", DOCS)


def test_defaults() -> None:
    settings = RerankSettings.from_settings({"base_url": "http://h/", "model": "m"})
    assert settings == RerankSettings("http://h", "m", None, 10.0, 50)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"model": "m"}, r"\[search\.rerank\] needs base_url"),
        ({"base_url": "http://h"}, r"\[search\.rerank\] needs model"),
        ({"base_url": "http://h", "model": ""}, "needs model"),
        ({"base_url": "file:///etc", "model": "m"}, "http:// or https://"),
        ({"base_url": "http://h", "model": "m", "top": 0}, "top"),
        ({"base_url": "http://h", "model": "m", "top": 2.5}, "top"),
        ({"base_url": "http://h", "model": "m", "timeout": -1}, "timeout"),
        ({"base_url": "http://h", "model": "m", "timeout": True}, "timeout"),
        ({"base_url": "http://h", "model": "m", "api_key_env": 3}, "api_key_env"),
        ({"base_url": "http://h", "model": "m", "topk": 5, "key": "x"}, r"\['key', 'topk'\]"),
    ],
)
def test_bad_settings_are_config_errors(table: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_reranker({"rerank": table})


def test_no_table_no_reranker() -> None:
    assert load_reranker({}) is None
    assert load_reranker({"weights": {}}) is None
    with pytest.raises(ConfigError, match="must be a table"):
        load_reranker({"rerank": "yes"})


def _brain_with_reranker(vault_dir: Path, base_url: str, top: int) -> Brain:
    settings = vault_dir / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8")
        + f'\n[search.rerank]\nbase_url = "{base_url}"\nmodel = "m"\ntop = {top}\n',
        encoding="utf-8",
    )
    for n, words in enumerate(["tea", "tea kettle", "tea kettle descaling", "tea " * 30]):
        write(vault_dir, f"note{n}.md", f"# Note {n}\n\n{words}\n")
    brain = Brain(Vault(vault_dir), embedder=HashingEmbedder())
    brain.sync()
    return brain


def test_search_reorders_its_best_hits_by_the_reranker(server: str, vault_dir: Path) -> None:
    with _brain_with_reranker(vault_dir, server, top=3) as brain:
        plain = search(brain, "tea", rerank=False)
        assert not FakeRerank.requests and all("rerank" not in h.why for h in plain.hits)
        reranked = search(brain, "tea")
    (request,) = FakeRerank.requests
    assert len(request["body"]["documents"]) == 3 and request["body"]["query"] == "tea"
    head = [h.path for h in plain.hits[:3]]
    # the fake scores a document by its length: the three are re-sorted, the rest stay after
    assert sorted(head) == sorted(h.path for h in reranked.hits[:3])
    assert [h.path for h in reranked.hits[3:]] == [h.path for h in plain.hits[3:]]
    scores = [h.why["rerank"] for h in reranked.hits[:3]]
    assert scores == sorted(scores, reverse=True)
    assert all("rerank" not in h.why for h in reranked.hits[3:])
    assert "rerank_ms" in reranked.timings


def test_a_failing_reranker_fails_the_search_loudly(server: str, vault_dir: Path) -> None:
    FakeRerank.mode = "error"
    with _brain_with_reranker(vault_dir, server, top=50) as brain, pytest.raises(RerankError):
        search(brain, "tea")
