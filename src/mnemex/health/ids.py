"""Issues and their stable ids (vault format §9).

An id is ``<kind>-<first 12 hex of sha256("<kind>\\n<sorted files>\\n<key>")>``: it
depends only on what the problem is (its kind, the files involved and, for a
broken link, the target as written), never on when or where it was found, so
the same problem keeps its id across scans and machines and can be fixed or
dismissed by it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

#: Every kind a scan reports, in the order reports list them.
Kind = Literal[
    "broken_links",
    "loose_links",
    "broken_anchors",
    "orphans",
    "duplicates",
    "stale",
    "missing_backlinks",
    "broken_frontmatter",
    "empty_pages",
    "index_drift",
    "stale_facts",
    "disputed_facts",
]
KINDS: tuple[str, ...] = get_args(Kind)

_ID_RE = re.compile(r"^(?P<kind>[a-z_]+)-[0-9a-f]{12}$")


def issue_id(kind: str, files: Iterable[str], key: str = "") -> str:
    """The stable id of the problem ``kind`` in ``files`` (``key`` tells two apart)."""
    text = f"{kind}\n" + "\n".join(sorted(files)) + f"\n{key}"
    return f"{kind}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}"


def kind_of(issue_id_text: str) -> str | None:
    """The kind an id names, or None when the text is not an issue id."""
    m = _ID_RE.match(issue_id_text.strip())
    if m is None or m.group("kind") not in KINDS:
        return None
    return m.group("kind")


@dataclass
class Issue:
    """One problem found by a scan."""

    kind: str
    files: list[str]
    detail: str
    #: tells two issues of one kind on the same files apart (vault format §9: the
    #: broken target for ``broken_links``, else empty)
    key: str = ""
    suggestion: str | None = None
    #: how sure the checker is (duplicates: the similarity), for ranking
    score: float | None = None
    #: machine-readable facts a fix needs (a link's target, the suggested page, ...)
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return issue_id(self.kind, self.files, self.key)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "files": sorted(self.files),
            "detail": self.detail,
        }
        if self.suggestion:
            out["suggestion"] = self.suggestion
        if self.score is not None:
            out["score"] = round(self.score, 3)
        if self.data:
            out["data"] = self.data
        return out


__all__ = ["KINDS", "Issue", "Kind", "issue_id", "kind_of"]
