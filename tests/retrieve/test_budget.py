from __future__ import annotations

from mnemex.retrieve.budget import cut_with_note
from mnemex.text.tokens import estimate_tokens


def test_a_text_that_fits_is_served_whole_with_no_note() -> None:
    assert cut_with_note("a short text", 50) == ("a short text", {})


def test_a_cut_text_says_so_and_names_a_budget_that_reads_it_whole() -> None:
    text = "word " * 400
    content, fields = cut_with_note(text, 50, "page", then=" to read it whole")
    assert content.endswith(" …") and estimate_tokens(content) <= 51
    total = estimate_tokens(text)
    assert fields == {
        "truncated": True,
        "total_tokens": total,
        "note": f"page cut to fit max_tokens; call again with max_tokens={total + 300} "
        "to read it whole",
    }
