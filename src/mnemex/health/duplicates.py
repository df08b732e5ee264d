"""Duplicate pages: name variants, one thing under two types, copies, near-duplicates by meaning.

Five sources, merged into one ranked, capped list of pairs, each explained:

- **names**: entity and concept pages of one domain whose file names, titles or
  aliases are equal once case, hyphens, plurals and honorifics are ignored;
  an entity and a concept under one name are "one thing under two types".
- **vectors**: each page's mean chunk vector (the index's, no model run),
  compared by cosine similarity in blocks of a matrix product, the top few per
  page above ``[health] duplicate_threshold``; never a Python loop over pairs.
  Each candidate is then judged by what tells the two pages apart
  (:mod:`mnemex.health.distinct`): opposite qualifiers in the names, sentences
  both pages only quote.
- **ingestion**: the grey-zone pairs ingestion recorded in ``health/``.
- **note names**: a person's own notes (outside ``wiki/``) whose file names
  slugify alike, accents and case aside (``Sync changes.md``, ``sync-changes.md``,
  ``Café.md``, ``cafe.md``); in two different
  folders only when their texts are also :data:`NAME_TEXT_FLOOR` alike, since
  a ``Tasks.md`` per project or a daily and a meeting note named by one date
  are different notes.
- **text**: two pages, at least one of them a person's note or a summary
  (two entity or concept pages are left to the vectors, which tell a quote
  from a copy), whose own text, once the lines three or more notes share are
  left out, is 90% the same (:mod:`mnemex.health.copies`). Memories, working state and facts
  are not compared: they are mnemex's records of sessions and decisions,
  restating one another by design, and ``remember`` refuses a text already
  remembered.

Pages that only share a name are kept apart on purpose (vault format §4): two
entities with different ``entity_type`` are never reported as duplicates.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import numpy as np
import numpy.typing as npt

from mnemex.health.copies import OwnTexts, find_copies, line_words, similarity
from mnemex.health.distinct import PageTexts, judge_pair
from mnemex.health.ids import Issue
from mnemex.health.names import name_keys, why_same
from mnemex.health.records import possible_duplicates
from mnemex.health.scan import ScanContext, is_knowledge, is_page, register_checker
from mnemex.health.view import CheckedNote, content_rows, mean_vectors
from mnemex.vault.layout import slug_key

#: How many nearest pages per page the vector check considers.
TOP_K = 3
#: Rows per matrix product: 2,048 x 10,000 float32 is an 80 MB block.
BLOCK = 2048
#: A name shared by more pages than this is a common word, not a duplicate.
MAX_GROUP = 6
#: Notes named alike in two folders are duplicates only when this much of their text is alike.
NAME_TEXT_FLOOR = 0.5


def _kept_apart(a: CheckedNote, b: CheckedNote) -> bool:
    """Things that only share a name: different entity types, or different domains."""
    if a.domain != b.domain:
        return True
    ta, tb = a.frontmatter.get("entity_type"), b.frontmatter.get("entity_type")
    return bool(ta and tb and str(ta).lower() != str(tb).lower())


def _pair_issue(a: CheckedNote, b: CheckedNote, detail: str, score: float, how: str) -> Issue:
    files = sorted([a.path, b.path])
    return Issue(
        "duplicates",
        files,
        detail,
        suggestion="merge them: fixing this issue keeps the page more linked to, moves every "
        "link to it and keeps the other's names and content in it",
        score=score,
        data={"found_by": [how]},
    )


def _names(note: CheckedNote) -> list[tuple[str, bool]]:
    """``(name, is it the page's own)``: the file name and title are; aliases are not."""
    return [(note.stem, True), (note.title, True), *((a, False) for a in note.aliases)]


def name_pairs(ctx: ScanContext) -> list[Issue]:
    """Pages whose names are equal under :func:`name_key`."""
    # key -> path -> (the name, whether it is the page's own name rather than an alias)
    groups: dict[str, dict[str, tuple[str, bool]]] = defaultdict(dict)
    for note in ctx.view.notes.values():
        if not is_knowledge(note):
            continue
        for name, own in _names(note):
            for key in name_keys(name):
                seen = groups[key].get(note.path)
                if seen is None or (own and not seen[1]):
                    groups[key][note.path] = (name, own)
    notes = ctx.view.notes
    found: dict[tuple[str, str], Issue] = {}
    for members in groups.values():
        if len(members) < 2 or len(members) > MAX_GROUP:
            continue
        for pa, pb in combinations(sorted(members), 2):
            a, b = notes[pa], notes[pb]
            (na, own_a), (nb, own_b) = members[pa], members[pb]
            # two aliases alike (two people called "Ada") is not one page named twice
            if _kept_apart(a, b) or (pa, pb) in found or not (own_a or own_b):
                continue
            if a.folder != b.folder:
                detail = (
                    f"one thing under two types: {a.folder} {na!r} and {b.folder} {nb!r} "
                    f"({why_same(na, nb)})"
                )
            elif na == nb:
                detail = f"both are named {na!r}"
            else:
                detail = f"names {na!r} and {nb!r} {why_same(na, nb)}"
            found[(pa, pb)] = _pair_issue(a, b, detail, 1.0, "names")
    return list(found.values())


def _folder(note: CheckedNote) -> str:
    return note.path.rpartition("/")[0] or "the vault's top folder"


def _words(ctx: ScanContext, note: CheckedNote) -> list[str]:
    text = ctx.body(note.path)
    return [w for line in line_words(text) for w in line] if text is not None else []


def note_name_pairs(ctx: ScanContext) -> list[Issue]:
    """A person's notes whose file names slugify alike (accents and case aside): in one
    folder always, in two folders when their texts are also :data:`NAME_TEXT_FLOOR` alike."""
    groups: dict[str, list[CheckedNote]] = defaultdict(list)
    for note in ctx.view.notes.values():
        if note.kind == "notes" and is_page(note):
            groups[slug_key(note.stem)].append(note)
    issues = []
    for slug, members in sorted(groups.items()):
        if len(members) < 2 or len(members) > MAX_GROUP:
            continue
        for a, b in combinations(sorted(members, key=lambda n: n.path), 2):
            names = f"{a.stem!r} and {b.stem!r}" if a.stem != b.stem else f"both {a.stem!r}"
            if _folder(a) == _folder(b):
                detail = f"one note under two names: {names} (both {slug!r} as a slug)"
            else:
                ratio = similarity(_words(ctx, a), _words(ctx, b), NAME_TEXT_FLOOR)
                if ratio < NAME_TEXT_FLOOR:
                    continue
                detail = (
                    f"one note in two folders: {names} (both {slug!r} as a slug) in "
                    f"{_folder(a)} and {_folder(b)}, {ratio:.0%} of their text alike"
                )
            issues.append(_pair_issue(a, b, detail, 1.0, "names"))
    return issues


def text_pairs(ctx: ScanContext) -> list[Issue]:
    """Pages whose own texts are copies (:mod:`mnemex.health.copies`), whatever their names."""
    pages = {n.path: n for n in ctx.view.notes.values() if is_page(n)}
    lines = {}
    for path in sorted(pages):
        text = ctx.body(path)
        if text is not None:
            lines[path] = line_words(text)
    own = OwnTexts.of(lines)
    issues = []
    for copy in find_copies(own, lines):
        a, b = pages[copy.a], pages[copy.b]
        # two entity/concept pages are the vector check's: it knows a sentence both quote
        # from one source (distinct.py) from a copy, and word overlap does not
        if is_knowledge(a) and is_knowledge(b):
            continue
        detail = f"{copy.ratio:.0%} of their text is the same"
        if own.shared_lines[a.path] or own.shared_lines[b.path]:
            detail += " once the lines three or more notes share (a template's) are left out"
        issues.append(_pair_issue(a, b, detail, copy.ratio, "text"))
    return issues


def _candidates(matrix: npt.NDArray[np.float32], threshold: float) -> dict[tuple[int, int], float]:
    """Row pairs among each row's :data:`TOP_K` most similar at or above ``threshold``."""
    k = min(TOP_K + 1, len(matrix))
    pairs: dict[tuple[int, int], float] = {}
    for start in range(0, len(matrix), BLOCK):
        sims = matrix[start : start + BLOCK] @ matrix.T
        rows = np.arange(sims.shape[0])
        sims[rows, rows + start] = -1.0  # a page is not its own duplicate
        top = np.argpartition(sims, -k, axis=1)[:, -k:]  # the k most similar, unordered
        best = sims[rows[:, None], top]
        hit_rows, hit_cols = np.nonzero(best >= threshold)
        for r, c in zip(hit_rows.tolist(), hit_cols.tolist(), strict=True):
            i, j = start + r, int(top[r, c])
            key = (min(i, j), max(i, j))
            pairs[key] = max(pairs.get(key, 0.0), float(best[r, c]))
    return pairs


def vector_pairs(ctx: ScanContext) -> list[Issue]:
    """Near-duplicates by meaning: cosine similarity of mean page vectors, blockwise top-k,
    each candidate then checked by what tells the two pages apart (:func:`judge_pair`)."""
    if not ctx.semantic or not ctx.embedder:
        return []
    pages = {n.id: n for n in ctx.view.notes.values() if is_knowledge(n)}
    if len(pages) < 2:
        return []
    rows = content_rows(ctx.backend, ctx.embedder, set(pages))
    ids, matrix = mean_vectors(rows)
    if len(ids) < 2:
        return []
    threshold = ctx.settings.duplicate_threshold
    candidates = {
        (int(ids[i]), int(ids[j])): score
        for (i, j), score in _candidates(matrix, threshold).items()
        if not _kept_apart(pages[int(ids[i])], pages[int(ids[j])])
    }
    texts = PageTexts(ctx.backend, rows, {n for pair in candidates for n in pair})
    issues = []
    for (i, j), score in sorted(candidates.items(), key=lambda kv: -kv[1]):
        a, b = pages[i], pages[j]
        judged = judge_pair(a, b, score, threshold, texts)
        if judged is not None:
            issues.append(_pair_issue(a, b, judged[1], judged[0], "vectors"))
    return issues


def recorded_pairs(ctx: ScanContext) -> list[Issue]:
    """The pairs ingestion recorded, while both pages still exist."""
    notes = ctx.view.notes
    issues = []
    for item in possible_duplicates(ctx.vault):
        a, b = notes.get(item["a"]), notes.get(item["b"])
        if a is None or b is None or a.path == b.path:
            continue
        try:
            score = float(item.get("score") or 0.0)
        except (TypeError, ValueError):
            score = 0.0
        reason = str(item.get("reason") or "similar names or content")[:200]
        source = item.get("source")
        detail = f"ingestion found them alike: {reason}" + (
            f" (while ingesting {source})" if isinstance(source, str) else ""
        )
        issues.append(_pair_issue(a, b, detail, score, "ingestion"))
    return issues


@register_checker("duplicates", "pairs")
def duplicates(ctx: ScanContext) -> list[Issue]:
    """Every pair the five sources found, merged per pair, ranked, capped."""
    merged: dict[str, Issue] = {}
    found = [
        *name_pairs(ctx),
        *note_name_pairs(ctx),
        *recorded_pairs(ctx),
        *vector_pairs(ctx),
        *text_pairs(ctx),
    ]
    for issue in found:
        seen = merged.get(issue.id)
        if seen is None:
            merged[issue.id] = issue
            continue
        seen.data["found_by"] = sorted(set(seen.data["found_by"]) | set(issue.data["found_by"]))
        if issue.detail not in seen.detail:
            seen.detail += f"; {issue.detail}"
        seen.score = max(seen.score or 0.0, issue.score or 0.0)
    ranked = sorted(merged.values(), key=lambda i: (-(i.score or 0.0), i.files))
    return ranked[: ctx.settings.max_duplicates]


__all__ = [
    "NAME_TEXT_FLOOR",
    "duplicates",
    "name_pairs",
    "note_name_pairs",
    "recorded_pairs",
    "text_pairs",
    "vector_pairs",
]
