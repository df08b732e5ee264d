from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mnemex.text.redact import PURGE_RECIPE, Finding, redact, scan_vault_history
from mnemex.text.sanitise import redact_secrets
from mnemex.vault import init_vault

# Fake values, invented for these tests; none is a real credential.
FAKE_PEM_BODY = "MIIEowIBAAKCAQEAx9fakefakefakefakeQIDAQAB\nZmFrZWtleWJvZHlmb3J0ZXN0cw=="
PLANTED: list[tuple[str, str, str]] = [
    # (kind, text with the secret, the secret)
    (
        "api-key",
        "OPENAI key sk-T3stF4keKey0123456789abcdefXYZ",
        "sk-T3stF4keKey0123456789abcdefXYZ",
    ),
    (
        "api-key",
        "use sk-proj-Fak3Pr0jectKey_abcdefghijklmnop0123 here",
        "sk-proj-Fak3Pr0jectKey_abcdefghijklmnop0123",
    ),
    (
        "api-key",
        "anthropic: sk-ant-api03-F4keAnthr0picKey-0123456789abcdefghij",
        "sk-ant-api03-F4keAnthr0picKey-0123456789abcdefghij",
    ),
    (
        "google-api-key",
        "maps AIzaSyF4keG00gleKey0123456789abcdefghij end",
        "AIzaSyF4keG00gleKey0123456789abcdefghij",
    ),
    (
        "github-token",
        "git push with ghp_F4keGitHubT0ken0123456789abcdefghij",
        "ghp_F4keGitHubT0ken0123456789abcdefghij",
    ),
    ("github-token", "gho_F4keOAuthT0ken0123456789abcdefghijkl", "gho_F4keOAuthT0ken0123456789"),
    ("github-token", "ghs_F4keServerT0ken0123456789abcdefghijk", "ghs_F4keServerT0ken012345678"),
    (
        "github-token",
        "token github_pat_11AAAAFAKE0123456789_abcdefghijklmnopqrstuvwxyzFAKE",
        "github_pat_11AAAAFAKE0123456789",
    ),
    ("gitlab-token", "glpat-F4keGitLab0123456789ab", "glpat-F4keGitLab0123456789ab"),
    (
        "slack-token",
        "hook xoxb-123456789012-1234567890123-F4keSl4ckT0ken",
        "xoxb-123456789012-1234567890123-F4keSl4ckT0ken",
    ),
    ("slack-token", "xoxp-98765-43210-F4keUserT0ken", "xoxp-98765-43210-F4keUserT0ken"),
    (
        "stripe-key",
        "charge with sk_live_F4keStr1peKey0123456789ab",
        "sk_live_F4keStr1peKey0123456789ab",
    ),
    ("stripe-key", "rk_live_F4keRestr1ctedKey012345", "rk_live_F4keRestr1ctedKey012345"),
    ("aws-key", "AWS id AKIAFAKE0123456789XY in config", "AKIAFAKE0123456789XY"),
    ("aws-key", "session ASIAFAKE0123456789XY", "ASIAFAKE0123456789XY"),
    (
        "aws-secret",
        "aws_secret_access_key = f4KeSecr3tAcce55Key/0123456789abcdefFAKE",
        "f4KeSecr3tAcce55Key/0123456789abcdefFAKE",
    ),
    (
        "huggingface-token",
        "HF hf_F4keHugg1ngFaceT0ken0123456789abcd",
        "hf_F4keHugg1ngFaceT0ken0123456789abcd",
    ),
    (
        "npm-token",
        "//registry.npmjs.org/:_authToken npm_F4keNpmT0ken0123456789abcdefghijklmn",
        "npm_F4keNpmT0ken0123456789abcdefghijklmn",
    ),
    (
        "token",
        "curl -H 'Authorization: Bearer f4ke.opaque-bearer_token0123456789'",
        "f4ke.opaque-bearer_token0123456789",
    ),
    ("token", "Authorization: Basic ZmFrZXVzZXI6ZmFrZXBhc3M=", "ZmFrZXVzZXI6ZmFrZXBhc3M="),
    (
        "jwt",
        "id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.F4keSignatur3xyz0123",
        "eyJzdWIiOiJmYWtlIn0",
    ),
    ("secret", "password=C0rrectH0rse!", "C0rrectH0rse!"),
    ("secret", "PASSWORD: n0t-a-real-pass", "n0t-a-real-pass"),
    ("secret", '{"db_password": "F4kePassw0rd"}', "F4kePassw0rd"),
    ("secret", "client_secret: 'fakeclientsecretvalue'", "fakeclientsecretvalue"),
    (
        "secret",
        "settings.api_key = 'Zx81fAkEq0pL2mN7bV4cX9zA'",
        "Zx81fAkEq0pL2mN7bV4cX9zA",
    ),
    ("password", "git clone https://ada:F4keP4ss@git.example.org/r.git", "F4keP4ss"),
    (
        "private-key",
        f"key:\n-----BEGIN RSA PRIVATE KEY-----\n{FAKE_PEM_BODY}\n-----END RSA PRIVATE KEY-----\n",
        "MIIEowIBAAKCAQEAx9fake",
    ),
    (
        "private-key",
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{FAKE_PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----",
        "ZmFrZWtleWJvZHlmb3J0ZXN0cw",
    ),
    (
        "connection-string",
        "DATABASE_URL is postgres://app:F4kePgPass@db.internal:5432/app",
        "F4kePgPass",
    ),
    ("connection-string", "mysql://root:F4keMyPass@localhost/db", "F4keMyPass"),
    (
        "connection-string",
        "mongodb+srv://ada:F4keMongoPass@cluster0.example.net/test",
        "F4keMongoPass",
    ),
    ("connection-string", "redis://:F4keRedisPass@cache:6379/0", "F4keRedisPass"),
    ("connection-string", "amqp://guest:F4keRabbitPass@mq:5672/", "F4keRabbitPass"),
    ("env-secret", "export STRIPE_SECRET=whatever-value\n", "whatever-value"),
    ("env-secret", "DEPLOY_TOKEN=abc\nDEBUG=1\n", "abc"),
    ("env-secret", 'DB_PASS="short"\n', "short"),
    ("env-secret", "SERVICE_CREDENTIALS=fake-creds\n", "fake-creds"),
    ("env-secret", "GITHUB_AUTH=plainvalue\n", "plainvalue"),
]


@pytest.mark.parametrize(
    ("kind", "text", "secret"), PLANTED, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(PLANTED)]
)
def test_a_planted_secret_of_each_kind_is_redacted(kind: str, text: str, secret: str) -> None:
    out, findings = redact(text)
    assert secret not in out
    assert f"[redacted:{kind}]" in out
    assert kind in {f.kind for f in findings}
    assert all(isinstance(f, Finding) and 0 <= f.start < f.end <= len(text) for f in findings)
    assert redact(out) == (out, [])  # idempotent
    assert redact_secrets(text) == out


def test_findings_locate_the_secret_without_holding_it() -> None:
    text = "before ghp_F4keGitHubT0ken0123456789abcdefghij after"
    out, findings = redact(text)
    assert out == "before [redacted:github-token] after"
    (f,) = findings
    assert text[f.start : f.end] == "ghp_F4keGitHubT0ken0123456789abcdefghij"
    assert "ghp_" not in repr(f)


def test_the_rest_of_a_url_with_credentials_is_kept() -> None:
    out, _ = redact("postgres://app:F4kePgPass@db.internal:5432/app")
    assert out == "postgres://app:[redacted:connection-string]@db.internal:5432/app"


ORDINARY = [
    "We met on Tuesday and decided to ship the parser; the key question was speed.",
    "def password_strength(pw: str) -> int:\n    return len(pw)\n",
    "token = next(tokens)\nkey = lambda x: x[0]\nmax_tokens: 4096\n",
    "See https://example.org/docs/page?x=1#frag and ftp://mirror.example.net/pub/.",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "cache_key: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)",
    "git checkout 9fceb02 && git log --format=%H",
    "id: 123e4567-e89b-12d3-a456-426614174000",
    "author: Ada Lovelace\npass: true\nsecret_santa: no\n",
    "ask for the API key in the settings page; the token expires in an hour",
    "The bearer of this letter is trusted.",
    "PATH=/usr/local/bin:/usr/bin\nHOME=/home/ada\nDEBUG=1\n",
    "email ada@example.org or https://docs.example.org/user@2x.png",
    "[redacted:api-key] and password: [redacted:secret]",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_left_unchanged(text: str) -> None:
    assert redact(text) == (text, [])


def test_redacting_twice_changes_nothing() -> None:
    text = "\n".join(t for _, t, _ in PLANTED)
    once, findings = redact(text)
    assert len(findings) >= len(PLANTED) - 2
    assert redact(once) == (once, [])


@pytest.mark.parametrize(
    "bad", ["", "\x00\x01\ufffd" * 50, "-----BEGIN PRIVATE KEY-----", "a=" * 999]
)
def test_redact_never_raises_on_odd_input(bad: str) -> None:
    out, _ = redact(bad)
    assert isinstance(out, str)


# Their speed is measured by bench/bench_redact.py, not asserted here: a loaded machine is
# no bug. What a test can hold is the outcome on inputs of that size.
def test_a_megabyte_of_ordinary_text_comes_back_unchanged_with_no_findings() -> None:
    chunk = "\n".join(ORDINARY[:-1]) + "\n"
    text = chunk * (1_000_000 // len(chunk) + 1)
    out, findings = redact(text)
    assert out == text and findings == []


def test_text_dense_with_secrets_has_every_secret_found_and_none_left() -> None:
    line = "https://ada:F4keP4ss@git.example.org/ ghp_F4keGitHubT0ken0123456789abcdefghij\n"
    out, findings = redact(line * 12_000)
    assert len(findings) == 24_000 and "F4ke" not in out
    assert {f.kind for f in findings} == {"password", "github-token"}
    assert out == redact(line)[0] * 12_000  # each line redacted alike, wherever it is


# -- the vault and its history ---------------------------------------------------


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def git_vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root, git=True)
    settings = root / "mnemex.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('name = "minilm"', 'name = "hashing"'),
        encoding="utf-8",
    )
    for key, value in (("user.name", "Ada"), ("user.email", "ada@example.org")):
        git(root, "config", key, value)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init", "--allow-empty")
    return root


def commit_secret_then_delete_it(root: Path) -> str:
    note = root / "notes" / "deploy.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("# Deploy\n\nfirst line\nkey: ghp_F4keGitHubT0ken0123456789abcdefghij\n")
    git(root, "add", "notes/deploy.md")
    git(root, "commit", "-qm", "add deploy notes")
    sha = git(root, "rev-parse", "--short", "HEAD").strip()
    note.write_text("# Deploy\n\nfirst line\nkey: (ask Ada)\n")
    git(root, "commit", "-qam", "remove the key")
    return sha


def test_a_secret_committed_then_deleted_is_still_found_in_history(tmp_path: Path) -> None:
    root = git_vault(tmp_path)
    sha = commit_secret_then_delete_it(root)
    findings = scan_vault_history(root)
    assert findings == [
        {"kind": "github-token", "path": "notes/deploy.md", "commit": sha, "line": 4}
    ]
    assert "ghp_" not in json.dumps(findings)


def test_a_secret_in_the_working_tree_is_reported_without_a_commit(tmp_path: Path) -> None:
    root = git_vault(tmp_path)
    (root / "notes").mkdir(exist_ok=True)
    (root / "notes" / "env.md").write_text("DB_PASSWORD=F4kePassw0rd\n")
    git(root, "add", "notes/env.md")
    assert {"kind": "env-secret", "path": "notes/env.md", "commit": None, "line": 1} in (
        scan_vault_history(root)
    )


def test_a_secret_in_a_file_not_yet_added_is_reported(tmp_path: Path) -> None:
    root = git_vault(tmp_path)
    (root / "inbox").mkdir(exist_ok=True)
    (root / "inbox" / "paste.md").write_text("token: hf_F4keHugg1ngFaceT0ken0123456789abcd\n")
    assert [f["path"] for f in scan_vault_history(root)] == ["inbox/paste.md"]


def test_a_clean_vault_has_no_findings(tmp_path: Path) -> None:
    assert scan_vault_history(git_vault(tmp_path)) == []


def test_a_vault_without_git_is_scanned_file_by_file(vault_dir: Path) -> None:
    (vault_dir / "notes").mkdir(exist_ok=True)
    (vault_dir / "notes" / "a.md").write_text("x\nuse sk_live_F4keStr1peKey0123456789ab\n")
    assert scan_vault_history(vault_dir) == [
        {"kind": "stripe-key", "path": "notes/a.md", "commit": None, "line": 2}
    ]


def run_doctor(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mnemex", "--vault", str(root), "doctor", "--secrets", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_doctor_secrets_fails_loudly_with_the_commit_and_the_purge_recipe(tmp_path: Path) -> None:
    root = git_vault(tmp_path)
    sha = commit_secret_then_delete_it(root)
    done = run_doctor(root)
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "fail"
    assert data["commits"] == [sha]
    assert data["findings"][0]["commit"] == sha
    assert data["purge"] == PURGE_RECIPE and "filter-repo" in data["purge"]
    assert "ghp_F4ke" not in done.stdout + done.stderr


def test_doctor_secrets_passes_on_a_clean_vault(tmp_path: Path) -> None:
    done = run_doctor(git_vault(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "ok"
