"""Every link form Obsidian documents resolves as Obsidian resolves it, and health reports
none of them: the fixture vault ``tests/fixtures/obsidian-forms`` scores 100 with no issue.

The fixture follows Obsidian's help ("Internal links", "Embed files", "Properties",
"Templates"): wikilinks with aliases, headings, nested headings and block ids, embeds of
images with sizes, a PDF page, audio, video and a canvas, folder paths, ``.md`` names,
%-escaped and ``<angle>`` markdown links, relative ``../`` paths, escaped pipes in
tables, links in properties, URLs, code, a BOM before the frontmatter, dot-folders and
a templates folder with placeholders.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from health_support import open_brain
from helpers import write
from mnemex.config import settings_template
from mnemex.health import scan
from mnemex.health.anchors import note_anchors
from mnemex.health.links import attachment_paths
from mnemex.vault import LinkResolver, init_vault, parse_note

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "obsidian-forms"
LAWS = "Three laws of motion.md"
LINKS = "Links.md"
NESTED = "folder/Nested note.md"


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    shutil.copytree(FIXTURE, root)
    (root / "mnemex.toml").write_text(
        settings_template("t").replace('name = "minilm"', 'name = "hashing"'), encoding="utf-8"
    )
    init_vault(root, git=False)
    return root


def _scan(root: Path) -> dict[str, Any]:
    with open_brain(root) as brain:
        brain.sync()
        return scan(brain.vault, brain.backend).to_dict()


def _issues(data: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {
        str(i["data"].get("target")) + "#" + str(i["data"].get("anchor", "")): i for i in data[kind]
    }


def _read(rel: str) -> str:
    return (FIXTURE / rel).read_text(encoding="utf-8")


def test_the_obsidian_forms_vault_scores_100_with_no_issue(tmp_path: Path) -> None:
    data = _scan(_vault(tmp_path))
    assert data["total"] == 0, {k: v for k, v in data["counts"].items() if v}
    assert data["score"] == 100
    assert "errors" not in data


def test_every_link_of_the_fixture_resolves_to_an_existing_file(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    notes = [LAWS, LINKS, NESTED, "Bom note.md", "Templates/Daily note.md"]
    resolver = LinkResolver(notes, attachment_paths(root))
    for rel in (LINKS, NESTED, "Bom note.md"):
        for link in parse_note(_read(rel), rel).links:
            assert resolver.resolve(link.target, rel) is not None, (rel, link)


def test_each_form_names_the_file_obsidian_opens() -> None:
    resolver = LinkResolver(
        [LAWS, LINKS, NESTED],
        ["attachments/Figure 1.png", "attachments/manual.pdf", "Board.canvas"],
    )
    expected = {
        "three LAWS of motion": LAWS,
        "Three laws of motion.md": LAWS,
        "FOLDER/nested NOTE": NESTED,
        "Nested note.md": NESTED,
        "Figure 1.png": "attachments/Figure 1.png",
        "manual.PDF": "attachments/manual.pdf",
        "attachments/manual.pdf": "attachments/manual.pdf",
        "Board.canvas": "Board.canvas",
    }
    for target, path in expected.items():
        assert resolver.resolve(target, LINKS) == path, target
    assert resolver.resolve("../Links.md", NESTED) == LINKS
    assert resolver.resolve("./Nested note.md", NESTED) == NESTED
    assert resolver.resolve("", LINKS) == LINKS  # [[#Heading]]: this page
    assert resolver.resolve("Board", LINKS) is None  # another file type needs its extension
    assert resolver.resolve("wrong/Figure 1.png", LINKS) is None


def test_links_are_read_as_obsidian_reads_them() -> None:
    links = parse_note(_read(LINKS), LINKS).links
    found = {(lk.target, lk.heading, lk.alias, lk.embed) for lk in links}
    assert ("Three laws of motion", None, "the laws", False) in found  # escaped table pipe
    assert ("Three laws of motion", "Second law", "second", False) in found
    assert ("Figure 1.png", None, "100", True) in found
    assert ("Three laws of motion", "First law#Inertia", None, False) in found
    assert ("", "^local-block", None, False) in found
    assert ("attachments/manual.pdf", "page=3", None, True) in found
    assert ("folder/Nested note.md", None, None, False) in found  # <angle brackets>
    assert ("Three laws of motion.md", "Second law", None, False) in found  # %-decoded
    assert ("attachments/img a.png", None, None, True) in found  # a title after the target
    assert ("", "local-heading", None, False) in found  # [here](#local-heading)
    targets = {lk.target for lk in links}
    assert not any("\\" in t or "://" in t or t.startswith("mailto:") for t in targets)
    code = {"Nowhere", "Nowhere either", "missing.png", "gone.pdf"}
    assert not targets & (code | {"Quoted nowhere", "quoted-gone.png"})  # also in a callout
    in_properties = [lk for lk in links if lk.line < 7]
    assert [(lk.target, lk.line) for lk in in_properties] == [
        ("Three laws of motion", 2),
        ("folder/Nested note", 4),
        ("Three laws of motion", 5),
    ]


def test_a_heading_inside_a_link_is_no_tag() -> None:
    assert parse_note(_read(LINKS), LINKS).tags == ["physics", "reference", "physics/mechanics"]
    tags = parse_note("[[#Intro]] [[N#Part]] [x](#part) [y](N.md#Part) #real", "n.md").tags
    assert tags == ["real"]


def test_a_tag_starts_a_line_or_follows_white_space_as_in_obsidian() -> None:
    text = "#first word#not color:#0a8c28 \\#escaped (#paren) #2024 #y2024 #one#two\n\t#indented"
    assert parse_note(text, "n.md").tags == ["first", "y2024", "one", "two", "indented"]


def test_a_fence_in_a_blockquote_is_code_and_ends_with_its_quote() -> None:
    text = (
        "> ```\n> [[In quoted code]] #in-code\n> ```\n> [[Quoted]]\n"
        "> ```\n> [[Open quoted code]]\n[[After the quote]] #after\n"
        "````\n```\n[[Inside a longer fence]]\n```\n````\n[[Last]]\n"
    )
    note = parse_note(text, "n.md")
    assert [lk.target for lk in note.links] == ["Quoted", "After the quote", "Last"]
    assert note.tags == ["after"]


def test_a_bom_before_the_frontmatter_hides_nothing() -> None:
    note = parse_note(_read("Bom note.md"), "Bom note.md")
    assert note.frontmatter["tags"] == ["bom"]
    assert note.tags == ["bom"]
    assert [lk.target for lk in note.links] == ["Links"]
    assert note.title == "A note saved with a byte order mark"


def test_template_placeholders_are_no_links() -> None:
    links = parse_note(_read("Templates/Daily note.md"), "Templates/Daily note.md").links
    assert [lk.target for lk in links] == ["Weekly review"]


def test_dot_folders_are_not_indexed(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    with open_brain(root) as brain:
        brain.sync()
        paths = brain.backend.note_paths()
    assert not [p for p in paths if p.startswith((".github/", ".trash/", ".obsidian/"))]
    assert {LAWS, LINKS, NESTED, "Bom note.md"} <= set(paths)
    assert not [p for p in attachment_paths(root) if p.startswith(".") or "/." in p]


def test_headings_and_blocks_are_found_as_obsidian_finds_them() -> None:
    anchors = note_anchors(_read(LAWS))
    for anchor in (
        "First law",
        "first LAW",
        "First law#Inertia",
        "Q&A what's new",
        "Q&A: what's new?",
        "Callout heading",
        "Setext heading for the third law",
        "second-law",
        "^quote-of-the-day",
        "^LIST-ITEM-1",
        "^callout-block",
        "^laws-table",
    ):
        assert anchors.has(anchor), anchor
    assert not anchors.has("Fourth law")
    assert not anchors.has("^no-such-block")


def test_a_really_broken_link_is_still_reported(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    write(
        root,
        "Broken.md",
        "# Broken\n[[Fourth law of motion]], ![[missing.png]], [gone](attachments/gone.pdf),\n"
        "![[wrong/Figure 1.png]], ![[figure-1.png]] and `[[not this one]]`.\n",
    )
    data = _scan(root)
    broken = {i["data"]["target"]: i for i in data["broken_links"]}
    assert set(broken) == {
        "Fourth law of motion",
        "missing.png",
        "attachments/gone.pdf",
        "wrong/Figure 1.png",
        "figure-1.png",  # Obsidian does not fold hyphens into spaces: broken, with a hint
    }
    assert broken["wrong/Figure 1.png"]["suggestion"] == "re-point it to attachments/Figure 1.png"
    assert broken["figure-1.png"]["suggestion"] == "re-point it to attachments/Figure 1.png"
    assert "suggestion" not in broken["missing.png"]
    assert data["counts"]["loose_links"] == 0 and data["counts"]["broken_anchors"] == 0


def test_folding_hyphens_is_a_loose_link_never_a_broken_one(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    write(root, "Loose.md", "# Loose\nSee [[three-laws-of-motion]] and [[THREE LAWS OF MOTION]].\n")
    data = _scan(root)
    assert data["broken_links"] == []
    assert [(i["data"]["target"], i["data"]["suggested"]) for i in data["loose_links"]] == [
        ("three-laws-of-motion", LAWS)
    ]
    assert 95 <= data["score"] < 100  # low severity


def test_a_missing_heading_or_block_is_a_broken_anchor(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    write(
        root,
        "Anchors.md",
        "# Anchors\n[[Three laws of motion#Fourth law]], [[Three laws of motion#^nope]],\n"
        "[[#Missing here]], [[Three laws of motion#Secnd law]], [[#Anchors]], "
        "![[manual.pdf#page=99]], [[Three laws of motion#First law#Momentum]], [[#Quoted]].\n"
        "> ```md\n> # Quoted\n> ```\n",
    )
    data = _scan(root)
    assert data["broken_links"] == []
    found = {(i["data"]["target"], i["data"]["anchor"]): i for i in data["broken_anchors"]}
    assert set(found) == {
        ("Three laws of motion", "Fourth law"),
        ("Three laws of motion", "^nope"),
        ("", "Missing here"),
        ("Three laws of motion", "Secnd law"),
        ("Three laws of motion", "First law#Momentum"),
        ("", "Quoted"),  # a heading in code, even inside a quote, is no heading
    }
    assert found[("Three laws of motion", "Secnd law")]["suggestion"] == "link to #Second law"
    nested = found[("Three laws of motion", "First law#Momentum")]["detail"]
    assert "no heading 'Momentum' (under 'First law')" in nested
    assert all(i["files"] == ["Anchors.md"] for i in data["broken_anchors"])


def test_the_templates_folder_is_skipped_only_when_obsidian_names_it(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / ".obsidian" / "templates.json").unlink()
    data = _scan(root)
    assert [i["data"]["target"] for i in data["broken_links"]] == ["Weekly review"]
