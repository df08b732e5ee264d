from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import pytest

from mnemex.embed.hashing import HashingEmbedder
from mnemex.evaluate.retrieval import (
    DatasetError,
    all_at,
    hit_at,
    load_dataset,
    ndcg_at,
    note_paths,
    query_metrics,
    recall_at,
    reciprocal_rank,
    run_retrieval_eval,
)

METRIC_KEYS = {
    "recall@1", "recall@5", "recall@10", "hit@1", "hit@5", "hit@10",
    "all@1", "all@5", "all@10", "ndcg@1", "ndcg@5", "ndcg@10", "mrr",
}  # fmt: skip


def doc(id_: str, group: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"id": id_, "group": group, "text": text, **extra}


def query(id_: str, group: str, text: str, relevant: Any, **extra: Any) -> dict[str, Any]:
    return {"id": id_, "group": group, "text": text, "relevant": relevant, **extra}


CORPUS = [
    doc("1", "kitchen", "The sourdough starter lives in the blue jar on the shelf."),
    doc("2", "kitchen", "Knives are sharpened every Sunday with the whetstone.", date="2024-03-03"),
    doc("3", "kitchen", "The oven runs hot, so bake bread ten degrees lower.", title="Oven notes"),
    doc("4", "kitchen", "Spices are kept alphabetically in the left drawer."),
    # same ids in another group: the file names must still be unique
    doc("1", "garage", "The bicycle pump hangs behind the door."),
    doc("2", "garage", "Winter tyres are stacked in the corner by the freezer."),
    doc("3", "garage", "The lawnmower needs fresh oil every spring.", meta={"source": "manual"}),
]

QUERIES = [
    query("q1", "kitchen", "where is the sourdough starter", ["1"], category="lookup"),
    query("q2", "kitchen", "whetstone sharpening", ["2"], category="lookup"),
    query("q3", "garage", "lawnmower oil", ["3"], category=2),
    query("q4", "garage", "bicycle pump and winter tyres", ["1", "2", "missing"], category=2),
    query("q5", "garage", "a query about nothing we have", ["404"]),
]

ONE = [doc("1", "g", "a")]


def write_dataset(folder: Path, corpus: list[Any], queries: list[Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in (("corpus.jsonl", corpus), ("queries.jsonl", queries)):
        lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_dataset(tmp_path / "data", CORPUS, QUERIES)


# -- metrics -----------------------------------------------------------------------------


def test_metrics_match_a_hand_computed_ranking() -> None:
    ranking = ["x", "a", "y", "b", "z", "w", "c"]
    gold = {"a", "b", "c"}
    assert recall_at(ranking, gold, 1) == 0.0
    assert recall_at(ranking, gold, 5) == pytest.approx(2 / 3)
    assert hit_at(ranking, gold, 1) == 0.0
    assert hit_at(ranking, gold, 2) == 1.0
    assert all_at(ranking, gold, 5) == 0.0
    assert all_at(ranking, gold, 7) == 1.0
    # relevant at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5); ideal: ranks 1, 2, 3
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(ranking, gold, 5) == pytest.approx(dcg / ideal)
    # at k=1 the ideal holds only min(|gold|, k) = 1 document
    assert ndcg_at(["a"], gold, 1) == 1.0
    assert reciprocal_rank(ranking, gold) == 0.5


def test_mrr_is_zero_when_nothing_relevant_is_ranked() -> None:
    assert reciprocal_rank(["x", "y"], {"a"}) == 0.0
    metrics = query_metrics([], ["a"])
    assert set(metrics) == METRIC_KEYS
    assert all(v == 0.0 for v in metrics.values())


def test_a_perfect_ranking_scores_one_everywhere() -> None:
    metrics = query_metrics(["a", "b", "x"], ["b", "a"])
    assert metrics["recall@1"] == 0.5
    assert metrics["all@1"] == 0.0
    assert metrics["ndcg@1"] == 1.0
    for key in ("recall@5", "hit@5", "all@5", "ndcg@5", "ndcg@10", "mrr"):
        assert metrics[key] == 1.0, key


# -- reading a dataset -------------------------------------------------------------------------


def test_a_dataset_drops_queries_whose_relevant_ids_are_all_unknown(dataset: Path) -> None:
    data = load_dataset(dataset)
    assert len(data.documents) == 7
    assert [q.id for q in data.queries] == ["q1", "q2", "q3", "q4"]
    assert data.dropped == 1
    q4 = data.queries[3]
    assert q4.relevant == ("1", "2")  # the unknown id is ignored
    assert q4.category == "2"  # categories are strings
    assert data.unknown_relevant == 1


@pytest.mark.parametrize(
    ("corpus", "queries", "where", "says"),
    [
        ([json.dumps(doc("1", "g", "ok")), "{not json"], [], "corpus.jsonl:2", "not valid JSON"),
        ([{"id": "1", "group": "g"}], [], "corpus.jsonl:1", "missing 'text'"),
        ([doc("1", "g", 5)], [], "corpus.jsonl:1", "'text' must be a string"),
        ([doc("1", "g", "a"), doc("1", "g", "b")], [], "corpus.jsonl:2", "duplicate id '1'"),
        (["[1, 2]"], [], "corpus.jsonl:1", "expected a JSON object"),
        ([doc("1", "g", "a", meta=[])], [], "corpus.jsonl:1", "'meta'"),
        (
            ONE,
            [query("q", "g", "a", ["1"]), "", {"id": "r", "group": "g", "text": "b"}],
            "queries.jsonl:3",
            "missing 'relevant'",
        ),
        (ONE, [query("q", "g", "a", "1")], "queries.jsonl:1", "'relevant' must be a list"),
        (ONE, [query("q", "g", " ", ["1"])], "queries.jsonl:1", "'text'"),
        (ONE, [query("q", "g", "a", ["1"], category=[1])], "queries.jsonl:1", "'category'"),
    ],
)
def test_a_bad_line_is_an_error_naming_the_file_and_line(
    tmp_path: Path, corpus: list[Any], queries: list[Any], where: str, says: str
) -> None:
    folder = write_dataset(tmp_path / "bad", corpus, queries)
    with pytest.raises(DatasetError) as err:
        load_dataset(folder)
    assert where in str(err.value)
    assert says in str(err.value)


def test_a_missing_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"corpus\.jsonl: missing"):
        load_dataset(tmp_path)


def test_note_paths_are_unique_when_ids_and_group_slugs_collide() -> None:
    from mnemex.evaluate.retrieval import Document

    docs = [
        Document("D1:1", "A b", "x"),
        Document("d1-1", "A b", "y"),
        Document("D1:1", "a-b", "z"),
    ]
    slugs, paths = note_paths(docs)
    assert slugs == {"A b": "a-b", "a-b": "a-b-2"}
    assert paths == {
        ("A b", "D1:1"): "eval/a-b/d1-1.md",
        ("A b", "d1-1"): "eval/a-b/d1-1-2.md",
        ("a-b", "D1:1"): "eval/a-b-2/d1-1.md",
    }


# -- running -----------------------------------------------------------------------------------


def test_an_eval_run_reports_every_metric_overall_and_per_category(
    dataset: Path, tmp_path: Path
) -> None:
    result = run_retrieval_eval(dataset, workdir=tmp_path / "work", embedder=HashingEmbedder())
    assert set(result) == {"overall", "by_category", "timings", "dropped", "signals"}
    assert set(result["overall"]) == METRIC_KEYS | {"count"}
    assert result["overall"]["count"] == 4
    assert result["dropped"] == 1
    assert result["signals"] == ["keyword", "vector"]
    assert list(result["by_category"]) == ["2", "lookup"]  # numbers first, then names
    assert result["by_category"]["lookup"]["count"] == 2
    assert set(result["by_category"]["2"]) == METRIC_KEYS | {"count"}
    timings = result["timings"]
    assert timings["queries"] == 4
    assert timings["documents"] == 7
    assert timings["query_ms_p95"] >= timings["query_ms_p50"] > 0
    for value in result["overall"].values():
        assert 0 <= value <= 4


def test_an_exact_keyword_match_is_ranked_first(dataset: Path, tmp_path: Path) -> None:
    for signals in (("keyword",), ("keyword", "vector")):
        result = run_retrieval_eval(
            dataset,
            signals=signals,
            groups=["kitchen"],
            workdir=tmp_path / "w",
            embedder=HashingEmbedder(),
        )
        # both kitchen queries name words only their relevant document has
        assert result["overall"]["recall@1"] == 1.0, signals
        assert result["overall"]["mrr"] == 1.0
        assert result["overall"]["count"] == 2
        assert result["timings"]["documents"] == 7  # the whole corpus is always indexed


def test_a_reused_workdir_embeds_nothing_the_second_time(dataset: Path, tmp_path: Path) -> None:
    calls: list[int] = []

    class Counting(HashingEmbedder):
        def embed_documents(self, texts, progress=None):  # type: ignore[no-untyped-def]
            calls.append(len(texts))
            return super().embed_documents(texts, progress)

    work = tmp_path / "work"
    first = run_retrieval_eval(dataset, workdir=work, embedder=Counting())
    assert sum(calls) == 7
    second = run_retrieval_eval(dataset, workdir=work, embedder=Counting(), signals=("keyword",))
    assert sum(calls) == 7
    assert second["overall"]["count"] == first["overall"]["count"]
    note = (work / "eval" / "kitchen" / "3.md").read_text(encoding="utf-8")
    assert "title: Oven notes" in note
    assert "project: kitchen" in note
    assert "eval_id: '3'" in note
    assert (work / "eval" / "garage" / "3.md").is_file()  # same id, other group, own file


def test_a_document_without_a_title_gets_an_empty_one(dataset: Path, tmp_path: Path) -> None:
    run_retrieval_eval(
        dataset, workdir=tmp_path / "work", embedder=HashingEmbedder(), groups=["kitchen"]
    )
    note = (tmp_path / "work" / "eval" / "kitchen" / "2.md").read_text(encoding="utf-8")
    assert note.startswith("---\ntitle: ''\nproject: kitchen\ndate: '2024-03-03'\ntype: record\n")


def test_documents_removed_from_the_dataset_leave_the_workdir(tmp_path: Path) -> None:
    work = tmp_path / "work"
    run_retrieval_eval(
        write_dataset(tmp_path / "d1", CORPUS, QUERIES), workdir=work, embedder=HashingEmbedder()
    )
    smaller = write_dataset(tmp_path / "d2", CORPUS[:4], QUERIES[:2])
    result = run_retrieval_eval(smaller, workdir=work, embedder=HashingEmbedder())
    assert not (work / "eval" / "garage").exists() or not any((work / "eval" / "garage").iterdir())
    assert result["timings"]["documents"] == 4


def test_an_unknown_group_is_an_error(dataset: Path, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no group 'attic'"):
        run_retrieval_eval(
            dataset, groups=["attic"], workdir=tmp_path / "w", embedder=HashingEmbedder()
        )


def test_without_a_workdir_the_temporary_vault_is_removed(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    ticks: dict[str, int] = {}

    def progress(total: int, label: str):  # type: ignore[no-untyped-def]
        ticks[label] = 0

        def tick(n: int) -> None:
            ticks[label] += n

        return tick

    result = run_retrieval_eval(dataset, embedder=HashingEmbedder(), progress=progress)
    assert result["overall"]["count"] == 4
    assert ticks == {"parsing": 7, "embedding": 7, "querying": 4}
    assert list(scratch.iterdir()) == []
