from __future__ import annotations

import ast
import re
from pathlib import Path

import mnemex

SRC = Path(mnemex.__file__).parent
INTERFACES = {"cli", "mcp", "web"}
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


#: Bottom to top. A module may import its own package and any package of a lower layer;
#: never a package beside it or above it. docs/architecture.md says what each one owns.
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer.split())
    for layer in (
        "errors",
        "config report plugins",
        "text",
        "vault",
        "embed llm",
        "index",
        "brain",
        "facts",
        "retrieve",
        "pages",
        "foundations",
        "memories",
        "state",
        "ingest harvest clients evaluate demo",
        "health team",
        "mcp web",
        "cli",
        "__main__",
    )
)
LAYER_OF = {package: level for level, layer in enumerate(LAYERS) for package in layer}


def _package(module: str) -> str:
    """``mnemex.vault.history`` -> ``vault``; ``mnemex`` itself -> ``""`` (the public API)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _mnemex_imports(path: Path) -> set[str]:
    """Every mnemex module ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "mnemex"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "mnemex":
                found |= {f"mnemex.{a.name}" for a in node.names}
            elif node.module.startswith("mnemex."):
                found.add(node.module)
    return found


def _modules() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def test_every_package_has_a_layer() -> None:
    packages = {_package(name) for name in _modules()} - {""}
    assert packages - set(LAYER_OF) == set(), "add the new package to LAYERS and the docs"


def test_no_package_imports_one_beside_or_above_it() -> None:
    offenders = []
    for name, path in sorted(_modules().items()):
        own = _package(name)
        if own == "":
            continue  # mnemex/__init__.py is the public API: it re-exports from every layer
        for target in sorted(_mnemex_imports(path)):
            other = _package(target)
            if other in ("", own) or other == "__version__":
                continue
            if LAYER_OF[other] >= LAYER_OF[own]:
                offenders.append(f"{name} -> {target}")
    assert offenders == []


def test_the_import_graph_has_no_cycle_between_modules() -> None:
    modules = _modules()
    graph = {
        name: {t for t in _mnemex_imports(path) if t in modules} for name, path in modules.items()
    }
    # a package's __init__ re-exporting its own modules is not a cycle worth naming
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".") and t != name}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_docs_architecture_gives_every_package_and_module_its_layer() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    row = re.compile(r"^\| (\d+) \| `([\w.]+/|[\w.]+\.py)` \|", re.MULTILINE)
    rows = {name: layer for layer, name in row.findall(doc)}
    names = {f"{p.name}/" for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    names |= {p.name for p in SRC.glob("*.py")} - {"__init__.py"}
    wrong = {
        name: rows.get(name)
        for name in names
        if rows.get(name) != str(LAYER_OF[name.removesuffix("/").removesuffix(".py")])
    }
    assert wrong == {}, "docs/architecture.md: a package's row is missing or at the wrong layer"
    assert "`__init__.py`" in doc


#: Modules outside ``mnemex.index`` allowed to import sqlite3, each for a file that is not
#: the index (say which). None today.
SQLITE_ELSEWHERE: dict[str, str] = {}


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, and for ``from a import b`` also ``a.b``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return found


def test_only_the_index_opens_sqlite_and_only_index_open_names_a_backend() -> None:
    offenders = []
    for name, path in sorted(_modules().items()):
        in_index = name == "mnemex.index" or name.startswith("mnemex.index.")
        in_sqlite = name.startswith("mnemex.index.sqlite")
        for target in sorted(_imported(path)):
            if target == "sqlite3" and not in_index and name not in SQLITE_ELSEWHERE:
                offenders.append(f"{name} -> sqlite3")
            if target.startswith("mnemex.index.sqlite") and not (
                in_sqlite or name == "mnemex.index.open"
            ):
                offenders.append(f"{name} -> {target}")
        text = path.read_text(encoding="utf-8")
        if not in_sqlite and "index.sqlite" in text.replace("mnemex.index.sqlite", ""):
            offenders.append(f"{name} names the index file")
    assert offenders == []


def test_every_mnemex_error_is_defined_in_errors_py_and_drawn_in_its_tree() -> None:
    from mnemex import errors

    ours = {n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, Exception)}
    outside = []
    for path in SRC.rglob("*.py"):
        if path.name == "errors.py" and path.parent == SRC:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
                if bases & ours:
                    outside.append(f"{path.relative_to(SRC)}: {node.name}")
    assert outside == []
    for name in ours - {"Exception"}:
        assert f" {name} " in (errors.__doc__ or ""), f"{name} is not in the tree"
