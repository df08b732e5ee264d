"""Retrieval evaluation: run a labelled dataset through the real index and search.

A dataset is a folder with ``corpus.jsonl`` and ``queries.jsonl`` (the format is
``docs/eval-format.md``). Every corpus document becomes a markdown note in a
throw-away vault (or the one in ``workdir``, reused between runs so a second run
embeds nothing), the vault is synced exactly as a user's would be, and every
query goes through :func:`mnemex.retrieve.search.search`, scoped to its group.
The ranked notes are mapped back to corpus ids and scored: recall, hit, all and
NDCG at each k, and MRR over the whole ranking.
"""

from __future__ import annotations

import json
import math
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mnemex.brain import Brain
from mnemex.embed import Embedder, load_embedder
from mnemex.errors import DatasetError
from mnemex.index.backend import Scope
from mnemex.retrieve.search import Weights, search
from mnemex.vault import Vault, init_vault, render_note, slugify

CORPUS_FILE = "corpus.jsonl"
QUERIES_FILE = "queries.jsonl"
#: Notes of the dataset live under this folder of the evaluation vault.
EVAL_FOLDER = "eval"
#: How many hits each search builds (the metrics use the full ranking anyway).
SEARCH_K = 100

ProgressFactory = Callable[[int, str], Callable[[int], None]]


@dataclass(frozen=True)
class Document:
    id: str
    group: str
    text: str
    title: str | None = None
    date: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Query:
    id: str
    group: str
    text: str
    relevant: tuple[str, ...]
    date: str | None = None
    category: str | None = None


@dataclass
class Dataset:
    documents: list[Document]
    queries: list[Query]
    #: group of each query left out because none of its relevant ids is in its group's corpus
    dropped_groups: list[str] = field(default_factory=list)
    #: relevant ids (of kept queries) that were not in the corpus and were ignored
    unknown_relevant: int = 0

    @property
    def dropped(self) -> int:
        return len(self.dropped_groups)

    @property
    def groups(self) -> list[str]:
        """Group names in order of first appearance in the corpus."""
        return list(dict.fromkeys(d.group for d in self.documents))


# -- reading ---------------------------------------------------------------------------


def _read_jsonl(path: Path) -> Iterable[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise DatasetError(
            f"{path}: missing (a dataset folder holds {CORPUS_FILE} and {QUERIES_FILE})"
        )
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from None
            if not isinstance(value, dict):
                raise DatasetError(
                    f"{path}:{line_no}: expected a JSON object, got {type(value).__name__}"
                )
            yield line_no, value


def _ident(value: Any, key: str, where: str) -> str:
    """An id or group: a non-empty string (an integer is accepted and read as its digits)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise DatasetError(f"{where}: {key!r} must be a string, got {json.dumps(value)}")
    text = str(value)
    if not text.strip():
        raise DatasetError(f"{where}: {key!r} is empty")
    return text


def _optional_str(row: dict[str, Any], key: str, where: str) -> str | None:
    value = row.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise DatasetError(f"{where}: {key!r} must be a string, got {json.dumps(value)}")
    return value


def _require(row: dict[str, Any], keys: Sequence[str], where: str) -> None:
    missing = [k for k in keys if k not in row]
    if missing:
        raise DatasetError(f"{where}: missing {', '.join(repr(k) for k in missing)}")


def load_dataset(folder: Path) -> Dataset:
    """Read and check a dataset folder.

    Raises:
        DatasetError: a file is missing or a line is malformed (the message names
            the file and line number).
    """
    folder = Path(folder)
    corpus_path = folder / CORPUS_FILE
    documents: list[Document] = []
    seen: dict[tuple[str, str], int] = {}
    for line_no, row in _read_jsonl(corpus_path):
        where = f"{corpus_path}:{line_no}"
        _require(row, ("id", "group", "text"), where)
        doc_id = _ident(row["id"], "id", where)
        group = _ident(row["group"], "group", where)
        text = row["text"]
        if not isinstance(text, str):
            raise DatasetError(f"{where}: 'text' must be a string, got {json.dumps(text)}")
        meta = row.get("meta")
        meta = {} if meta is None else meta
        if not isinstance(meta, dict):
            raise DatasetError(f"{where}: 'meta' must be an object, got {json.dumps(meta)}")
        key = (group, doc_id)
        if key in seen:
            raise DatasetError(
                f"{where}: duplicate id {doc_id!r} in group {group!r} (first on line {seen[key]})"
            )
        seen[key] = line_no
        documents.append(
            Document(
                id=doc_id,
                group=group,
                text=text,
                title=_optional_str(row, "title", where),
                date=_optional_str(row, "date", where),
                meta=meta,
            )
        )
    if not documents:
        raise DatasetError(f"{corpus_path}: no documents")

    queries_path = folder / QUERIES_FILE
    queries: list[Query] = []
    dropped: list[str] = []
    unknown = 0
    seen_q: dict[tuple[str, str], int] = {}
    for line_no, row in _read_jsonl(queries_path):
        where = f"{queries_path}:{line_no}"
        _require(row, ("id", "group", "text", "relevant"), where)
        query_id = _ident(row["id"], "id", where)
        group = _ident(row["group"], "group", where)
        text = row["text"]
        if not isinstance(text, str) or not text.strip():
            raise DatasetError(f"{where}: 'text' must be a non-empty string")
        relevant = row["relevant"]
        if not isinstance(relevant, list):
            raise DatasetError(f"{where}: 'relevant' must be a list of corpus ids")
        rel_ids = [_ident(r, "relevant", where) for r in relevant]
        category = row.get("category")
        if category is not None and (
            isinstance(category, bool) or not isinstance(category, str | int)
        ):
            raise DatasetError(f"{where}: 'category' must be a string or a number")
        key = (group, query_id)
        if key in seen_q:
            raise DatasetError(
                f"{where}: duplicate query id {query_id!r} in group {group!r}"
                f" (first on line {seen_q[key]})"
            )
        seen_q[key] = line_no
        known = list(dict.fromkeys(r for r in rel_ids if (group, r) in seen))
        if not known:
            dropped.append(group)
            continue
        unknown += len(set(rel_ids)) - len(known)
        queries.append(
            Query(
                id=query_id,
                group=group,
                text=text,
                relevant=tuple(known),
                date=_optional_str(row, "date", where),
                category=None if category is None else str(category),
            )
        )
    return Dataset(documents, queries, dropped_groups=dropped, unknown_relevant=unknown)


# -- metrics ---------------------------------------------------------------------------


def recall_at(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """Share of the relevant ids found in the first ``k``."""
    return len(gold.intersection(ranking[:k])) / len(gold) if gold else 0.0


def hit_at(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """1 when any relevant id is in the first ``k``."""
    return 1.0 if gold.intersection(ranking[:k]) else 0.0


def all_at(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """1 when every relevant id is in the first ``k``."""
    return 1.0 if gold and gold.issubset(ranking[:k]) else 0.0


def ndcg_at(ranking: Sequence[str], gold: set[str], k: int) -> float:
    """NDCG with binary gains; the ideal DCG puts min(|gold|, k) relevant ids first."""
    if not gold:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranking[:k]) if doc in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return dcg / ideal


def reciprocal_rank(ranking: Sequence[str], gold: set[str]) -> float:
    """1 / rank of the first relevant id in the whole ranking; 0 when none is ranked."""
    for i, doc in enumerate(ranking):
        if doc in gold:
            return 1.0 / (i + 1)
    return 0.0


def query_metrics(
    ranking: Sequence[str], gold: Iterable[str], ks: Sequence[int] = (1, 5, 10)
) -> dict[str, float]:
    """Every metric of one query (keys ``recall@k``, ``hit@k``, ``all@k``, ``ndcg@k``, ``mrr``)."""
    gold_set = set(gold)
    out: dict[str, float] = {}
    for name, fn in (("recall", recall_at), ("hit", hit_at), ("all", all_at), ("ndcg", ndcg_at)):
        for k in ks:
            out[f"{name}@{k}"] = fn(ranking, gold_set, k)
    out["mrr"] = reciprocal_rank(ranking, gold_set)
    return out


def aggregate(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    """Mean of each metric over queries, plus ``count``."""
    if not rows:
        return {"count": 0}
    out: dict[str, float] = {key: sum(r[key] for r in rows) / len(rows) for key in rows[0]}
    out["count"] = len(rows)
    return out


def _category_key(category: str) -> tuple[int, float | str]:
    try:
        return (0, float(category))
    except ValueError:
        return (1, category)


# -- the vault -----------------------------------------------------------------------------


def note_paths(documents: Sequence[Document]) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Group -> project slug, and (group, id) -> vault path, unique across the dataset.

    Slugs that collide (``"A b"`` and ``"a-b"``, or ids that differ only in case or
    punctuation) get ``-2``, ``-3``... in order of first appearance, so the names are
    stable from run to run and a reused work folder stays in step.
    """
    group_slug: dict[str, str] = {}
    used_groups: set[str] = set()
    paths: dict[tuple[str, str], str] = {}
    used_paths: set[str] = set()
    for doc in documents:
        if doc.group not in group_slug:
            group_slug[doc.group] = _unique(slugify(doc.group), used_groups)
        folder = f"{EVAL_FOLDER}/{group_slug[doc.group]}"
        stem = _unique(slugify(doc.id), used_paths, prefix=folder + "/")
        paths[(doc.group, doc.id)] = f"{folder}/{stem}.md"
    return group_slug, paths


def _unique(slug: str, used: set[str], prefix: str = "") -> str:
    candidate, n = slug, 1
    while (prefix + candidate).lower() in used:  # case-insensitive file systems too
        n += 1
        candidate = f"{slug}-{n}"
    used.add((prefix + candidate).lower())
    return candidate


def render_document(doc: Document, project: str) -> str:
    """The note a corpus document becomes."""
    frontmatter: dict[str, Any] = {
        # an empty title: the indexer must not embed the file name as context
        "title": doc.title or "",
        "project": project,
    }
    if doc.date:
        frontmatter["date"] = doc.date
    frontmatter["type"] = "record"
    frontmatter["eval_id"] = doc.id
    body = doc.text if doc.text.endswith("\n") else doc.text + "\n"
    return render_note(frontmatter, body)


def write_vault(
    vault: Vault, documents: Sequence[Document], paths: dict[tuple[str, str], str]
) -> None:
    """Write ``documents`` as notes and delete stale ones; an unchanged note is not touched.

    A note under ``eval/`` that is not one of ``documents`` is removed, so a reused
    work folder always holds exactly the dataset.
    """
    keep = {paths[(d.group, d.id)] for d in documents}
    eval_root = vault.root / EVAL_FOLDER
    if eval_root.is_dir():
        for file in sorted(eval_root.rglob("*.md")):
            rel = file.relative_to(vault.root).as_posix()
            if rel not in keep:
                vault.delete_note(rel)
    for doc in documents:
        rel = paths[(doc.group, doc.id)]
        # the notes are the evaluation's own: replacing them is always right
        vault.write_note(rel, render_document(doc, rel.split("/")[1]), overwrite=True)


# -- the run -------------------------------------------------------------------------------


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def run_retrieval_eval(
    dataset: Path,
    *,
    signals: Sequence[str] = ("keyword", "vector"),
    weights: Weights | None = None,
    groups: list[str] | None = None,
    workdir: Path | None = None,
    embedder: Embedder | None = None,
    progress: ProgressFactory | None = None,
    ks: Sequence[int] = (1, 5, 10),
) -> dict[str, Any]:
    """Index a dataset with the real pipeline, run its queries, and score the rankings.

    Args:
        dataset: folder with ``corpus.jsonl`` and ``queries.jsonl``.
        signals: search signals to use (``keyword``, ``vector``; graph is off, there are no links).
        weights: a :class:`~mnemex.retrieve.search.Weights`; None means search's defaults.
        groups: evaluate only the queries of these groups. The whole corpus is still
            indexed, so a group's numbers do not depend on which other groups are chosen
            (keyword statistics such as IDF are vault-wide, as in real use).
        workdir: keep the evaluation vault and its index here and reuse them on the next
            run (the sync is incremental, so unchanged documents are not embedded again);
            None means a temporary folder removed afterwards.
        embedder: the embedder to index and query with; None means the default MiniLM.
        progress: ``progress(total, label)`` returns a ``tick(n)`` callback; called for
            embedding (during sync) and for querying.
        ks: the cut-offs of the @k metrics.

    Returns:
        ``{"overall", "by_category", "timings", "dropped", "signals"}``; ``overall`` and each
        category hold every metric and ``count``.

    Raises:
        DatasetError: the dataset is malformed, or ``groups`` names a group it lacks.
    """
    data = load_dataset(Path(dataset))
    group_slug, paths = note_paths(data.documents)
    if groups is not None:
        unknown = [g for g in groups if g not in group_slug]
        if unknown:
            raise DatasetError(
                f"{dataset}: no group {', '.join(repr(g) for g in unknown)} in {CORPUS_FILE}"
                f" (groups: {', '.join(data.groups[:10])}{'…' if len(data.groups) > 10 else ''})"
            )
        wanted = set(groups)
        queries = [q for q in data.queries if q.group in wanted]
    else:
        queries = data.queries
        wanted = set(data.groups) | set(data.dropped_groups)
    by_path = {path: doc_id for (_group, doc_id), path in paths.items()}
    emb = embedder if embedder is not None else load_embedder("minilm")

    temp = None
    if workdir is None:
        temp = Path(tempfile.mkdtemp(prefix="mnemex-eval-"))
        root = temp / "vault"
    else:
        root = Path(workdir)
    try:
        init_vault(root, name="eval", git=False)
        vault = Vault(root)
        write_vault(vault, data.documents, paths)
        with Brain(vault, embedder=emb) as brain:
            if brain.backend.get_meta("embedder") not in (None, emb.identity):
                # a work folder indexed with another embedder: make sync re-check the
                # identity (it trusts the stored one while the settings are unchanged)
                brain.backend.set_meta("embedder_config", "")
            started = time.perf_counter()
            brain.sync(progress=progress)
            index_seconds = time.perf_counter() - started
            tick = progress(len(queries), "querying") if progress else None
            rows: list[tuple[Query, dict[str, float]]] = []
            latencies: list[float] = []
            for query in queries:
                scope = Scope(projects=(group_slug[query.group],))
                t = time.perf_counter()
                result = search(
                    brain,
                    query.text,
                    scope=scope,
                    k=max(SEARCH_K, *ks),
                    signals=tuple(signals),
                    weights=weights,
                    full_ranking=True,
                )
                latencies.append((time.perf_counter() - t) * 1000)
                ranking = [by_path[p] for p in result.ranking if p in by_path]
                rows.append((query, query_metrics(ranking, query.relevant, ks)))
                if tick:
                    tick(1)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)

    by_category: dict[str, list[dict[str, float]]] = {}
    for query, metrics in rows:
        if query.category is not None:
            by_category.setdefault(query.category, []).append(metrics)
    return {
        "overall": aggregate([m for _, m in rows]),
        "by_category": {
            cat: aggregate(by_category[cat]) for cat in sorted(by_category, key=_category_key)
        },
        "timings": {
            "index_seconds": round(index_seconds, 3),
            "query_ms_p50": round(statistics.median(latencies), 3) if latencies else 0.0,
            "query_ms_p95": round(_percentile(latencies, 0.95), 3),
            "queries": len(rows),
            "documents": len(data.documents),
        },
        "dropped": sum(1 for g in data.dropped_groups if g in wanted),
        "signals": list(signals),
    }


__all__ = [
    "CORPUS_FILE",
    "QUERIES_FILE",
    "Dataset",
    "DatasetError",
    "Document",
    "Query",
    "aggregate",
    "all_at",
    "hit_at",
    "load_dataset",
    "ndcg_at",
    "note_paths",
    "query_metrics",
    "recall_at",
    "reciprocal_rank",
    "render_document",
    "run_retrieval_eval",
    "write_vault",
]
