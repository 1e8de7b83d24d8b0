"""Command line: ``python -m howfast execute [QMD ...]`` and ``python -m howfast facts``.

``execute`` runs the chapters without Quarto (refreshing the stored results) and
exits non-zero if a cell fails or a chart, table or inline number is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _save_pngs(done, directory: Path) -> None:
    import vl_convert as vlc

    directory.mkdir(parents=True, exist_ok=True)
    for label, spec in done.charts().items():
        (directory / f"{label}.png").write_bytes(vlc.vegalite_to_png(json.dumps(spec), scale=2))


def _execute(paths: list[str], png: Path | None, timeout: int | None) -> int:
    from .notebook import chapters, execute_chapter
    from .paths import book_root
    from .profiles import current_profile

    root = book_root()
    targets = [Path(p) for p in paths] or (chapters(root) if root else [])
    if not targets:
        print("no chapters found: run from the book's checkout or name .qmd files", file=sys.stderr)
        return 2
    print(f"profile: {current_profile().name}")
    failed = 0
    for path in targets:
        try:
            done = execute_chapter(path, timeout=timeout)
        except Exception as error:  # a failing cell: report it and go on
            print(f"FAIL {path}: {error}", file=sys.stderr)
            failed += 1
            continue
        if png is not None:
            _save_pngs(done, png)
        status = "ok" if not done.problems else "PROBLEMS"
        print(f"{status:8} {path} ({done.seconds:.1f} s)")
        for problem in done.problems:
            print(f"         - {problem}")
        failed += bool(done.problems)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m howfast")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("execute", help="execute chapters without Quarto")
    run.add_argument("paths", nargs="*")
    run.add_argument("--png", type=Path, default=None, help="also save every chart as PNG in this directory")
    run.add_argument("--timeout", type=int, default=None,
                     help="seconds a cell may run (default: the profile's; 15 min quick, 6 h full)")
    facts = sub.add_parser("facts", help="print the machine facts for a directory")
    facts.add_argument("directory", nargs="?", default=None)
    args = parser.parse_args(argv)
    if args.command == "execute":
        return _execute(args.paths, args.png, args.timeout)
    from .machine import facts as machine_facts
    from .scratch import scratch_base

    print(json.dumps(machine_facts(args.directory or scratch_base()), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
