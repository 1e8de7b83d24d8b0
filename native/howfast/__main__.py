"""Command line: ``howfast`` (or ``python -m howfast``).

* ``measure [CHAPTER|SUBJECT ...] [--profile P]``: run the experiments and store them as
  this machine's results sets, with a progress bar; nothing given means the whole book.
* ``execute [QMD ...] [--png DIR]``: run chapters without Quarto, from the stored results
  (a chapter measures what is missing), and check what a reader would see.
* ``notebooks [PAGE ...] [--out DIR] [--clean-only]``: the workshop kit, every page as a
  Jupyter notebook: a clean set for a class and a set executed on this machine.
* ``card [MACHINE ...]``: the numbers card of the stored results, one column per machine.
* ``facts [DIR]``: the machine facts for a directory.
* ``doctor``: a pre-flight check of the machine, one finding a line with what to do
  (``measure`` runs it first and stores the findings with each set).
* ``repeatability [CHAPTER|SUBJECT ...] [--every] [--sets A B]``: measure twice, back to
  back (or read two stored machines' sets), and report for how many figures the second
  median falls inside the first's interval.
* ``machines``: the machines with stored results; ``compare A B``: two of them side by
  side; ``export [MACHINE] FILE`` and ``import FILE [--as NAME] [--replace]``: a
  machine's results as one file, to pool machines.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

#: The exit status of a run stopped by Ctrl-C, as a shell reports it.
INTERRUPTED = 128 + signal.SIGINT


def check_settings() -> None:
    """Every setting checked before anything runs (ValueError naming the setting and what
    to do), and the paths made absolute for the kernels, which run in chapters/."""
    from .paths import results_dir
    from .profiles import current_profile
    from .scratch import scratch_base

    current_profile()
    os.environ["HOWFAST_SCRATCH"] = str(scratch_base().resolve())
    results = results_dir().resolve()
    try:
        results.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(
            f"cannot make the results directory {str(results)!r} ({error.strerror}): set "
            "HOWFAST_RESULTS to a writable directory"
        ) from None
    if not os.access(results, os.W_OK | os.X_OK):
        raise ValueError(
            f"cannot write to the results directory {str(results)!r}: set HOWFAST_RESULTS to a writable directory"
        )
    os.environ["HOWFAST_RESULTS"] = str(results)


def _one_line(error: BaseException) -> str:
    """What went wrong, on one line, without a notebook's traceback or colours."""
    ename, evalue = getattr(error, "ename", None), getattr(error, "evalue", None)
    text = f"{ename}: {evalue}" if ename else f"{type(error).__name__}: {error}"
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return " ".join(text.split())[:500]


#: The --png previews are drawn as a narrow book column (1000-px window) lays them out.
PNG_COLUMN = 530


def _save_pngs(done, directory: Path) -> None:
    import vl_convert as vlc

    from .offline import fitted

    directory.mkdir(parents=True, exist_ok=True)
    for label, spec in done.charts().items():
        drawn = fitted(spec, PNG_COLUMN)  # as the page's renderer draws it in that column
        (directory / f"{label}.png").write_bytes(vlc.vegalite_to_png(json.dumps(drawn), scale=2))


def _measure(names: list[str]) -> int:
    from rich.console import Console

    from . import progress, store
    from .book import subjects_for
    from .profiles import current_profile

    subjects = subjects_for(names)
    profile = current_profile()
    console = Console(stderr=True)
    console.print(f"measuring {', '.join(subjects)} on the {profile.name} profile")
    from .doctor import OK, findings

    for finding in findings(interval=0.2):  # stored with each set too (store.measure)
        if finding.level != OK:
            console.print(f"doctor: {finding.line()}", markup=False, highlight=False, soft_wrap=True)
    start = time.monotonic()
    done = []
    try:
        with progress.RichBar(subjects, console) as bar, progress.listening(bar):
            for subject in subjects:
                done.append(store.measure(subject, profile))
    except KeyboardInterrupt:
        kept = ", ".join(r.subject for r in done) or "none"
        print(
            f"howfast: interrupted while measuring {subjects[len(done)]}: its previous results (if any) are "
            f"kept as they were, its scratch files removed; stored before: {kept}",
            file=sys.stderr,
        )
        return INTERRUPTED
    for result in done:
        console.print(f"stored {result.subject}: {store.set_dir(result.subject)}")
    console.print(f"measured in {time.monotonic() - start:.0f} s")
    return 0


def _doctor() -> int:
    from .doctor import findings, report

    print(report(findings()))
    return 0


def _repeatability(args: argparse.Namespace) -> int:
    """Two sets of each subject, measured back to back (or two stored machines' sets):
    for how many figures the second median falls inside the first's interval."""
    from . import repeatability, store
    from .book import subjects_for
    from .noise import load_average

    subjects = subjects_for(args.names)
    if args.sets:
        first = {s: store.load(s, machine=args.sets[0]) for s in subjects}
        second = {s: store.load(s, machine=args.sets[1]) for s in subjects}
    else:
        first, second = {}, {}
        start = load_average()
        for subject in subjects:
            load = load_average()
            print(f"measuring {subject} twice (load average now {load[0] if load else 'not shown'})", file=sys.stderr)
            first[subject] = store.measure(subject)
            second[subject] = store.measure(subject)
    if args.every:
        import polars as pl

        table = pl.concat([repeatability.every_figure(first[s], second[s]) for s in subjects])
        what = "figure"
    else:
        table = repeatability.headline_figures(first, second)
        what = "headline figure"
    for row in table.iter_rows(named=True):
        mark = "inside " if row["inside"] else "OUTSIDE"
        print(
            f"{mark}  {row['figure']}: {row['first']:.4g} [{row['lo']:.4g}, {row['hi']:.4g}] "
            f"({row['first_runs']} runs) then {row['second']:.4g} ({row['second_runs']} runs; "
            f"a steady machine lands inside {row['expected']:.0%} of the time)"
        )
    print(repeatability.sentence(table, what=what))
    if not args.sets:
        print(f"kept in {repeatability.record(table, what=what, load=start[0] if start else None)}", file=sys.stderr)
    return 0


def _pages(paths: list[str]) -> list[Path]:
    """The pages named, or every page of the book; ValueError when there are none."""
    from .notebook import chapters
    from .paths import book_root

    root = book_root()
    targets = [Path(p) for p in paths] or (chapters(root) if root else [])
    if not targets:
        raise ValueError("no chapters found: run from the book's checkout or name .qmd files")
    for path in targets:
        if path.suffix != ".qmd" or not path.is_file():
            raise ValueError(f"{str(path)!r} is not a page of the book (a .qmd file)")
    return targets


def _execute(paths: list[str], png: Path | None, timeout: int | None, notebooks: Path | None = None) -> int:
    from .notebook import execute_chapter
    from .profiles import current_profile

    targets = _pages(paths)
    print(f"profile: {current_profile().name}")
    failed = 0
    try:
        for number, path in enumerate(targets):
            try:
                done = execute_chapter(path, timeout=timeout)
            except KeyboardInterrupt:  # nbclient shut the kernel down; stop the whole run
                print(
                    f"howfast: interrupted during {path} ({number} of {len(targets)} chapters done); "
                    "its kernel was stopped and its scratch files removed",
                    file=sys.stderr,
                )
                raise
            except Exception as error:  # a failing cell: report it in one line and go on
                print(f"FAIL {path}: {_one_line(error)}", file=sys.stderr)
                failed += 1
                continue
            if png is not None:
                _save_pngs(done, png)
            if notebooks is not None:
                from .workshop import executed_notebook, write

                write(executed_notebook(done), notebooks, path)
            status = "ok" if not done.problems else "PROBLEMS"
            print(f"{status:8} {path} ({done.seconds:.1f} s)")
            for problem in done.problems:
                print(f"         - {problem}")
            failed += bool(done.problems)
    except KeyboardInterrupt:
        return INTERRUPTED
    if notebooks is not None:
        print(f"executed notebooks: {notebooks}")
    return 1 if failed else 0


def _notebooks(paths: list[str], out: Path, clean_only: bool, timeout: int | None) -> int:
    from .workshop import CLEAN, EXECUTED, clean_notebook, write

    targets = _pages(paths)
    for path in targets:
        write(clean_notebook(path), out / CLEAN, path)
    print(f"clean notebooks (for a class to run): {out / CLEAN}")
    if clean_only:
        return 0
    return _execute([str(p) for p in targets], None, timeout, notebooks=out / EXECUTED)


def _machines(args: argparse.Namespace) -> int:
    from . import fmt
    from .machines import stored_machines, this_machine
    from .store import stored

    found = stored_machines()
    if not found:
        raise ValueError("no stored results yet: run 'howfast measure' or 'howfast import FILE'")
    here = this_machine()
    for name in found:
        sets = stored(name)
        folders = ", ".join(dict.fromkeys(f for f, _ in sets))
        print(f"{name}{' (this machine)' if name == here else ''}: {fmt.count(len(sets), 'set')} ({folders})")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from . import fmt
    from .machines import compare, shown

    a, b = args.machines
    frame = compare(a, b, profile=args.folder, subjects=args.subject or None)
    if not args.subject and args.folder is None:
        from .machines import compare_headlines

        heads = compare_headlines(a, b)
        first = Table(title=f"{b} beside {a}: the headline numbers (median, and the range it lies in)")
        for column in ["number", a, b, f"{b} against {a}"]:
            first.add_column(column, justify="right" if column in (a, b) else "left", overflow="fold")
        for row in heads.iter_rows(named=True):
            cells = [
                shown(row[k], row["unit"]) + (f"\n[dim]{fmt.span(row[k + '_lo'], row[k + '_hi'])}[/dim]"
                                              if row[k] is not None else "")
                for k in ("a", "b")
            ]  # fmt: skip
            first.add_row(row["label"], *cells, row["b against a"] + (f" ({row['note']})" if row["note"] else ""))
        Console().print(first)
    table = Table(title=f"{b} beside {a}: medians over the repetitions", caption=COMPARE_CAPTION)
    for column in ["case", "metric", a, b, f"{b} / {a}", "better", "ahead", "note"]:
        table.add_column(column, justify="right" if column in (a, b, f"{b} / {a}") else "left", overflow="fold")
    shown_part = None
    for row in frame.iter_rows(named=True):
        part = f"{row['subject']} / {row['experiment']} ({row['profile']} profile)"
        if part != shown_part:
            table.add_section()
            table.add_row(f"[bold]{part}[/bold]")
            shown_part = part
        table.add_row(
            row["case"],
            row["metric"],
            shown(row["a"], row["unit"]),
            shown(row["b"], row["unit"]),
            fmt.ratio(row["ratio"]),
            row["better"] or "-",
            row["ahead"] or "",
            row["note"] or "",
        )
    Console().print(table)
    return 0


COMPARE_CAPTION = (
    "better: lower for a time, higher for a rate, '-' where the unit does not say; ahead: the machine whose "
    "slowest-to-fastest range is entirely better; n/a: not measured (note says why)."
)


def _export(args: argparse.Namespace) -> int:
    from . import fmt
    from .bundle import export_results

    if len(args.names) > 2:
        raise ValueError("export takes [MACHINE] FILE")
    machine, path = (None, *args.names)[-2:]
    done = export_results(machine, path)
    print(f"exported {fmt.count(len(done), 'set')} to {path}: {', '.join(f'{f}/{s}' for f, s in done)}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from . import fmt
    from .bundle import import_results
    from .store import Busy

    try:
        machine, done = import_results(args.file, args.as_machine, replace=args.replace)
    except Busy as error:
        raise ValueError(str(error)) from None
    print(f"imported {fmt.count(len(done), 'set')} as machine {machine}: {', '.join(f'{f}/{s}' for f, s in done)}")
    return 0


def _card(machines: list[str]) -> int:
    """The numbers card as a table: the stored results only (nothing is measured)."""
    from rich.console import Console
    from rich.table import Table

    from . import card, store

    if not store.machines():
        print("howfast: no results stored yet: run 'howfast measure' first", file=sys.stderr)
        return 1
    frame = card.card(machines or None, measure=False)
    names = card.value_columns(frame)
    table = Table(title="How fast is this computer? (napkin numbers; n/a: see the reason)")
    for column in ["number", *names, "laptop", "phone", "measured in"]:
        table.add_column(column, justify="left" if column in ("number", "measured in") else "right")
    for row in frame.iter_rows(named=True):
        cells = [
            card.display(row[n], row["unit"])
            + (f"\n[dim]{card.spread(*(row[f'{n} {k}'] for k in ('lo', 'hi', 'runs')), row['unit'], row[n], aim)}[/dim]"
               if row[n] is not None else "")
            for n in names
            for aim in [row.get(f"{n} target")]
        ]  # fmt: skip
        why = "; ".join(f"{n}: {row[f'{n} reason']}" for n in names if row[n] is None and row[f"{n} reason"])
        table.add_row(
            row["label"],
            *cells,
            card.seed_cell(row, "laptop")
            + (f"\n[dim]{card.against(row, names[0])}[/dim]" if row["laptop"] is not None else ""),
            card.seed_cell(row, "phone"),
            card.link(row["section"]) + (f"\n[dim]n/a: {why}[/dim]" if why else ""),
        )
    console = Console()
    console.print(table)
    for n in names:
        console.print(f"{n}: {card.stamp_line(frame, n)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="howfast", description="Measure how fast this computer is.")
    sub = parser.add_subparsers(dest="command", required=True)
    measure = sub.add_parser("measure", help="run experiments and store this machine's results")
    measure.add_argument(
        "names",
        nargs="*",
        metavar="CHAPTER|SUBJECT",
        help="chapters or subjects, for example fsync, storing-data, networks, hashing; default: all",
    )
    measure.add_argument("--profile", choices=None, default=None, help="quick or full (default: $HOWFAST_PROFILE)")
    run = sub.add_parser("execute", help="execute chapters without Quarto, from stored results")
    run.add_argument("paths", nargs="*")
    run.add_argument("--png", type=Path, default=None, help="also save every chart as PNG in this directory")
    run.add_argument(
        "--timeout",
        type=int,
        default=None,
        help="seconds a cell may run (default: the profile's; 15 min quick, 6 h full)",
    )
    run.add_argument("--notebooks", type=Path, default=None, help="also save each executed page as a notebook here")
    kit = sub.add_parser("notebooks", help="write every page as a Jupyter notebook: clean, and executed here")
    kit.add_argument("paths", nargs="*", metavar="PAGE", help=".qmd pages (default: the whole book)")
    kit.add_argument("--out", type=Path, default=None, help="folder for clean/ and executed/ (default: notebooks/)")
    kit.add_argument("--clean-only", action="store_true", help="only the clean set (nothing is run)")
    kit.add_argument("--timeout", type=int, default=None, help="seconds a cell may run (default: the profile's)")
    show = sub.add_parser("card", help="print the numbers card of the stored results")
    show.add_argument("machines", nargs="*", metavar="MACHINE", help="stored machines to show (default: all)")
    facts = sub.add_parser("facts", help="print the machine facts for a directory")
    facts.add_argument("directory", nargs="?", default=None)
    sub.add_parser("machines", help="list the machines with stored results")
    sub.add_parser("doctor", help="check the machine before measuring: load, steal, governor, THP, swap, scratch")
    again = sub.add_parser("repeatability", help="measure twice: do second medians fall inside the first intervals?")
    again.add_argument("names", nargs="*", metavar="CHAPTER|SUBJECT", help="default: the whole book")
    again.add_argument("--sets", nargs=2, metavar="MACHINE", default=None, help="compare two stored machines instead")
    again.add_argument("--every", action="store_true", help="every metric of every case, not only the headlines")
    again.add_argument("--profile", default=None, help="quick or full (default: $HOWFAST_PROFILE)")
    versus = sub.add_parser("compare", help="two machines' stored results side by side, with ratios")
    versus.add_argument("machines", nargs=2, metavar="MACHINE")
    versus.add_argument("--profile", dest="folder", default=None, help="the profile to compare (default: both have)")
    versus.add_argument("--subject", action="append", default=None, help="only this subject (repeatable)")
    export = sub.add_parser("export", help="write a machine's stored results into one file (a zip)")
    export.add_argument("names", nargs="+", metavar="[MACHINE] FILE")
    bring = sub.add_parser("import", help="store the results of a file made by 'howfast export'")
    bring.add_argument("file", type=Path)
    bring.add_argument("--as", dest="as_machine", default=None, metavar="NAME", help="store them as this machine")
    bring.add_argument("--replace", action="store_true", help="overwrite stored sets of that machine")
    args = parser.parse_args(argv)
    if getattr(args, "profile", None):
        os.environ["HOWFAST_PROFILE"] = args.profile
    from .store import Busy

    try:
        if getattr(args, "timeout", None) is not None and args.timeout <= 0:
            raise ValueError(f"--timeout must be a positive number of seconds, got {args.timeout}")
        check_settings()
        if args.command == "measure":
            return _measure(args.names)
        if args.command == "execute":
            return _execute(args.paths, args.png, args.timeout, args.notebooks)
        if args.command == "notebooks":
            from .paths import from_setting

            return _notebooks(args.paths, args.out or from_setting("notebooks"), args.clean_only, args.timeout)
        pooled = {"machines": _machines, "compare": _compare, "export": _export, "import": _import}
        if args.command in pooled:
            return pooled[args.command](args)
        if args.command == "card":
            return _card(args.machines)
        if args.command == "doctor":
            return _doctor()
        if args.command == "repeatability":
            return _repeatability(args)
        from .machine import facts as machine_facts
        from .scratch import scratch_base

        print(json.dumps(machine_facts(args.directory or scratch_base()), indent=2))
        return 0
    except (ValueError, Busy) as error:  # a bad name, profile or setting, a run already going: one line
        print(f"howfast: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM):
            raise
        where = f" ({error.filename})" if error.filename else ""
        print(f"howfast: {error.strerror}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("howfast: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
