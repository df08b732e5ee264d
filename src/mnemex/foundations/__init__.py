"""The foundations kind: a project's canonical documents, held verbatim, replaced whole."""
