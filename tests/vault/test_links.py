from __future__ import annotations

from mnemex.vault import LinkResolver

PATHS = [
    "Alpha.md",
    "projects/alpha.md",
    "archive/old/Beta.md",
    "notes/beta.md",
    "wiki/general/entities/priya-raman.md",
    "notes/Meeting Notes.md",
]


def test_links_resolve_by_file_name_case_insensitively() -> None:
    r = LinkResolver(PATHS)
    assert r.resolve("meeting notes") == "notes/Meeting Notes.md"


def test_the_shortest_path_wins_when_names_collide() -> None:
    r = LinkResolver(PATHS)
    assert r.resolve("alpha") == "Alpha.md"
    assert r.resolve("Beta") == "notes/beta.md"


def test_a_folder_part_must_match_the_end_of_the_path() -> None:
    r = LinkResolver(PATHS)
    assert r.resolve("projects/alpha") == "projects/alpha.md"
    assert r.resolve("old/beta") == "archive/old/Beta.md"
    assert r.resolve("nowhere/alpha") is None


def test_a_link_with_md_suffix_resolves_like_one_without() -> None:
    assert LinkResolver(PATHS).resolve("projects/alpha.md") == "projects/alpha.md"


def test_a_title_resolves_to_a_slugged_file_name_when_no_file_has_that_name() -> None:
    assert LinkResolver(PATHS).resolve("Priya Raman") == "wiki/general/entities/priya-raman.md"


def test_a_title_in_any_script_resolves_to_its_own_slugged_file() -> None:
    paths = [
        "wiki/w/entities/東京.md",
        "wiki/w/entities/大阪.md",
        "wiki/w/entities/josé-müller.md",
        "wiki/w/entities/jose-muller-organization.md",
        "wiki/w/entities/москва.md",
    ]
    r = LinkResolver(paths)
    assert r.resolve("東京") == "wiki/w/entities/東京.md"
    assert r.resolve("大阪") == "wiki/w/entities/大阪.md"
    assert r.resolve("José Müller") == "wiki/w/entities/josé-müller.md"
    assert r.resolve("Jose Muller") == "wiki/w/entities/josé-müller.md"  # accents aside
    assert r.resolve("Москва") == "wiki/w/entities/москва.md"
    assert r.resolve("京都") is None


def test_an_accented_title_still_finds_a_page_named_before_slugs_kept_accents() -> None:
    r = LinkResolver(["wiki/w/entities/cafe-notes.md", "wiki/w/entities/lodz.md"])
    assert r.resolve("Café Notes") == "wiki/w/entities/cafe-notes.md"
    assert r.resolve("Łódź") == "wiki/w/entities/lodz.md"


def test_links_to_nowhere_stay_unresolved() -> None:
    assert LinkResolver(PATHS).resolve("Gamma") is None


def test_a_heading_only_link_points_at_its_own_note() -> None:
    assert LinkResolver(PATHS).resolve("", source="Alpha.md") == "Alpha.md"
