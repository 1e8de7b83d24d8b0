"""The book's chapters and the subjects each one shows.

A chapter reads its subjects' stored results with ``store.results(subject)``; the
command line measures a chapter by measuring its subjects. A chapter added to the book
adds one line here.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import fmt
from .checks import checked
from .profiles import Profile
from .store import SUBJECTS, ResultSet

#: chapter (its file name in chapters/, without .qmd) -> the subjects it shows
CHAPTERS: dict[str, tuple[str, ...]] = {
    "numbers-card": ("fsync", "storage", "sqlite", "memtable", "network", "hashing", "cpu", "codecs"),
    "fsync": ("fsync",),
    "storing-data": ("storage", "sqlite"),
    "memtables": ("memtable", "rocksdb"),
    "networks": ("network",),
    "hashing": ("hashing",),
    "cpu-and-memory": ("cpu",),
    "compress-encode-sort": ("codecs",),
    "system-design": ("storage", "network", "hashing", "cpu", "codecs"),
}


def subjects_for(names: list[str]) -> list[str]:
    """The subjects to measure for chapter names, subject names, .qmd paths or 'all'
    (none given: all), in the book's order; ValueError naming what is unknown."""
    if not names or "all" in names:
        return list(SUBJECTS)
    wanted: set[str] = set()
    for name in names:
        key = Path(name).stem if name.endswith(".qmd") else name
        if key in CHAPTERS:
            wanted.update(CHAPTERS[key])
        elif key in SUBJECTS:
            wanted.add(key)
        else:
            known = ", ".join([*CHAPTERS, *(s for s in SUBJECTS if s not in CHAPTERS)])
            raise ValueError(f"unknown chapter or subject {name!r}: choose from {known}, or all")
    return [s for s in SUBJECTS if s in wanted]


#: How a callout names a subject whose reason does not say what it is about
SUBJECT_NAMES = {"sqlite": "SQLite", "rocksdb": "RocksDB", "network": "Networks", "hashing": "Hashing"}
SUBJECT_NAMES["codecs"] = "Compression and sorting"


def missing_note(*sets: ResultSet) -> str:
    """A callout (Quarto markdown, for a cell with ``output: asis``) naming what this
    machine could not measure for a chapter and why, each reason once; empty when
    everything ran. A reason that does not name what it is about ("disabled by …") is
    given its subject's name ("SQLite: disabled by …")."""
    reasons = list(
        dict.fromkeys(
            note if ": " in note else f"{SUBJECT_NAMES.get(s.subject, s.subject)}: {note}"
            for s in sets
            for note in s.unsupported()
        )
    )
    if not reasons:
        return ""
    items = "\n".join(f"- {r}" for r in reasons)
    return (
        "::: {.callout-warning}\n## Not measured on this machine\n\n"
        + items
        + "\n\nThe cases this affects keep their rows in the tables below, with the reason, and the numbers "
        'that depend on them read "n/a".\n:::\n'
    )


#: How the noise note names each subject
NOISE_NAMES = {**SUBJECT_NAMES, "cpu": "CPU and memory", "storage": "Disks", "memtable": "Memtables"}

#: The measuring thread waited for a CPU at least this share of the wall time (the median
#: of an experiment's runs): the machine was busy, and wall-timed CPU figures may read low.
WAITED = 0.10
#: The hypervisor stole at least this share of all CPU time: every CPU figure may read low.
STEAL = 0.05
#: Other processes used at least this share of all CPUs: the machine was shared.
OTHERS = 0.25
#: Iowait of at least this share of all CPU time, in an experiment that does not write
#: to disk itself, means another process was using the disk.
IOWAIT = 0.20


def experiment_title(subject: str, experiment: str) -> str:
    """An experiment's name as a reader reads it ('memory-latency' for cpu's ``latency``),
    from its subject's ``report.TITLES``; the name with spaces for one it lacks."""
    import importlib

    try:
        titles = importlib.import_module(f"howfast.{subject}.report").TITLES
    except (ImportError, AttributeError):
        titles = {}
    return str(titles.get(experiment, experiment.replace("_", " ")))


def noise_summary(result: ResultSet) -> pl.DataFrame:
    """Per experiment, over its counted runs: ``runs``, the medians of ``ran`` (our CPU
    time over the wall time), ``waited`` (the measuring thread's wait for a CPU), ``steal``,
    ``iowait`` and ``others`` (noise.COLUMNS), and the highest load and runnable count. No
    rows for a set stored before the evidence was recorded."""
    parts = []
    for name in result.experiments:
        found = result.noise(name)
        if found is None or found.height == 0:
            continue
        if "warmup" in found.columns:
            found = found.filter(~pl.col("warmup"))
        medians = [
            (pl.col(c).median() if c in found.columns else pl.lit(None)).cast(pl.Float64).alias(c)
            for c in ("ran", "waited", "steal", "iowait", "others")
        ]
        highest = [
            (pl.max_horizontal(f"{c}_start", f"{c}_end").max() if f"{c}_start" in found.columns else pl.lit(None))
            .cast(pl.Float64)
            .alias(f"{c}_max")
            for c in ("load", "runnable")
        ]
        title = pl.lit(experiment_title(result.subject, name)).alias("experiment")
        parts.append(found.select(title, pl.len().alias("runs"), *medians, *highest))
    if not parts:
        return pl.DataFrame(schema={"experiment": pl.String, "runs": pl.UInt32})
    return pl.concat(parts, how="vertical_relaxed")


def busy_words(result: ResultSet) -> str:
    """What the machine was doing while `result` was measured, in one sentence, and what it
    means for the numbers; 'no noise evidence recorded' for an older set. Busy is decided
    by the thresholds ``WAITED``, ``STEAL``, ``OTHERS`` and ``IOWAIT`` on the medians of each
    experiment's runs (``noise_summary``)."""
    summary = noise_summary(result)
    who = NOISE_NAMES.get(result.subject, result.subject)
    if summary.height == 0:
        return f"{who}: no noise evidence recorded (these results were stored before howfast recorded it)."

    def worst(column: str) -> tuple[float, str] | None:
        rows = summary.drop_nulls(column) if column in summary.columns else summary.clear()
        if rows.height == 0:
            return None
        row = rows.sort(column, descending=True).row(0, named=True)
        return float(row[column]), str(row["experiment"])

    waited, steal, others, ran = worst("waited"), worst("steal"), worst("others"), worst("ran")
    said = []
    if steal and steal[0] >= STEAL:
        said.append(f"steal {fmt.share(steal[0], 2)} during the {steal[1]} runs: the hypervisor gave our CPUs to "
                    "other machines, and CPU figures may read low")  # fmt: skip
    if waited and waited[0] >= WAITED:
        exp = waited[1]
        row = summary.filter(pl.col("experiment") == exp).row(0, named=True)
        got = f"; it ran {fmt.share(row['ran'], 2)} of the wall time" if row.get("ran") is not None else ""
        said.append(
            f"during the {exp} runs the measuring thread waited for a CPU {fmt.share(waited[0], 2)} of the wall "
            f"time (median of its runs{got}): figures timed by the wall clock that need the CPU may read low, by up "
            "to about that share, and their intervals may be wider"
        )
    if others and others[0] >= OTHERS and not said:
        said.append(
            f"other processes used {fmt.share(others[0], 2)} of the CPUs during the {others[1]} runs, though ours "
            "seldom waited for one: CPU figures are little affected, figures that share the disk or memory "
            "bandwidth may be"
        )
    if said:
        return f"{who}: the machine was busy: " + "; ".join(said) + "."
    quiet = []
    if others:
        quiet.append(f"other processes used at most {fmt.share(others[0], 2)} of the CPUs")
    if waited:
        quiet.append(f"the measuring thread waited for a CPU at most {fmt.share(waited[0], 2)} of the time")
    elif ran:
        quiet.append(f"our process ran up to {fmt.share(ran[0], 2)} of the wall time")
    return f"{who}: the machine was quiet enough" + (f" ({', '.join(quiet)})" if quiet else "") + "."


def busy_clause(result: ResultSet) -> str:
    """A clause for the set's stamp: ', on a busy machine (the measuring thread waited for
    a CPU 36 % of the time during the memory-latency runs: CPU figures timed by the wall
    clock may read low)', ', with 18 % CPU steal during the TCP ping-pong runs (CPU figures
    may read low)', ', on a quiet machine', or
    ', no noise evidence recorded' for an older set."""
    summary = noise_summary(result)
    if summary.height == 0:
        return ", no noise evidence recorded"

    def worst(column: str) -> tuple[float, str] | None:
        rows = summary.drop_nulls(column) if column in summary.columns else summary.clear()
        if rows.height == 0:
            return None
        row = rows.sort(column, descending=True).row(0, named=True)
        return float(row[column]), str(row["experiment"])

    steal, waited, others = worst("steal"), worst("waited"), worst("others")
    if steal and steal[0] >= STEAL:
        return f", with {fmt.share(steal[0], 2)} CPU steal during the {steal[1]} runs (CPU figures may read low)"
    if waited and waited[0] >= WAITED:
        return (
            f", on a busy machine (the measuring thread waited for a CPU {fmt.share(waited[0], 2)} of the time "
            f"during the {waited[1]} runs: CPU figures timed by the wall clock may read low)"
        )
    if others and others[0] >= OTHERS:
        return f", on a shared machine (other processes used {fmt.share(others[0], 2)} of the CPUs)"
    return ", on a quiet machine"


def busy(result: ResultSet) -> bool:
    """Whether the noise evidence of `result` passes any of the busy thresholds."""
    summary = noise_summary(result)
    checks = {"waited": WAITED, "steal": STEAL, "others": OTHERS}
    return any(
        column in summary.columns and bool((summary[column].drop_nulls() >= limit).any())
        for column, limit in checks.items()
    )


def unclear_words(result: ResultSet) -> str:
    """Which experiments of `result` left cases wider than the profile's target when the
    stopping rule's cap was reached ('in the C++ hashing runs, 63 of 70 cases stayed wider than ±10 %
    after up to 9 runs'); '' when every case became clear, or the set kept no rounds."""
    said = []
    for name in result.experiments:
        rounds = result.rounds(name)
        target, title = rounds.get("target"), experiment_title(result.subject, name)
        if not target:
            continue
        after = f"after up to {fmt.count(int(rounds.get('runs') or 0), 'run')}"
        if rounds.get("timed") is not None:  # timed cases and cross-check pairs told apart
            unclear, cases = int(rounds.get("timed_unclear") or 0), int(rounds["timed"])
            undecided, pairs = int(rounds.get("pairs_undecided") or 0), int(rounds.get("pairs") or 0)
            parts = []
            if unclear:
                parts.append(f"{fmt.exact(unclear)} of {fmt.exact(cases)} cases stayed wider than "
                             f"±{fmt.share(float(target), 2)}")  # fmt: skip
            if undecided:
                parts.append(f"{fmt.exact(undecided)} of {fmt.count(pairs, 'cross-check pair')} reached no verdict")
            if parts:
                said.append(f"in the {title} runs, {' and '.join(parts)} {after}")
            continue
        unclear = rounds.get("unclear") or 0
        if not unclear:
            continue
        cases = rounds.get("cases")
        of = f" of {fmt.exact(int(cases))}" if cases else ""
        noun = "case" if unclear == 1 and not cases else "cases"
        said.append(f"in the {title} runs, {fmt.exact(int(unclear))}{of} {noun} stayed wider than "
                    f"±{fmt.share(float(target), 2)} {after}")  # fmt: skip
    if not said:
        return ""
    wide, open_ = any("stayed wider" in p for p in said), any("reached no verdict" in p for p in said)
    end = "; ".join(
        [*(["their figures are marked unstable"] if wide else []), *(["a pair with no verdict reads inconclusive"]
                                                                     if open_ else [])]
    )  # fmt: skip
    return "Cut off by the time cap: " + "; ".join(said) + f" ({end})."


#: Each subject as the preface's table names it: the chapter it is measured for, and the part.
MEASURED_FOR = {
    "fsync": "fsync", "storage": "Storing data: disks", "sqlite": "Storing data: SQLite", "memtable": "Memtables",
    "rocksdb": "Memtables: RocksDB", "network": "Networks", "hashing": "Hashing", "cpu": "CPU and memory",
    "codecs": "Compress, encode, sort",
}  # fmt: skip


def measuring_summary(sets: list[ResultSet]) -> pl.DataFrame:
    """Per set: its subject's name for readers, the minutes it took, how many cases it
    timed on their own (``cases``) and how many of them ended with the interval of the
    median within the profile's target (the rest were cut off by the time cap or the run
    limit), how many cross-check pairs it ran (ours against a standard tool, run by run) and
    how many of them reached a verdict, and the most runs any case took. Cases that could
    not run here count nowhere. A set stored before its rounds told these apart (no
    ``timed`` in them) gives its cases all together, unsupported and paired ones included,
    with ``stopped`` (the ones not cut off by the cap) in place of the split counts; a set
    stored before the stopping rule has none of these (null)."""
    rows = []
    for found in sets:
        counts = dict.fromkeys(("cases", "within", "pairs", "verdicts", "all", "stopped", "most"), 0)
        seen = split = False
        for name in found.experiments:
            rounds = found.rounds(name)
            if not rounds.get("target") or rounds.get("cases") is None:
                continue
            seen = True
            counts["most"] = max(counts["most"], int(rounds.get("runs") or 0))
            if rounds.get("timed") is None:
                counts["all"] += int(rounds["cases"])
                counts["stopped"] += int(rounds["cases"]) - int(rounds.get("unclear") or 0)
                continue
            split = True
            counts["cases"] += int(rounds["timed"])
            counts["within"] += int(rounds["timed"]) - int(rounds.get("timed_unclear") or 0)
            counts["pairs"] += int(rounds.get("pairs") or 0)
            counts["verdicts"] += int(rounds.get("pairs") or 0) - int(rounds.get("pairs_undecided") or 0)
        old = seen and counts["all"] > 0
        seconds = found.manifest.get("seconds")
        rows.append({
            "measured for": MEASURED_FOR.get(found.subject, found.subject),
            "minutes": float(seconds) / 60 if isinstance(seconds, (int, float)) else None,
            "cases": counts["cases"] if split else None,
            "within target": counts["within"] if split else None,
            "cross-check pairs": counts["pairs"] if split else None,
            "with a verdict": counts["verdicts"] if split else None,
            "all cases": counts["all"] if old else None,
            "stopped before the cap": counts["stopped"] if old else None,
            "most runs": counts["most"] if seen else None,
        })  # fmt: skip
    schema = {"measured for": pl.String, "minutes": pl.Float64, "cases": pl.Int64, "within target": pl.Int64,
              "cross-check pairs": pl.Int64, "with a verdict": pl.Int64, "all cases": pl.Int64,
              "stopped before the cap": pl.Int64, "most runs": pl.Int64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _column(summary: pl.DataFrame, name: str) -> pl.Series:
    """A column of ``measuring_summary`` (all null when a frame of an older shape lacks it)."""
    return summary[name] if name in summary.columns else pl.Series(name, [None] * summary.height, dtype=pl.Int64)


def measuring_table(summary: pl.DataFrame) -> pl.DataFrame:
    """``measuring_summary`` for the preface's table: the split counts only when a set
    recorded them, the older sets' counts only when a set needs them."""
    groups = (
        ("cases", "within target", "cross-check pairs", "with a verdict"),
        ("all cases", "stopped before the cap"),
    )
    drop = [
        c
        for group in groups
        if all(c in summary.columns for c in group) and _column(summary, group[0]).null_count() == summary.height
        for c in group
    ]
    return summary.drop(drop) if summary.height else summary


def target_words(summary: pl.DataFrame, target: float | None) -> str:
    """'Of the 1,234 cases timed on their own, 1,100 (89 %) ended with the interval of
    their median within ±3 %; the rest … 5 of 6 cross-check pairs reached a verdict.' from
    ``measuring_summary``, naming the sets when only some kept their rounds and saying what
    the others were; for a profile with a fixed count, or with no set, a sentence saying so
    (never '')."""
    if summary.height == 0:
        return "No set is stored for this profile yet."
    if target is None:
        return "This profile runs every case a fixed number of times, so no interval is held to a target."
    cases_col, older_col = _column(summary, "cases"), _column(summary, "all cases")
    split = summary.filter(cases_col.is_not_null())
    older = summary.filter(cases_col.is_null() & older_col.is_not_null())
    before = summary.height - split.height - older.height
    said = []
    cases, met = int(_column(split, "cases").sum() or 0), int(_column(split, "within target").sum() or 0)
    pairs, verdicts = (
        int(_column(split, "cross-check pairs").sum() or 0),
        int(_column(split, "with a verdict").sum() or 0),
    )
    named = split.height < summary.height
    if split.height:
        listed = fmt.listed(split["measured for"].to_list())
        of = f" of {listed}" if named else ""
        if cases:
            rest = (
                ""
                if met == cases
                else "; the rest were cut off by the time cap or the run limit, and their tables mark them unstable"
            )
            said.append(
                f"Of the {fmt.count(cases, 'case')}{of} timed on their own, {fmt.exact(met)} "
                f"({fmt.share(met / cases, 2)}) ended with the interval of their median within ±{fmt.share(target, 2)}"
                f"{rest}."
            )
        if pairs:
            said.append(
                f"{fmt.exact(verdicts)} of {fmt.count(pairs, 'cross-check pair')}{of if not cases else ''} (ours "
                "against a standard tool, run by run) reached a verdict; such a pair stops on its verdict, not on a "
                "target."
            )
    if older.height:
        all_, stopped = int(older["all cases"].sum() or 0), int(_column(older, "stopped before the cap").sum() or 0)
        said.append(
            f"{fmt.listed(older['measured for'].to_list())} {'was' if older.height == 1 else 'were'} measured before "
            f"howfast recorded which cases ran alone, which ran in cross-check pairs and which could not run here: of "
            f"{'its' if older.height == 1 else 'their'} {fmt.count(all_, 'case')}, {fmt.exact(stopped)} stopped before "
            f"the time cap, a count that takes in the cases that could not run and the cross-check pairs, which stop "
            f"on a verdict rather than on ±{fmt.share(target, 2)}."
        )
    if before:
        who = (
            "The stored sets were"
            if before == summary.height
            else f"{fmt.count(before, 'other set')} {'was' if before == 1 else 'were'}"
        )
        said.append(
            f"{who} measured before howfast recorded its stopping rule's rounds (n/a in the table): each of their "
            "figures ran the count its chapter's tables give."
        )
    if not said:
        return "No timed case recorded its rounds."
    return " ".join(said)


def fewest_runs(profile: Profile) -> int:
    """The fewest counted runs any timed experiment of `profile` starts with: the profile's
    repetitions, or a plan's own count where one sets it (RocksDB's runs, the fio
    cross-checks' rounds, the memtables' alternated rounds)."""
    counts = [
        profile.repetitions,
        profile.rocksdb.repetitions,
        profile.rocksdb.crosscheck_repetitions,
        profile.storage.fio_repetitions,
        profile.memtable.fio_rounds or profile.repetitions,
        profile.memtable.rollover_rounds,
        profile.memtable.breakdown_rounds,
    ]
    return min(counts)


def repeat_words(profile: Profile) -> str:
    """How often this profile repeats a timed measurement before the stopping rule adds
    any: 'at least 3 times (5 in most experiments), after 1 uncounted warm-up run of each
    case'."""
    least = fewest_runs(profile)
    said = f"at least {fmt.count(least, 'time')}"
    if least != profile.repetitions:
        said += f" ({fmt.exact(profile.repetitions)} in most experiments)"
    if profile.warmups:
        said += f", after {fmt.count(profile.warmups, 'uncounted warm-up run')} of each case"
    return said


def doctor_words(*sets: ResultSet) -> str:
    """The warnings the pre-flight check (``doctor``) stored with the sets, each once:
    'Before measuring, the check found: load average 9.6 on 2 CPUs …; …'; '' when none."""
    warned = list(
        dict.fromkeys(
            str(f.get("text")) for s in sets for f in s.doctor() if isinstance(f, dict) and f.get("level") == "warn"
        )
    )
    return ("Before measuring, the check found: " + "; ".join(warned) + ".") if warned else ""


def noise_note(*sets: ResultSet) -> str:
    """A callout (Quarto markdown, for a cell with ``output: asis``) saying, for each set,
    how busy the machine was while it was measured and what that means for its numbers
    (``busy_words``); a warning when any was busy, a note otherwise."""
    if not sets:
        raise ValueError("noise_note() needs at least one results set")
    lines = [f"- {busy_words(s)}" + (f" {cut}" if (cut := unclear_words(s)) else "") for s in sets]
    found = doctor_words(*sets)
    if found:
        lines.append(f"- {found}")
    hot = any(busy(s) for s in sets)
    kind, title = ("warning", "The machine was busy") if hot else ("note", "How quiet the machine was")
    return (
        f"::: {{.callout-{kind} collapse=\"true\"}}\n## {title}\n\n" + "\n".join(lines)
        + "\n\nEach run keeps its evidence: our process's CPU time beside the wall time, the time it waited for a "
        "CPU, CPU steal and iowait, other processes' CPU time, the load.\n:::\n"
    )  # fmt: skip


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
