"""Copies among notes: one text kept under two names, once the lines many notes share are set aside.

A person writes notes from templates (a daily note's header and sections, a
meeting's agenda), so two notes can share most of their lines and still be
about different days. A line (its words, lower-cased) that :data:`SHARED_BY`
or more notes carry is template, not content, and is left out of every note;
what remains is the note's own text. Two notes whose own words are at least
:data:`TEXT_THRESHOLD` alike (difflib's ratio over words) are copies.

Files with the same text (every line alike) count once, so three exact copies
of a note are still copies. The price of the rule: three or more copies of one
text that each differ a little share most of their lines, so little of their
own is left and the text check misses them (their names may still match).

A note with fewer than :data:`MIN_WORDS` own words (a daily note with only its
template and a date, a heading over a link) is too short to tell a copy from a
coincidence and is never a text duplicate: otherwise every empty note would be
a copy of every other.

Comparing every pair of 10,000 notes is 50 million difflib runs, so pairs are
found first by MinHash: each note's own words become word bigrams, hashed by
:data:`BANDS` x :data:`ROWS` functions into a signature; notes that agree on a
whole band of :data:`ROWS` values are candidates. A ratio of 0.9 leaves about
0.6 of two notes' bigrams in common (an edit touches two bigrams), and a pair
with Jaccard 0.55 becomes a candidate with probability 1 - (1 - 0.55³)²¹ ≈ 0.98.
Each candidate is then checked by its signatures' agreement, difflib's upper
bound (``quick_ratio``) and only then difflib's ratio.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np
import numpy.typing as npt

from mnemex.vault.markdown import split_frontmatter

#: Own texts at least this alike (difflib ratio over words) are copies.
TEXT_THRESHOLD = 0.9
#: A line carried by this many notes or more is a template's, not a note's own.
SHARED_BY = 3
#: Fewer own words than this (words with a letter: dates and numbers do not count) and a
#: note is too short to be called a copy by its text.
MIN_WORDS = 10
#: MinHash: a signature of BANDS x ROWS values; a pair agreeing on one whole band is a candidate.
BANDS = 21
ROWS = 3
#: A candidate whose signatures agree on less than this share is not checked further: a
#: ratio of 0.9 keeps bigram Jaccard near 0.6, and the estimate's error at 63 values is ~0.06.
MIN_AGREEMENT = 0.4
#: Notes sharing one band value beyond this many are left out of that band (a text found in
#: so many notes is boilerplate the line rule missed, not a copy).
MAX_BUCKET = 50

_WORD_RE = re.compile(r"\w+")
_LETTER_RE = re.compile(r"[^\W\d_]")
_SEED = 20261213  # fixed: the same vault gives the same candidates on every run


def line_words(text: str) -> list[list[str]]:
    """The body's non-empty lines as lower-case words (frontmatter and punctuation left out)."""
    _, body, _ = split_frontmatter(text)
    out = []
    for line in body.lower().splitlines():
        found = _WORD_RE.findall(line)
        if found:
            out.append(found)
    return out


@dataclass
class OwnTexts:
    """Each note's own words: its lines minus those :data:`SHARED_BY` or more distinct texts
    carry."""

    words: dict[str, list[str]]
    #: how many notes carried each left-out line at most, per note (for the report)
    shared_lines: dict[str, int]

    @classmethod
    def of(cls, lines: Mapping[str, list[list[str]]]) -> OwnTexts:
        keyed = {path: [" ".join(w) for w in found] for path, found in lines.items()}
        counts: Counter[str] = Counter()
        # one text in several files is counted once: three exact copies are not a template
        for keys in {tuple(keys) for keys in keyed.values()}:
            counts.update(set(keys))
        words: dict[str, list[str]] = {}
        shared: dict[str, int] = {}
        for path, found in lines.items():
            own: list[str] = []
            left_out = 0
            for key, line in zip(keyed[path], found, strict=True):
                if counts[key] >= SHARED_BY:
                    left_out += 1
                else:
                    own.extend(line)
            words[path] = own
            shared[path] = left_out
        return cls(words, shared)

    def long_enough(self, path: str) -> bool:
        count = 0
        for word in self.words[path]:
            if not word.isdecimal() and _LETTER_RE.search(word):
                count += 1
                if count >= MIN_WORDS:
                    return True
        return False


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser: spreads structured ids over all 64 bits."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def signatures(texts: list[list[str]]) -> npt.NDArray[np.uint32]:
    """One MinHash signature (BANDS x ROWS values) per text, over its word bigrams.

    A text of one word has that word as its only shingle; every text must have one.
    """
    if any(not words for words in texts):
        raise ValueError("an empty text has no MinHash signature")
    # word ids in order of first use: the same texts give the same ids on every run
    vocab = {w: i for i, w in enumerate(dict.fromkeys(w for words in texts for w in words))}
    parts: list[npt.NDArray[np.uint64]] = []
    for words in texts:
        ids = np.array(list(map(vocab.__getitem__, words)), dtype=np.uint64)
        parts.append(ids[:-1] * np.uint64(1 << 32) + ids[1:] if len(ids) > 1 else ids)
    sizes = np.array([len(p) for p in parts], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    with np.errstate(over="ignore"):
        shingles = _mix(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)
        rng = np.random.default_rng(_SEED)
        count = BANDS * ROWS
        mult = rng.integers(1, 2**63, size=count, dtype=np.uint64) | np.uint64(1)
        add = rng.integers(0, 2**63, size=count, dtype=np.uint64)
        out = np.empty((len(texts), count), dtype=np.uint32)
        for k in range(count):
            # multiply-shift: the top 32 bits of a*x + b (mod 2**64) as the k-th permutation
            hashed = (shingles * mult[k] + add[k]) >> np.uint64(32)
            out[:, k] = np.minimum.reduceat(hashed, starts).astype(np.uint32)
    return out


def candidate_pairs(sigs: npt.NDArray[np.uint32]) -> set[tuple[int, int]]:
    """Row pairs that agree on at least one whole band, and on :data:`MIN_AGREEMENT` overall."""
    found: set[tuple[int, int]] = set()
    if len(sigs) < 2:
        return found
    wide = sigs.astype(np.uint64)
    with np.errstate(over="ignore"):
        for band in range(BANDS):
            cols = wide[:, band * ROWS : (band + 1) * ROWS]
            keys = _mix(cols[:, 0] ^ _mix(cols[:, 1] ^ _mix(cols[:, 2])))
            order = np.argsort(keys, kind="stable")
            starts = np.flatnonzero(np.r_[True, np.diff(keys[order]) != 0])
            sizes = np.diff(np.r_[starts, len(order)])
            # only the buckets of two or more: looping over 10,000 singletons costs seconds
            kept = (sizes >= 2) & (sizes <= MAX_BUCKET)
            for start, size in zip(starts[kept].tolist(), sizes[kept].tolist(), strict=True):
                members = sorted(order[start : start + size].tolist())
                for i, a in enumerate(members):
                    found.update((a, b) for b in members[i + 1 :])
    return {(a, b) for a, b in found if float(np.mean(sigs[a] == sigs[b])) >= MIN_AGREEMENT}


def similarity(a: list[str], b: list[str], floor: float = 0.0) -> float:
    """difflib's ratio over words; 0.0 for two empty texts, and for any pair whose upper bound
    is below ``floor`` (the exact ratio is not worth computing)."""
    if not a or not b:
        return 0.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()


@dataclass(frozen=True)
class Copy:
    """Two notes whose own texts are :data:`TEXT_THRESHOLD` alike."""

    a: str
    b: str
    ratio: float


def find_copies(own: OwnTexts, paths: Iterable[str]) -> list[Copy]:
    """Pairs among ``paths`` (each long enough) whose own texts are copies, most alike first."""
    eligible = sorted(p for p in paths if own.long_enough(p))
    if len(eligible) < 2:
        return []
    sigs = signatures([own.words[p] for p in eligible])
    found = []
    for i, j in sorted(candidate_pairs(sigs)):
        a, b = eligible[i], eligible[j]
        ratio = similarity(own.words[a], own.words[b], TEXT_THRESHOLD)
        if ratio >= TEXT_THRESHOLD:
            found.append(Copy(a, b, ratio))
    return sorted(found, key=lambda c: (-c.ratio, c.a, c.b))


__all__ = [
    "MIN_WORDS",
    "SHARED_BY",
    "TEXT_THRESHOLD",
    "Copy",
    "OwnTexts",
    "candidate_pairs",
    "find_copies",
    "line_words",
    "signatures",
    "similarity",
]
