"""The offline extractor, split by job (the split is under way; see ``entities``)."""

from mnemex.ingest.extract.entities import extract_offline, page_cap
from mnemex.ingest.extract.sentences import MAX_EVIDENCE, MAX_SENTENCE_CHARS, split_sentences

__all__ = ["MAX_EVIDENCE", "MAX_SENTENCE_CHARS", "extract_offline", "page_cap", "split_sentences"]
