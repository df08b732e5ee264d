"""Relations: two pages named in one sentence of the source co-occur.

Each pair is counted; the most frequent pairs become the extraction's relations, and
each page's ``related`` lists the pages it co-occurs with most (five at most).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from mnemex.ingest.records import PlannedPage


def find_relations(
    pages: list[PlannedPage], where: dict[str, set[int]], *, limit: int
) -> list[tuple[str, str, str]]:
    """Pairs of pages named in the same sentence, most often first; fills ``related``."""
    at: dict[int, list[str]] = defaultdict(list)
    for page in pages:
        for pos in where.get(page.name, ()):
            at[pos].append(page.name)
    pairs: Counter[tuple[str, str]] = Counter()
    order = {p.name: i for i, p in enumerate(pages)}
    for names in at.values():
        unique = sorted(set(names), key=order.__getitem__)
        for x in range(len(unique)):
            for y in range(x + 1, len(unique)):
                pairs[(unique[x], unique[y])] += 1
    top = sorted(pairs.items(), key=lambda kv: (-kv[1], order[kv[0][0]], order[kv[0][1]]))
    related: dict[str, list[str]] = defaultdict(list)
    for (a, b), _count in top:
        if len(related[a]) < 5:
            related[a].append(b)
        if len(related[b]) < 5:
            related[b].append(a)
    for page in pages:
        page.related = related.get(page.name, [])
    return [(a, "co-occurs with", b) for (a, b), _count in top[:limit]]


__all__ = ["find_relations"]
