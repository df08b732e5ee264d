"""Saving state needs a project that exists (which ones do is :mod:`mnemex.vault.projects`'s
rule), so a typo never starts a stray project."""

from __future__ import annotations

from mnemex.state.common import StateRefused
from mnemex.vault import Vault, check_name
from mnemex.vault.projects import known_projects, project_exists


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


__all__ = ["require_project"]
