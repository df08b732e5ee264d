"""``mnemex eval retrieval`` and ``eval locomo``: measure retrieval quality on a dataset,
and turn LoCoMo into one.

Registered onto the command tree by :func:`register`.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from mnemex.cli.app import emit, handle_errors, json_option, progress_for


@click.group("eval")
def eval_group() -> None:
    """Measure retrieval quality on a dataset."""


@eval_group.command("retrieval")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--signals",
    default="keyword,vector",
    show_default=True,
    help="Comma-separated: keyword, vector.",
)
@click.option("--groups", help="Comma-separated groups to evaluate (default: all).")
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep the evaluation vault and index here, to reuse them next run.",
)
@click.option("--embedder", default="minilm", show_default=True)
@json_option
@handle_errors
def eval_retrieval(
    dataset: Path,
    signals: str,
    groups: str | None,
    workdir: Path | None,
    embedder: str,
    as_json: bool,
) -> None:
    """Run the real pipeline on DATASET (corpus.jsonl + queries.jsonl) and print metrics."""
    from mnemex.embed import load_embedder
    from mnemex.evaluate.retrieval import run_retrieval_eval

    wanted = tuple(s.strip() for s in signals.split(",") if s.strip())
    result = run_retrieval_eval(
        dataset,
        signals=wanted,
        groups=[g.strip() for g in groups.split(",")] if groups else None,
        workdir=workdir,
        embedder=load_embedder(embedder),
        progress=progress_for(as_json),
    )

    def text() -> None:
        keys = ["recall@1", "recall@5", "recall@10", "hit@5", "all@5", "ndcg@10", "mrr"]
        click.echo(f"{'':14}" + "".join(f"{k:>11}" for k in keys) + f"{'n':>7}")
        rows = [("overall", result["overall"]), *sorted(result["by_category"].items())]
        for name, metrics in rows:
            click.echo(
                f"{name:14}"
                + "".join(f"{metrics[k]:11.3f}" for k in keys)
                + f"{metrics.get('count', 0):7d}"
            )
        t = result["timings"]
        click.echo(
            f"index {t['index_seconds']:.1f} s; query p50 {t['query_ms_p50']:.1f} ms, "
            f"p95 {t['query_ms_p95']:.1f} ms over {t['queries']} queries"
        )

    emit(result, as_json, text)


@eval_group.command("locomo")
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
@click.option("--all-categories", is_flag=True, help="Keep category 5 (adversarial) too.")
@json_option
@handle_errors
def eval_locomo(source: Path, out: Path, all_categories: bool, as_json: bool) -> None:
    """Convert LoCoMo's locomo10.json at SOURCE into the eval format in OUT."""
    from mnemex.evaluate.locomo import convert_locomo

    stats = convert_locomo(
        source, out, categories=(1, 2, 3, 4, 5) if all_categories else (1, 2, 3, 4)
    )
    emit(stats, as_json, lambda: click.echo(json.dumps(stats, indent=2)))


def register(cli: click.Group) -> None:
    """Add ``eval`` to the command tree."""
    cli.add_command(eval_group)


__all__ = ["register"]
