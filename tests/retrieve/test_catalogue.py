from __future__ import annotations

from helpers import write
from mnemex.brain import Brain
from mnemex.retrieve.catalogue import list_domains
from mnemex.retrieve.privacy import Privacy


def test_list_domains_lists_as_projects_only_folders_under_state_or_memories(
    brain: Brain,
) -> None:
    root = brain.vault.root
    write(root, "state/alpha/brief.md", "# Alpha\n")
    write(root, "memories/beta/2026-01/2026-01-02-x-abc.md", "# A memory\n")
    write(root, "foundations/docs-only/architecture.md", "# Architecture\n")
    brain.sync()
    data = list_domains(brain, Privacy.of(brain.vault.settings))
    assert [p["name"] for p in data["projects"]] == ["alpha", "beta"]
