"""Measure the MCP server's startup: process start to the first answered request, over stdio.

    python scripts/mcp_startup.py --vault PATH [--runs 5]

Starts ``python -m mnemex --vault PATH serve`` with the MCP SDK's own client (as an
agent client would: the initialize handshake, then ``tools/list``, then one
``search``) and prints the median and worst times. Clients such as Codex give a
server about 10 s; the target is well under 2 s to the first answered request.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def once(vault: str) -> tuple[float, float]:
    started = time.perf_counter()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mnemex", "--vault", vault, "serve"]
    )
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        listed = time.perf_counter() - started
        await client.call_tool("search", {"query": "startup"})
        searched = time.perf_counter() - started
    return listed, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = [anyio.run(once, args.vault) for _ in range(args.runs)]
    for label, values in (
        ("first answer (tools/list)", [r[0] for r in results]),
        ("first search", [r[1] for r in results]),
    ):
        print(f"{label:26s} median {statistics.median(values):.2f} s, worst {max(values):.2f} s")


if __name__ == "__main__":
    main()
