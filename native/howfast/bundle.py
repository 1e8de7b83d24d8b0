"""A machine's results as one file, to pool machines (a workshop's participants send
theirs to one person, who renders the book with all of them).

A bundle is a zip file::

    howfast-bundle.json              what it holds: format, machine, when exported, and
                                     for each set its profile folder, subject and the
                                     SHA-256 of every file
    <profile>/<subject>/manifest.json
    <profile>/<subject>/machine.json
    <profile>/<subject>/<experiment>.parquet, <experiment>.samples.parquet, <experiment>.noise.parquet

A zip rather than one parquet file: the sets are copied as they are stored, byte for
byte, so an import gives back exactly the files that were exported (one parquet bundle
would have to merge tables of different columns and re-encode the JSON), any zip tool
can list and open it, and parquet is already compressed (stored, not deflated again).

An import checks the whole bundle before it stores anything: member names (no absolute
path, no '..', nothing outside the layout above, no links), declared sizes (no member
inflating to more than ``MAX_RATIO`` times its size in the zip, the whole within the free
space), then, unpacking member by member into a private folder of the results directory
(streamed, never past a member's declared size, removed when the import ends), every
file listed in the
index with its digest and no file that is not, manifests that name their subject and
experiments, the shape of each subject's results (its SCHEMA) that this howfast reads,
and parquet files that read. The digests catch a damaged or edited file, not a bundle
rewritten together with its index: they check integrity, not who made it. Each set is
then written through ``store.Writer``, so it is whole or absent and a set being
measured (its lock) is never overwritten.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from . import store
from .checks import checked
from .profiles import PROFILES, current_profile

FORMAT = 1
INDEX = "howfast-bundle.json"
#: the most a bundle may unpack to, and at most this many members
MAX_BYTES = 16 * 2**30
MAX_MEMBERS = 10_000
#: a member may inflate to at most MAX_RATIO times its size in the zip, beyond SMALL bytes
#: (parquet is stored as it is, JSON deflates a few times; zeros deflate a thousand times)
MAX_RATIO = 50
SMALL = 2**20
#: what an import always leaves free on the results filesystem, and its unit of copying
RESERVE_BYTES = 256 * 2**20
CHUNK = 2**20
_FILE = re.compile(
    r"manifest\.json|machine\.json|[a-z0-9][a-z0-9_-]{0,63}(\.samples|\.noise)?\.parquet"
)  # fullmatch only
_WHEN = (1980, 1, 1, 0, 0, 0)


class BadBundle(ValueError):
    """The file is not a bundle howfast can import, or it was damaged or edited."""


class WouldReplace(ValueError):
    """The import would overwrite stored results and was not asked to."""


@dataclass
class _Set:
    folder: str
    subject: str
    #: file name -> where the import unpacked it (a private folder, removed when it ends)
    files: dict[str, Path]

    @property
    def manifest(self) -> dict[str, Any]:
        return json.loads(self.files[store.MANIFEST].read_bytes())

    @property
    def facts(self) -> dict[str, Any]:
        return json.loads(self.files[store.FACTS].read_bytes())


def _digest(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()


def check_machine_name(name: str, what: str = "machine name") -> str:
    """A name a machine's folder can have (as ``machine.machine_id`` makes them)."""
    if not store.machine_name_ok(name):
        raise ValueError(
            f"{what} {name!r} must be letters, digits, '.', '_' or '-', not starting with '.' or '-', "
            f"at most {store.MACHINE_MAX} characters"
        )
    return name


def export_results(machine: str | None, path: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Write every readable stored set of `machine` (default: this one) into the zip file
    `path` (replaced whole at the end, never left half-written); the (profile folder,
    subject) of each set exported. A set in a shape this howfast no longer reads is left
    out; none left is a ValueError."""
    from . import __version__
    from .machines import _sets, this_machine

    name = check_machine_name(machine or this_machine())
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{str(target)!r} is a directory: name the bundle file to write")
    if not target.parent.is_dir():
        raise ValueError(f"cannot write {str(target)!r}: its directory does not exist")
    sets, listed = _sets(name), []
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with zipfile.ZipFile(partial, "w") as bundle:
            for folder, subject in sets:
                try:
                    data = store.load_stored(subject, name, folder)  # held: no writer removes it meanwhile
                except store.MissingResults:
                    continue
                digests = {}
                for file in sorted(p for p in data.path.iterdir() if p.is_file() and _FILE.fullmatch(p.name)):
                    blob = file.read_bytes()
                    info = zipfile.ZipInfo(f"{folder}/{subject}/{file.name}", date_time=_WHEN)
                    info.compress_type = zipfile.ZIP_STORED if file.suffix == ".parquet" else zipfile.ZIP_DEFLATED
                    info.external_attr = (stat.S_IFREG | 0o644) << 16
                    bundle.writestr(info, blob)
                    digests[file.name] = _digest(blob)
                listed.append({"profile": folder, "subject": subject, "files": digests})
            if not listed:
                raise ValueError(f"machine {name!r} has no results set this howfast can read: nothing to export")
            index = {
                "format": FORMAT,
                "machine": name,
                "howfast": __version__,
                "exported": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "sets": listed,
            }
            bundle.writestr(zipfile.ZipInfo(INDEX, date_time=_WHEN), json.dumps(index, indent=2) + "\n")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return [(s["profile"], s["subject"]) for s in listed]


def _member(info: zipfile.ZipInfo) -> tuple[str, str, str] | None:
    """(profile folder, subject, file) of a set's member; None for the index; BadBundle
    for anything else."""
    name = info.filename
    if name == INDEX:
        return None
    kind = (info.external_attr >> 16) & 0o170000
    parts = name.split("/")
    if (
        info.is_dir()
        or kind not in (0, stat.S_IFREG)
        or "\\" in name
        or name.startswith("/")
        or len(parts) != 3
        or not store._FOLDER.fullmatch(parts[0])
        or parts[1] not in store.SUBJECTS
        or not _FILE.fullmatch(parts[2])
    ):
        raise BadBundle(f"the bundle holds {name!r}, which is not a file of a results set (refused)")
    return parts[0], parts[1], parts[2]


def _sizes(source: Path, infos: list[zipfile.ZipInfo], room: int) -> None:
    """BadBundle unless every member's declared size is plausible (not more than
    ``MAX_RATIO`` times what it takes in the zip, beyond ``SMALL`` bytes) and all of them
    together fit in ``MAX_BYTES`` and in `room`: checked before anything is inflated."""
    if len(infos) > MAX_MEMBERS:
        raise BadBundle(f"{source} holds {len(infos)} members, more than the {MAX_MEMBERS} a bundle may have")
    for info in infos:
        if info.file_size > max(SMALL, MAX_RATIO * info.compress_size):
            raise BadBundle(
                f"{source}: {info.filename} would inflate to {info.file_size:,} bytes, larger than {MAX_RATIO} times "
                f"its {info.compress_size:,} bytes in the zip (a zip bomb?): refused"
            )
    total = sum(i.file_size for i in infos)
    if total > MAX_BYTES:
        raise BadBundle(f"{source} would unpack to {total:,} bytes, larger than the {MAX_BYTES >> 30} GiB allowed")
    if total > room:
        raise BadBundle(
            f"{source} would unpack to {total:,} bytes, but only {max(room, 0):,} are free in the results "
            f"directory (keeping {RESERVE_BYTES >> 20} MiB free)"
        )


def _inflate(source: Path, bundle: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> str:
    """Stream one member into `target`, never past its declared size; its SHA-256."""
    digest, left = hashlib.sha256(), info.file_size
    with bundle.open(info) as member, open(target, "xb") as out:
        while chunk := member.read(CHUNK):
            left -= len(chunk)
            if left < 0:
                raise BadBundle(f"{source}: {info.filename} holds more than its declared {info.file_size:,} bytes")
            digest.update(chunk)
            out.write(chunk)
    return digest.hexdigest()


def _unpack(source: Path, into: Path) -> tuple[str, list[_Set]]:
    """The machine named in the bundle at `source` and its sets, unpacked into the folder
    `into`, every check of the module passed (BadBundle naming the first that fails)."""
    if not source.is_file():
        raise BadBundle(f"no bundle file {str(source)!r}")
    room = shutil.disk_usage(into).free - RESERVE_BYTES
    try:
        with zipfile.ZipFile(source) as bundle:
            infos = bundle.infolist()
            names = [i.filename for i in infos]
            if len(set(names)) != len(names):
                raise BadBundle(f"{source}: a member appears twice")
            members = {i.filename: _member(i) for i in infos}
            if INDEX not in members:
                raise BadBundle(f"{source} is not a howfast bundle (it has no {INDEX})")
            _sizes(source, infos, room)
            unpacked = {info.filename: into / str(number) for number, info in enumerate(infos)}
            digests = {info.filename: _inflate(source, bundle, info, unpacked[info.filename]) for info in infos}
    except (zipfile.BadZipFile, EOFError, zlib.error) as error:
        raise BadBundle(f"{source} is not a readable zip file ({error})") from None
    try:
        index = json.loads(unpacked[INDEX].read_bytes())
        machine, listed = index["machine"], index["sets"]
        if index.get("format") != FORMAT:
            raise BadBundle(f"{source}: bundle format {index.get('format')!r}, this howfast reads {FORMAT}")
        check_machine_name(machine, "the bundle's machine name")
        wanted = {f"{s['profile']}/{s['subject']}/{f}": digest for s in listed for f, digest in s["files"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        if isinstance(error, BadBundle):
            raise
        raise BadBundle(f"{source}: its {INDEX} is not a bundle index ({error})") from None
    present = {n for n, m in members.items() if m is not None}
    if present != set(wanted):
        extra, absent = sorted(present - set(wanted)), sorted(set(wanted) - present)
        raise BadBundle(f"{source}: the files do not match its index (unlisted: {extra[:3]}, missing: {absent[:3]})")
    for name, digest in wanted.items():
        if digests[name] != digest:
            raise BadBundle(f"{source}: {name} was changed after the bundle was made (its SHA-256 differs)")
    sets = []
    for entry in listed:
        folder, subject = entry["profile"], entry["subject"]
        files = {f: unpacked[f"{folder}/{subject}/{f}"] for f in entry["files"]}
        sets.append(_check_set(source, _Set(folder, subject, files)))
    if not sets:
        raise BadBundle(f"{source} holds no results set")
    if len({(s.folder, s.subject) for s in sets}) != len(sets):
        raise BadBundle(f"{source}: a results set appears twice")
    return machine, sets


@contextmanager
def _unpacked(path: str | os.PathLike[str]) -> Iterator[tuple[str, list[_Set]]]:
    """The bundle unpacked into a private folder of the results directory (the same
    filesystem the sets are stored on), removed when the block ends."""
    from .scratch import OWNER, _owner_gone, owner_stamp

    results = store.results_dir()
    results.mkdir(parents=True, exist_ok=True)
    for left in results.glob(".import-*"):  # an import killed before it could clean up
        if left.is_dir() and not left.is_symlink() and _owner_gone(left):
            shutil.rmtree(left, ignore_errors=True)
    into = Path(tempfile.mkdtemp(prefix=".import-", dir=results))
    try:
        (into / OWNER).write_text(owner_stamp())
        yield _unpack(Path(path), into)
    finally:
        shutil.rmtree(into, ignore_errors=True)


def read_bundle(path: str | os.PathLike[str]) -> tuple[str, list[tuple[str, str]]]:
    """The machine named in the bundle at `path` and the (profile folder, subject) of its
    sets, every check of the module passed (BadBundle naming the first that fails)."""
    with _unpacked(path) as (machine, sets):
        return machine, [(s.folder, s.subject) for s in sets]


def _check_set(source: Path, found: _Set) -> _Set:
    where = f"{source}: {found.folder}/{found.subject}"
    if store.MANIFEST not in found.files or store.FACTS not in found.files:
        raise BadBundle(f"{where} lacks its {store.MANIFEST} or {store.FACTS}")
    try:
        manifest, facts = found.manifest, found.facts
        experiments = list(manifest["experiments"])
        subject, shape = manifest["subject"], manifest.get("schema")
    except (ValueError, KeyError, TypeError) as error:
        raise BadBundle(f"{where}: its manifest is not one ({error})") from None
    if subject != found.subject or not isinstance(facts, dict) or not experiments:
        raise BadBundle(f"{where}: its manifest does not describe a set of {found.subject}")
    if shape != store.schema(found.subject):
        raise BadBundle(
            f"{where} was stored by howfast {manifest.get('howfast')} in another shape of {found.subject} results "
            f"(schema {shape}, this howfast reads {store.schema(found.subject)}): measure it again with this version"
        )
    tables = [f for f in found.files if f.endswith(".parquet")]
    if any(f"{e}.parquet" not in tables for e in experiments) or any(
        f.split(".")[0] not in experiments for f in tables
    ):
        raise BadBundle(f"{where}: its tables are not the experiments its manifest lists")
    for name in tables:
        try:
            pl.read_parquet(found.files[name])
        except Exception as error:  # polars raises several kinds for a file that is not parquet
            raise BadBundle(f"{where}/{name} is not a readable parquet file ({type(error).__name__})") from None
    return found


def import_results(
    path: str | os.PathLike[str], as_machine: str | None = None, *, replace: bool = False
) -> tuple[str, list[tuple[str, str]]]:
    """Store the sets of the bundle at `path` as the results of `as_machine` (default: the
    machine it names); the machine's name and the (profile folder, subject) of each set.
    A set already stored there is replaced only with `replace` (WouldReplace otherwise,
    naming whether they are this machine's own results); nothing is written unless the
    whole bundle passes its checks."""
    from .machines import this_machine

    with _unpacked(path) as (named, sets):
        machine = check_machine_name(as_machine) if as_machine is not None else named
        here = this_machine()
        base = store.results_dir() / machine
        existing = [f"{s.folder}/{s.subject}" for s in sets if (base / s.folder / s.subject).exists()]
        if existing and not replace:
            what = ", ".join(existing)
            if machine == here:
                raise WouldReplace(
                    f"the bundle's machine {machine!r} is this machine, and importing it would replace this "
                    f"machine's own results ({what}): import it with --as ANOTHER-NAME, or add --replace to "
                    "overwrite them"
                )
            raise WouldReplace(
                f"machine {machine!r} already has stored results ({what}): "
                "import the bundle with --as ANOTHER-NAME, or add --replace to overwrite them"
            )
        for found in sets:
            profile = PROFILES.get(found.folder.split("+")[0]) or current_profile()
            writer = store.Writer(found.subject, profile, machine=machine, folder=found.folder)
            try:
                for name, unpacked in found.files.items():
                    if name.endswith(".parquet"):
                        shutil.move(unpacked, writer.path / name)
                manifest = found.manifest
                writer.experiments = list(manifest["experiments"])
                writer.machine_facts = found.facts
            except BaseException:
                writer.discard()
                raise
            writer.commit(manifest)
    return machine, [(s.folder, s.subject) for s in sets]


checked(globals(), only=("str",))


# every public function above refuses arguments of the wrong kind with a clear exception
checked(globals())
