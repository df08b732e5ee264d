"""The vault: plain markdown files, the single source of truth."""

from mnemex.vault.layout import (
    KINDS,
    LOCAL_DIR,
    PROTECTED_FOLDERS,
    Placement,
    check_name,
    init_vault,
    placement,
    slugify,
)
from mnemex.vault.links import LinkResolver
from mnemex.vault.markdown import ParsedNote, Wikilink, parse_note, render_note
from mnemex.vault.vault import FileEntry, NoteText, Vault, atomic_write, sha256_bytes, sha256_text

__all__ = [
    "KINDS",
    "LOCAL_DIR",
    "PROTECTED_FOLDERS",
    "FileEntry",
    "LinkResolver",
    "NoteText",
    "ParsedNote",
    "Placement",
    "Vault",
    "Wikilink",
    "atomic_write",
    "check_name",
    "init_vault",
    "parse_note",
    "placement",
    "render_note",
    "sha256_bytes",
    "sha256_text",
    "slugify",
]
