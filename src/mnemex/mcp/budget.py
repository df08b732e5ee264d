"""What an agent pays before its first call: the tool list and the server instructions.

A client puts the ``tools/list`` answer and the ``initialize`` instructions in
front of the model in every session, whether a tool is used or not. Their cost is
counted here in word pieces of the MiniLM tokenizer that ships with mnemex (offline,
deterministic; close to a BPE model's count on this kind of text), against the
budget of each tool profile. ``bench/mcp_tool_budget.py`` prints the figures and a
test fails when a profile grows past its budget.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from mcp import Client

#: Word pieces (tools/list JSON + instructions) each profile may cost at most.
TOOL_BUDGETS = {"all": 8400, "read": 3000}


@functools.cache
def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    from mnemex.embed.minilm import tokenizer_file

    tok = Tokenizer.from_file(str(tokenizer_file()))
    # The file pads and cuts to 128 pieces (for the embedder); a budget counts every piece.
    tok.no_truncation()
    tok.no_padding()
    return tok


def word_pieces(text: str) -> int:
    """MiniLM word pieces in ``text`` (no [CLS]/[SEP], no truncation)."""
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


@dataclass(frozen=True)
class ListingCost:
    """The cost of one server's tool list and instructions, as a client received them."""

    tools: int
    tools_json: str
    instructions: str

    @property
    def bytes(self) -> int:
        return len(self.tools_json.encode()) + len(self.instructions.encode())

    @property
    def word_pieces(self) -> int:
        return word_pieces(self.tools_json) + word_pieces(self.instructions)


async def listing_cost(client: Client) -> ListingCost:
    """Ask an open client session for the tools, serialised as the server sent them.

    The client parsed the JSON it received; dumping only the fields that were set,
    by their wire names, gives that JSON back.
    """
    listed = await client.list_tools()
    return ListingCost(
        tools=len(listed.tools),
        tools_json=listed.model_dump_json(by_alias=True, exclude_unset=True),
        instructions=client.instructions or "",
    )


__all__ = ["TOOL_BUDGETS", "ListingCost", "listing_cost", "word_pieces"]
