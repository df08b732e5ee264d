"""Write tools: pages (knowledge and the user's notes) and remembered notes.

Each call is one git commit naming the tool. The page tools refuse the kind
folders (foundations, state, memories, facts, health) and ``.mnemex/``; those
have tools of their own.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from mnemex.errors import VaultError
from mnemex.mcp.params import Content, Name, PagePath, PlanId
from mnemex.mcp.registry import Ctx, state_of, tool
from mnemex.memories import MAX_MEMORY_CHARS, project_from_cwd
from mnemex.memories import remember as remember_note
from mnemex.pages import append_to_page as append_page
from mnemex.pages import delete_page as delete
from mnemex.pages import move_page as move
from mnemex.pages import write_page as write

_Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="The hash read_page returned.")]


def _writable(ctx: Ctx, *paths: str) -> None:
    state = state_of(ctx)
    for path in paths:
        clean = state.brain.vault.rel_path(path)
        if state.privacy.hides_path(clean):
            raise VaultError(
                f"{clean} is in a private domain or project that this server does not serve"
            )


@tool(title="Write a page", writes=True, destructive=True)
def write_page(
    path: PagePath,
    content: Content,
    ctx: Ctx,
    expected_hash: Annotated[
        _Hash | None,
        Field(
            description="Omit to create a new page; to replace one, the hash read_page returned."
        ),
    ] = None,
) -> dict[str, Any]:
    """Create a page, or replace a whole page you have read. Writes knowledge pages
    (wiki/<domain>/entities|concepts|summaries/...) and the user's notes; not state,
    memories or foundations.

    To create, omit expected_hash (an existing page is then refused, never
    overwritten). To replace, read_page first and pass its `hash` as
    expected_hash: if someone changed the page since, you get a conflict and
    should read it again. If your content has no frontmatter the page keeps its
    own. To add to a page without replacing it use append_to_page; for a short
    memory use remember.

    Example: write_page(path="wiki/general/concepts/blue-green-deployment",
    content="# Blue-green deployment\\nTwo identical environments; traffic switches at once.\\n")
    """
    _writable(ctx, path)
    state = state_of(ctx)
    change = write(state.brain, path, content, expected_hash)
    state.wrote()
    return change.to_dict()


@tool(title="Append to a page", writes=True)
def append_to_page(
    path: PagePath,
    content: Content,
    ctx: Ctx,
    section: Annotated[
        str | None,
        Field(
            max_length=300,
            description="Append at the end of this section (## heading), made if missing.",
        ),
    ] = None,
) -> dict[str, Any]:
    """Add text to the end of an existing page, or of one of its sections, without
    rewriting what is there (no hash needed: appends from several agents all land).

    Use it to add a fact, a bullet or a log line; use write_page to change or
    remove existing text.

    Example: append_to_page(path="notes/deploy", section="Incidents",
    content="- 2026-12-02: rollback took 4 min")
    """
    _writable(ctx, path)
    state = state_of(ctx)
    change = append_page(state.brain, path, content, section)
    state.wrote()
    return change.to_dict()


@tool(title="Move a page", writes=True, destructive=True)
def move_page(
    path: PagePath,
    new_path: PagePath,
    ctx: Ctx,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Move or rename a page and re-point every link to it across the vault.

    Two steps: call without plan_id to get a plan (the files and lines whose links
    will change; nothing is moved), then call again with the same path, new_path
    and the plan's plan_id to apply it. A plan is refused if the files changed in between.

    Example: move_page(path="notes/ada", new_path="wiki/general/entities/ada-lovelace")
    then move_page(path="notes/ada", new_path="wiki/general/entities/ada-lovelace", plan_id="3f9c…")
    """
    _writable(ctx, path, new_path)
    state = state_of(ctx)
    result = move(state.brain, path, new_path, plan_id)
    state.wrote()
    return result


@tool(title="Delete a page", writes=True, destructive=True)
def delete_page(path: PagePath, ctx: Ctx, plan_id: PlanId = None) -> dict[str, Any]:
    """Delete a page. Two steps: call without plan_id to get a plan naming the links
    that will break (nothing is deleted), then call again with its plan_id to apply.

    Prefer move_page when the page is only in the wrong place, and write_page to
    correct it. The page stays in git history.

    Example: delete_page(path="notes/scratch"), then
    delete_page(path="notes/scratch", plan_id="3f9c…")
    """
    _writable(ctx, path)
    state = state_of(ctx)
    result = delete(state.brain, path, plan_id)
    state.wrote()
    return result


@tool(title="Remember", writes=True, idempotent=True)
def remember(
    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_MEMORY_CHARS,
            description="What to remember, in a few sentences; the first line becomes its title.",
        ),
    ],
    ctx: Ctx,
    project: Annotated[
        Name | None,
        Field(description="Project it belongs to (a slug); default: from the working directory."),
    ] = None,
    domain: Annotated[
        Name | None, Field(description="Knowledge domain; default: the first.")
    ] = None,
    tags: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]] | None,
        Field(max_length=20, description="Tags, without '#'."),
    ] = None,
    importance: Annotated[
        float, Field(ge=0.0, le=1.0, description="How much it should weigh in recall.")
    ] = 0.5,
) -> dict[str, Any]:
    """Remember something for later sessions: a short note saved as a memory of the
    project (a decision, a preference, a fact the user told you, a trap to avoid).

    Use it when the user says "remember …" or you learn something a future session
    needs; use write_page or append_to_page for knowledge that belongs on a page.
    Remembering the same text twice keeps one note.

    Example: remember(text="The user prefers small commits with behaviour-sentence messages.",
    tags=["preferences"])
    """
    state = state_of(ctx)
    project = project or project_from_cwd(state.options.cwd)
    for name, what in ((project, "project"), (domain, "domain")):
        if name is not None:
            state.privacy.check_names([name], what)
    done = remember_note(
        state.brain,
        text,
        project=project,
        domain=domain,
        tags=tags,
        importance=importance,
        cwd=state.options.cwd,
        client=_client_name(ctx),
    )
    state.wrote()
    return done.to_dict()


def _client_name(ctx: Ctx) -> str | None:
    """The calling client's name as it introduced itself (``claude-code``, ...), if it did."""
    params = ctx.request_context.session.client_params
    return params.client_info.name if params is not None and params.client_info else None


__all__ = ["append_to_page", "delete_page", "move_page", "remember", "write_page"]
