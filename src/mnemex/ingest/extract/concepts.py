"""Concepts: the repeated lowercase noun phrases a source is about.

Runs of content words between stopwords (RAKE-style), plurals folded; a phrase beats
a single word seen as often, and sub-phrases of a kept phrase are dropped. An acronym
found as an entity that spells exactly one concept ("retrieval-augmented generation
(RAG)") becomes that concept's alias (:func:`fold_acronyms`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from mnemex.ingest.extract.sentences import MAX_DESCRIPTION, Sentence, absorb, evidence
from mnemex.ingest.extract.words import (
    ACRONYM_RE,
    DETERMINERS,
    GENERIC_NOUNS,
    QUALIFIERS,
    STOPWORDS,
    VERBS,
    common_word,
    english_word,
    english_words,
    fold,
)
from mnemex.ingest.records import PlannedPage


def find_concepts(
    sentences: list[Sentence],
    entities: list[PlannedPage],
    score_of: dict[int, int],
    limit: int,
    where: dict[str, set[int]],
    *,
    chars: int = 0,
) -> list[PlannedPage]:
    """Repeated lowercase noun phrases, RAKE-style, as concept pages (sentences in ``where``).

    In a source of ``chars`` characters, a phrase of two words or more is a concept when a
    heading names it or the source uses it :func:`phrase_min_count` times: a long document
    repeats the ordinary phrases of its topic ("class body", "default values") a few times
    each, and its terms many times ("type checker", "forward reference")."""
    if limit <= 0:
        return []
    entity_words = {w.lower() for p in entities for n in (p.name, *p.aliases) for w in n.split()}
    phrases = _count_phrases(sentences, entity_words)
    pages = []
    for key in _best_phrases(phrases, entity_words, limit, phrase_min_count(chars)):
        forms = phrases.forms[key]
        name = _concept_name(key, forms)
        positions = sorted(phrases.found_in[key])
        named = _named(key, phrases)
        if named:  # "Pyright" opening a sentence or a link is "pyright" too
            positions, name = _name_mentions(key, name, sentences)
        # "the typing module", "the regex module": a named module, as in code
        first, _, last = key.partition(" ")
        module = last in _MODULE_WORDS and first not in GENERIC_NOUNS and not common_word(first)
        where.setdefault(name, set(positions))
        pages.append(
            PlannedPage(
                name=name,
                kind="entity" if named or module else "concept",
                type="tool" if module else "thing" if named else "concept",
                aliases=sorted(f for f in forms if f != name),
                description=_concept_description(name, positions, sentences),
                facts=evidence(positions, sentences, score_of),
                mentions=len(positions) if named else phrases.counts[key],
            )
        )
    return pages


def _name_mentions(key: str, name: str, sentences: list[Sentence]) -> tuple[list[int], str]:
    """The body sentences naming ``key`` in any case, and its most written spelling."""
    spellings: Counter[str] = Counter()
    positions = []
    for s in sentences:
        found = [tok for tok, _a, _b in s.tokens if fold(tok.lower()) == key]
        if found and not s.heading:
            positions.append(s.position)
            spellings.update(found)
    if not spellings:
        return positions, name
    return positions, max(spellings, key=lambda w: (spellings[w], w.islower(), w))


@dataclass
class _Phrases:
    """Every run of one to three content words, keyed with its last word folded."""

    counts: Counter[str] = field(default_factory=Counter)
    forms: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    #: the body sentences it is in (a heading names what a source is about: it counts,
    #: but it is no evidence)
    found_in: defaultdict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    #: "the workload": a word seen after a determiner is a noun, not "reports"
    with_determiner: Counter[str] = field(default_factory=Counter)
    #: phrases a heading names: what a section is about
    in_heading: set[str] = field(default_factory=set)
    #: words seen right after a modal or between "to" and an object ("must narrow", "to
    #: annotate the"): verbs
    as_verb: Counter[str] = field(default_factory=Counter)


def _count_phrases(sentences: list[Sentence], entity_words: set[str]) -> _Phrases:
    phrases = _Phrases()
    for s in sentences:
        toks = [t.lower() for t, _a, _b in s.tokens]
        for k, (prev, word) in enumerate(itertools.pairwise(toks)):
            # "can narrow", "to annotate the ...": a verb ("to mypy." is none)
            after = toks[k + 2] if k + 2 < len(toks) else ""
            if prev in _MODALS or (prev == "to" and after in _OBJECT_WORDS):
                phrases.as_verb[fold(word)] += 1
        for run, determined in _content_runs(s, entity_words):
            if determined:  # the head of "the ingest workload" is a noun
                phrases.with_determiner[fold(run[-1])] += 1
            for n in (1, 2, 3):
                for k in range(len(run) - n + 1):
                    gram = run[k : k + n]
                    key = " ".join([*gram[:-1], fold(gram[-1])])
                    phrases.counts[key] += 1
                    phrases.forms[key][" ".join(gram)] += 1
                    if s.heading:
                        phrases.in_heading.add(key)
                    else:
                        phrases.found_in[key].add(s.position)
    return phrases


def phrase_min_count(chars: int) -> int:
    """Uses a phrase needs in a source of ``chars`` characters, when no heading names it:
    2 up to about 7,500 characters, one more for each 3,000 after that, 8 at most (issue
    15: fitted on the tuning half of the typing PEPs, where it halved the phrases that are
    no terms)."""
    return max(2, min(8, round(chars / 3000)))


def _best_phrases(
    phrases: _Phrases, entity_words: set[str], limit: int, min_count: int = 2
) -> list[str]:
    """The best ``limit`` phrases that may be concepts, no two of them overlapping."""
    counts = phrases.counts
    candidates = [
        (score, key)
        for key in counts
        if (score := _concept_score(key, phrases, entity_words, min_count)) is not None
    ]
    # a word that mostly occurs inside a longer phrase is that phrase's: "compression"
    # seen twice, once as "columnar compression", gives way to the phrase
    multiword = [k for _s, k in candidates if " " in k]
    candidates = [
        (score, key)
        for score, key in candidates
        if " " in key
        or _named(key, phrases)
        or not any(_overlaps(key, p) and 2 * counts[p] >= counts[key] for p in multiword)
    ]
    # a phrase nearly always followed by the same word is part of a longer one: "user-
    # defined type" of "user-defined type guard"
    longer: Counter[str] = Counter()
    for key, n in counts.items():
        words = key.split()
        if len(words) > 2:
            longer[" ".join(words[:-1])] = max(longer[" ".join(words[:-1])], n)
    candidates = [(s, k) for s, k in candidates if " " not in k or 5 * longer[k] < 4 * counts[k]]
    candidates.sort(key=lambda c: (-c[0], c[1]))
    kept: list[str] = []
    for _score, key in candidates:
        if len(kept) >= limit:
            break
        # "merge tree" under "log-structured merge tree", or the other way round; a
        # name is its own thing beside a phrase it starts ("mypy", "mypy plugin")
        if not _named(key, phrases) and any(
            _overlaps(key, other) for other in kept if not _named(other, phrases)
        ):
            continue
        kept.append(key)
    return kept


def _named(key: str, phrases: _Phrases) -> bool:
    """ "mypy", "pyright": a word no dictionary has, that never takes an article and is
    seldom a verb ("to annotate"), is the name of a tool or a project written in lower
    case, not an idea."""
    return (
        key.isalnum()
        # "encapsulating", "narrowed": verbs; "nonsensical", "positional": adjectives
        and not key.endswith(("ing", "ed", "al", "ic", "ive", "ous", "able", "ible", "less", "ful"))
        and not phrases.with_determiner[key]
        and 5 * phrases.as_verb[key] <= phrases.counts[key]
        and not english_word(key)
    )


def _concept_score(
    key: str, phrases: _Phrases, entity_words: set[str], min_count: int = 2
) -> float | None:
    """How strongly the phrase ``key`` reads as a concept, or None: it is none."""
    count = phrases.counts[key]
    words = key.split()
    if not phrases.found_in[key] or words[-1].endswith(("ly", "ed")) or words[-1] in STOPWORDS:
        return None
    # "applies columnar compression", "workload exercises downsampling": a word in -s
    # before the head is a verb, not a modifier
    if any(re.search(r"[^su]s$", w) and "-" not in w for w in words[:-1]):
        return None
    if set(words) <= entity_words:
        return None
    # "additional keyword", "valid type", "callable contains", "encourage libraries": a
    # qualifier or a verb makes a clause, not a name for a kind of thing
    heads = {form.split()[-1] for form in phrases.forms[key]}
    if words[0] in QUALIFIERS or words[0] in VERBS or heads & VERBS:
        return None
    if len(words) == 1:
        # a single word is a concept when no dictionary has it ("metaclass", "codebook",
        # "mypy"), or when a heading names it and it is no everyday word ("Filtering"):
        # "function", "parameter" or "performance" name no particular thing
        if key in GENERIC_NOUNS or common_word(key) or len(key) < 4:
            return None
        if 5 * phrases.as_verb[key] > count:  # "to annotate"
            return None
        if key in english_words():
            if key not in phrases.in_heading or count < 2:
                return None
        elif count < 2 or (
            count < 3
            and not _named(key, phrases)
            and not (_NOUNISH_RE.search(key) and len(key) > 6)
        ):
            return None
    else:
        # once, unless it reads as a term; in a long source, more than a few times
        seen_little = count < 2 and not _term_like(words)
        if seen_little or (count < min_count and key not in phrases.in_heading):
            return None
    # a phrase beats a single word seen as often: "storage engine" over "storage";
    # a phrase seen once comes after every repeated one
    score = count * (0.6 if len(words) == 1 else 1 + 0.6 * (len(words) - 1))
    return score * 0.5 if count < 2 else score


_NOUNISH_RE = re.compile(r"(ing|tion|sion|ment|ance|ence|ity|ism|ness|ogy|ics)$")


def _term_like(words: list[str]) -> bool:
    """A phrase seen once that still reads as a technical term: "delta-of-delta encoding",
    "columnar compression" (a hyphenated word, or a noun-suffixed head)."""
    head = words[-1]
    return any("-" in w and len(w) > 6 for w in words) or bool(
        re.search(r"(tion|sion|ment|ance|ence|ity|ism|ogy|ing)$", head) and len(head) > 7
    )


_ARTICLES = frozenset({"the", "a", "an"})
_MODULE_WORDS = frozenset({"module", "package", "library"})
_MODALS = frozenset({"can", "cannot", "may", "might", "must", "should", "will", "would", "could"})
_OBJECT_WORDS = frozenset({"the", "a", "an", "this", "that", "these", "it", "them", "its", "their"})


def _content_runs(sentence: Sentence, names: set[str]) -> list[tuple[list[str], bool]]:
    """Runs of lowercase content words, broken by stopwords, names, numbers and punctuation,
    each with whether a determiner ("the", "a", "each") stands right before it.

    A sentence's capitalised first word counts as a content word unless it is part of a
    name ("Compaction merges..." but not "Tidewater compacts..."). A last word in -s that
    an article follows is a verb and left out ("the metaclass builds the class")."""
    runs: list[tuple[list[str], bool]] = []
    current: list[str] = []
    determined = False
    text = sentence.text
    prev_end = None
    prev_word = ""
    for idx, (tok, start, end) in enumerate(sentence.tokens):
        word = tok.lower()
        gap = text[prev_end:start] if prev_end is not None else ""
        prev_end = end
        first_capital = idx == 0 and tok[:1].isupper() and not tok.isupper()
        usable = (
            (tok[:1].islower() or (first_capital and word not in names))
            and word not in STOPWORDS
            and len(word) > 2
            and not word[:1].isdigit()
            and not word.endswith(("'s", "’s"))  # "the function's return type"
        )
        if gap.strip() or not usable:
            # "the callable contains a default": a word in -s that an article follows is
            # a verb, not the head of the phrase before it
            verb = len(current) > 1 and re.search(r"[^su]s$", current[-1])
            if verb and word in _ARTICLES and not gap.strip():
                current = current[:-1]
            if current:
                runs.append((current, determined))
            current = []
        if usable:
            if not current:
                determined = prev_word in DETERMINERS and not gap.strip()
            current.append(word)
        prev_word = word
    if current:
        runs.append((current, determined))
    return runs


def _overlaps(a: str, b: str) -> bool:
    """One phrase inside the other, or two words in a row in common (the same term
    cut two ways: "general key-value store", "key-value store wastes")."""
    if f" {a} " in f" {b} " or f" {b} " in f" {a} ":
        return True
    pairs_a = set(itertools.pairwise(a.split()))
    return bool(pairs_a & set(itertools.pairwise(b.split())))


def _concept_name(key: str, forms: Counter[str]) -> str:
    """The singular when the source uses it at all, else its most used form."""
    return key if key in forms else max(forms, key=lambda f: (forms[f], -len(f), f))


def _concept_description(name: str, positions: list[int], sentences: list[Sentence]) -> str:
    pattern = re.compile(rf"\b{re.escape(name)}\w*\s+(?:is|are|was|were|means)\s", re.IGNORECASE)
    for pos in positions:
        if pattern.search(sentences[pos].text):
            return sentences[pos].text[:MAX_DESCRIPTION]
    return sentences[positions[0]].text[:MAX_DESCRIPTION] if positions else ""


def fold_acronyms(
    entities: list[PlannedPage], concepts: list[PlannedPage], where: dict[str, set[int]]
) -> list[PlannedPage]:
    """ "retrieval-augmented generation (RAG)": the acronym is the concept's, not an entity.

    An all-capitals entity whose letters are the initials of exactly one concept's words
    (split at spaces and hyphens) becomes that concept's alias, with its evidence.
    """
    kept = []
    for entity in entities:
        letters = entity.name.removesuffix("s").lower()  # "LLMs"
        fits = []
        if ACRONYM_RE.fullmatch(entity.name):
            fits = [
                c
                for c in concepts
                if "".join(w[0] for w in re.split(r"[\s-]+", c.name) if w) == letters
            ]
        if len(fits) != 1:
            kept.append(entity)
            continue
        absorb(fits[0], entity, where)
    return kept + concepts


__all__ = ["find_concepts", "fold_acronyms", "phrase_min_count"]
