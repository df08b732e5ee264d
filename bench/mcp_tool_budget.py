"""What an agent pays before its first call, for each tool profile of ``mnemex serve``.

    python bench/mcp_tool_budget.py [--vault PATH] [--json]

Starts ``python -m mnemex --vault V serve --tools PROFILE`` for each profile and
talks to it with the MCP SDK's own client over stdio, as an agent client does
(the initialize handshake, then ``tools/list``). Prints, per profile, the tool
count, the bytes and the MiniLM word pieces of the tools/list JSON plus the server
instructions, and the budget (:data:`mnemex.mcp.budget.TOOL_BUDGETS`). Without
``--vault`` a fresh empty vault is made in a temporary folder (the list does not
depend on the vault's content).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from mnemex.mcp.budget import TOOL_BUDGETS, ListingCost, listing_cost, word_pieces

PROFILES = ("all", "read")


async def measure(vault: Path, profile: str) -> ListingCost:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mnemex", "--vault", str(vault), "serve", "--tools", profile],
        env={**os.environ},
    )
    async with Client(params, mode="legacy") as client:
        return await listing_cost(client)


def _fresh_vault(where: Path) -> Path:
    from mnemex.vault import init_vault

    root = where / "vault"
    init_vault(root, git=False)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--vault", type=Path, help="A vault to serve (default: a fresh one).")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault = args.vault or _fresh_vault(Path(tmp))
        costs = {p: anyio.run(measure, vault, p) for p in PROFILES}
    rows = {
        p: {
            "tools": c.tools,
            "bytes": c.bytes,
            "word_pieces": c.word_pieces,
            "instructions_word_pieces": word_pieces(c.instructions),
            "budget": TOOL_BUDGETS[p],
        }
        for p, c in costs.items()
    }
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| profile | tools | bytes | word pieces (of which instructions) | budget |")
    print("|---|---:|---:|---:|---:|")
    for p, r in rows.items():
        print(
            f"| {p} | {r['tools']} | {r['bytes']:,} | {r['word_pieces']:,} "
            f"({r['instructions_word_pieces']:,}) | {r['budget']:,} |"
        )


if __name__ == "__main__":
    main()
