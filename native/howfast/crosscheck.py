"""Cross-checks in general: fio as a subprocess, and ours beside a standard tool.

A subject's own cross-check (``howfast/<subject>/crosscheck.py``) builds the standard
tool's job for its cases and runs both through ``bench.run(..., alternate=True)`` with a
``tool`` column ("howfast" or the tool's name). The helpers here turn such a run into
the table the chapters show: medians, ranges, and the median of per-repetition ratios.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import polars as pl

from . import claims, fmt, stats
from .bench import Case, Outcome, Run, Unsupported, run
from .checks import checked
from .scratch import Scratch


def versus(
    name: str,
    tool: str,
    cases: list[dict],
    theirs: Callable[[Case], float],
    ours: Callable[[Case], float],
    metric: str,
    unit: str,
    *,
    repetitions: int,
    scratch: Scratch,
) -> Run:
    """Ours and `tool` on the same cases (each with a ``tool`` column), alternating run by
    run; `theirs` and `ours` measure one case and return `metric`'s value, in `unit`."""

    def measure(case: Case, s: Scratch) -> Outcome:
        return Outcome({metric: (theirs(case) if case["tool"] == tool else ours(case), unit)})

    return run(name, cases, measure, repetitions=repetitions, scratch=scratch, alternate=True)


def round_ratios(
    metrics: pl.DataFrame,
    index: list[str],
    metric: str,
    *,
    on: str = "tool",
    ours: object = "howfast",
    theirs: object = "fio",
) -> pl.DataFrame:
    """The columns `index` and ``r``: `metric` of the row whose column `on` is `ours` over
    that of the row whose `on` is `theirs`, for the same case (`index`) and repetition, so
    each ratio is of two runs made one after the other. Empty when either side is missing."""
    if on not in metrics.columns or any(k not in metrics.columns for k in ("metric", "value", "repetition", *index)):
        raise ValueError(f"round_ratios(): metrics must have the columns metric, value, repetition, {on}, {index}")
    empty = pl.DataFrame(schema={**{k: metrics.schema[k] for k in index}, "r": pl.Float64})
    side = pl.when(pl.col(on) == ours).then(pl.lit("ours")).when(pl.col(on) == theirs).then(pl.lit("theirs"))
    rows = metrics.filter(pl.col("metric") == metric).with_columns(side.alias("side")).drop_nulls("side")
    if set(rows["side"].unique().to_list()) != {"ours", "theirs"}:
        return empty
    wide = rows.pivot(on="side", index=[*index, "repetition"], values="value")
    return wide.select(*index, (pl.col("ours") / pl.col("theirs")).cast(pl.Float64).alias("r")).drop_nulls("r")


def paired_ratios(
    metrics: pl.DataFrame, by: list[str], metric: str, tool: str = "fio", *, rounds: bool = False
) -> pl.DataFrame:
    """Ours / `tool` within each repetition, where the two ran one after the other: per case
    the median of those ratios, the interval of that median (``ratio range``: order
    statistics, ``stats.median_interval``) and the verdict it supports
    (``claims.crosscheck``: agrees, ours higher, ours lower, inconclusive). On a disk
    whose speed drifts from minute to minute, the ratio of two runs side by side is
    steadier than either run."""
    column = f"howfast / {tool}"
    schema = {
        **{k: metrics.schema[k] for k in by},
        column: pl.Float64,
        "ratio range": pl.String,
        "verdict": pl.String,
        **({"rounds": pl.UInt32} if rounds else {}),
    }
    ratios = round_ratios(metrics, by, metric, theirs=tool)
    if ratios.height == 0:
        return pl.DataFrame(schema=schema)
    out = []
    for key, part in ratios.group_by(by, maintain_order=True):
        estimate = ratio_estimate(part["r"].to_list())
        out.append({
            **dict(zip(by, key)), column: estimate.median, "ratio range": fmt.span(estimate.lo, estimate.hi, 2),
            "verdict": claims.crosscheck(estimate).outcome, "rounds": part.height,
        })  # fmt: skip
    frame = pl.DataFrame(out, schema={**schema, "rounds": pl.UInt32})
    return frame if rounds else frame.drop("rounds")


def ratio_estimate(ratios: list[float]) -> stats.Estimate:
    """The median of per-round ratios with the interval of that median."""
    if not ratios:
        raise ValueError("ratios must hold at least one round")
    lo, hi, level = stats.median_interval(ratios)
    median = float(pl.Series(ratios).median())  # type: ignore[arg-type]
    return stats.Estimate(median, lo, hi, len(ratios), level)


def _verdict_words(tool: str, more: str, less: str) -> dict[str, str]:
    return {
        "agrees": f"agreed with {tool} (the interval of the per-round ratio within {fmt.num(claims.AGREES[0])}–"
        f"{fmt.ratio(claims.AGREES[1])})",
        "ours higher": f"came out clearly {more} than {tool}",
        "ours lower": f"came out clearly {less} than {tool}",
        "inconclusive": "inconclusive on this machine (the interval leaves the band but includes 1)",
    }


def verdict_parts(table: pl.DataFrame, tool: str = "fio", *, more: str = "faster", less: str = "slower") -> list[str]:
    """The verdicts of a ``side_by_side`` table counted, one phrase per verdict that occurs
    ("2 cases agreed with fio (…)", "1 case was inconclusive on this machine"), in a fixed
    order; empty where no row has a verdict."""
    if "verdict" not in table.columns:
        return []
    counts = table["verdict"].drop_nulls().value_counts()
    n = {row["verdict"]: int(row["count"]) for row in counts.iter_rows(named=True)}
    return [
        f"{fmt.count(n[k], 'case')} "
        + (f"{'was' if n[k] == 1 else 'were'} inconclusive on this machine" if k == "inconclusive" else w)
        for k, w in _verdict_words(tool, more, less).items()
        if n.get(k)
    ]


def verdicts_sentence(table: pl.DataFrame, tool: str = "fio", *, more: str = "faster", less: str = "slower") -> str:
    """What the rows of a ``side_by_side`` table say, verdict by verdict (each from the
    interval of its per-round ratios): how many agree with `tool`, how many are clearly
    `more` or `less`, and how many the rounds could not decide."""
    if "verdict" not in table.columns or table["verdict"].drop_nulls().len() == 0:
        why = "; ".join(table["note"].drop_nulls().unique(maintain_order=True)) if "note" in table.columns else ""
        return f"The comparison with {tool} could not run here ({why or 'no result'})."
    judged = table["verdict"].drop_nulls()
    if judged.len() == 1:
        only = judged[0]
        return (
            "The one case that ran both "
            + ("was " if only == "inconclusive" else "")
            + _verdict_words(tool, more, less)[only]
            + "."
        )
    parts = verdict_parts(table, tool, more=more, less=less)
    return f"Of the {fmt.count(judged.len(), 'case')} that ran both, " + "; ".join(parts) + "."


def span(lo: str, hi: str, digits: int = 3) -> pl.Expr:
    """The range of two columns as text, through ``fmt.span`` (one format for every number)."""
    return pl.struct(lo, hi).map_elements(lambda r: fmt.span(r[lo], r[hi], digits), return_dtype=pl.String)


def side_by_side(
    metrics: pl.DataFrame, by: list[str], metric: str, *, unit: str, tool: str = "fio", rounds: bool = False
) -> pl.DataFrame:
    """Ours beside `tool` (fio by default) per case: medians and the interval of each
    median (``range``: min–max under six runs, as ``stats.median_interval``; a noisy disk
    moves both), the median of the per-repetition ratios ours / tool, their range (and
    with `rounds`, how many rounds ran both). When the tool could not run, its columns are empty
    and ``note`` says why."""
    summaries = stats.summarize(metrics, [*by, "tool"])
    summary = summaries.filter(pl.col("metric") == metric)
    cases = metrics.select(by).unique(maintain_order=True)
    for name in ("howfast", tool):
        part = summary.filter(pl.col("tool") == name).select(
            *by,
            pl.col("median").alias(f"{name} {unit}"),
            span("lo", "hi").alias(f"{name} range"),
        )
        cases = cases.join(part, on=by, how="left", maintain_order="left")
    cases = cases.join(
        paired_ratios(metrics, by, metric, tool, rounds=rounds), on=by, how="left", maintain_order="left"
    )
    means = summaries.filter(pl.col("metric") == "mean")
    if means.height:
        wide = means.pivot(on="tool", index=by, values="median")
        if {"howfast", tool} <= set(wide.columns):
            cases = cases.join(
                wide.select(*by, (pl.col("howfast") / pl.col(tool)).alias(f"mean latency, howfast / {tool}")),
                on=by,
                how="left",
                maintain_order="left",
            )
    missing = stats.unsupported(metrics.filter(pl.col("tool") == tool), by)
    if missing.height:
        cases = cases.join(missing, on=by, how="left", maintain_order="left")
    return cases


def run_fio(scratch: Scratch, path: Path, options: list[str], *, remove: bool = True) -> dict:
    """Run fio on `path` with `options` and return its job's JSON report; the file is
    removed afterwards unless `remove` is false (a prepared file that others read)."""
    exe = shutil.which("fio")
    if exe is None:
        raise Unsupported("fio is not installed (apt-get install fio)")
    command = [exe, f"--filename={path}", *options, "--output-format=json"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    finally:
        if remove:
            scratch.remove(Path(path))
    if done.returncode != 0:
        raise RuntimeError(f"fio failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    return json.loads(done.stdout[done.stdout.index("{") :])["jobs"][0]


def tool_versions(commands: dict[str, list[str]]) -> dict[str, str | None]:
    """The first line each installed tool prints when asked its version (None: missing)."""
    out: dict[str, str | None] = {}
    for tool, args in commands.items():
        exe = shutil.which(tool)
        if exe is None:
            out[tool] = None
            continue
        done = subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=30)
        lines = (done.stdout or done.stderr).strip().splitlines()
        out[tool] = lines[0] if lines else None
    return out


def fio_version() -> str | None:
    exe = shutil.which("fio")
    if exe is None:
        return None
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip() or None


def agreement_sentence(table: pl.DataFrame, tool: str = "fio") -> str:
    """The verdicts of a ``side_by_side`` table in one sentence (``verdicts_sentence``)."""
    return verdicts_sentence(table, tool)


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
