"""The offline extractor: a deterministic :class:`~mnemex.ingest.records.Extraction` from
a source, no model.

Modest and honest: every summary sentence, description and fact is a sentence of the
source itself, quoted (a fact without a transcript's speaker label; questions and
scraps too short to state anything are no facts). One module per job:

- ``sentences``: the source split into sentences, and which of them a page may quote.
- ``summary``: the most central sentences (tf-idf cosine with the whole document),
  most central first, and the key points after them.
- ``entities``: named things, their variants grouped, each with a type.
- ``concepts``: repeated lowercase noun phrases; an acronym that spells one joins it.
- ``code_names``: constructs the prose names as inline code again and again (``TypedDict``).
- ``relations``: two kept pages named in one sentence co-occur.
- ``words``: the word lists they read by.

Pages per source are capped at about 11 for a short article, growing with the log of
the length (15 at most), and entities and concepts are ranked together by how much the
source is about them (:func:`_central`), the thing its title names first
(:func:`_subject`), so the wiki gets the few things a source is about rather than
everything it names. Plain Python: a 100-page PDF's text extracts in a second
or two.
"""

from __future__ import annotations

import math
import re

from mnemex.ingest.extract.code_names import find_code_names
from mnemex.ingest.extract.concepts import find_concepts, fold_acronyms
from mnemex.ingest.extract.entities import find_entities
from mnemex.ingest.extract.relations import find_relations
from mnemex.ingest.extract.sentences import (
    Sentence,
    evidence,
    lowercase_counts,
    mark_facts,
    split_sentences,
)
from mnemex.ingest.extract.summary import rank_sentences, summarise
from mnemex.ingest.extract.words import english_words, fold
from mnemex.ingest.records import Extraction, PlannedPage, SourceDoc
from mnemex.vault import fold_name


def extract_offline(doc: SourceDoc, *, max_pages: int | None = None) -> Extraction:
    """Extract summary, entities, concepts and relations from ``doc``, deterministically.

    Args:
        doc: the read source.
        max_pages: cap on entity + concept pages; by default it grows with the length.
    """
    sentences = split_sentences(doc.text)
    mark_facts(sentences)
    body = [s for s in sentences if not s.heading]
    if not body:
        return Extraction(title=doc.title, summary=[], warnings=["no sentences to extract from"])
    cap = max_pages if max_pages is not None else page_cap(len(doc.text))
    lower_counts = lowercase_counts(sentences)
    ranked = rank_sentences(body)
    summary, key_points = summarise(ranked)
    score_of = {s.position: i for i, s in enumerate(ranked)}
    where: dict[str, set[int]] = {}
    entities = find_entities(sentences, lower_counts, score_of, cap, where)
    concepts = find_concepts(sentences, entities, score_of, cap, where)
    pages = fold_acronyms(entities, concepts, where)
    known = {n.lower() for p in pages for n in (p.name, *p.aliases)}
    pages += find_code_names(sentences, score_of, where, known)
    subject = _subject(doc.title, pages, sentences, score_of, where)
    pages = _central(pages, cap, subject)
    relations = find_relations(pages, where, limit=2 * len(pages))
    return Extraction(
        title=doc.title,
        summary=[s.text for s in summary],
        key_points=[s.text for s in key_points],
        pages=pages,
        relations=relations,
        extractor="offline",
    )


#: A title's head: before a colon or a dash ("Trafilatura: Discover Web Content ...").
_TITLE_HEAD_RE = re.compile(r"\s*(?::|\s[-–—]\s)")
#: Words of a title's head (letters of any script, digits, inner hyphens and dots).
_HEAD_WORD_RE = re.compile(r"[^\W_][\w.+-]*")


def _subject(
    title: str,
    pages: list[PlannedPage],
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
) -> PlannedPage | None:
    """The thing a source's title names, as a page that the cap always keeps.

    A README titled "tqdm" or "Trafilatura: Discover Web Content ..." is about tqdm or
    Trafilatura, however the text writes the name (lower case, in code): the head of the
    title (before a colon or a dash, at most four words, not one ordinary English word such
    as "Introduction") is the source's subject. When a page of that name was found it is
    the one kept; otherwise a page is made, an entity for one word ("tqdm", "PathSpec"),
    a concept for more ("Explicit Type Aliases"), quoting the sentences that name it.
    """
    head = _TITLE_HEAD_RE.split(title, maxsplit=1)[0]
    words = _HEAD_WORD_RE.findall(head)
    if not words or len(words) > 4 or len(" ".join(words)) > 60:
        return None
    name = " ".join(words)
    if len(words) == 1 and name.lower() in english_words():
        return None
    key = fold_name(name)
    folded = [fold(w.lower()) for w in words]
    for page in pages:
        if key in {fold_name(n) for n in (page.name, *page.aliases)}:
            return page
    for page in pages:  # "User-Defined Type Guards" is about the "type guard" found
        tail = [fold(w.lower()) for w in page.name.split()]
        if len(tail) > 1 and folded[-len(tail) :] == tail:
            return page
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    positions = [s.position for s in sentences if not s.heading and pattern.search(s.text)]
    if not positions:
        return None
    concept = len(words) > 1
    page = PlannedPage(
        name=name.lower() if concept and not any(w.isupper() for w in words) else name,
        kind="concept" if concept else "entity",
        type="concept" if concept else "thing",
        description=sentences[positions[0]].fact or sentences[positions[0]].text,
        facts=evidence(positions, sentences, score_of),
        mentions=len(positions),
    )
    where[page.name] = set(positions)
    pages.insert(0, page)
    return page


def _central(
    pages: list[PlannedPage], cap: int, subject: PlannedPage | None = None
) -> list[PlannedPage]:
    """The ``cap`` pages the source is most about, entities and concepts ranked together.

    A page weighs its mentions, half as much again for a name of two words or more (a
    specific thing) and a third more for an entity of a known type; each kind keeps a
    quarter of the room when it has that many. So a PEP's "protocol" (194 mentions) and
    "structural subtyping" outrank a name its acknowledgements list once, and the order
    the pages came in is kept.
    """
    if len(pages) <= cap:
        return pages
    weight = {id(p): _weight(p) for p in pages}
    floor = min(max(2, cap // 4), cap // 2)
    kept: set[int] = {id(subject)} if subject is not None else set()
    for kind in ("entity", "concept"):
        ranked = sorted((p for p in pages if p.kind == kind), key=lambda p: -weight[id(p)])
        kept |= {id(p) for p in ranked[:floor]}
    for page in sorted(pages, key=lambda p: -weight[id(p)]):
        if len(kept) >= cap:
            break
        kept.add(id(page))
    return [p for p in pages if id(p) in kept]


def _weight(page: PlannedPage) -> float:
    weight = page.mentions * (1.5 if len(page.name.split()) > 1 else 1.0)
    if page.kind == "entity" and page.type != "thing":
        weight *= 1.3
    return weight


def page_cap(chars: int) -> int:
    """Entity + concept pages for a source of ``chars`` characters: ~11 short, 15 at most.

    A long document is about a few things; what it mentions in passing is a link from
    those pages, not a page of its own (measured on real documents: issue 15)."""
    return max(5, min(15, round(8 + 3 * math.log2(1 + chars / 1500))))


__all__ = ["extract_offline", "page_cap"]
