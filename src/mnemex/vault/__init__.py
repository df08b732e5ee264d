"""The vault: plain markdown files, the single source of truth."""

from mnemex.vault.layout import (
    KINDS,
    LOCAL_DIR,
    PROTECTED_FOLDERS,
    Placement,
    ascii_slug,
    check_name,
    fold_name,
    init_vault,
    placement,
    slug_key,
    slugify,
    word_runs,
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
    "ascii_slug",
    "atomic_write",
    "check_name",
    "fold_name",
    "init_vault",
    "parse_note",
    "placement",
    "plain",
    "render_note",
    "restyle",
    "retarget",
    "sha256_bytes",
    "sha256_text",
    "slug_key",
    "slugify",
    "table_rows",
    "text_style",
    "word_runs",
    "write_temp",
]
