"""Facts with time: what is true now, what was true then, and what the brain believed.

:mod:`~mnemex.facts.claims` (what a statement claims), :mod:`~mnemex.facts.extract`
(reading claims from text, offline), :mod:`~mnemex.facts.model` (the bi-temporal fact),
:mod:`~mnemex.facts.store` (``facts/<subject>.md``), :mod:`~mnemex.facts.rule` (the write
rule), :mod:`~mnemex.facts.query` (answers as of a day), :mod:`~mnemex.facts.record`
(commands and learning, one commit each) and :mod:`~mnemex.facts.serve` (serving, framed
as evidence). The format is docs/vault-format.md §8.
"""
