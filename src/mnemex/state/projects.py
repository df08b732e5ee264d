"""Projects: one exists once it has a folder under ``state/`` or ``memories/`` (vault format §2)."""

from __future__ import annotations

from mnemex.state.common import StateRefused
from mnemex.vault import Vault, check_name

PROJECT_ROOTS = ("state", "memories")


def known_projects(vault: Vault) -> list[str]:
    """Every project of the vault, sorted (folders under ``state/`` or ``memories/``)."""
    names: set[str] = set()
    for top in PROJECT_ROOTS:
        folder = vault.root / top
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.name.startswith("."):
                names.add(entry.name)
    return sorted(names)


def project_exists(vault: Vault, project: str) -> bool:
    return any((vault.root / top / project).is_dir() for top in PROJECT_ROOTS)


def require_project(
    vault: Vault, project: str, *, create: bool = False, hidden: tuple[str, ...] = ()
) -> str:
    """Check a project name, and that the project exists unless ``create``.

    Args:
        hidden: project names not to list in the refusal (private ones an interface hides).

    Raises:
        VaultError: the name holds ``..``, a slash, or is not a slug.
        StateRefused: the project does not exist and ``create`` is false.
    """
    check_name(project, "project")
    if create or project_exists(vault, project):
        return project
    known = [p for p in known_projects(vault) if p not in hidden]
    listing = ", ".join(known) if known else "none yet"
    raise StateRefused(
        f"unknown project {project!r} (known projects: {listing}). Use one of those, or, if "
        f"{project!r} really is a new project, save again with create=True"
    )


__all__ = ["PROJECT_ROOTS", "known_projects", "project_exists", "require_project"]
