"""Every public function of every subject answers bad arguments with a clear exception
(ValueError or TypeError naming the argument, or Unsupported), never AttributeError,
ZeroDivisionError, a KeyError from deep inside, MemoryError or a crash."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

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


#: The modules beside the subjects: the card, machines compared, bundles, the workshop kit,
#: the design estimates and the power-cut crash states.
SHARED = (
    "card", "machines", "bundle", "workshop", "design.estimates", "design.calculator", "design.history",
    "design.measured", "memtable.powercut",
)  # fmt: skip


@pytest.mark.parametrize("module_name", SHARED)
def test_shared_modules_get_clear_exceptions(module_name: str, scratch_dir: Path) -> None:
    module = importlib.import_module(f"howfast.{module_name}")
    wrong = []
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("_") or fn.__module__ != module.__name__:
            continue
        params = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        for bad in BAD if params else []:
            try:
                fn(*[bad] * len(params))
            except (ValueError, TypeError, Unsupported, FileNotFoundError):  # a missing file or set says so
                pass
            except KeyError as error:
                if not str(error).startswith(("'expected one", '"expected one', "'no ")):
                    wrong.append(f"{name}({bad!r:.40}): KeyError {error}")
            except Exception as error:  # noqa: BLE001 - what the test is looking for
                wrong.append(f"{name}({bad!r:.40}): {type(error).__name__} {error}"[:200])
    assert wrong == []
    assert list(scratch_dir.iterdir()) == []


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
