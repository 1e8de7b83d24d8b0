"""The typed stub howfast/_native.pyi ships next to the module and describes it: the same
public names, and for every function and method the same parameters (names, order,
keyword-only markers, defaults) as the signatures pybind11 reports; calls with a wrong
type raise TypeError."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import howfast
from howfast import _native

STUB = Path(howfast.__file__).with_name("_native.pyi")  # beside the package (editable or installed)
# Only in a module built with SQLite (sqlite_version is None otherwise).
NEEDS_SQLITE = {"SqliteError", "sqlite_inserts", "sqlite_verify"}


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(), filename=str(STUB))


def public(name: str) -> bool:
    return not name.startswith("_")


def stub_names() -> set[str]:
    names: set[str] = set()
    for node in stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if public(n)}


def module_names() -> set[str]:
    return {n for n in dir(_native) if public(n)}


def shape(args: ast.arguments, drop_self: bool) -> list[tuple[str, str, object]]:
    """(name, kind, default) per parameter; default is `...` when there is none."""
    positional = list(args.posonlyargs) + list(args.args)
    defaults = [...] * (len(positional) - len(args.defaults)) + [ast.literal_eval(d) for d in args.defaults]
    out = [(a.arg, "positional", d) for a, d in zip(positional, defaults)]
    if args.vararg:
        out.append((args.vararg.arg, "varargs", ...))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append((a.arg, "keyword", ... if d is None else ast.literal_eval(d)))
    if args.kwarg:
        out.append((args.kwarg.arg, "varkw", ...))
    return out[1:] if drop_self else out


def runtime_shape(obj: object, name: str, drop_self: bool) -> list[tuple[str, str, object]]:
    """The parameters of pybind11's signature line (the first line of __doc__)."""
    line = (obj.__doc__ or "").lstrip().splitlines()[0]
    assert line.startswith(name + "("), f"{name}: no signature in its docstring: {line!r}"
    fn = ast.parse(f"def {line}: pass").body[0]
    assert isinstance(fn, ast.FunctionDef)
    return shape(fn.args, drop_self)


def stub_callables() -> list[tuple[str, ast.FunctionDef, object]]:
    """(qualified name, stub definition, runtime object) for every function and method."""
    out = []
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef) and public(node.name) and hasattr(_native, node.name):
            out.append((node.name, node, getattr(_native, node.name)))
        elif isinstance(node, ast.ClassDef) and hasattr(_native, node.name):
            cls = getattr(_native, node.name)
            for item in node.body:
                is_property = isinstance(item, ast.FunctionDef) and any(
                    isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list
                )
                if isinstance(item, ast.FunctionDef) and not is_property:
                    out.append((f"{node.name}.{item.name}", item, getattr(cls, item.name)))
    return out


def test_the_stub_is_installed_next_to_the_module() -> None:
    assert STUB.is_file(), f"{STUB} is missing: the wheel must ship howfast/_native.pyi"


def test_every_public_name_of_the_module_is_in_the_stub() -> None:
    missing = module_names() - stub_names()
    assert not missing, f"in howfast._native but not in _native.pyi: {sorted(missing)}"


def test_every_name_in_the_stub_exists_in_the_module() -> None:
    expected = stub_names()
    if _native.sqlite_version is None:
        expected -= NEEDS_SQLITE
    extra = expected - module_names()
    assert not extra, f"in _native.pyi but not in howfast._native: {sorted(extra)}"


def test_the_stub_all_lists_the_public_names() -> None:
    for node in stub_tree().body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "__all__":
            assert node.value is not None
            assert set(ast.literal_eval(node.value)) == stub_names() - {"__all__"}
            return
    pytest.fail("_native.pyi has no __all__")


@pytest.mark.parametrize("name, node, obj", [pytest.param(*c, id=c[0]) for c in stub_callables()])
def test_stub_parameters_match_the_module(name: str, node: ast.FunctionDef, obj: object) -> None:
    method = "." in name
    stub = shape(node.args, drop_self=method)
    runtime = runtime_shape(obj, node.name, drop_self=method)
    assert stub == runtime, f"{name}: stub {stub} != module {runtime}"


def test_classes_in_the_stub_are_classes() -> None:
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef) and public(node.name) and hasattr(_native, node.name):
            assert inspect.isclass(getattr(_native, node.name)), node.name


@pytest.mark.parametrize(
    "call",
    [
        lambda: _native.memtable_record_bytes("16", 100),
        lambda: _native.disk_io(123),
        lambda: _native.disk_io("/nonexistent/f", block_size="4096"),
        lambda: _native.memtable_benchmark("/tmp", 1 << 20, 100, flush=1),
        lambda: _native.Memtable("/tmp", capacity=[1]),
        lambda: _native.durable_writes("/nonexistent/f", 4096, "1"),
        lambda: _native.block_pattern(4096, -1),  # index is unsigned
    ],
    ids=[
        "record_bytes-str",
        "disk_io-int-path",
        "disk_io-str-size",
        "bench-int-flush",
        "memtable-list-capacity",
        "durable-str-count",
        "pattern-negative-index",
    ],
)
def test_a_wrong_type_raises_type_error(call) -> None:
    with pytest.raises(TypeError):
        call()


def typed_dict_keys() -> dict[str, set[str]]:
    """The keys of every TypedDict in the stub, with those of the TypedDicts it extends."""
    classes = {n.name: n for n in stub_tree().body if isinstance(n, ast.ClassDef)}

    def keys(name: str) -> set[str]:
        node = classes[name]
        out = {a.target.id for a in node.body if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)}
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                out |= keys(base.id)
        return out

    def is_typed_dict(node: ast.ClassDef) -> bool:
        return any(
            ast.unparse(b) == "typing.TypedDict"
            or (isinstance(b, ast.Name) and b.id in classes and is_typed_dict(classes[b.id]))
            for b in node.bases
        )

    return {name: keys(name) for name, node in classes.items() if is_typed_dict(node)}


def test_returned_dicts_have_the_stub_keys(tmp_path: Path) -> None:
    shapes = typed_dict_keys()
    direct = bool(_native.probe_direct_io(str(tmp_path))["supported"])
    got: dict[str, dict] = {
        "_IoUringProbe": _native.probe_io_uring(),
        "_DirectIoProbe": _native.probe_direct_io(str(tmp_path)),
        "_DurableWrites": _native.durable_writes(str(tmp_path / "dw"), 4096, 4, sync="none"),
        "_GroupCommit": _native.group_commit(str(tmp_path / "gc"), 4096, 2, 2),
    }
    _native.prepare_file(str(tmp_path / "io.0"), 64 * 1024, 4096)
    io = _native.disk_io(str(tmp_path / "io"), file_size=64 * 1024)
    got["_DiskIo"], got["_DiskIoJob"] = io, io["jobs"][0]
    (tmp_path / "mt").mkdir()
    with _native.Memtable(str(tmp_path / "mt"), 64 * 1024, direct=direct) as m:
        m.put(b"k", b"v")
        got["_MemtableStats"] = m.stats()
    (tmp_path / "mb").mkdir()
    got["_MemtableBenchmark"] = _native.memtable_benchmark(
        str(tmp_path / "mb"), 64 * 1024, 64, record_size=1024, producers=1, direct=direct
    )
    if _native.sqlite_version is not None:
        db = str(tmp_path / "s.db")
        got["_SqliteInserts"] = _native.sqlite_inserts(db, 10, 5, 100)
        got["_SqliteVerify"] = _native.sqlite_verify(db, 10, 100)
    if _native.rocksdb_version is not None:
        rdb = _native.RocksDb(str(tmp_path / "rocks"))
        got["_RocksResult"] = rdb.fillseq(10)
        rdb.close()
    for name, value in got.items():
        assert set(value) == shapes[name], f"{name}: module keys {sorted(value)} != stub keys {sorted(shapes[name])}"
