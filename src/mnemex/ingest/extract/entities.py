"""Entities: the named things of a source (people, organisations, tools, places...).

Runs of capitalised words, acronyms and CamelCase names, with sentence-initial common
words dropped, in every script that has capitals ("José Müller", "Łódź Technical
University", "Мария Иванова"). A script without case (Chinese, Japanese, Korean) shows
no name by its letters, and its words are not spaced apart: its names in running text
are left unfound rather than guessed (a model extractor, or the source's title, names
them), and never cut or mangled. Variants within the source are grouped when it is unambiguous:
honorifics, "The", possessives, company suffixes and version numbers come off; a lone
surname or an initialled name ("Raman", "P. Raman") joins the one full name it fits;
an acronym joins the name whose initials it spells or that it stands beside in
parentheses; "KestrelDB" and "Kestrel" are one. Names that merely share a word
("Raman Benchmark", "Priya Raman") stay apart. Each group's type is voted from its
name and the words around its first mentions.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from mnemex.ingest.extract.sentences import MAX_DESCRIPTION, Sentence, evidence
from mnemex.ingest.extract.words import (
    ACRONYM_RE,
    AWARD_WORDS,
    CONNECTORS,
    EVENT_WORDS,
    FIRST_NAMES,
    GENERIC_ACRONYMS,
    HONORIFICS,
    LOWER,
    MONTHS,
    ORG_CONTEXT,
    ORG_SUFFIXES,
    ORG_WORDS,
    PERSON_WORDS,
    PLACE_PREPOSITIONS,
    PLACE_WORDS,
    PLACES,
    PRODUCT_SUFFIXES,
    PRODUCT_WORDS,
    PROJECT_WORDS,
    SECTION_WORDS,
    STATUS_LABELS,
    STOPWORDS,
    TOOL_WORDS,
    UPPER,
    common_word,
    english_word,
    english_words,
    fold,
)
from mnemex.ingest.records import PlannedPage
from mnemex.vault import fold_name

#: Document series whose members are named by a number: "PEP 484", "RFC 9110".
NUMBERED_SERIES = frozenset({"PEP", "RFC", "BIP", "EIP", "ISO"})
_VERSION_RE = re.compile(r"^v?\d+(?:\.\d+)+$|^v\d+$")
_YEAR_RE = re.compile(r"^(?:19|20)\d\d$")
#: An initial, in any script: "P.", "Ł."
_INITIAL_RE = re.compile(rf"{UPPER}\.")
#: An initialled name: "P. Raman", "Ł. Nowak".
_INITIALLED_RE = re.compile(rf"{UPPER}\. \w+")
#: A capital after a small letter, CamelCase in any script: "KestrelDB", "KesQL".
_CAMEL_RE = re.compile(f"{LOWER}{UPPER}")
_DEFINITION_RE = re.compile(
    r"^[\"'”’)]*\s*(?:,\s*(?:an?|the)\s|\s+(?:is|was|are|were|remains|has been)\s+(?:an?|the)\s)"
)


@dataclass
class _Mention:
    surface: str  # as written, honorific included
    core: str  # honorific, "The", possessive, suffix and version removed
    sentence: int
    end: int  # character offset of the span's end in its sentence
    initial: bool  # starts the sentence
    version: str | None = None
    honorific: bool = False
    context: tuple[str, ...] = ()  # lowercase words around it
    #: the word after it follows a space alone: "Python developer", where the name is what
    #: the word is about ("a developer of Python"), not an apposition ("Dana, an engineer")
    compound: bool = False


def _is_name_token(tok: str) -> bool:
    """Capitalised, or capitals inside ("iPhone"): a word that may be part of a name."""
    return tok[:1].isupper() or (tok[:1].isalpha() and any(c.isupper() for c in tok[1:]))


def _shouted(tok: str, lower_counts: Counter[str]) -> bool:
    """An ordinary word in capitals ("EMERGING", "DEPRECATED", "TODO"), not an acronym.

    A status label or a shouted word is no name: a marker word (:data:`STATUS_LABELS`),
    a word of six letters or more that is English or inflected like it ("DEPRECATED"),
    or a shorter English word the source also writes in lower case ("DRAFT" beside
    "draft"). An acronym used as a name stays one: "NASA", "PEP" and "MCP" are short and
    not written in lower case, "NVIDIA" and "FORTRAN" are no English words.
    """
    if len(tok) < 2 or not tok.isalpha() or not tok.isupper():
        return False
    word = tok.lower()
    if word in STATUS_LABELS:
        return True
    if len(word) > 5:
        return word in english_words() or _INFLECTED_RE.search(word) is not None
    return word in english_words() and lower_counts[word] > 0


_INFLECTED_RE = re.compile(r"(?:ed|ing|tion|ment|ness|able|ible|ous|ive|ful|less|ally)$")


def _spans(sentence: Sentence, lower_counts: Counter[str]) -> list[_Mention]:
    """Runs of capitalised tokens (with "of"/"for" inside, honorifics and initials) in one
    sentence, as mentions with their version and context."""
    toks = sentence.tokens
    text = sentence.text
    mentions: list[_Mention] = []
    i = 0
    while i < len(toks):
        tok = toks[i][0]
        if not _is_name_token(tok) or tok == "&" or _shouted(tok, lower_counts):
            i += 1
            continue
        j = i + 1
        institution = False
        while j < len(toks):
            gap = text[toks[j - 1][2] : toks[j][1]]
            nxt = toks[j][0]
            if gap.strip():  # punctuation breaks a name
                break
            if re.search(r"['’]s$", toks[j - 1][0]):  # "Python's Unicode" is two names
                break
            if (_is_name_token(nxt) and not _shouted(nxt, lower_counts)) or nxt == "&":
                j += 1
            elif (
                nxt in CONNECTORS
                and j + 1 < len(toks)
                and _is_name_token(toks[j + 1][0])
                and not text[toks[j][2] : toks[j + 1][1]].strip()
            ):
                j += 2
            elif (
                # "Central Commission for the Navigation of the Rhine": an institution's
                # name may go on through "of the" / "for the"
                nxt in ("of", "for")
                and (institution or toks[j - 1][0].lower() in ORG_WORDS)
                and j + 2 < len(toks)
                and toks[j + 1][0] == "the"
                and _is_name_token(toks[j + 2][0])
                and not text[toks[j][2] : toks[j + 1][1]].strip()
                and not text[toks[j + 1][2] : toks[j + 2][1]].strip()
            ):
                j += 3
                institution = True
            else:
                break
        words = [t for t, _a, _b in toks[i:j]]
        while words and words[-1] in ("&", *CONNECTORS):
            words.pop()
            j -= 1
        mention = _mention(words, sentence, i, j, lower_counts)
        if mention:
            mentions.append(mention)
        i = j
    return mentions


def _mention(
    words: list[str], sentence: Sentence, i: int, j: int, lower_counts: Counter[str]
) -> _Mention | None:
    toks = sentence.tokens
    # The first word of a sentence, or after a colon or an opening quote, is capitalised
    # by position, so it proves nothing.
    initial = i == 0
    by_position = initial or sentence.text[: toks[i][1]].rstrip().endswith((":", '"', "“"))
    honorific = words[0].lower() in HONORIFICS
    first = i + 1 if honorific else i
    # Common words in front of a name ("The", "Since", "Why", "Queries") are not part of it.
    while first < j and (
        toks[first][0].lower() in STOPWORDS
        or (by_position and lower_counts[toks[first][0].lower()])
        # "Small LLMs now run on laptops": an English word opening the sentence before an
        # acronym is not part of its name
        or (
            by_position
            and j - first == 2
            and ACRONYM_RE.fullmatch(toks[first + 1][0]) is not None
            and toks[first][0].lower() in english_words()
        )
    ):
        first += 1
        initial = by_position = honorific = False
    core = [re.sub(r"['’]s$", "", w) for w in words[first - i :]]
    surface = sentence.text[toks[i if honorific else first][1] : toks[j - 1][2]] if core else ""
    surface = re.sub(r"['’]s$", "", surface)
    while core and core[-1].lower() in ORG_SUFFIXES:
        core = core[:-1]
    if not core:
        return None
    if core == [words[-1]] and words[-1] in NUMBERED_SERIES:
        # "PEP 484", "RFC 9110": the number is the name; a bare "this PEP" names nothing
        if not (j < len(toks) and toks[j][0].isdigit()):
            return None
        core = [words[-1], toks[j][0]]
        surface = " ".join(core)
        j += 1
    if len(core) == 1:
        word = core[0]
        if word.lower() in MONTHS or word in GENERIC_ACRONYMS or len(word) < 2:
            return None
        if lower_counts[word.lower()] and not word.isupper():
            return None
        if word.istitle() and _derived(word.lower()):  # "Rewritten", "Instantiation"
            return None
        if by_position and not initial and not word.isupper():
            initial = True  # "Raman: ..." in an interview: capitalised by position
    version = None
    if (j < len(toks) and _VERSION_RE.match(toks[j][0])) or (
        j < len(toks) and _YEAR_RE.match(toks[j][0])
    ):
        version = toks[j][0]
    after = [t.lower() for t, _a, _b in toks[j : j + 5] if not _is_name_token(t)][:4]
    before = [t.lower() for t, _a, _b in toks[max(0, i - 2) : i]]
    compound = j < len(toks) and sentence.text[toks[j - 1][2] : toks[j][1]] == " "
    return _Mention(
        surface=surface.strip(),
        core=" ".join(core),
        sentence=sentence.position,
        end=toks[j - 1][2],
        initial=initial,
        version=version,
        honorific=honorific,
        context=(*before, "|", *after),
        compound=compound and not _is_name_token(toks[j][0]),
    )


@dataclass
class _Group:
    core: str
    mentions: list[_Mention] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return self.core.split()


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _key(core: str) -> str:
    return re.sub(r"[\s\-]+", " ", core.lower()).strip()


def find_entities(
    sentences: list[Sentence],
    lower_counts: Counter[str],
    score_of: dict[int, int],
    limit: int,
    where: dict[str, set[int]],
) -> list[PlannedPage]:
    """Named things, variants grouped, best ``limit`` by mentions; their sentences in ``where``."""
    groups: dict[str, _Group] = {}
    for s in sentences:
        if s.heading:
            continue
        for m in _spans(s, lower_counts):
            groups.setdefault(_key(m.core), _Group(m.core)).mentions.append(m)
    # the sections a name may refer to; the first heading is the title, what the source
    # is about ("# Curator")
    headings = {_key(s.text.strip("#*_ ")) for s in sentences if s.heading}
    headings -= {_key(s.text.strip("#*_ ")) for s in sentences[:1] if s.heading}
    for key in [k for k, g in groups.items() if _no_name(g, headings, lower_counts)]:
        del groups[key]
    # A lone sentence-initial word seen nowhere else is most likely not a name.
    for key in [k for k, g in groups.items() if len(g.words) == 1]:
        g = groups[key]
        if (
            all(m.initial for m in g.mentions)
            and not g.core.isupper()
            and not _fits_a_full_name(g, groups)
            and not _opens_sentences_as_a_name(g, lower_counts)
        ):
            del groups[key]
    uf = _UnionFind()
    for key in groups:
        uf.find(key)
    _merge_variants(groups, uf, sentences)
    merged: dict[str, list[_Group]] = defaultdict(list)
    for key, g in groups.items():
        merged[uf.find(key)].append(g)
    pages = []
    for members in merged.values():
        page = _entity_page(members, sentences, score_of)
        if page is not None:
            pages.append(page)
            where[page.name] = {m.sentence for g in members for m in g.mentions}
    pages.sort(key=_entity_rank, reverse=True)
    return pages[: max(0, limit)]


#: Code literals, never a name however often a text writes them.
_LITERALS = frozenset({"True", "False", "None", "NotImplemented", "Ellipsis"})


def _no_name(group: _Group, headings: set[str], lower_counts: Counter[str]) -> bool:
    """Capitalised words that name nothing: a literal (``False``), initials alone ("J. A"
    of a citation), or ordinary words capitalised as a label, not as a name.

    Words that are each everyday English or written in lower case elsewhere in the source
    ("Scoping Rules", "Motivation", "Low Resource Requirements") name a section of the
    document when one of its headings reads so, or (two words or more) a heading of
    ordinary words starts or ends so ("see `Scoping Rules`_", "[Text
    Splitting](#semantic-text-splitting)"),
    and a feature-list label when they only ever open a sentence or a list item ("-
    **Text Splitting**: ..."). A name with a word of its own ("Hollis Analytics", "Open
    Graph" used mid-sentence) is kept.
    """
    words = group.words
    if group.core in _LITERALS or all(_INITIAL_RE.fullmatch(w) or len(w) == 1 for w in words):
        return True
    ordinary = all(w in CONNECTORS or _ordinary(w.lower(), lower_counts) for w in words)
    if len(words) == 1:  # "as seen in the Motivation": a document's section
        ordinary = words[0].lower() in SECTION_WORDS
    if not ordinary:
        return False
    key = _key(group.core)
    in_heading = any(
        heading == key
        or (
            len(words) > 1
            and (heading.endswith(f" {key}") or heading.startswith(f"{key} "))
            and all(_ordinary(w, lower_counts) for w in heading.split())
        )
        for heading in headings
    )
    return in_heading or (len(words) > 1 and all(m.initial for m in group.mentions))


def _derived(word: str) -> bool:
    """An inflection or derivative of English that the vocabulary lacks as such
    ("rewritten", "instantiation"), never a name's only word."""
    return word not in english_words() and english_word(word, compounds=False)


def _ordinary(word: str, lower_counts: Counter[str]) -> bool:
    """An everyday word ("rules"), one made from English ("scoping"), or one the source
    writes in lower case; not a rarer word of the vocabulary, which holds names too
    ("hollis")."""
    if common_word(word) or lower_counts[word]:
        return True
    return _derived(word)


def _opens_sentences_as_a_name(group: _Group, lower_counts: Counter[str]) -> bool:
    """ "Contargo moved ... Contargo ordered ...": a word that opens two sentences or more,
    is no common word and is never written in lower case is a name, though only ever seen
    where any word is capitalised."""
    word = group.core.lower()
    return (
        len(group.mentions) >= 2
        and len(word) >= 4
        and word.isalpha()
        and word not in STOPWORDS
        and not lower_counts[word]
        and word not in english_words()
    )


def _fits_a_full_name(group: _Group, groups: dict[str, _Group]) -> bool:
    word = group.core
    return any(len(g.words) > 1 and g.words[-1] == word for g in groups.values()) or any(
        g.core != word and g.core.startswith(word) and g.core[len(word) :].isupper()
        for g in groups.values()
    )


def _merge_variants(groups: dict[str, _Group], uf: _UnionFind, sentences: list[Sentence]) -> None:
    """Group names that are the same thing within this source, only when unambiguous."""
    multi = {k: g for k, g in groups.items() if len(g.words) > 1}
    for key, g in groups.items():
        words = g.words
        if len(words) == 1:
            word = words[0]
            # a surname alone → the one personal name ending in it
            fits = [k for k, m in multi.items() if _personal_name(m) and m.words[-1] == word]
            if len(fits) == 1:
                uf.union(fits[0], key)
                continue
            # "Castellan" → the one organisation named "Castellan ..." and named so first: a
            # word used before the organisation is its own thing ("Python", then the
            # "Python Software Foundation")
            orgs = [
                k
                for k, m in multi.items()
                if m.words[0] == word and _organisation_name(m) and _first(m) < _first(g)
            ]
            if len(orgs) == 1 and not fits:
                uf.union(orgs[0], key)
                continue
            # an acronym → the one name whose initials it spells
            if word.isupper() and len(word) >= 2:
                spelled = [k for k, m in multi.items() if word in _initials(m.words)]
                if len(spelled) == 1:
                    uf.union(spelled[0], key)
                    continue
            # "KestrelDB" and "Kestrel"
            stems = [
                k
                for k, m in groups.items()
                if len(m.words) == 1
                and m.core != word
                and word.startswith(m.core)
                and word[len(m.core) :].isupper()
                and 2 <= len(word) - len(m.core) <= 3
            ]
            if len(stems) == 1:
                uf.union(key, stems[0])
        elif words[-1] in PRODUCT_SUFFIXES and _key(" ".join(words[:-1])) in groups:
            # "Curator App", "Curator MCP": an interface of "Curator" is that thing
            uf.union(_key(" ".join(words[:-1])), key)
        elif len(words) == 2 and _INITIAL_RE.fullmatch(words[0]):
            # "P. Raman" → the one full name with that initial and surname
            fits = [
                k
                for k, m in multi.items()
                if k != key
                and m.words[-1] == words[1]
                and m.words[0][0] == words[0][0]
                and not m.words[0].endswith(".")
            ]
            if len(fits) == 1:
                uf.union(fits[0], key)
    _merge_stated_aliases(groups, uf, sentences)


def _merge_stated_aliases(
    groups: dict[str, _Group], uf: _UnionFind, sentences: list[Sentence]
) -> None:
    """ "Open Telemetry Data Foundation (OTDF)" and "KesQL, the Kestrel Query Language"."""
    by_sentence: dict[int, list[_Mention]] = defaultdict(list)
    for g in groups.values():
        for m in g.mentions:
            by_sentence[m.sentence].append(m)
    for pos, mentions in by_sentence.items():
        text = sentences[pos].text
        mentions.sort(key=lambda m: m.end)
        gaps: list[str | None] = []
        for a, b in itertools.pairwise(mentions):
            start_b = text.find(b.surface, a.end)
            gaps.append(text[a.end : start_b] if start_b >= 0 else None)
            if start_b < 0:
                continue
            gap = text[a.end : start_b]
            after = text[start_b + len(b.surface) :]
            paren = gap.strip() == "(" and after.startswith(")")
            appositive = re.fullmatch(r",\s+the\s+", gap) is not None and re.match(
                r"\s*[,.;]", after
            )
            stated = _STATED_ALIAS.fullmatch(gap) is not None and re.match(r"\s*[,.;)]", after)
            if paren or appositive or stated:
                uf.union(_key(a.core), _key(b.core))
            # "Augusta Ada King, Countess of Lovelace, better known as Ada Lovelace": a title
            # between the two names is the same person too
            if stated and len(gaps) >= 2 and gaps[-2] is not None and gaps[-2].strip() == ",":
                before = mentions[len(gaps) - 2]
                uf.union(_key(before.core), _key(a.core))


#: "A, better known as B", "A (also called B)", "A, formerly B", "A (born B)", "A, a.k.a. B".
_STATED_ALIAS = re.compile(
    r"\s*[,(]\s*(?:(?:also|better|commonly|formerly|previously|now|otherwise|once)\s+)?"
    r"(?:known\s+as|called|named)\s+(?:the\s+)?"
    r"|\s*[,(]\s*(?:a\.?k\.?a\.?|née|born|formerly|previously)\s+(?:the\s+)?",
    re.IGNORECASE,
)


_NOT_A_SURNAME = ORG_WORDS | TOOL_WORDS | PROJECT_WORDS | EVENT_WORDS | PLACE_WORDS | AWARD_WORDS


def _interface(group: _Group) -> bool:
    return len(group.words) > 1 and group.words[-1] in PRODUCT_SUFFIXES


def _first(group: _Group) -> tuple[int, int]:
    return min((m.sentence, m.end) for m in group.mentions)


def _personal_name(group: _Group) -> bool:
    words = group.words
    return (
        2 <= len(words) <= 3
        and all(w[:1].isupper() and not w.isupper() for w in words)
        and words[-1].lower() not in _NOT_A_SURNAME
        and not any(w.lower() in CONNECTORS for w in words)
    )


def _organisation_name(group: _Group) -> bool:
    last = group.words[-1].lower()
    return last in ORG_WORDS or any(
        m.surface.split()[-1].lower() in ORG_SUFFIXES for m in group.mentions
    )


def _initials(words: list[str]) -> set[str]:
    """The acronyms a name's capitals spell, a hyphenated word giving one letter or one
    per part: "Server-Sent Events" is "SE" or "SSE"."""
    whole = "".join(w[0] for w in words if w[:1].isupper())
    parts = "".join(p[0] for w in words for p in w.split("-") if p[:1].isupper())
    return {whole, parts}


def _entity_page(
    members: list[_Group], sentences: list[Sentence], score_of: dict[int, int]
) -> PlannedPage | None:
    mentions = [m for g in members for m in g.mentions]
    surfaces: Counter[str] = Counter()
    for m in mentions:
        surfaces[m.core] += 1
    name = _canonical(members, surfaces)
    etype = _entity_type(name, members, mentions, sentences)
    multiword = len(name.split()) > 1 or (name.isupper() and len(members) > 1)
    if len(mentions) < 2 and not multiword and etype == "thing":
        return None
    aliases = sorted(
        {m.surface for m in mentions if m.surface != name}
        | {f"{m.core} {m.version}" for m in mentions if m.version and etype != "person"}
        | {g.core for g in members if g.core != name}
    )
    positions = sorted({m.sentence for m in mentions})
    # "Raman: That was Marcus's joke." quotes Raman but is no fact about her
    stated = sorted({m.sentence for m in mentions if m.end > sentences[m.sentence].label_end})
    return PlannedPage(
        name=name,
        kind="entity",
        type=etype,
        aliases=[a for a in aliases if a and a != name],
        description=_description(name, members, sentences, positions),
        facts=evidence(stated, sentences, score_of),
        mentions=len(mentions),
    )


def _canonical(members: list[_Group], surfaces: Counter[str]) -> str:
    """The long form of an acronym, a full personal name, else the most used form."""
    # "Curator" over "Curator App" and "Curator MCP": the product over its interfaces
    members = [g for g in members if not _interface(g)] or members
    full = [g for g in members if len(g.words) > 1 and not _INITIAL_RE.fullmatch(g.words[0])]
    if full:
        return max(full, key=lambda g: (surfaces[g.core], len(g.core))).core
    # "KestrelDB" over "Kestrel": the project's own spelling is the more specific one
    cores = {g.core for g in members}
    suffixed = [c for c in cores if any(c != o and c.startswith(o) for o in cores)]
    if suffixed:
        return max(suffixed, key=lambda c: (surfaces[c], len(c)))
    return max(members, key=lambda g: (surfaces[g.core], len(g.core))).core


def _entity_type(
    name: str, members: list[_Group], mentions: list[_Mention], sentences: list[Sentence]
) -> str:
    votes: Counter[str] = Counter()
    words = [w.lower() for w in name.split()]
    last = words[-1]
    head = words[: next((k for k, w in enumerate(words) if w in CONNECTORS), len(words))]
    if (
        last in ORG_WORDS
        or bool(head and head[-1] in ORG_WORDS)  # "Central Commission for the ..."
        or any(w in ("university", "institute", "foundation") for w in words)
    ):
        votes["organization"] += 6
    if any(g.core.split()[-1].lower() in ORG_SUFFIXES for g in members) or any(
        m.surface.split()[-1].lower() in ORG_SUFFIXES for m in mentions
    ):
        votes["organization"] += 4
    if last in EVENT_WORDS or re.search(r"(Conf|Con|Summit|Fest)$", name):
        votes["event"] += 4
    if last in PROJECT_WORDS:
        votes["project"] += 4
    if last in PLACE_WORDS and len(words) > 1:
        votes["place"] += 4
    if last in AWARD_WORDS and len(words) > 1:
        votes["thing"] += 6
    if last in PRODUCT_WORDS:
        votes["product"] += 2
    if _CAMEL_RE.search(name):  # CamelCase: KestrelDB, KesQL
        votes["tool"] += 2
    if name.lower() in PLACES:
        votes["place"] += 4
    if len(words) >= 2 and fold_name(words[0]) in FIRST_NAMES and _personal_name(_Group(name)):
        votes["person"] += 4
    # Context is read from the first mentions only, so that in a long source hundreds of
    # noisy contexts cannot outvote what the name itself says.
    for m in mentions[:8]:
        if m.honorific or _INITIALLED_RE.fullmatch(m.surface):
            votes["person"] += 3
        if m.version and _VERSION_RE.match(m.version):
            votes["tool"] += 2
        if m.version and _YEAR_RE.match(m.version) and votes["event"]:
            votes["event"] += 1
        before, _bar, after = _split_context(m.context)
        if before and before[-1] in PLACE_PREPOSITIONS and name.lower() in PLACES:
            votes["place"] += 2
        if before[-2:] in (["written", "in"], ["implemented", "in"]):
            votes["tool"] += 3
        for k, word in enumerate(after[:3]):
            if k < 2 and m.compound and fold(word) in PERSON_WORDS | EVENT_WORDS:
                continue  # "a Python developer", "a Python typing meetup": Python is neither
            _vote_word(votes, word, weight=2 if k < 2 else 1)
    for pos in sorted({m.sentence for m in mentions})[:8]:
        match = _definition_tail(sentences[pos].text, [g.core for g in members])
        if match:
            for k, word in enumerate(re.findall(r"[a-z][a-z-]+", match)[:8]):
                _vote_word(votes, word, weight=2 if k < 4 else 1)
    if not votes:
        return "thing"
    best, count = votes.most_common(1)[0]
    return best if count >= 2 else "thing"


def _split_context(context: tuple[str, ...]) -> tuple[list[str], str, list[str]]:
    bar = context.index("|")
    return list(context[:bar]), "|", list(context[bar + 1 :])


def _vote_word(votes: Counter[str], word: str, weight: int = 1) -> None:
    word = fold(word)
    if word in PERSON_WORDS:
        votes["person"] += weight
    if word in ORG_CONTEXT:
        votes["organization"] += 2 * weight
    if word in TOOL_WORDS:
        votes["tool"] += weight
    if word in PRODUCT_WORDS:
        votes["product"] += weight
    if word in EVENT_WORDS:
        votes["event"] += 2 * weight
    if word in PROJECT_WORDS:
        votes["project"] += weight


def _definition_tail(text: str, names: list[str]) -> str | None:
    """What follows "X is a" / "X, the" for any of the names, or None."""
    for name in names:
        for match in re.finditer(re.escape(name), text):
            tail = text[match.end() :]
            if _DEFINITION_RE.match(tail):
                return tail[:160]
    return None


def _description(
    name: str, members: list[_Group], sentences: list[Sentence], positions: list[int]
) -> str:
    """The first sentence that defines the entity ("X is a ..."), else the first mention."""
    names = sorted({name, *(g.core for g in members)}, key=len, reverse=True)
    for pos in positions:
        if _definition_tail(sentences[pos].text, names):
            return sentences[pos].text[:MAX_DESCRIPTION]
    statements = [p for p in positions if not sentences[p].text.endswith("?")] or positions
    return sentences[statements[0]].text[:MAX_DESCRIPTION] if statements else ""


def _entity_rank(page: PlannedPage) -> tuple[float, str]:
    weight = page.mentions * (1.5 if len(page.name.split()) > 1 else 1.0)
    if page.type != "thing":
        weight *= 1.3
    return weight, page.name


__all__ = ["find_entities"]
