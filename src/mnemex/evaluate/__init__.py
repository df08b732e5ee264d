"""Measuring retrieval: labelled datasets through the real index and search.

:func:`run_retrieval_eval` scores a dataset in the format of ``docs/eval-format.md``;
:func:`convert_locomo` turns the LoCoMo benchmark into that format.
"""

from mnemex.evaluate.locomo import convert_locomo
from mnemex.evaluate.retrieval import (
    Dataset,
    DatasetError,
    load_dataset,
    query_metrics,
    run_retrieval_eval,
)

__all__ = [
    "Dataset",
    "DatasetError",
    "convert_locomo",
    "load_dataset",
    "query_metrics",
    "run_retrieval_eval",
]
