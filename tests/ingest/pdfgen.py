"""A minimal PDF writer with real text, for tests, the corpus and the benchmark.

pypdf can write pages but not lay out text, and reportlab is not a dependency. A PDF
with Helvetica text is small enough to write by hand: a catalog, a page tree, one
content stream per page (``BT /F1 11 Tf ... Tj ET``), an info dictionary and an xref
table with exact byte offsets.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

_LINES_PER_PAGE = 50
_WRAP = 90


def _pdf_string(text: str) -> bytes:
    """A PDF literal string in WinAnsi (latin-1 here), with its specials escaped."""
    safe = text.encode("latin-1", "replace")
    return b"(" + safe.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _content_stream(lines: Sequence[str]) -> bytes:
    parts = [b"BT /F1 11 Tf 13 TL 56 790 Td"]
    for line in lines:
        parts.append(_pdf_string(line) + b" Tj T*")
    parts.append(b"ET")
    return b"\n".join(parts)


def paginate(paragraphs: Sequence[str], lines_per_page: int = _LINES_PER_PAGE) -> list[list[str]]:
    """Wrap paragraphs into lines and cut the lines into pages (a blank line between)."""
    lines: list[str] = []
    for para in paragraphs:
        lines.extend(textwrap.wrap(para, _WRAP) or [""])
        lines.append("")
    return [lines[i : i + lines_per_page] for i in range(0, len(lines), lines_per_page)] or [[]]


def make_pdf(
    pages: Sequence[Sequence[str]],
    *,
    title: str | None = None,
    author: str | None = None,
    creation_date: str | None = None,  # "YYYYMMDD"
) -> bytes:
    """A valid PDF whose pages hold the given lines of text."""
    objects: list[bytes] = []  # object n is objects[n-1]
    n_pages = len(pages)
    font_id, first_page_id = 3, 4
    kids = " ".join(f"{first_page_id + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        content_id = first_page_id + 2 * i + 1
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {content_id} 0 R >>".encode()
        )
        stream = _content_stream(lines)
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    info = []
    if title:
        info.append(b"/Title " + _pdf_string(title))
    if author:
        info.append(b"/Author " + _pdf_string(author))
    if creation_date:
        info.append(b"/CreationDate " + _pdf_string(f"D:{creation_date}120000Z"))
    objects.append(b"<< " + b" ".join(info) + b" >>")
    info_id = len(objects)

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info_id} 0 R >>\n"
        f"startxref\n{xref_at}\n%%EOF\n"
    ).encode()
    return bytes(out)


def make_text_pdf(
    paragraphs: Sequence[str],
    *,
    title: str | None = None,
    author: str | None = None,
    creation_date: str | None = None,
) -> bytes:
    """A PDF of the paragraphs, wrapped and paginated."""
    return make_pdf(paginate(paragraphs), title=title, author=author, creation_date=creation_date)
