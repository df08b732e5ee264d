from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mnemex.embed.hashing import HashingEmbedder
from mnemex.evaluate.locomo import convert_locomo, normalise_evidence
from mnemex.evaluate.retrieval import DatasetError, load_dataset, run_retrieval_eval

REAL_LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo10.json"


def turn(dia_id: str, speaker: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


def qa(question: str, evidence: list[str], category: int) -> dict[str, Any]:
    return {"question": question, "answer": "x", "evidence": evidence, "category": category}


MINI = [
    {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_2_date_time": "9:00 am on 2 June, 2023",
            "session_2": [turn("D2:1", "Bo", "Back from Oslo!")],
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                turn("D1:1", "Ann", "I adopted a cat.", blip_caption="a photo of a grey cat"),
                turn("D1:2", "Bo", "What is its name?"),
                turn("D1:3", "Ann", "Her name is Luna."),
            ],
        },
        "qa": [
            qa("What is the name of Ann's cat?", ["D1:3"], 4),
            qa("Where did Bo travel?", ["D:2:1"], 1),  # malformed, normalisable
            qa("What did Ann adopt and name?", ["D1:1; D1:03", "D9:9"], 1),  # two ids, one unknown
            qa("Is there evidence?", [], 3),  # nothing: dropped
            qa("Only junk?", ["D"], 2),  # unreadable: dropped
            qa("Did Bo adopt a dog?", ["D1:2"], 5),  # adversarial: not in the default set
        ],
        "event_summary": {},
        "observation": {},
        "session_summary": {},
    },
    {
        "sample_id": "conv-2",
        "conversation": {
            "speaker_a": "Cy",
            "speaker_b": "Di",
            "session_1_date_time": "10:00 am on 1 January, 2024",
            "session_1": [turn("D1:1", "Cy", "Happy new year, Di!")],
        },
        "qa": [qa("What did Cy wish Di?", ["D1:1"], 2)],
    },
]


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    src = tmp_path / "locomo-mini.json"
    src.write_text(json.dumps(MINI), encoding="utf-8")
    return src


def test_malformed_evidence_ids_are_normalised() -> None:
    assert normalise_evidence("D1:3") == ["D1:3"]
    assert normalise_evidence("D:11:26") == ["D11:26"]
    assert normalise_evidence("D30:05") == ["D30:5"]
    assert normalise_evidence("D8:6; D9:17") == ["D8:6", "D9:17"]
    assert normalise_evidence("D9:1 D4:4 D4:6") == ["D9:1", "D4:4", "D4:6"]
    assert normalise_evidence("D") == []


def test_conversion_writes_one_document_per_turn_in_session_order(
    mini: Path, tmp_path: Path
) -> None:
    out = tmp_path / "converted"
    convert_locomo(mini, out)
    corpus = lines(out / "corpus.jsonl")
    assert [d["id"] for d in corpus] == [
        "conv-1:D1:1",
        "conv-1:D1:2",
        "conv-1:D1:3",
        "conv-1:D2:1",
        "conv-2:D1:1",
    ]
    assert corpus[0] == {
        "id": "conv-1:D1:1",
        "group": "conv-1",
        "text": "Ann: I adopted a cat. [image: a photo of a grey cat]",
        "date": "1:56 pm on 8 May, 2023",
        "meta": {"session": 1, "dia_id": "D1:1"},
    }
    assert corpus[3]["text"] == "Bo: Back from Oslo!"
    assert corpus[3]["date"] == "9:00 am on 2 June, 2023"


def test_conversion_keeps_questions_verbatim_with_normalised_evidence(
    mini: Path, tmp_path: Path
) -> None:
    out = tmp_path / "converted"
    stats = convert_locomo(mini, out)
    queries = lines(out / "queries.jsonl")
    assert [(q["text"], q["category"], q["relevant"]) for q in queries] == [
        ("What is the name of Ann's cat?", "4", ["conv-1:D1:3"]),
        ("Where did Bo travel?", "1", ["conv-1:D2:1"]),
        ("What did Ann adopt and name?", "1", ["conv-1:D1:1", "conv-1:D1:3"]),
        ("What did Cy wish Di?", "2", ["conv-2:D1:1"]),
    ]
    assert all(q["group"] == q["relevant"][0].rsplit(":", 2)[0] for q in queries)
    assert len({q["id"] for q in queries}) == len(queries)
    assert stats == {
        "conversations": 2,
        "sessions": 3,
        "turns": 5,
        "questions": 4,
        "dropped": 2,
        "skipped_category": 1,
        "malformed_normalised": 2,  # "D:2:1" and "D1:1; D1:03"
        "malformed_unreadable": 1,  # "D"
        "unknown_evidence": 1,  # "D9:9"
        "by_category": {"1": 2, "2": 1, "4": 1},
    }


def test_all_five_categories_can_be_converted(mini: Path, tmp_path: Path) -> None:
    stats = convert_locomo(mini, tmp_path / "all", categories=(1, 2, 3, 4, 5))
    assert stats["questions"] == 5
    assert stats["by_category"]["5"] == 1
    assert stats["skipped_category"] == 0


def test_a_converted_set_runs_through_the_retrieval_eval(mini: Path, tmp_path: Path) -> None:
    out = tmp_path / "converted"
    convert_locomo(mini, out)
    data = load_dataset(out)
    assert data.dropped == 0
    result = run_retrieval_eval(out, workdir=tmp_path / "work", embedder=HashingEmbedder())
    assert result["overall"]["count"] == 4
    assert set(result["by_category"]) == {"1", "2", "4"}
    # a conversation's questions only search that conversation
    assert result["by_category"]["2"]["recall@1"] == 1.0


def test_a_file_that_is_not_locomo_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "x.json"
    src.write_text('{"not": "a list"}', encoding="utf-8")
    with pytest.raises(DatasetError, match="expected a list"):
        convert_locomo(src, tmp_path / "out")
    src.write_text("[{}]", encoding="utf-8")
    with pytest.raises(DatasetError, match="no 'conversation'"):
        convert_locomo(src, tmp_path / "out")


def real_locomo() -> Path:
    explicit = os.environ.get("MNEMEX_LOCOMO")
    path = Path(explicit) if explicit else REAL_LOCOMO
    if not path.is_file():
        pytest.skip(
            f"LoCoMo data not found at {path}: put locomo10.json in ../shared/data/ "
            "next to the repository or set MNEMEX_LOCOMO to its path"
        )
    return path


def test_the_real_locomo_converts_to_the_standard_question_set(tmp_path: Path) -> None:
    out = tmp_path / "locomo"
    stats = convert_locomo(real_locomo(), out)
    assert stats["conversations"] == 10
    assert stats["sessions"] == 272
    assert stats["turns"] == 5882
    assert stats["questions"] == 1536
    assert stats["dropped"] == 4
    assert stats["by_category"] == {"1": 282, "2": 321, "3": 92, "4": 841}
    data = load_dataset(out)
    assert len(data.documents) == 5882
    assert len(data.queries) == 1536
    assert data.dropped == 0
