"""The results store: a set is written whole or not at all, read back as it was written,
says what produced it, and chapters measure only when they must."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from howfast import __version__, progress, store
from howfast.bench import Outcome, run
from howfast.profiles import current_profile


def _run(name: str, value: float = 3.0):
    return run(name, [{"k": 1}], lambda c, s: Outcome({"m": (value, "u")}), repetitions=2)


def _folders(subject: str = "fsync") -> list[str]:
    parent = store.set_dir(subject).parent
    return sorted(p.name for p in parent.glob(f".{subject}@*"))


def _write(subject: str, *names: str, value: float = 3.0) -> store.ResultSet:
    with store.writing(subject) as out:
        out.record_facts(Path.cwd())
        for name in names:
            out.add(_run(name, value))
    return store.load(subject)


def test_a_set_round_trips_with_its_manifest_and_facts(isolated: dict[str, Path]) -> None:
    data = _write("fsync", "one", "two")
    link = isolated["results"] / "test-machine" / "quick" / "fsync"
    assert store.set_dir("fsync") == link and link.is_symlink() and data.path == link.resolve()
    assert data.experiments == ["one", "two"]
    back = data.table("one")
    assert back["value"].to_list() == [3.0, 3.0]
    assert set(back.columns) >= {"k", "repetition", "metric", "value", "unit", "profile", "measured_at"}
    manifest = json.loads((data.path / "manifest.json").read_text())
    assert manifest["howfast"] == __version__ and manifest["profile"] == "quick" and manifest["subject"] == "fsync"
    assert manifest["repetitions"] == current_profile().repetitions and manifest["seconds"] >= 0
    assert data.facts["machine"] == "test-machine" and store.load_facts()["machine"] == "test-machine"
    assert store.machines() == ["test-machine"]
    assert "quick profile, measured" in data.stamp() and f"howfast {__version__}" in data.stamp()
    assert _folders() == [data.path.name]


def test_an_interrupted_set_leaves_the_previous_one_whole(isolated: dict[str, Path]) -> None:
    first = _write("fsync", "one", value=1.0)
    with pytest.raises(KeyboardInterrupt), store.writing("fsync") as out:
        out.record_facts(Path.cwd())
        out.add(_run("one", 2.0))
        raise KeyboardInterrupt
    again = store.load("fsync")
    assert again.table("one")["value"].to_list() == [1.0, 1.0]
    assert again.manifest == first.manifest
    assert _folders() == [first.path.name]  # the interrupted folder is gone
    replaced = _write("fsync", "other", value=5.0)  # a finished set replaces the old one whole
    assert replaced.experiments == ["other"] and not (replaced.path / "one.parquet").exists()
    assert _folders() == [first.path.name, replaced.path.name]  # the previous one stays for its readers
    held = first.path.name
    third = _write("fsync", "third")  # `first` is still held by this test: it is not removed under it
    assert _folders() == [held, replaced.path.name, third.path.name]
    assert first.table("one")["value"].to_list() == [1.0, 1.0]
    del first, again  # no reader holds it now: the next writer removes it
    fourth = _write("fsync", "fourth")
    assert _folders() == [replaced.path.name, third.path.name, fourth.path.name]  # `replaced` is still held


def test_a_set_without_facts_or_experiments_is_refused(isolated: dict[str, Path]) -> None:
    with pytest.raises(RuntimeError, match="no machine facts"), store.writing("fsync") as out:
        out.add(_run("one"))
    with pytest.raises(RuntimeError, match="no experiment"), store.writing("fsync") as out:
        out.record_facts(Path.cwd())
    with pytest.raises(store.MissingResults):
        store.load("fsync")
    with pytest.raises(ValueError, match="added twice"), store.writing("fsync") as out:
        out.record_facts(Path.cwd())
        out.add(_run("one"))
        out.add(_run("one"))


def test_missing_results_and_bad_names() -> None:
    with pytest.raises(store.MissingResults, match="python -m howfast measure storage --profile quick"):
        store.load("storage")
    with pytest.raises(ValueError, match="unknown subject"):
        store.load("../escape")
    with pytest.raises(ValueError, match="lower-case"), store.writing("fsync") as out:
        out.add(_run("Bad Name"))
    data = _write("fsync", "one")
    with pytest.raises(KeyError, match="no experiment 'two'"):
        data.table("two")
    with pytest.raises(store.MissingResults, match="kept no samples"):
        data.table("one", samples=True)
    with pytest.raises(store.MissingResults):
        store.load_facts("nobody")


def test_chapters_measure_only_when_they_must(isolated: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def fake_measure(subject: str, profile=None) -> store.ResultSet:
        calls.append(subject)
        return _write(subject, "one")

    monkeypatch.setattr(store, "measure", fake_measure)
    store.results("fsync")  # nothing stored: measured
    store.results("fsync")  # stored: read
    assert calls == ["fsync"]
    monkeypatch.setenv("HOWFAST_MEASURE", "1")
    store.results("fsync")  # asked to: measured again
    assert calls == ["fsync", "fsync"]
    monkeypatch.setenv("HOWFAST_MEASURE", "0")
    store.results("fsync")
    assert calls == ["fsync", "fsync"]


def test_sets_are_kept_per_profile(isolated: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _write("fsync", "one")
    monkeypatch.setenv("HOWFAST_PROFILE", "full")
    with pytest.raises(store.MissingResults, match="full profile"):
        store.load("fsync")
    assert store.load("fsync", profile="quick").profile == "quick"


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def subject_started(self, name: str) -> None:
        self.events.append(("subject", name))

    def subject_ended(self, name: str) -> None:
        self.events.append(("end", name))

    def experiment_started(self, name: str, total: int) -> None:
        self.events.append(("experiment", name, total))

    def advanced(self, detail: str) -> None:
        self.events.append(("advance", detail))


def test_progress_reports_every_run() -> None:
    recorder = Recorder()
    with progress.listening(recorder):
        run("two_cases", [{"k": 1}, {"k": 2}], lambda c, s: Outcome({"m": (1.0, "u")}), repetitions=3)
    assert recorder.events[0] == ("experiment", "two_cases", 6)
    assert [e[1] for e in recorder.events[1:]] == ["k=1", "k=2"] * 3
    run("quiet", [{"k": 1}], lambda c, s: Outcome({"m": (1.0, "u")}), repetitions=1)  # nobody listens: fine
    assert len(recorder.events) == 7


def test_a_set_of_an_older_shape_is_measured_again(isolated: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    data = _write("fsync", "one")
    manifest = json.loads((data.path / "manifest.json").read_text())
    assert manifest["schema"] == store.schema("fsync") > 0
    (data.path / "manifest.json").write_text(json.dumps({**manifest, "schema": manifest["schema"] - 1}))
    with pytest.raises(store.StaleResults, match="another shape"):
        store.load("fsync")
    calls: list[str] = []
    monkeypatch.setattr(store, "measure", lambda subject, profile=None: calls.append(subject) or _write(subject, "x"))
    assert store.results("fsync").experiments == ["x"] and calls == ["fsync"]


def test_a_switched_off_run_never_replaces_the_real_results(
    isolated: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _write("fsync", "one", value=1.0)
    monkeypatch.setenv("HOWFAST_DISABLE_IO_URING", "1")
    tried = _write("fsync", "one", value=2.0)
    assert tried.path.parent.name == "quick+no-io_uring" and tried.path != real.path
    assert "with io_uring switched off" in tried.stamp()
    monkeypatch.delenv("HOWFAST_DISABLE_IO_URING")
    assert store.load("fsync").table("one")["value"].to_list() == [1.0, 1.0]


def test_a_second_writer_is_refused_with_the_first_ones_pid(isolated: dict[str, Path]) -> None:
    first = store.Writer("fsync", current_profile())
    try:
        with pytest.raises(store.Busy, match=f"pid {os.getpid()}"):
            store.Writer("fsync", current_profile())
        store.Writer("storage", current_profile()).discard()  # another subject is another lock
    finally:
        first.discard()
    store.Writer("fsync", current_profile()).discard()  # free again


WRITER = """
import sys, time
from pathlib import Path
from howfast import store
from howfast.bench import Outcome, run
from howfast.profiles import current_profile
rounds, pause = int(sys.argv[1]), float(sys.argv[2])
for i in range(rounds):
    with store.writing("fsync") as out:
        out.record_facts(Path.cwd())
        for name in ("one", "two", "three"):
            frame = run(name, [{"k": k} for k in range(200)], lambda c, s: Outcome({"m": (float(i), "u")}),
                        repetitions=3)
            out.add(frame)
            time.sleep(pause)
        print(i, flush=True)
"""


def _writer(rounds: int, pause: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(rounds), str(pause)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )


def test_readers_never_see_half_a_set(isolated: dict[str, Path]) -> None:
    """A writer replaces the set 30 times while this process reads it as fast as it can:
    every read finds a whole set, all of whose tables come from the same writing."""
    _write("fsync", "one", "two", "three", value=-1.0)
    writer = _writer(30, 0.0)
    reads = 0
    try:
        while writer.poll() is None or reads == 0:
            data = store.load("fsync")
            values = {name: set(data.table(name)["value"].to_list()) for name in ("one", "two", "three")}
            assert len(set().union(*values.values())) == 1, values  # one writing, not a mix
            reads += 1
    finally:
        out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    assert reads > 10 and out.split()[-1] == "29"
    assert store.load("fsync").table("one")["value"][0] == 29.0


def test_a_writer_killed_mid_set_leaves_the_previous_set(isolated: dict[str, Path]) -> None:
    before = _write("fsync", "one", value=7.0)
    writer = _writer(1, 0.5)  # half a second between experiments
    time.sleep(1.2)  # inside its set by now, committed nothing
    writer.send_signal(signal.SIGKILL)
    writer.communicate(timeout=30)
    after = store.load("fsync")
    assert after.path == before.path and after.table("one")["value"][0] == 7.0
    again = _write("fsync", "two", value=8.0)  # the lock died with the writer; its folder is removed
    assert _folders() == [before.path.name, again.path.name]


def test_the_missing_note_names_each_reason_once_and_its_subject(isolated: dict[str, Path]) -> None:
    from howfast import book
    from howfast.bench import Unsupported

    def off(case: dict, scratch: object) -> Outcome:
        raise Unsupported(case["why"])

    assert book.missing_note(_write("storage", "one")) == ""
    for subject, why in (("storage", "io_uring: disabled by X"), ("sqlite", "disabled by Y")):
        with store.writing(subject) as out:
            out.record_facts(Path.cwd())
            out.add(run("off", [{"why": why}, {"why": why}], off, repetitions=2))
            out.add(run("again", [{"why": why}], off, repetitions=1))
    callout = book.missing_note(store.load("storage"), store.load("sqlite"), store.load("sqlite"))
    assert callout.startswith("::: {.callout-warning}") and callout.rstrip().endswith(":::")
    assert "- io_uring: disabled by X\n- SQLite: disabled by Y\n" in callout
    assert callout.count("disabled by X") == 1 and callout.count("disabled by Y") == 1


def test_a_set_names_the_code_that_measured_it_not_the_code_at_its_end(
    isolated: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long run in a checkout someone edits meanwhile: the manifest keeps the commit the
    writer started with, which is the code that ran."""
    monkeypatch.setattr(store, "code_version", lambda: {"howfast": __version__, "commit": "aaaaaaaaaaaa"})
    with store.writing("fsync") as out:
        monkeypatch.setattr(store, "code_version", lambda: {"howfast": __version__, "commit": "bbbbbbbbbbbb"})
        out.record_facts(Path.cwd())
        out.add(_run("one"))
    assert store.load("fsync").manifest["commit"] == "aaaaaaaaaaaa"


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(None, "n/a"), (0.35, "350 ms"), (45.0, "45 s"), (119.0, "119 s"), (120.0, "2 min"), (319.8, "5 min 20 s"),
     (599.6, "10 min"), (630.0, "10 min"), (4380.0, "73 min"), (7200.0, "2 h"), (9000.0, "2 h 30 min"),
     (3 * 86_400.0, "3 days"), (400_000.0, "4.6 days")],
)  # fmt: skip
def test_a_duration_reads_in_the_unit_a_reader_thinks_in(seconds: float | None, said: str) -> None:
    assert store.duration_words(seconds) == said


def test_a_duration_refuses_what_is_no_duration() -> None:
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="seconds"):
            store.duration_words(bad)
    with pytest.raises(TypeError, match="seconds"):
        store.duration_words("60")  # type: ignore[arg-type]
