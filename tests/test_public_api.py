from __future__ import annotations

import ast
from pathlib import Path

import mnemex

SRC = Path(mnemex.__file__).parent
INTERFACES = {"cli", "mcp"}  # later: web
FRAMEWORKS = {"click", "typer", "mcp", "starlette", "fastapi"}


def test_the_public_api_names_only_what_exists_once_each() -> None:
    # its order is ruff's RUF022 (isort-style), checked by `make lint`
    assert len(set(mnemex.__all__)) == len(mnemex.__all__)
    for name in mnemex.__all__:
        assert hasattr(mnemex, name), name


def test_every_public_name_is_in_all() -> None:
    public = {n for n in vars(mnemex) if not n.startswith("_") and n[0].isupper()}
    assert public <= set(mnemex.__all__)


def test_the_core_never_imports_an_interface_framework() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC)
        if rel.parts[0] in INTERFACES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{rel}: {n}" for n in names if n.split(".")[0] in FRAMEWORKS]
    assert offenders == []
