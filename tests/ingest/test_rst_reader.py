"""reStructuredText sources: structure understood, code kept out of prose, nothing lost."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest_support import git_vault
from mnemex.cli import cli
from mnemex.ingest import rst
from mnemex.ingest.extract import extract_offline
from mnemex.ingest.readers import (
    ReadFailure,
    SourceReadError,
    read_bytes,
    read_source,
    read_sources,
)
from mnemex.ingest.records import SourceDoc

PEP_484 = Path("/work/shared/data/peps-typing/pep-0484.rst")


def read(text: str, path: str = "doc.rst") -> SourceDoc:
    return read_bytes(text.encode("utf-8"), path=path, format="rst")


def prose(doc: SourceDoc) -> str:
    """The text the extractor may read as sentences: fenced blocks out."""
    return re.sub(r"^(```|~~~).*?^\1$", "", doc.text, flags=re.M | re.S)


def test_sections_keep_their_titles_and_levels_overlined_or_not() -> None:
    doc = read(
        "==============\n Kestrel guide\n==============\n\nIntro paragraph here.\n\n"
        "Storage\n=======\n\nSegments hold points.\n\n"
        "Compaction\n----------\n\nMerges run at night.\n"
    )
    assert doc.format == "rst"
    assert doc.title == "Kestrel guide"
    lines = doc.text.splitlines()
    assert "# Kestrel guide" in lines
    assert "## Storage" in lines
    assert "### Compaction" in lines
    assert "Merges run at night." in lines


def test_paragraph_lines_join_and_lists_become_items() -> None:
    doc = read(
        "Title\n=====\n\nA paragraph that is\nwrapped over lines.\n\n"
        "- first item\n- second item\n\n  - nested item\n\n#. one\n#. two\n\n"
        "term\n   Its definition.\n"
    )
    assert "A paragraph that is wrapped over lines." in doc.text
    assert "- first item\n- second item" in doc.text
    assert "  - nested item" in doc.text
    assert "1. one\n2. two" in doc.text
    assert "- term: Its definition." in doc.text


def test_roles_and_links_are_reduced_to_their_text() -> None:
    doc = read(
        "See :pep:`484` and :pep:`PEP 8 <8>` for :class:`Foo`, :func:`~pkg.mod.run`,\n"
        ":ref:`the guide <guide-label>`, `the site <https://example.org>`_, the\n"
        "``literal`` and :rfc:`2822`.\n"
    )
    assert doc.text.strip() == (
        "See PEP 484 and PEP 8 for `Foo`, `run`, the guide, the site, the `literal` and RFC 2822."
    )


def test_an_unknown_role_degrades_to_its_text() -> None:
    doc = read("The :frobnicate:`Widget Engine` and :madeup:`shown <hidden>` both count.\n")
    assert doc.text.strip() == "The Widget Engine and shown both count."
    assert not doc.warnings


def test_literal_blocks_and_code_directives_stay_out_of_prose() -> None:
    doc = read(
        "Usage\n=====\n\nCall it like this::\n\n    SecretWidgetFactory.build(NightOwlConfig)\n\n"
        ".. code-block:: python\n\n    HiddenGadgetRegistry.load()\n\n"
        ".. doctest::\n\n    >>> ObscureTokenMaker()\n\n"
        ">>> DoctestOnlyName()\n\n"
        "The Kestrel database stores time series. Kestrel compacts segments at night.\n"
    )
    assert "Call it like this:" in doc.text
    for name in ("SecretWidgetFactory", "HiddenGadgetRegistry", "ObscureTokenMaker"):
        assert name in doc.text  # kept in the source text...
        assert name not in prose(doc)  # ...as a fenced block
    extraction = extract_offline(doc)
    said = " ".join(extraction.summary + extraction.key_points)
    names = " ".join(p.name for p in extraction.pages)
    for name in ("SecretWidget", "HiddenGadget", "ObscureToken", "DoctestOnly", "NightOwl"):
        assert name not in said
        assert name not in names


def test_known_directives_keep_their_text() -> None:
    doc = read(
        ".. note:: Notes are kept.\n\n.. warning::\n\n   Warnings are kept too.\n\n"
        ".. seealso:: The reference manual.\n\n"
        ".. versionadded:: 3.5\n   Added in this release.\n\n"
        ".. deprecated:: 3.9\n\n   Use the new API instead.\n"
    )
    for text in (
        "Notes are kept.",
        "Warnings are kept too.",
        "The reference manual.",
        "Added in this release.",
        "Use the new API instead.",
    ):
        assert text in doc.text
    assert ".." not in doc.text


def test_an_unknown_directive_degrades_to_its_argument_and_body() -> None:
    doc = read(
        ".. sidebar-thing:: A heading argument\n   :width: 30\n   :class: wide\n\n"
        "   The body with *emphasis* and :class:`Foo`.\n\n"
        "   .. another-unknown::\n\n      Nested body text.\n\nAfter it.\n"
    )
    assert "A heading argument" in doc.text
    assert "The body with emphasis and `Foo`." in doc.text
    assert "Nested body text." in doc.text
    assert "After it." in doc.text
    assert "width" not in doc.text
    assert ".." not in doc.text


def test_comments_targets_and_substitution_definitions_are_dropped() -> None:
    doc = read(
        ".. This is a comment about InternalCodename.\n   It goes on.\n\n"
        ".. _a-target: https://example.org\n\n.. |sub| replace:: text\n\n"
        "..\n   An empty-first-line comment.\n\nVisible text.\n"
    )
    assert doc.text.strip() == "Visible text."


def test_the_pep_header_is_metadata_not_prose() -> None:
    doc = read(
        "PEP: 9999\nTitle: Allow ``X | Y`` in the Kestrel API\n"
        "Author: Priya Raman <priya@example.org>,\n        Tomas Berg <tomas at example.com>\n"
        "Status: Draft\nCreated: 29-Sep-2014\nPost-History: 01-Oct-2014\n\n"
        "Abstract\n========\n\nThis PEP proposes a union operator.\n"
    )
    assert doc.title == "Allow X | Y in the Kestrel API"
    assert doc.author == "Priya Raman, Tomas Berg"
    assert doc.date == "2014-09-29"
    assert doc.text.splitlines()[0] == "# Abstract"
    for field in ("PEP:", "Status", "Draft", "Post-History", "example.org"):
        assert field not in doc.text


def test_a_paragraph_that_opens_with_a_label_is_not_a_header() -> None:
    doc = read("Note: this is the first paragraph.\n\nAnd another.\n")
    assert "Note: this is the first paragraph." in doc.text


def test_a_leading_field_list_is_bibliographic_metadata() -> None:
    doc = read(
        "Release notes\n=============\n\n:Author: Lena Vogt\n:Date: 2023-02-01\n\n"
        "Kestrel 2 ships today.\n\nOptions\n-------\n\n:retries: how often to try\n"
    )
    assert doc.author == "Lena Vogt"
    assert doc.date == "2023-02-01"
    assert "Lena Vogt" not in doc.text
    assert "- retries: how often to try" in doc.text  # a later field list is content


@pytest.mark.parametrize(
    "text",
    [
        "Bad *emphasis and `unclosed role and ``literal\n",
        "Title\n=====\n\nSub\n---\n\nOther\n=====\n\nDeep\n~~~~\n\nBack\n----\n\nbroken\n~~\n",
        "+-----+----\n| a | b\n+--+\n\nText after the table.\n",
        "+-----+-----+\n| a   | b   |\n+-----+\n\nText after the table.\n",
        ".. code-block::\n\n.. note::\n\n:field without end\n\n.. |x| image::\n",
        "- item\n continued badly\n  * mixed\n\n   over-indented quote\n",
        "Title\n=====\n" + "    indented\n" * 3 + "\n" + "x" * 20_000 + "\n",
    ],
)
def test_malformed_rst_never_raises_or_prints_and_keeps_its_text(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = read(text)
    out, err = capsys.readouterr()
    assert out == err == ""
    words = set(re.findall(r"[a-z]{4,}", text)) - {"code", "block", "note", "image", "field"}
    kept = set(re.findall(r"[a-z]{4,}", doc.text))
    assert words <= kept


def test_markup_errors_come_back_as_one_warning() -> None:
    doc = read("+-----+-----+\n| a   | b   |\n+-----+\n\nText after the table.\n")
    [warning] = doc.warnings
    assert warning.startswith(
        "doc.rst: 1 reStructuredText markup error(s), the first at line 3: Malformed table"
    )  # docutils 0.23 adds why; older ones do not
    assert warning.endswith("; their text was kept")
    assert "| a   | b   |" in doc.text  # kept, as a block
    assert "| a   | b   |" not in prose(doc)
    assert "Text after the table." in prose(doc)


def test_include_and_raw_read_no_file_and_no_markup(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRETVALUE\n", encoding="utf-8")
    doc = read(
        f".. include:: {secret}\n\n.. literalinclude:: {secret}\n\n"
        f".. csv-table::\n   :file: {secret}\n\n.. raw:: html\n\n   <b>RAWMARKUP</b>\n\nBody.\n"
    )
    assert "TOPSECRETVALUE" not in doc.text
    assert "RAWMARKUP" not in doc.text
    assert str(secret) not in doc.text
    assert "Body." in doc.text


def test_a_docutils_failure_is_a_source_read_error_and_the_batch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.rst").write_text("Fine.\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("Also fine.\n", encoding="utf-8")

    def broken(text: str, path: str) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(rst, "_parse", broken)
    with pytest.raises(SourceReadError, match=r"a\.rst: cannot read it as reStructuredText"):
        read_source(tmp_path / "a.rst")
    items = list(read_sources(tmp_path))
    assert isinstance(items[0], ReadFailure)
    assert "RecursionError" in items[0].reason
    assert isinstance(items[1], SourceDoc)


def test_a_folder_walk_reads_rst_files(tmp_path: Path) -> None:
    (tmp_path / "guide.rst").write_text("Guide\n=====\n\nText.\n", encoding="utf-8")
    (tmp_path / "notes.rest").write_text("More text.\n", encoding="utf-8")
    found = [d for d in read_sources(tmp_path) if isinstance(d, SourceDoc)]
    assert [(d.format, d.title) for d in found] == [("rst", "Guide"), ("rst", "Notes")]


@pytest.mark.skipif(not PEP_484.is_file(), reason="the PEP corpus is not on this machine")
def test_pep_484_reads_as_a_structured_source() -> None:
    doc = read_source(PEP_484)
    assert doc.title == "Type Hints"
    assert doc.author is not None
    assert doc.author.startswith("Guido van Rossum")
    assert doc.date == "2014-09-29"
    assert not doc.warnings
    assert "# Abstract" in doc.text.splitlines()
    assert not re.search(r"^\.\. |:[a-z]+:`", doc.text, re.M)  # no directive or role left
    assert "PEP: 484" not in doc.text
    extraction = extract_offline(doc)
    code = re.findall(r"^(?:```|~~~)\n(.*?)^(?:```|~~~)$", doc.text, re.M | re.S)
    code_lines = {ln.strip() for block in code for ln in block.splitlines() if len(ln) > 12}
    assert code_lines  # the PEP has its examples...
    for sentence in extraction.summary + extraction.key_points:
        assert not any(line in sentence for line in code_lines)  # ...and none is summarised
        assert "def " not in sentence


def test_mnemex_ingest_of_an_rst_file_makes_pages(tmp_path: Path) -> None:
    root = git_vault(tmp_path / "vault")
    source = tmp_path / "kestrel.rst"
    source.write_text(
        "PEP: 9001\nTitle: Kestrel Storage\nAuthor: Priya Raman <p@example.org>\n"
        "Created: 01-Feb-2023\n\nAbstract\n========\n\n"
        + "Priya Raman designed the Kestrel storage engine at Northgate University. "
        "The Kestrel storage engine keeps time series in compressed segments. "
        "Segment compaction merges small segments into larger ones every night. "
        * 3
        + "\n\nExample::\n\n    HiddenGadgetRegistry.load()\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli, ["--vault", str(root), "ingest", str(source)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert re.search(
        r"\d+ created, 0 updated, 0 deleted, 0 unchanged, 0 skipped, 0 refused, 0 failed",
        result.output,
    )
    summaries = list((root / "wiki" / "general" / "summaries").glob("*.md"))
    assert [p.name for p in summaries] == ["kestrel-storage.md"]
    assert "author: Priya Raman" in summaries[0].read_text(encoding="utf-8")
    assert (root / "wiki" / "general" / "sources" / "kestrel-storage.rst").is_file()
    pages = {p.stem for p in (root / "wiki" / "general").glob("*/*.md")}
    assert not any("hidden" in page for page in pages)
