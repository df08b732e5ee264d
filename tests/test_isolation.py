from __future__ import annotations

import os
from pathlib import Path

from mnemex.config import resolve_vault, user_config_file

# read when the module is collected, before any test's fixture redirects HOME
REAL_HOME = Path(os.path.expanduser("~")).resolve()


def test_tests_run_with_home_redirected_away_from_the_real_one(isolated_home: Path) -> None:
    assert Path.home() == isolated_home
    assert REAL_HOME not in (isolated_home, *isolated_home.parents)
    assert isolated_home in user_config_file().parents


def test_the_user_default_vault_is_read_from_the_redirected_home(
    tmp_path: Path, isolated_home: Path
) -> None:
    default = tmp_path / "default-brain"
    default.mkdir()
    config = isolated_home / ".config" / "mnemex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'vault = "{default}"\n', encoding="utf-8")
    found = resolve_vault(cwd=tmp_path)
    assert found.path == default.resolve()
    assert found.source == "user-default"
