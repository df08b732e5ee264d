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
from mnemex.memories.remember import MAX_MEMORY_CHARS, project_from_cwd
from mnemex.memories.remember import remember as remember_note
from mnemex.pages.edit import append_to_page as append_page
from mnemex.pages.edit import delete_page as delete
from mnemex.pages.edit import move_page as move
from mnemex.pages.edit import write_page as write

_Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


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
        Field(description="Omit to create; to replace, the hash read_page gave."),
    ] = None,
) -> dict[str, Any]:
    """Create a page, or replace one you read. To add to one, append_to_page; for a
    short memory, remember.

    Example: write_page(path='notes/idea', content='# Idea')
    """
    _writable(ctx, path)
    state = state_of(ctx)
    change = write(state.brain, path, content, expected_hash, by_agent=True)
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
            description="Section (## heading) to append to; made if missing.",
        ),
    ] = None,
) -> dict[str, Any]:
    """Add text to a page or one of its sections. To change or remove text, write_page.

    Example: append_to_page(path='notes/deploy', content='- took 4 min')
    """
    _writable(ctx, path)
    state = state_of(ctx)
    change = append_page(state.brain, path, content, section, by_agent=True)
    state.wrote()
    return change.to_dict()


@tool(title="Move a page", writes=True, destructive=True)
def move_page(
    path: PagePath,
    new_path: PagePath,
    ctx: Ctx,
    plan_id: PlanId = None,
) -> dict[str, Any]:
    """Move or rename a page, re-pointing its links; previewed first.

    Example: move_page(path='notes/ada', new_path='notes/people/ada')
    """
    _writable(ctx, path, new_path)
    state = state_of(ctx)
    result = move(state.brain, path, new_path, plan_id)
    state.wrote()
    return result


@tool(title="Delete a page", writes=True, destructive=True)
def delete_page(path: PagePath, ctx: Ctx, plan_id: PlanId = None) -> dict[str, Any]:
    """Delete a page, previewed first. If it is only misplaced, move_page.

    Example: delete_page(path='notes/scratch')
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
            description="A few sentences; the first line is the title.",
        ),
    ],
    ctx: Ctx,
    project: Annotated[
        Name | None,
        Field(description="Project slug (default: from the working folder)."),
    ] = None,
    domain: Annotated[Name | None, Field(description="Domain (default: the first).")] = None,
    tags: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]] | None,
        Field(max_length=20, description="Tags, without '#'."),
    ] = None,
    importance: Annotated[float, Field(ge=0.0, le=1.0, description="Its weight in recall.")] = 0.5,
    said_by_user: Annotated[bool, Field(description="The user's own words, verbatim.")] = False,
) -> dict[str, Any]:
    """Save a short memory (a decision, a preference) for later sessions; knowledge
    goes to write_page.

    Example: remember(text='The user prefers small commits.')
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
        said_by_user=said_by_user,
    )
    state.wrote()
    return done.to_dict()


def _client_name(ctx: Ctx) -> str | None:
    """The calling client's name as it introduced itself (``claude-code``, ...), if it did."""
    params = ctx.request_context.session.client_params
    return params.client_info.name if params is not None and params.client_info else None


__all__ = ["append_to_page", "delete_page", "move_page", "remember", "write_page"]
