"""Every public function of every subject answers bad arguments with a clear exception
(ValueError or TypeError naming the argument, or Unsupported), never AttributeError,
ZeroDivisionError, a KeyError from deep inside, MemoryError or a crash."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import signal
from pathlib import Path

import pytest

import howfast
from howfast.bench import Unsupported
from howfast.machine import machine_id
from howfast.profiles import current_profile
from howfast.scratch import Scratch
from howfast.store import SUBJECTS

BAD = [0, -1, None, "x", 2**40, 1.5, {}, [], b"\0", {"method": "bogus", "block_size": 4096, "writes": 1}]


def _public(subject: str) -> list[tuple[str, object]]:
    found = []
    for part in ("experiments", "crosscheck", "report"):
        module = importlib.import_module(f"howfast.{subject}.{part}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if not name.startswith("_") and name != "measure" and fn.__module__ == module.__name__:
                found.append((f"{part}.{name}", fn))
    return found


@pytest.mark.parametrize("subject", SUBJECTS)
def test_bad_arguments_get_clear_exceptions(subject: str, scratch_dir: Path) -> None:
    profile = current_profile("smoke")
    wrong = []
    for name, fn in _public(subject):
        params = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if all(p.name in ("plan", "profile", "scratch") for p in params):
            continue  # nothing to give it wrong: it would just measure
        for bad in BAD:
            with Scratch() as scratch:
                given = {"plan": getattr(profile, subject), "profile": profile, "scratch": scratch}
                args = [given.get(p.name, bad) for p in params]
                try:
                    fn(*args)
                except (ValueError, TypeError, Unsupported):
                    pass
                except KeyError as error:  # a lookup that found nothing says so, naming what it looked for
                    if not str(error).startswith(("'expected one", '"expected one', "'no ")):
                        wrong.append(f"{name}({bad!r:.40}): KeyError {error}")
                except Exception as error:  # noqa: BLE001 - what the test is looking for
                    wrong.append(f"{name}({bad!r:.40}): {type(error).__name__} {error}"[:200])
    assert wrong == []


#: Every module of the package, and the public functions left out of the fuzz, with why.
MODULES = sorted(
    info.name.removeprefix("howfast.")
    for info in pkgutil.walk_packages(howfast.__path__, "howfast.")
    if not info.name.endswith("__main__") and info.name != "howfast._native"
)
#: ``__main__.main`` is the command line: a wrong argv is argparse's usage line and status 2
#: (SystemExit), by design; tests/test_cli.py checks it as a user meets it.
LEFT_OUT = {"__main__.main"}
#: wrong values of every kind: numbers out of any range, nothing, text, a mapping, a list,
#: bytes with NUL, a case that names a method no code has
FUZZ = [*BAD, 2**63, -(2**63), float("nan"), "", "\n", "../x", [None], {"x": None}, Path("/nonexistent/x")]
CALL_SECONDS = 20


def _functions(module_name: str) -> list[tuple[str, object, int]]:
    module = importlib.import_module(f"howfast.{module_name}")
    found = []
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("_") or fn.__module__ != module.__name__ or f"{module_name}.{name}" in LEFT_OUT:
            continue
        params = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        found.append((name, fn, len(params)))
    return found


class _Hung(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hung


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_function_refuses_wrong_arguments(
    module_name: str, scratch_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each public function of each module, every required argument wrong at once (each
    value of FUZZ in turn): only ValueError, TypeError or OSError (a missing file says
    so), at once: no AttributeError, KeyError, struct.error, OverflowError, no hang."""
    monkeypatch.chdir(tmp_path)  # a function handed "x" as a path writes nothing into the checkout
    wrong = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for name, fn, count in _functions(module_name):
            for bad in FUZZ if count else []:
                signal.alarm(CALL_SECONDS)
                try:
                    fn(*[bad] * count)
                except (ValueError, TypeError, OSError):
                    pass
                except _Hung:
                    wrong.append(f"{name}({bad!r:.40}): still running after {CALL_SECONDS} s")
                except Exception as error:  # noqa: BLE001 - what the test is looking for
                    wrong.append(f"{name}({bad!r:.40}): {type(error).__name__} {error}"[:200])
                finally:
                    signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert wrong == []
    assert list(scratch_dir.iterdir()) == []


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_class_refuses_wrong_arguments(
    module_name: str, scratch_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the constructors of the package's classes (a server, a scratch
    directory, a table, a results writer...): nothing is started by a wrong argument."""
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(f"howfast.{module_name}")
    wrong = []
    for name, cls in inspect.getmembers(module, inspect.isclass):
        if name.startswith("_") or cls.__module__ != module.__name__ or issubclass(cls, BaseException):
            continue
        try:
            signature = inspect.signature(cls)
        except (TypeError, ValueError):  # a Protocol, nothing to build
            continue
        count = sum(
            1
            for p in signature.parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        )
        for bad in FUZZ if count else []:
            try:
                cls(*[bad] * count)
            except (ValueError, TypeError, OSError):
                pass
            except Exception as error:  # noqa: BLE001 - what the test is looking for
                wrong.append(f"{name}({bad!r:.40}): {type(error).__name__} {error}"[:200])
    assert wrong == []
    assert list(scratch_dir.iterdir()) == []


def test_the_fuzz_reaches_every_module() -> None:
    """The package's modules, the shared ones and every subject's, are all fuzzed."""
    for expected in ("bench", "charts", "crosscheck", "machine", "notebook", "offline", "reference", "scratch"):
        assert expected in MODULES
    for expected in ("stats", "tables", "memtable.crash", "network.redis", "checks", "store", "bundle", "card"):
        assert expected in MODULES
    for subject in SUBJECTS:
        for part in ("experiments", "crosscheck", "report", "plan"):
            assert f"{subject}.{part}" in MODULES
    assert sum(len(_functions(m)) for m in MODULES) > 300


def test_machine_names_keep_their_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOWFAST_MACHINE", "élan")
    assert machine_id() == "élan"
    monkeypatch.setenv("HOWFAST_MACHINE", "lan")
    assert machine_id() == "lan"
    monkeypatch.setenv("HOWFAST_MACHINE", "my laptop/../x")
    assert machine_id() == "my-laptop-..-x" and "/" not in machine_id()
    monkeypatch.setenv("HOWFAST_MACHINE", "../..")
    assert machine_id() == "machine"
    for raw in ("evil\n", "evil\r\n", "evil/"):
        monkeypatch.setenv("HOWFAST_MACHINE", raw)
        assert machine_id() == "evil"
    monkeypatch.setenv("HOWFAST_MACHINE", "x" * 300)  # a folder name has at most 255 bytes
    assert machine_id() == "x" * 64
    monkeypatch.setenv("HOWFAST_MACHINE", "é" * 300)
    assert machine_id() == "é" * 64


def test_checks_look_at_each_of_many_arguments() -> None:
    """``*args`` and ``**kwargs`` are checked value by value, against their annotation."""
    import polars as pl

    from howfast.checks import check

    def count(*frames: pl.DataFrame, **sizes: int) -> int:
        return len(frames) + len(sizes)

    checked_count = check(count)
    assert checked_count(pl.DataFrame(), pl.DataFrame(), a=1) == 3 and checked_count() == 0
    with pytest.raises(TypeError, match="frames must be a polars DataFrame, got int"):
        checked_count(pl.DataFrame(), 0)
    with pytest.raises(TypeError, match="sizes must be a whole number, got str"):
        checked_count(a="x")


def test_the_issues_examples_are_clear_errors() -> None:
    """The calls the audit found answering with the wrong exception."""
    from howfast import charts, checks
    from howfast.memtable import crash
    from howfast.network import redis

    with pytest.raises(ValueError, match="key"):
        crash.expected_value(-1, 0)
    with pytest.raises(ValueError, match="version"):
        crash.expected_value(0, 2**64)
    with pytest.raises(ValueError, match="port"):
        redis.ping(2**63)
    with pytest.raises(ValueError, match="unexpected redis-benchmark output"):
        redis.parse_csv("")
    with pytest.raises(TypeError, match="grouped_bars"):
        charts.grouped_bars({})
    with pytest.raises(TypeError, match="namespace"):
        checks.checked({})
