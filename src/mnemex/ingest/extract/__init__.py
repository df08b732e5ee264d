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
- ``code_names``: constructs the prose names as code (``TypedDict``), the names its code
  imports, and the names its examples invent (which are no pages).
- ``relations``: two kept pages named in one sentence co-occur.
- ``words``: the word lists they read by, and what counts as an English word.

Pages per source are capped at about 11 for a short article, growing with the log of
the length (15 at most), and entities and concepts are ranked together by how much the
source is about them (:func:`_central`): the thing its title names (:func:`_subject`),
the package it installs (:func:`_installed`) and the people its metadata names
(:func:`_authors`) first, then names four times as heavily as phrases, so the wiki gets
the few things a source is about rather than everything it names. The rules were fitted
on real documents (issue 15: the tuning half of the typing PEPs; docs/benchmarks.md).
Plain Python: a 100-page PDF's text extracts in a second or two.
"""

from __future__ import annotations

import math
import re

from mnemex.ingest.extract.code_names import example_names, find_code_names
from mnemex.ingest.extract.concepts import find_concepts, fold_acronyms
from mnemex.ingest.extract.entities import find_entities
from mnemex.ingest.extract.relations import find_relations
from mnemex.ingest.extract.sentences import (
    Sentence,
    absorb,
    evidence,
    lowercase_counts,
    mark_facts,
    split_sentences,
)
from mnemex.ingest.extract.summary import rank_sentences, summarise
from mnemex.ingest.extract.words import STOPWORDS, english_words, fold
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
    concepts = find_concepts(sentences, entities, score_of, cap, where, chars=len(doc.text))
    pages = fold_acronyms(entities, concepts, where)
    known = {n.lower(): p for p in pages for n in (p.name, *p.aliases)}
    pages += find_code_names(sentences, score_of, where, known, doc.text)
    invented = example_names(doc.text)
    pages = _fold_variants([p for p in pages if p.name not in invented], where)
    subject = _subject(doc.title, pages, sentences, score_of, where)
    installed = _installed(doc.text, pages, sentences, score_of, where)
    authors = _authors(doc, pages, sentences, score_of, where)
    keep = [p for p in (subject, installed, *authors) if p is not None]
    pages = _central(pages, cap, keep)
    relations = find_relations(pages, where, limit=2 * len(pages))
    return Extraction(
        title=doc.title,
        summary=[s.text for s in summary],
        key_points=[s.text for s in key_points],
        pages=pages,
        relations=relations,
        extractor="offline",
    )


#: What a construct's name is glossed with: "literal type" is ``Literal``'s, "generic
#: classes" ``Generic``'s.
_GLOSS_HEADS = frozenset({"type", "types", "class", "classes"})


def _fold_variants(pages: list[PlannedPage], where: dict[str, set[int]]) -> list[PlannedPage]:
    """One page for a name written two ways: a plural ("TypedDicts" is ``TypedDict``), a
    module and its name ("typing" is the "typing module") and a construct's gloss
    ("literal type", "generic classes" beside ``Literal``, ``Generic``);
    the variant's name becomes an alias and its mentions and quotes join the page."""
    by_name = {p.name: p for p in pages if p.kind == "entity"}
    by_lower = {p.name.lower(): p for p in pages if p.kind == "entity"}
    folded: set[int] = set()
    for page in pages:
        words = page.name.split()
        if page.kind == "entity" and page.name.endswith("s"):
            into = by_name.get(page.name[:-1])
            into = into or by_name.get(f"{page.name} module")  # "asyncio" of "import"
        elif page.kind == "entity":
            into = by_name.get(f"{page.name} module")
        elif page.kind == "concept" and len(words) == 2 and words[1] in _GLOSS_HEADS:
            into = by_lower.get(words[0].lower())
        else:
            into = None
        if into is None or into is page:
            continue
        absorb(into, page, where)
        folded.add(id(page))
    return [p for p in pages if id(p) not in folded]


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
    as "Introduction") is the source's subject. Failing that, the longest phrase of two to
    four words of the title ("Syntax for Variable Annotations" -> "Variable Annotations",
    "Type Defaults for Type Parameters" -> "Type Defaults") that the text uses twice. When
    a page of that name was found it is the one kept (or the page found under its last
    words: "User-Defined Type Guards" -> "type guard"); otherwise a page is made, an
    entity for one word ("tqdm", "PathSpec"), a concept for more, quoting the sentences
    that name it.
    """
    candidates = []
    head = _HEAD_WORD_RE.findall(_TITLE_HEAD_RE.split(title, maxsplit=1)[0])
    short = bool(head) and len(head) <= 4 and len(" ".join(head)) <= 60
    if short and (len(head) > 1 or head[0].lower() not in english_words()):
        candidates.append(head)
    spans = list(_HEAD_WORD_RE.finditer(title))
    words = [m.group(0) for m in spans]
    # a phrase ends where one of the title's does, at punctuation, a small word or the
    # end: "User-Defined Type" is no phrase of "User-Defined Type Guards"
    ends = [
        k + 1 == len(spans)
        or words[k + 1].lower() in STOPWORDS
        or bool(title[m.end() : spans[k + 1].start()].strip())
        for k, m in enumerate(spans)
    ]
    for n in (4, 3, 2):
        for k in range(len(words) - n + 1):
            gram = words[k : k + n]
            if ends[k + n - 1] and not {gram[0].lower(), gram[-1].lower()} & STOPWORDS:
                candidates.append(gram)
    for words in candidates:  # a page of the very name first, wherever in the title
        if (found := _find(pages, " ".join(words))) is not None:
            return found
    for words in candidates:  # then a page the title's last words name
        if (found := _ending(pages, words)) is not None:
            return found
    for n, words in enumerate(candidates):
        name = " ".join(words)
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?:e?s)?(?![\w-])", re.IGNORECASE)
        positions = _naming(sentences, pattern)
        if len(positions) >= (1 if n == 0 and words is head else 2):
            concept = len(words) > 1
            page = PlannedPage(
                name=name.lower() if concept and not any(w.isupper() for w in words) else name,
                kind="concept" if concept else "entity",
                type="concept" if concept else "thing",
            )
            pages.insert(0, _made(page, positions, sentences, score_of, where))
            return page
    return None


def _find(pages: list[PlannedPage], *names: str) -> PlannedPage | None:
    """The page one of ``names`` names, by its title or an alias (accents, case folded)."""
    keys = {fold_name(n) for n in names}
    return next((p for p in pages if keys & {fold_name(n) for n in (p.name, *p.aliases)}), None)


def _ending(pages: list[PlannedPage], words: list[str]) -> PlannedPage | None:
    """A page of two words or more that ``words`` end with ("User-Defined Type Guards" is
    about the "type guard" found)."""
    folded = [fold(w.lower()) for w in words]
    for page in pages:
        last = [fold(w.lower()) for w in page.name.split()]
        if len(last) > 1 and folded[-len(last) :] == last:
            return page
    return None


def _naming(sentences: list[Sentence], pattern: re.Pattern[str]) -> list[int]:
    """The body sentences (no headings) ``pattern`` finds in."""
    return [s.position for s in sentences if not s.heading and pattern.search(s.text)]


def _made(
    page: PlannedPage,
    positions: list[int],
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
) -> PlannedPage:
    """``page``, found in the sentences at ``positions``: it quotes them, counts them as
    mentions and, without a description of its own, is described by the first."""
    if not page.description and positions:
        first = sentences[positions[0]]
        page.description = first.fact or first.text
    page.facts = evidence(positions, sentences, score_of)
    page.mentions = len(positions)
    where[page.name] = set(positions)
    return page


#: "pip install charset-normalizer -U", "$ uv add sse-starlette[examples]": what a README
#: installs, it is about.
_INSTALL_RE = re.compile(
    r"(?:pip3?|uv(?: pip)?|pipx|poetry|conda)\s+(?:install|add)\s+(?:-[-\w]+\s+)*"
    r"[\"']?([A-Za-z][\w.-]*[A-Za-z0-9])"
)


def _installed(
    text: str,
    pages: list[PlannedPage],
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
) -> PlannedPage | None:
    """The package a document tells its reader to install, as a page the cap keeps.

    A README whose title is a slogan ("Charset Detection, for Everyone") still says
    ``pip install charset-normalizer``: the first package installed so (``pip``, ``uv``,
    ``pipx``, ``poetry``, ``conda``) is what it is about. The page found under that name
    is the one kept; otherwise one is made, an entity quoting the sentences naming it.
    """
    m = _INSTALL_RE.search(text)
    if m is None:
        return None
    name = m.group(1)
    found = _find(pages, name, name.replace("-", " "), name.replace("_", "-"))
    if found is not None:
        return found
    pattern = re.compile(rf"(?<![\w/-]){re.escape(name)}(?![\w/-])", re.IGNORECASE)
    positions = _naming(sentences, pattern)
    page = PlannedPage(name=name, kind="entity", type="tool")
    if not positions:
        page.description = f"Installed with {m.group(0)}."
    pages.insert(0, _made(page, positions, sentences, score_of, where))
    return page


#: In a source that names more things than it has room for, a thing named in fewer
#: sentences is mentioned in passing: a link from the pages that name it, not a page
#: (the source's subject and its people excepted).
MIN_MENTIONS = 2
#: Pages a source of any length gets when it names that many things (issue 15: 5-15).
MIN_PAGES = 5

#: Between two authors: a comma, a semicolon, an "and" or an ampersand.
_AUTHOR_SPLIT_RE = re.compile(r"\s*(?:[,;&]|\band\b)\s*")
#: A person's name as a document's metadata writes it: two to five words, each capitalised
#: or a particle ("Guido van Rossum", "Michael J. Sullivan", "James Hilton-Balfe").
_PERSON_RE = re.compile(
    r"(?:[^\W\d_][\w'’.-]*\s+){1,4}[^\W\d_][\w'’.-]*",
)
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "da", "di", "du", "la", "le", "bin"})


def _authors(
    doc: SourceDoc,
    pages: list[PlannedPage],
    sentences: list[Sentence],
    score_of: dict[int, int],
    where: dict[str, set[int]],
) -> list[PlannedPage]:
    """The people the document's metadata names, as person pages the cap keeps.

    Its authors and the others it names (a PEP's sponsor or delegate): a PEP's
    ``Author:`` header, a markdown ``author:`` property, an HTML page's author or a PDF's.
    Who wrote a source is someone a reader looks up, however seldom the text names them.
    A page found in the prose under that name becomes the person's; otherwise a page is
    made, described as an author of the source and quoting the sentences naming them.
    Names that do not read as a person's (an organisation, a handle) are left out.
    """
    found = []
    named = [(raw, "An author") for raw in _AUTHOR_SPLIT_RE.split(doc.author or "")]
    named += [
        (raw, "Named in the metadata")
        for people in doc.contributors
        for raw in _AUTHOR_SPLIT_RE.split(people)
    ]
    for raw, role in named:
        name = " ".join(re.sub(r"\([^)]*\)|<[^>]*>", " ", raw).split()).strip(" .")
        words = name.split()
        if (
            not _PERSON_RE.fullmatch(name)
            or len(name) > 60
            or not all(w[0].isupper() or w.lower() in _PARTICLES for w in words)
            or not words[0][0].isupper()
        ):
            continue
        page = _find(pages, name)
        if page is None:
            positions = _naming(sentences, re.compile(rf"(?<!\w){re.escape(name)}(?!\w)"))
            person = PlannedPage(name, "entity", "person", description=f"{role} of {doc.title}.")
            page = _made(person, positions, sentences, score_of, where)
            pages.append(page)
        else:
            page.type = "person"
        if page not in found:
            found.append(page)
    return found


def _central(
    pages: list[PlannedPage], cap: int, keep: list[PlannedPage] | None = None
) -> list[PlannedPage]:
    """The ``cap`` pages the source is most about, entities and concepts ranked together.

    A page weighs what :func:`_weight` says; each kind keeps a quarter of the room when it
    has that many. So a PEP's ``TypedDict`` and "structural subtyping" outrank a name its
    acknowledgements list once, and the order the pages came in is kept. The pages of
    ``keep`` (the source's subject, its people) are kept first. When there are more pages
    than room, one named in a single sentence is a mention in passing and gets no page,
    unless fewer than :data:`MIN_PAGES` would be left.
    """
    if len(pages) <= cap:
        return pages
    kept: set[int] = {id(p) for p in keep or []}
    weight = {id(p): _weight(p) for p in pages}
    ranked = sorted(pages, key=lambda p: -weight[id(p)])
    repeated = [p for p in ranked if p.mentions >= MIN_MENTIONS]
    floor = min(max(2, cap // 4), cap // 2)
    for kind in ("entity", "concept"):
        kept |= {id(p) for p in [p for p in repeated if p.kind == kind][:floor]}
    for page in [*repeated, *ranked]:
        if len(kept) >= (cap if page.mentions >= MIN_MENTIONS else min(cap, MIN_PAGES)):
            continue
        kept.add(id(page))
    return [p for p in pages if id(p) in kept]


def _weight(page: PlannedPage) -> float:
    """How much a source is about ``page``: its mentions, four times as much for a name (an
    entity: a named thing or construct, which real documents show is far more often a
    real thing than a phrase is) as for a phrase, half as much again for two words or
    more, a third more for an entity of a known type, and a single-word concept at 0.6
    (issue 15: fitted on the tuning half of the typing PEPs)."""
    weight = float(page.mentions)
    if page.kind == "entity":
        weight *= 2.0 * (1.3 if page.type != "thing" else 1.0)
    else:
        weight *= 0.5 * (0.6 if len(page.name.split()) == 1 else 1.0)
    return weight * (1.5 if len(page.name.split()) > 1 else 1.0)


def page_cap(chars: int) -> int:
    """Entity + concept pages for a source of ``chars`` characters: ~11 short, 15 at most.

    A long document is about a few things; what it mentions in passing is a link from
    those pages, not a page of its own (measured on real documents: issue 15)."""
    return max(5, min(15, round(8 + 3 * math.log2(1 + chars / 1500))))


__all__ = ["extract_offline", "page_cap"]
