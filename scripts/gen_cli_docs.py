"""Print docs/cli.md: the CLI reference, generated from the click command tree.

    python scripts/gen_cli_docs.py > docs/cli.md

tests/test_docs.py fails when docs/cli.md is not what this prints.
"""

from __future__ import annotations

import click

from mnemex.cli.app import cli


def _walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            found += _walk(command.commands[name], [*path, name])
    return found


def render() -> str:
    out = [
        "# CLI reference",
        "",
        "Generated from the code by `scripts/gen_cli_docs.py` (`make docs`); do not edit by hand.",
        "",
    ]
    for path, command in _walk(cli, ["mnemex"]):
        ctx = click.Context(
            command,
            info_name=" ".join(path),
            terminal_width=88,
            max_content_width=88,
            help_option_names=["-h", "--help"],
        )
        out += [f"## `{' '.join(path)}`", "", "```text", command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render(), end="")
