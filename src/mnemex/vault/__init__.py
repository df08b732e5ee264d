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
from mnemex.vault.preserve import TextStyle, plain, restyle, retarget, table_rows, text_style
from mnemex.vault.vault import (
    FileEntry,
    NoteText,
    Vault,
    atomic_write,
    sha256_bytes,
    sha256_text,
    write_temp,
)

__all__ = [
    "KINDS",
    "LOCAL_DIR",
    "PROTECTED_FOLDERS",
    "FileEntry",
    "LinkResolver",
    "NoteText",
    "ParsedNote",
    "Placement",
    "TextStyle",
    "Vault",
    "Wikilink",
    "atomic_write",
    "check_name",
    "init_vault",
    "parse_note",
    "placement",
    "plain",
    "render_note",
    "restyle",
    "retarget",
    "sha256_bytes",
    "sha256_text",
    "slugify",
    "table_rows",
    "text_style",
    "write_temp",
]
