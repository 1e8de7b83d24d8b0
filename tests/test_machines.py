"""Machines compared: compare's numbers are the stored medians and their ratios; a bundle
round-trips byte for byte and a damaged, edited or hostile one is refused; the chapters
gain a column and a chart only when another machine is stored; every error of the
command line is one line and a non-zero status."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT, command_env
from howfast import bundle, machines, scratch, stats, store, tables
from howfast.bench import Run
from howfast.profiles import PROFILES

SUBJECTS = ("fsync", "cpu")


def _howfast(results: Path, *args: str, machine: str = "alpha") -> subprocess.CompletedProcess:
    scratch = results.parent / "scratch"
    scratch.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "howfast", *args],
        cwd=ROOT,
        env=command_env(results.parent, HOWFAST_RESULTS=str(results), HOWFAST_MACHINE=machine, COLUMNS="250"),
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """fsync and cpu measured on the smoke profile twice, as machines alpha and beta."""
    results = tmp_path_factory.mktemp("machines") / "results"
    for name in ("alpha", "beta"):
        done = _howfast(results, "measure", *SUBJECTS, machine=name)
        assert done.returncode == 0, done.stderr
    return results


@pytest.fixture
def pool(measured: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the measured results, this process being alpha on the smoke profile."""
    results = tmp_path / "pool"
    shutil.copytree(measured, results, symlinks=True)
    monkeypatch.setenv("HOWFAST_RESULTS", str(results))
    monkeypatch.setenv("HOWFAST_PROFILE", "smoke")
    monkeypatch.setenv("HOWFAST_MACHINE", "alpha")
    return results


def _one_line_error(done: subprocess.CompletedProcess, said: str) -> None:
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("howfast: ") and said in lines[0], done.stderr
    assert "Traceback" not in done.stderr


# --- compare ---------------------------------------------------------------------------


def test_compare_gives_the_stored_medians_and_their_ratio(pool: Path) -> None:
    frame = machines.compare("alpha", "beta")
    assert set(frame["subject"]) == set(SUBJECTS)
    checked = 0
    for subject in SUBJECTS:
        a, b = store.load(subject, machine="alpha"), store.load(subject, machine="beta")
        for experiment in a.experiments:
            ta, tb = a.table(experiment), b.table(experiment)
            case = machines.case_columns(ta)
            sa = stats.summarize(ta.filter(pl.col("metric") != "unsupported"), case)
            sb = stats.summarize(tb.filter(pl.col("metric") != "unsupported"), case)
            rows = frame.filter((pl.col("subject") == subject) & (pl.col("experiment") == experiment))
            for row in sa.iter_rows(named=True):
                text = " ".join(f"{c}={row[c]}" for c in case)
                found = rows.filter((pl.col("case") == text) & (pl.col("metric") == row["metric"]))
                assert found.height == 1, (experiment, text, row["metric"])
                other = sb.filter(pl.all_horizontal(pl.col(c) == row[c] for c in [*case, "metric"]))
                got = found.row(0, named=True)
                assert got["a"] == row["median"]
                if other.height and row["median"]:
                    assert got["b"] == other["median"][0]
                    assert got["ratio"] == pytest.approx(other["median"][0] / row["median"], rel=1e-12)
                    checked += 1
    assert checked > 20
    units = frame.select("unit", "better").unique()
    for unit, better in units.iter_rows():
        assert better == ("lower" if unit in ("ns", "us") else "higher" if unit.endswith("/s") else None), unit


def _synthetic(machine: str, rows: list[dict]) -> None:
    """A cpu set of `machine` whose costs table holds `rows` (operation, metric, value...)."""
    frame = pl.DataFrame(
        [{"count": 1, "unit": "ns", "note": None} | r for r in rows],
        schema_overrides={"value": pl.Float64, "note": pl.String},
    ).select("operation", "count", "repetition", "metric", "value", "unit", "note")
    writer = store.Writer("cpu", PROFILES["smoke"], machine=machine, folder="smoke")
    writer.add(Run(benchmark="costs", profile="smoke", metrics=frame, samples=pl.DataFrame()))
    writer.machine_facts = {"machine": machine}
    writer.commit()


def test_compare_keeps_cases_one_machine_lacks_with_the_reason(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOWFAST_PROFILE", "smoke")
    ns = [{"operation": "a", "metric": "ns_per_op", "value": v, "repetition": i} for i, v in enumerate([10, 12, 14])]
    gone = {"operation": "b", "metric": "unsupported", "value": None, "unit": "", "repetition": 0, "note": "no b here"}
    _synthetic("one", [*ns, gone, {"operation": "c", "metric": "ns_per_op", "value": 1.0, "repetition": 0}])
    fast = [{"operation": "a", "metric": "ns_per_op", "value": v, "repetition": i} for i, v in enumerate([5, 6, 7])]
    _synthetic("two", [*fast, {"operation": "b", "metric": "ns_per_op", "value": 3.0, "repetition": 0}])
    frame = machines.compare("one", "two")
    rows = {r["case"]: r for r in frame.iter_rows(named=True)}
    a = rows["operation=a count=1"]
    assert (a["a"], a["b"], a["ratio"], a["better"], a["ahead"]) == (12.0, 6.0, 0.5, "lower", "two")
    b = rows["operation=b count=1"]
    assert b["a"] is None and b["b"] == 3.0 and b["ratio"] is None and b["note"] == "one: no b here"
    c = rows["operation=c count=1"]
    assert c["b"] is None and c["note"] == "two has no such case"


def test_compare_on_the_command_line(pool: Path) -> None:
    done = _howfast(pool, "compare", "alpha", "beta", "--subject", "cpu")
    assert done.returncode == 0, done.stderr
    assert "beta beside alpha" in done.stdout and "cpu / costs" in done.stdout
    listing = _howfast(pool, "machines")
    assert listing.returncode == 0 and "alpha (this machine)" in listing.stdout and "beta" in listing.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["compare", "alpha", "zeta"], "no stored results for machine 'zeta'"),
        (["compare", "alpha", "alpha"], "two different machines"),
        (["export", "zeta", "/tmp/howfast-never-written.zip"], "no stored results for machine 'zeta'"),
        (["import", "/nonexistent/bundle.zip"], "no bundle file"),
    ],
)
def test_errors_are_one_line(pool: Path, args: list[str], said: str) -> None:
    _one_line_error(_howfast(pool, *args), said)


def test_no_results_at_all_is_one_line(tmp_path: Path) -> None:
    _one_line_error(_howfast(tmp_path / "empty", "compare", "alpha", "beta"), "no stored results for machine 'alpha'")
    _one_line_error(_howfast(tmp_path / "empty", "machines"), "no stored results yet")


# --- export and import -------------------------------------------------------------------


def _files(results: Path, machine: str) -> dict[str, bytes]:
    found = {}
    for folder, subject in store.stored(machine):
        data = store.load_stored(subject, machine, folder)
        for path in data.path.iterdir():
            found[f"{folder}/{subject}/{path.name}"] = path.read_bytes()
    return found


def test_export_then_import_round_trips_exactly(pool: Path, tmp_path: Path) -> None:
    path = tmp_path / "alpha.zip"
    assert _howfast(pool, "export", str(path)).returncode == 0
    done = _howfast(pool, "import", str(path), "--as", "gamma")
    assert done.returncode == 0, done.stderr
    before, after = _files(pool, "alpha"), _files(pool, "gamma")
    assert before == after and len(before) > 10
    for folder, subject in store.stored("alpha"):
        a, g = store.load_stored(subject, "alpha", folder), store.load_stored(subject, "gamma", folder)
        assert a.manifest == g.manifest and a.facts == g.facts
        for experiment in a.experiments:
            assert a.table(experiment).equals(g.table(experiment))
    same = machines.compare("alpha", "gamma").filter(pl.col("ratio").is_not_null())
    assert same.height and (same["ratio"] == 1.0).all()


def test_import_over_this_machines_results_needs_replace(pool: Path, tmp_path: Path) -> None:
    path = tmp_path / "alpha.zip"
    assert bundle.export_results("alpha", path)
    _one_line_error(_howfast(pool, "import", str(path)), "this machine's own results")
    _one_line_error(_howfast(pool, "import", str(path), "--as", "beta"), "machine 'beta' already has stored results")
    before = _files(pool, "alpha")
    done = _howfast(pool, "import", str(path), "--replace")
    assert done.returncode == 0, done.stderr
    assert _files(pool, "alpha") == before


def _rewrite(source: Path, target: Path, change) -> None:
    """Copy the bundle `source` to `target`, passing each (name, bytes) through `change`,
    which returns the new pairs."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            for name, blob in change(info.filename, old.read(info.filename)):
                new.writestr(name, blob)


def _edited_index(name: str, blob: bytes, member: str, payload: bytes) -> list[tuple[str, bytes]]:
    """The index, with the digest of `member` made to match `payload`."""
    index = json.loads(blob)
    folder, subject, file = member.split("/")
    for entry in index["sets"]:
        if (entry["profile"], entry["subject"]) == (folder, subject):
            entry["files"][file] = hashlib.sha256(payload).hexdigest()
    return [(name, json.dumps(index).encode())]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # a damaged table: its digest no longer matches
        (lambda n, b: [(n, b[:-9] + b"XXXXXXXXX" if n.endswith("latency.parquet") else b)], "was changed after"),
        # a member outside the layout, however it is named
        (lambda n, b: [(n, b)] + ([("../../evil.parquet", b)] if n == bundle.INDEX else []), "'../../evil.parquet'"),
        (lambda n, b: [(n, b)] + ([("/etc/evil.json", b)] if n == bundle.INDEX else []), "'/etc/evil.json'"),
        (lambda n, b: [(n, b)] + ([("smoke/fsync/../../x.parquet", b)] if n == bundle.INDEX else []), "x.parquet"),
        # a file the index does not list
        (lambda n, b: [(n, b)] + ([("smoke/fsync/extra.parquet", b)] if n == bundle.INDEX else []), "unlisted"),
        # a table replaced by something that is not parquet, with its digest updated too
        (
            lambda n, b: (
                _edited_index(n, b, "smoke/cpu/costs.parquet", b"not parquet")
                if n == bundle.INDEX
                else [(n, b"not parquet" if n == "smoke/cpu/costs.parquet" else b)]
            ),
            "not a readable parquet file",
        ),
        # no index at all
        (lambda n, b: [] if n == bundle.INDEX else [(n, b)], "is not a howfast bundle"),
    ],
)
def test_a_damaged_or_hostile_bundle_is_refused_whole(pool: Path, tmp_path: Path, change, said: str) -> None:
    good, bad = tmp_path / "good.zip", tmp_path / "bad.zip"
    bundle.export_results("alpha", good)
    _rewrite(good, bad, change)
    _one_line_error(_howfast(pool, "import", str(bad), "--as", "mallory"), said)
    assert not (pool / "mallory").exists(), "a refused bundle writes nothing, not even a folder"
    assert not any(p.name == "evil.parquet" for p in tmp_path.rglob("*"))


def _bomb(good: Path, bad: Path, size: int) -> None:
    """The bundle `good` with one table replaced by `size` bytes of zeros, deflated (a
    thousandth of that on disk), the index's digest made to match: a zip bomb that passes
    every check but its size."""
    member, chunk = "smoke/cpu/costs.parquet", bytes(2**20)
    digest = hashlib.sha256()
    for _ in range(size // len(chunk)):
        digest.update(chunk)
    with zipfile.ZipFile(good) as old, zipfile.ZipFile(bad, "w") as new:
        for info in old.infolist():
            blob = old.read(info.filename)
            if info.filename == member:
                inflated = zipfile.ZipInfo(member)
                inflated.compress_type = zipfile.ZIP_DEFLATED
                with new.open(inflated, "w", force_zip64=True) as out:
                    for _ in range(size // len(chunk)):
                        out.write(chunk)
                continue
            if info.filename == bundle.INDEX:
                index = json.loads(blob)
                for entry in index["sets"]:
                    if entry["subject"] == "cpu":
                        entry["files"]["costs.parquet"] = digest.hexdigest()
                blob = json.dumps(index).encode()
            new.writestr(info, blob)


BOMB_IMPORT = """
import sys
from howfast import bundle
try:
    bundle.import_results(sys.argv[1], "mallory")
    print("imported")
except (ValueError, OSError) as error:
    print(f"refused: {error}")
# the peak of this process since its exec (ru_maxrss would count the forking pytest's memory too)
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
"""


def _tree(results: Path) -> list[str]:
    return sorted(str(p.relative_to(results)) for p in results.rglob("*"))


def test_a_zip_bomb_is_refused_before_it_is_inflated(pool: Path, tmp_path: Path) -> None:
    """1 GiB of zeros in a bundle of about a megabyte: refused from its declared sizes, the
    import's peak memory under 100 MB, nothing written."""
    good, bad = tmp_path / "good.zip", tmp_path / "bomb.zip"
    bundle.export_results("alpha", good)
    _bomb(good, bad, 2**30)
    assert bad.stat().st_size < 8 * 2**20
    before = _tree(pool)
    done = subprocess.run(
        [sys.executable, "-c", BOMB_IMPORT, str(bad)],
        cwd=ROOT,
        env=command_env(tmp_path, HOWFAST_RESULTS=str(pool), HOWFAST_MACHINE="alpha"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    said, peak_kib = done.stdout.strip().splitlines()
    assert said.startswith("refused: ") and "larger than" in said, done.stdout + done.stderr
    assert int(peak_kib) < 100 * 1024, f"peak RSS {int(peak_kib) >> 10} MiB"
    assert _tree(pool) == before


def test_an_import_killed_midway_is_cleaned_up_by_the_next(pool: Path, tmp_path: Path) -> None:
    """Its private folder names its owner; the next import removes it once that is gone."""
    path = tmp_path / "alpha.zip"
    bundle.export_results("alpha", path)
    left = pool / ".import-killed"
    left.mkdir()
    (left / "0").write_bytes(b"half a table")
    (left / ".owner").write_text("999999999 1")  # no such process
    alive = pool / ".import-running"
    alive.mkdir()
    (alive / ".owner").write_text(scratch.owner_stamp())
    bundle.import_results(path, "mallory")
    assert not left.exists() and alive.exists()
    assert not [p for p in pool.glob(".import-*") if p != alive]


def test_an_import_must_fit_in_the_free_space(pool: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "alpha.zip"
    bundle.export_results("alpha", path)
    before = _tree(pool)
    monkeypatch.setattr(shutil, "disk_usage", lambda where: shutil._ntuple_diskusage(2**40, 2**40 - 2**20, 2**20))
    with pytest.raises(bundle.BadBundle, match="free"):
        bundle.import_results(path, "mallory")
    assert _tree(pool) == before


def test_a_file_that_is_not_a_zip_is_refused(pool: Path, tmp_path: Path) -> None:
    path = tmp_path / "notes.zip"
    path.write_text("hello")
    _one_line_error(_howfast(pool, "import", str(path)), "not a readable zip file")


def test_a_bundle_of_another_shape_is_refused(pool: Path, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.zip", tmp_path / "bad.zip"
    bundle.export_results("alpha", good)

    def older(name: str, blob: bytes) -> list[tuple[str, bytes]]:
        if name == "smoke/cpu/manifest.json":
            manifest = json.loads(blob)
            manifest["schema"] = -1
            return [(name, json.dumps(manifest).encode())]
        if name == bundle.INDEX:
            with zipfile.ZipFile(good) as z:
                manifest = json.loads(z.read("smoke/cpu/manifest.json"))
            manifest["schema"] = -1
            return _edited_index(name, blob, "smoke/cpu/manifest.json", json.dumps(manifest).encode())
        return [(name, blob)]

    _rewrite(good, bad, older)
    with pytest.raises(bundle.BadBundle, match="in another shape"):
        bundle.import_results(bad, "mallory")
    assert store.stored("mallory") == []


#: names no machine's folder may have: a final newline ('$' matches before it), a carriage
#: return, a separator, a parent, NUL, longer than a file name may be, hidden, empty
HOSTILE_NAMES = ["evil\n", "evil\r", "a\nb", "a/b", "..", "../up", "a\0b", "x" * 300, ".hidden", ""]


def test_import_checks_the_machine_name(pool: Path, tmp_path: Path) -> None:
    path = tmp_path / "alpha.zip"
    bundle.export_results(None, path)
    before = sorted(p.name for p in pool.iterdir())
    for name in HOSTILE_NAMES:
        with pytest.raises(ValueError, match="machine name"):
            bundle.import_results(path, name)
        with pytest.raises(ValueError, match="machine name"):
            bundle.check_machine_name(name)
    assert sorted(p.name for p in pool.iterdir()) == before


def test_import_as_a_hostile_name_is_one_line(pool: Path, tmp_path: Path) -> None:
    path = tmp_path / "alpha.zip"
    bundle.export_results(None, path)
    before = sorted(p.name for p in pool.iterdir())
    for name in ("evil\n", "a/b", "x" * 300):
        _one_line_error(_howfast(pool, "import", str(path), "--as", name), "machine name")
    assert sorted(p.name for p in pool.iterdir()) == before


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_bundle_naming_a_hostile_machine_is_refused(pool: Path, tmp_path: Path, name: str) -> None:
    good, bad = tmp_path / "good.zip", tmp_path / "bad.zip"
    bundle.export_results("alpha", good)

    def renamed(member: str, blob: bytes) -> list[tuple[str, bytes]]:
        if member != bundle.INDEX:
            return [(member, blob)]
        index = json.loads(blob)
        index["machine"] = name
        return [(member, json.dumps(index).encode())]

    _rewrite(good, bad, renamed)
    before = sorted(p.name for p in pool.iterdir())
    with pytest.raises(bundle.BadBundle, match="machine name"):
        bundle.import_results(bad)
    assert sorted(p.name for p in pool.iterdir()) == before


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_store_refuses_hostile_machine_and_profile_names(pool: Path, name: str) -> None:
    from howfast import card

    with pytest.raises(ValueError):
        store.load_stored("fsync", name, "smoke")
    with pytest.raises(ValueError):
        store.load_stored("fsync", "alpha", name)
    assert store.stored(name) == []
    with pytest.raises(ValueError, match="machine"):
        card.headlines(name, measure=False)
    with pytest.raises(ValueError, match="profile"):
        card.headlines("alpha", name, measure=False)


# --- in the book -------------------------------------------------------------------------


def test_beside_adds_a_formatted_column_per_other_frame_and_nothing_without_one() -> None:
    frame = pl.DataFrame({"case": ["x", "y"], "rate": [1000.0, 2000.0]})
    table = tables.table(frame, formats={"rate": lambda v: f"{v:.0f}/s"})
    assert table.beside({}, on=["case"], columns=["rate"]) is table
    wide = table.beside({"b": pl.DataFrame({"case": ["y"], "rate": [5.0]})}, on=["case"], columns=["rate"])
    assert wide.frame.columns == ["case", "rate", "rate (b)"]
    assert "| x | 1000/s | n/a |" in wide.markdown() and "| y | 2000/s | 5/s |" in wide.markdown()
    with pytest.raises(ValueError, match="no column 'speed'"):
        table.beside({}, on=["case"], columns=["speed"])


def _chapter(results: Path, monkeypatch) -> tuple[str, list]:
    from howfast.notebook import execute_chapter

    monkeypatch.setenv("HOWFAST_RESULTS", str(results))
    done = execute_chapter(ROOT / "chapters" / "fsync.qmd")
    assert not done.problems, done.problems
    table = "".join(o["data"]["text/markdown"] for o in done.outputs("tbl-fsync-methods")["tbl-fsync-methods"])
    return table.splitlines()[0], done.outputs("machines-")["machines-fsync"]


def test_a_chapter_shows_other_machines_only_when_there_are_some(pool: Path, tmp_path: Path, monkeypatch) -> None:
    from howfast.notebook import chart_spec

    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copytree(pool / "alpha", alone / "alpha", symlinks=True)
    header, outputs = _chapter(alone, monkeypatch)
    assert "(" not in header and outputs == []  # no column, no chart, no empty space

    header, outputs = _chapter(pool, monkeypatch)
    assert "writes/s (beta)" in header
    specs = [s for s in map(chart_spec, outputs) if s]
    assert len(specs) == 1
    rows = [row for data in specs[0]["datasets"].values() for row in data if "machine" in row]
    assert {r["machine"] for r in rows} == {"beta"}
    beta = store.load("fsync", machine="beta").table("latency")
    fsync_rate = stats.pick(
        stats.summarize(beta.filter(pl.col("layout") == "append"), ["method"]), "writes_per_s", method="fsync"
    )
    assert any(r["value"] == fsync_rate for r in rows)


def test_headlines_read_each_other_machines_set_once_from_the_registry(pool: Path, monkeypatch) -> None:
    """A chart of several headlines opens each other machine's set of a subject once, and a
    registry quantity (named by id) reads the same value as the card's registry."""
    from howfast import headlines

    data = store.load("cpu")
    calls: list[tuple] = []
    real = store.load_stored

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "load_stored", counted)
    picks = [machines.Headline("getppid", "cpu", "costs", "ns_per_op", {"operation": "getppid"}), "syscall",
             "context_switch"]  # fmt: skip
    frame = machines.headlines([data], picks)
    assert len(calls) == 1 and calls[0][:2] == ("cpu", "beta")
    assert set(frame["machine"].to_list()) == {"this machine", "beta"}
    mine = frame.filter((pl.col("machine") == "this machine") & (pl.col("headline") == "system call"))
    assert mine["value"][0] == headlines.read(headlines.get("syscall"), data).estimate.median
    same = frame.filter(pl.col("machine") == "this machine")["value"].to_list()
    assert same[0] == same[1]  # the chapter's own pick and the registry's quantity: one value
    assert (frame["lo"] <= frame["value"]).all() and (frame["value"] <= frame["hi"]).all()


def test_compare_starts_with_the_registrys_headlines(pool: Path) -> None:
    """Two machines' headline numbers, each median with its range, the words from claims;
    a subject neither stored reads n/a with its reason."""
    from howfast import headlines

    frame = machines.compare_headlines("alpha", "beta")
    assert frame["id"].to_list() == [q.id for q in headlines.QUANTITIES if q.card]
    syscall = frame.filter(pl.col("id") == "syscall").row(0, named=True)
    alpha = headlines.read(headlines.get("syscall"), store.load_stored("cpu", "alpha", "smoke")).estimate
    assert syscall["a"] == alpha.median and syscall["a_lo"] == alpha.lo
    assert re.search(r" alpha( \([^()]*\))?$", syscall["b against a"]) and syscall["b"] is not None
    seq = frame.filter(pl.col("id") == "seq_read").row(0, named=True)
    assert seq["a"] is None and seq["b against a"].startswith("not measured here") and "storage" in seq["note"]
    with pytest.raises(ValueError, match="two different machines"):
        machines.compare_headlines("alpha", "alpha")
    done = _howfast(pool, "compare", "alpha", "beta")
    assert done.returncode == 0, done.stderr
    assert "the headline numbers" in done.stdout and "system call" in done.stdout
