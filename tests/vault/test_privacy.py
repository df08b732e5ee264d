from __future__ import annotations

from pathlib import Path

from mnemex.config import load_settings
from mnemex.vault.layout import ignore_lines
from mnemex.vault.privacy import is_private, private_folders


def test_private_always_includes_the_domain_called_private(tmp_path: Path) -> None:
    (tmp_path / "mnemex.toml").write_text('[vault]\nprivate = ["diary"]\n', encoding="utf-8")
    settings = load_settings(tmp_path)
    assert is_private(settings, "private") and is_private(settings, "diary")
    assert not is_private(settings, "general") and not is_private(settings, None)


def test_every_folder_of_a_private_name_is_git_ignored(tmp_path: Path) -> None:
    (tmp_path / "mnemex.toml").write_text('[vault]\nprivate = ["diary"]\n', encoding="utf-8")
    settings = load_settings(tmp_path)
    assert private_folders(settings) == [
        f"{top}/{name}/"
        for name in ("diary", "private")
        for top in ("wiki", "foundations", "state", "memories", "facts")
    ]
    assert ignore_lines(settings) == [".mnemex/", "facts/_log.jsonl", *private_folders(settings)]
