"""Bad input to the native module is refused before anything happens: a path with a NUL
byte (which every system call would cut short), numbers out of range (before any
allocation or file), a copy larger than the machine can hold."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

import howfast
from howfast import _native

STUB = Path(howfast.__file__).with_name("_native.pyi")
PATH_PARAMS = {"path", "dir", "directory"}


def path_taking_callables() -> set[str]:
    """Every function (or class, by its __init__) of the stub with a path parameter."""
    tree = ast.parse(STUB.read_text())
    found = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            params = {a.arg for a in node.args.args + node.args.kwonlyargs}
            if params & PATH_PARAMS:
                found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    if {a.arg for a in item.args.args + item.args.kwonlyargs} & PATH_PARAMS:
                        found.add(node.name)
    return found


# name -> (argument name, call with a path)
NUL_CALLS: dict[str, tuple[str, Callable[[str], object]]] = {
    "free_bytes": ("directory", lambda p: _native.free_bytes(p)),
    "probe_direct_io": ("directory", lambda p: _native.probe_direct_io(p)),
    "durable_writes": ("path", lambda p: _native.durable_writes(p, 4096, 4)),
    "group_commit": ("path", lambda p: _native.group_commit(p, 64, 4, 4)),
    "prepare_file": ("path", lambda p: _native.prepare_file(p, 4096, 4096)),
    "disk_io": ("path", lambda p: _native.disk_io(p, op="write", file_size=4096)),
    "Memtable": ("dir", lambda p: _native.Memtable(p, 1 << 20)),
    "recover": ("dir", lambda p: _native.recover(p, 1 << 20)),
    "memtable_benchmark": ("dir", lambda p: _native.memtable_benchmark(p, 1 << 20, 100)),
    "sqlite_inserts": ("path", lambda p: _native.sqlite_inserts(p, 100, 10, 100)),
    "sqlite_verify": ("path", lambda p: _native.sqlite_verify(p, 100, 100)),
    "RocksDb": ("path", lambda p: _native.RocksDb(p)),
}


def test_every_path_taking_callable_is_checked() -> None:
    assert path_taking_callables() == set(NUL_CALLS)


@pytest.mark.parametrize("name", sorted(NUL_CALLS))
@pytest.mark.parametrize("where", ["file", "directory"])
def test_path_with_nul_byte_is_refused(scratch_dir: Path, name: str, where: str) -> None:
    arg, call = NUL_CALLS[name]
    # Cut at the NUL, "file" names scratch_dir/a and "directory" names scratch_dir itself:
    # either would be a real place to write to.
    path = f"{scratch_dir}/a\x00b" if where == "file" else f"{scratch_dir}\x00/sub"
    with pytest.raises(ValueError, match=rf"^{arg} must not contain a NUL byte"):
        call(path)
    assert list(scratch_dir.iterdir()) == []
