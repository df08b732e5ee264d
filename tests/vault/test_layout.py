from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from mnemex.errors import VaultError
from mnemex.vault import (
    ascii_slug,
    check_name,
    fold_name,
    init_vault,
    placement,
    slug_key,
    slugify,
    word_runs,
)
from mnemex.vault.layout import MAX_SLUG_BYTES


def _snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


def test_init_creates_the_layout_settings_gitignore_and_a_git_repository(tmp_path: Path) -> None:
    root = tmp_path / "brain"
    report = init_vault(root)
    for folder in (
        "inbox",
        "wiki/general/entities",
        "wiki/general/concepts",
        "wiki/general/summaries",
        "wiki/general/sources",
        "foundations",
        "state",
        "memories",
        "facts",
        "health",
        ".mnemex",
    ):
        assert (root / folder).is_dir(), folder
    assert (root / "mnemex.toml").is_file()
    ignore = (root / ".gitignore").read_text()
    assert ".mnemex/" in ignore and "wiki/private/" in ignore
    assert (root / ".git").is_dir()
    assert report.failed == 0


def test_init_on_an_obsidian_vault_changes_no_existing_file_but_gitignore(tmp_path: Path) -> None:
    root = tmp_path / "obsidian"
    (root / ".obsidian").mkdir(parents=True)
    (root / ".obsidian/app.json").write_text("{}")
    (root / "Daily").mkdir()
    (root / "Daily/2026-01-01.md").write_text("---\ntags: [x]\n---\nnote [[Other]]\n")
    (root / "Other.md").write_text("other")
    (root / ".gitignore").write_text("*.tmp")  # no trailing newline
    before = _snapshot(root)
    report = init_vault(root)
    after = _snapshot(root)
    changed = {p for p in before if before[p] != after.get(p)}
    assert changed == {".gitignore"}
    assert (root / ".gitignore").read_text().startswith("*.tmp\n# mnemex")
    assert any(".gitignore" in w.path for w in report.warnings)


def test_init_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    init_vault(tmp_path / "b")
    before = _snapshot(tmp_path / "b")
    report = init_vault(tmp_path / "b")
    assert report.created == report.updated == 0
    assert _snapshot(tmp_path / "b") == before


def test_init_keeps_an_existing_git_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    report = init_vault(root)
    assert ".git" not in [p.path for v in report.problems.values() for p in v]
    assert report.created == 2  # mnemex.toml and .gitignore


def test_slugs_are_lower_case_and_bounded() -> None:
    assert slugify("Café Notes: v2!") == "café-notes-v2"
    assert slugify("///") == "untitled"
    assert len(slugify("x" * 200)) == 80


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Ærøskøbing", "ærøskøbing"),
        ("Łódź", "łódź"),
        ("Łódź Technical University", "łódź-technical-university"),
        ("José Müller", "josé-müller"),
        ("Αθήνα", "αθήνα"),
        ("ΟΔΥΣΣΕΥΣ", "οδυσσευς"),  # a final sigma stays final
        ("Москва", "москва"),
        ("東京", "東京"),
        ("北京大学", "北京大学"),
        ("ソニー株式会社", "ソニー株式会社"),
        ("서울", "서울"),
        ("हिन्दी भाषा", "हिन्दी-भाषा"),  # a vowel sign is part of its word
        ("Straße", "straße"),
        ("ﬁle ＡＢＣ x²", "file-abc-x2"),  # compatibility forms become plain letters
        ("İstanbul", "istanbul"),
    ],
)
def test_slugs_keep_the_letters_of_every_script(name: str, slug: str) -> None:
    assert slugify(name) == slug
    assert slugify(slug) == slug  # a slug is its own slug


@pytest.mark.parametrize(
    "text", ["Café Notes: v2!", "a_b c--d", "O'Brien & Co.", "  x  ", "ÆØÅ 2024", "Ünïcödé"]
)
def test_ascii_text_gets_the_slug_the_general_rule_gives(text: str) -> None:
    # slugify takes a shortcut for ASCII: the same slug as the rule for every script
    ascii_text = fold_name(text).encode("ascii", "ignore").decode()
    assert slugify(ascii_text) == "-".join(word_runs(ascii_text.lower()))
    assert slugify(ascii_text) == slugify(ascii_text + " —")  # "—" takes the general path


def test_names_in_different_scripts_get_different_slugs() -> None:
    names = ["東京", "大阪", "北京", "Αθήνα", "Москва", "Łódź", "Lodz", "Ærøskøbing"]
    slugs = [slugify(n) for n in names]
    assert "untitled" not in slugs
    assert len(set(slugs)) == len(names)


def test_a_long_cjk_slug_is_cut_to_fit_a_file_name() -> None:
    slug = slugify("東京" * 100)
    assert slug == "東京" * 26 + "東"
    assert len(slug.encode("utf-8")) <= MAX_SLUG_BYTES
    # with the longest suffix ingestion adds, still one file name (255 bytes)
    assert len(f"{slug}-organization-99.md".encode()) <= 255
    assert len(slugify("Ж" * 200)) == 80  # two bytes a letter: the character limit first


def test_a_cut_never_parts_a_letter_from_its_mark() -> None:
    # "q" with a tilde has no precomposed form: two code points, one letter
    slug = slugify("a" + "q\u0303" * 100)
    assert slug == "a" + "q\u0303" * 39
    assert slugify("ab" + "q\u0303" * 10, max_chars=5) == "abq\u0303"


def test_a_mark_with_no_letter_before_it_is_no_part_of_a_slug() -> None:
    assert slugify("\u0301x \u0301 y") == "x-y"
    assert slugify("❤\ufe0f love") == "love"


def test_names_are_matched_across_accents_and_case() -> None:
    assert fold_name("José Müller") == fold_name("Jose Muller") == "jose muller"
    assert fold_name("Łódź") == "lodz"
    assert fold_name("Ærøskøbing") == "aeroskobing"
    assert fold_name("Αθήνα") == fold_name("ΑΘΗΝΑ") == "αθηνα"
    assert fold_name("が") != fold_name("か")  # a kana's voicing mark is part of it
    assert slug_key("Café") == slug_key("cafe") == slug_key("CAFÉ") == "cafe"
    assert slug_key("東京") == "東京"


def test_an_ascii_slug_folds_accents_and_drops_other_scripts() -> None:
    assert ascii_slug("Jürgen's Mac") == "jurgen-s-mac"
    assert ascii_slug("東京") == "untitled"


@pytest.mark.parametrize("good", ["work", "café", "東京", "москва", "projekt-2"])
def test_a_name_may_be_a_slug_in_any_script(good: str) -> None:
    assert check_name(good) == good


@pytest.mark.parametrize(
    "bad", ["../x", "a/b", "a\\b", "Has Caps", "", "..", "Москва", "東京 大阪", "cafe\u0301"]
)
def test_names_with_dots_slashes_or_capitals_are_refused(bad: str) -> None:
    with pytest.raises(VaultError, match="not allowed"):
        check_name(bad)


def test_the_top_folder_decides_the_kind_domain_and_project() -> None:
    assert placement("wiki/work/entities/a.md").kind == "knowledge"
    assert placement("wiki/work/entities/a.md").domain == "work"
    assert placement("memories/alpha/2026-01/x.md").project == "alpha"
    assert placement("state/alpha/brief.md").kind == "state"
    assert placement("wiki.md").kind == "notes"
    assert placement("Daily/x.md").kind == "notes"
