"""The standing brief: replaced whole, sections in a fixed order, shrinking or deciding-dropping
saves refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from state_support import git_vault, substantial

from mnemex.state import StateRefused, get_brief, read_journal, save_brief
from mnemex.vault import Vault


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    return git_vault(tmp_path / "vault")


def test_a_brief_has_its_sections_in_the_fixed_order(vault: Vault) -> None:
    done = save_brief(
        vault,
        "mnemex",
        pointers=["docs/vault-format.md"],
        working_model="Small commits.",
        decisions=["The vault is the truth"],
        standing="A second brain.",
        create=True,
    )
    text = (vault.root / done.path).read_text(encoding="utf-8")
    assert done.path == "state/mnemex/brief.md"
    headings = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert headings == [
        "# Standing brief: mnemex",
        "## Standing brief",
        "## Firm decisions — do not re-litigate",
        "## Working model",
        "## Pointers",
    ]
    fm = get_brief(vault, "mnemex")
    assert fm is not None and fm["author"] == "user"
    assert fm["sections"]["decisions"] == ["The vault is the truth"]
    assert read_journal(vault, "mnemex").entries[-1]["event"] == "brief_saved"


def test_a_save_replaces_the_brief_whole(vault: Vault) -> None:
    save_brief(vault, "mnemex", standing="Old", decisions=["old decision"], create=True)
    save_brief(vault, "mnemex", standing="New", replace=True)
    brief = get_brief(vault, "mnemex")
    assert brief is not None
    assert brief["sections"] == {"standing": "New"}
    assert "old decision" not in brief["text"]


def test_a_save_shrinking_a_substantial_brief_to_a_sliver_is_refused_unless_replace(
    vault: Vault,
) -> None:
    save_brief(vault, "mnemex", decisions=substantial("decision"), create=True)
    before = (vault.root / "state/mnemex/brief.md").read_bytes()
    with pytest.raises(StateRefused, match="replace=True"):
        save_brief(vault, "mnemex", standing="tiny")
    assert (vault.root / "state/mnemex/brief.md").read_bytes() == before
    assert save_brief(vault, "mnemex", standing="tiny", replace=True).outcome == "updated"


def test_a_save_of_a_short_brief_that_drops_a_firm_decision_is_refused_unless_replace(
    vault: Vault,
) -> None:
    save_brief(
        vault,
        "mnemex",
        standing="A second brain.",
        decisions=["The vault is the truth", "Never mix embedders"],
        create=True,
    )
    before = (vault.root / "state/mnemex/brief.md").read_bytes()
    assert len(before) < 400  # below the shrink guard's substantial size
    with pytest.raises(StateRefused, match="drop 1 firm decision") as refused:
        save_brief(
            vault, "mnemex", standing="A second brain.", decisions=["The vault is the truth"]
        )
    assert "Never mix embedders" in str(refused.value) and "replace=True" in str(refused.value)
    assert (vault.root / "state/mnemex/brief.md").read_bytes() == before
    done = save_brief(vault, "mnemex", decisions=["The vault is the truth"], replace=True)
    assert done.outcome == "updated"
    brief = get_brief(vault, "mnemex")
    assert brief is not None and brief["sections"]["decisions"] == ["The vault is the truth"]


def test_a_firm_decision_kept_with_other_case_spacing_or_more_words_is_not_a_drop(
    vault: Vault,
) -> None:
    save_brief(
        vault, "mnemex", decisions=["The vault is the truth", "Never mix embedders"], create=True
    )
    done = save_brief(
        vault,
        "mnemex",
        standing="Reordered and reworded around the decisions.",
        decisions=["never  MIX\nembedders (see ADR 3)", "the vault is the truth"],
    )
    assert done.outcome == "updated"


def test_an_empty_brief_is_refused(vault: Vault) -> None:
    with pytest.raises(StateRefused, match="empty"):
        save_brief(vault, "mnemex", standing="  ", decisions=[""], create=True)


def test_a_brief_for_an_unknown_project_is_refused_without_create(vault: Vault) -> None:
    with pytest.raises(StateRefused, match="unknown project 'ghost'"):
        save_brief(vault, "ghost", standing="x")


def test_no_brief_reads_as_none(vault: Vault) -> None:
    assert get_brief(vault, "mnemex") is None
