"""What a real document is about gets a page; what it only mentions does not (issue 15).

Snippets shaped like the typing PEPs and package READMEs the issue measures on: a PEP's
header, a construct named in code and in prose, an example's invented class, a tool
written in lower case, a badge, a feature list, a citation.
"""

from __future__ import annotations

from mnemex.ingest.extract import extract_offline
from mnemex.ingest.extract.code_names import example_names, imported_names, qualified_code_name
from mnemex.ingest.extract.words import common_word, english_word, fold
from mnemex.ingest.readers import read_bytes
from mnemex.ingest.records import Extraction, PlannedPage


def _extract(text: str, path: str = "doc.md", fmt: str = "markdown") -> Extraction:
    return extract_offline(read_bytes(text.encode(), path=path, format=fmt))


def _names(ex: Extraction) -> set[str]:
    return {p.name for p in ex.pages}


def _page(ex: Extraction, name: str) -> PlannedPage:
    found = [p for p in ex.pages if p.name == name]
    assert found, f"{name} not among {sorted(_names(ex))}"
    return found[0]


PEP = """PEP: 9999
Title: Frozen Records
Author: Ada Quill <ada@example.org>, Bruno Ferreira-Lind <bruno at example.com>
Sponsor: Guido van Rossum <guido@python.org>
Status: Draft
Created: 01-Jan-2024


Abstract
========

This PEP adds ``FrozenRecord`` to the ``typing`` module. A frozen record is a record
type whose fields cannot be assigned after creation.

Specification
=============

Type checkers such as mypy report an assignment to a field of a ``FrozenRecord``. The
reference implementation in mypy checks every ``FrozenRecord[int]`` subclass, and mypy
reports the error at the assignment. Pyright reports it as well, and pyright users see
the same message.

Example::

    from typing import FrozenRecord

    class Movie(FrozenRecord):
        title: str

A FrozenRecord may not define a mutable field.
"""


def test_the_people_a_pep_header_names_get_pages_however_seldom_the_text_names_them() -> None:
    ex = _extract(PEP, "pep-9999.rst", "rst")
    for name in ("Ada Quill", "Bruno Ferreira-Lind", "Guido van Rossum"):
        page = _page(ex, name)
        assert page.type == "person" and page.kind == "entity"
    assert _page(ex, "Ada Quill").description == "An author of Frozen Records."
    assert not any("@" in n or "example" in n for n in _names(ex))


def test_a_construct_named_in_code_and_prose_and_imported_is_one_page() -> None:
    ex = _extract(PEP, "pep-9999.rst", "rst")
    record = _page(ex, "FrozenRecord")
    assert record.kind == "entity" and record.mentions >= 4
    assert "Movie" not in _names(ex)  # the example's invented class


def test_a_tool_written_in_lower_case_is_a_name_not_an_idea() -> None:
    ex = _extract(PEP, "pep-9999.rst", "rst")
    assert _page(ex, "mypy").kind == "entity"
    pyright = [p for p in ex.pages if p.name.lower() == "pyright"]
    assert len(pyright) <= 1  # "Pyright" and "pyright" are one thing


def test_authors_from_markdown_frontmatter_are_people() -> None:
    text = "---\ntitle: Notes on storage\nauthor: Mira Okafor and Jun Tanaka\n---\n\n"
    text += "Storage engines keep data on disk. A storage engine decides the layout.\n"
    ex = _extract(text)
    assert {"Mira Okafor", "Jun Tanaka"} <= _names(ex)


def _long(body: str, times: int = 6) -> str:
    """A document long enough to name more things than it has room for."""
    return "# Notes\n\n" + "\n\n".join([body] * times) + "\n"


def test_everyday_words_and_clause_pieces_are_no_concepts() -> None:
    body = (
        "The function takes a parameter and returns a value to the module. "
        "An additional keyword changes the callable, and the callable contains a default. "
        "A metaclass builds the class, and a metaclass is a class of classes. "
        "Each valid type is checked at runtime by the type checker, and the type checker "
        "reports errors."
    )
    names = _names(_extract(_long(body)))
    assert {"metaclass", "type checker"} <= names
    assert not names & {"function", "parameter", "module", "runtime", "additional keyword"}
    assert not names & {"callable contain", "callable contains", "valid type"}


def test_section_references_feature_labels_badges_and_literals_are_no_names() -> None:
    text = """# widgetkit

[![Code Coverage](https://img.example/cov.svg)](https://cov.example/widgetkit)
<img src="logo.png" alt="logo">

widgetkit draws widgets. See Scoping Rules below for how widgetkit scopes them.

- **Low Resource Requirements**: widgetkit runs on small machines.
- **Text Splitting**: widgetkit splits text into widgets.

## Scoping Rules

Widgets are scoped to a window. Set `debug=False` to hide False positives in Tomlin, J. A.
"""
    names = _names(_extract(text))
    for noise in ("Code Coverage", "img src", "Scoping Rules", "Low Resource Requirements"):
        assert noise not in names
    assert not names & {"Text Splitting", "False", "J. A"}


def test_formats_are_names_and_units_are_not() -> None:
    text = (
        "Readers accept HTML and SQL dumps. HTML pages are parsed first, and SQL dumps "
        "after them. A dump of 5 KB or 40 KB is read whole."
    )
    names = _names(_extract(text))
    assert {"HTML", "SQL"} <= names and "KB" not in names


def test_a_name_mentioned_once_in_a_long_source_is_no_page_but_a_short_one_keeps_five() -> None:
    body = (
        "Structural subtyping matches a protocol class by its members. A protocol class "
        "has members, and structural subtyping checks them against a type checker. The "
        "type checker reads stub files, and stub files hold a forward reference or a "
        "type alias; a forward reference names a type alias."
    )
    first = "Anna Boris Carla Dmitri Elena Felix Greta Hugo Irene Jonas Karin Lukas"
    last = "Abbot Brandt Costa Dahl Engel Fischer Gruber Hahn Ivers Jansen Keller Lange"
    pairs = zip(first.split(" "), last.split(" "), strict=True)
    thanks = ", ".join(f"{a} {b}" for a, b in pairs)
    long_text = _long(body, 10) + f"\nThanks to {thanks}.\n"
    ex = _extract(long_text)
    assert all(p.mentions >= 2 for p in ex.pages), sorted(_names(ex))
    short = "Rhea Moss founded Tidewater in Lisbon. Tidewater sells Kestrel Cloud to Hollis."
    assert len(_extract(short).pages) >= 3


def test_a_plural_name_and_a_constructs_gloss_fold_into_its_page() -> None:
    body = (
        "A ``TypedDict`` maps keys to types. Two TypedDicts with the same keys are "
        "compatible. A ``Literal`` names a value. Each literal type narrows a value, "
        "and a literal type is written ``Literal[3]``."
    )
    ex = _extract(_long(body, 3))
    names = _names(ex)
    assert "TypedDict" in names and "TypedDicts" not in names
    assert "Literal" in names and "literal type" not in names
    assert "literal type" in _page(ex, "Literal").aliases


def test_code_names_read_through_subscripts_decorators_and_modules() -> None:
    assert qualified_code_name("TypeGuard[List[str]]") == ("TypeGuard", "TypeGuard")
    assert qualified_code_name("typing.get_type_hints()") == (
        "typing.get_type_hints",
        "get_type_hints",
    )
    assert qualified_code_name("@runtime_checkable") == ("runtime_checkable", "runtime_checkable")
    assert qualified_code_name("isinstance") == ("isinstance", "isinstance")
    assert qualified_code_name("TYPE_CHECKING") is not None
    for not_a_name in ("total", "self", "RED", "x", "True", "f(x", "A[B]C"):
        assert qualified_code_name(not_a_name) is None, not_a_name


def test_imports_and_invented_names_of_code_examples() -> None:
    text = (
        "```python\nfrom typing import Final, Literal as L\nfrom __future__ import annotations\n"
        "import asyncio, numpy as np\nfrom pkg import (\n    Alpha,\n    Beta,\n)\n\n"
        "class Movie(Alpha):\n    year: int = 1999\n\nBORDER_WIDTH = 3\nrun(total=False)\n"
        "def __init__(self): ...\n```\n"
    )
    assert imported_names(text) == {"Final", "Literal", "asyncio", "numpy", "Alpha", "Beta"}
    invented = example_names(text)
    assert {"Movie", "BORDER_WIDTH"} <= invented
    assert not invented & {"total", "__init__", "Alpha", "year"} - {"year"}


def test_english_and_coined_words() -> None:
    for word in ("runtime", "keyword", "checkers", "overridden", "unsoundness", "codebook"):
        assert english_word(word), word
    for word in ("mypy", "pyright", "asyncio", "lxml", "uvicorn"):
        assert not english_word(word), word
    assert common_word("function") and not common_word("metaclass")
    assert fold("matches") == "match" and fold("caches") == "cache"


def test_a_title_phrase_the_text_uses_is_the_subject() -> None:
    text = (
        "# Syntax for Variable Annotations\n\n"
        "Variable annotations give a variable a type. The parser stores variable "
        "annotations in a mapping, and a checker reads variable annotations later.\n"
    )
    ex = _extract(text)
    assert "variable annotations" in _names(ex) or "variable annotation" in _names(ex)


def test_a_possessive_parts_two_names_and_a_hyphenated_name_spells_its_acronym() -> None:
    text = (
        "Python's Unicode tables are large. Python ships them, and Unicode grows.\n\n"
        "Server-Sent Events (SSE) stream text. SSE works over HTTP, and SSE reconnects.\n"
    )
    names = _names(_extract(text))
    assert "Python Unicode" not in names
    assert "SSE" not in names and "Server-Sent Events" in names


def test_part_of_a_longer_phrase_and_verbs_are_no_pages() -> None:
    body = (
        "A user-defined type guard narrows a value. Each user-defined type guard returns a "
        "bool, and the checker uses the user-defined type guard to annotate a branch. "
        "Tools need to annotate code; we annotate calls. Rewritten code is checked."
    )
    names = _names(_extract(_long(body)))
    assert "user-defined type guard" in names
    assert not names & {"user-defined type", "annotate", "Rewritten"}
    assert qualified_code_name("globals") is None


def test_a_section_named_in_the_text_and_an_api_in_general_are_no_names() -> None:
    text = (
        "# Literal strings\n\nQueries are built from literals, as seen in the Motivation. "
        "Many APIs take a query, and every API checks it, as the Motivation shows.\n\n"
        "## Motivation\n\nInjection attacks reach a database through a query string.\n\n"
        "```\nclass Movie(dict): ...\nprint(type(Movie()))  # <class '__main__.Movie'>\n```\n\n"
        "A `Movie` is a dict, and a `Movie` has a title.\n"
    )
    names = _names(_extract(text))
    assert not names & {"Motivation", "API", "APIs", "Movie"}
    assert "Movie" in example_names(text)


def test_a_long_source_needs_a_phrase_many_times_or_in_a_heading() -> None:
    from mnemex.ingest.extract.concepts import phrase_min_count

    assert phrase_min_count(2_000) == 2 and phrase_min_count(90_000) == 8
    term = "A forward reference names a class defined later, and a forward reference is a string."
    ordinary = "The class body holds the fields."
    filler = " ".join(f"Paragraph {k} says something else about nothing much." for k in range(40))
    text = "# Notes\n\n" + "\n\n".join(
        [*(term for _ in range(8)), *(ordinary for _ in range(3)), *(filler for _ in range(8))]
    )
    text += "\n\n## Stub files\n\nStub files hold signatures.\n"
    names = _names(_extract(text))
    assert "forward reference" in names and "class body" not in names
    assert "stub files" in names or "stub file" in names


def test_a_module_is_one_page_however_it_is_written() -> None:
    text = (
        "# Notes\n\nThe ``typing`` module holds the constructs. The ``typing`` module is in the "
        "standard library, and the typing module grows each release.\n\n"
        "```\nimport typing\n```\n"
    )
    ex = _extract(text)
    modules = [p for p in ex.pages if "typing" in (p.name, *p.aliases)]
    assert [p.name for p in modules] == ["typing module"] and modules[0].kind == "entity"


def test_the_package_a_readme_installs_is_its_subject() -> None:
    text = (
        "# Charset Detection, for Everyone\n\nA library that reads text in any encoding.\n\n"
        "```sh\npip install charset-normalizer -U\n```\n\n"
        + " ".join(f"Encoding {k} is detected by coherence and mess." for k in range(30))
    )
    names = _names(_extract(text))
    assert "charset-normalizer" in names


def test_coined_adjectives_and_generic_packages_are_no_names() -> None:
    body = (
        "A nonsensical result appears when a nonsensical input meets the checker; "
        "nonsensical values are rejected. The runtime package loads, and the runtime "
        "package checks the regex package, which the regex package documents."
    )
    ex = _extract(_long(body))
    assert "nonsensical" not in _names(ex)
    assert _page(ex, "regex package").kind == "entity"
    assert _page(ex, "runtime package").kind == "concept"  # "runtime" names no module
    assert qualified_code_name("typeshed") is None  # "type" + "shed": words run together


def test_a_name_with_no_type_and_a_concept_of_that_name_are_one_page() -> None:
    from mnemex.ingest.resolve import NameEntry, NameTable, resolve_page

    table = NameTable([NameEntry("wiki/g/concepts/dict.md", "concept", "dict", "")])
    thing = PlannedPage(name="dict", kind="entity", type="thing")
    assert resolve_page(thing, table).decision == "merge"
    tool = PlannedPage(name="dict", kind="entity", type="tool")
    assert resolve_page(tool, table).decision != "merge"  # a typed name stays apart: asked
    people = NameTable([NameEntry("wiki/g/entities/grace.md", "entity", "Grace", "person")])
    idea = PlannedPage(name="grace", kind="concept", type="concept")
    assert resolve_page(idea, people).decision != "merge"


def test_a_name_before_an_event_word_is_not_the_event() -> None:
    text = (
        "Python runs the checker. Python ships the module, and Python grows each year. "
        "Thanks are due to the Python typing community for feedback at a Python typing "
        "meetup, and to the Python sprint.\n"
    )
    assert _page(_extract(text), "Python").type != "event"


def test_a_method_written_with_its_class_names_the_class() -> None:
    text = (
        "Creating a class is slow since ``GenericMeta.__new__`` is slow. The work done by "
        "``GenericMeta.__new__`` is cached, and ``GenericMeta.__getitem__`` is fast.\n"
    )
    names = _names(_extract(text))
    assert "GenericMeta" in names and "__new__" not in names
