"""Links the index follows only by folding hyphens or spaces are reported as ``loose_links``,
with the exact name; a link that differs only by case is exact, as in Obsidian."""

from __future__ import annotations

from pathlib import Path

from health_support import git, open_brain, page
from helpers import write
from mnemex.config import settings_template
from mnemex.health import fix_issue, scan
from mnemex.vault import init_vault

ADA = "wiki/general/entities/ada-lovelace.md"
TITLED = "notes/Grace Hopper.md"
HOST = "notes/links.md"


def _vault(root: Path, body: str) -> Path:
    root.mkdir(parents=True)
    (root / "mnemex.toml").write_text(
        settings_template("t").replace('name = "minilm"', 'name = "hashing"'), encoding="utf-8"
    )
    init_vault(root, git=True)
    write(root, ADA, page("entity", "Ada Lovelace", f"Mathematician. See [[{HOST[:-3]}]].\n"))
    write(root, TITLED, "# Grace Hopper\nCompilers. See [[links]].\n")
    write(root, HOST, body)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "seed")
    return root


def _broken(root: Path, kind: str = "broken_links") -> dict[str, dict[str, object]]:
    with open_brain(root) as brain:
        brain.sync()
        data = scan(brain.vault, brain.backend).to_dict()
    return {str(i["data"]["target"]): i for i in data[kind]}


def test_exact_names_paths_and_titles_are_not_reported(tmp_path: Path) -> None:
    body = (
        "# Links\n[[ada-lovelace]], [[entities/ada-lovelace]], [[Ada Lovelace]] (its title),\n"
        "[[Grace Hopper]], [[notes/Grace Hopper]], [Grace](Grace%20Hopper.md).\n"
    )
    assert _broken(_vault(tmp_path / "v", body)) == {}


def test_a_case_only_difference_is_exact_and_hyphen_folding_is_loose(tmp_path: Path) -> None:
    body = "# Links\n[[ada lovelace]], [[Ada-Lovelace]], [[GRACE HOPPER]], [[grace-hopper]].\n"
    root = _vault(tmp_path / "v", body)
    assert _broken(root) == {}
    loose = _broken(root, "loose_links")
    assert set(loose) == {"grace-hopper"}
    assert loose["grace-hopper"]["data"]["suggested"] == TITLED  # type: ignore[index]
    assert "names no file exactly" in str(loose["grace-hopper"]["detail"])

    with open_brain(root) as brain:
        brain.sync()
        issue_id = str(loose["grace-hopper"]["id"])
        plan = fix_issue(brain, issue_id)
        fix_issue(brain, issue_id, plan["plan_id"])
    assert "[[Grace Hopper|grace-hopper]]." in (root / HOST).read_text(encoding="utf-8")
    assert _broken(root, "loose_links") == {}
