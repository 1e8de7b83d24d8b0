"""howfast native benchmark loops (C++, GIL released around every loop).

Typed stub of the pybind11 module ``howfast._native`` (drafted with pybind11-stubgen,
then tidied by hand). Names starting with ``_`` exist only here: the TypedDicts describe
the dicts the functions return. tests/test_native_stub.py checks that this stub and the
module name the same things with the same parameters.

Errors: system calls that fail raise OSError(errno, message, path); bad arguments raise
ValueError; SQLite errors raise SqliteError.
"""

from __future__ import annotations

import collections.abc
import typing

import numpy
import numpy.typing

_Int: typing.TypeAlias = typing.SupportsInt | typing.SupportsIndex
_Float: typing.TypeAlias = typing.SupportsFloat | typing.SupportsIndex
_U64Array: typing.TypeAlias = numpy.typing.NDArray[numpy.uint64]
_U8Array: typing.TypeAlias = numpy.typing.NDArray[numpy.uint8]

__all__: list[str] = [
    "HELLO_RESPONSE",
    "HttpServer",
    "Memtable",
    "RocksDb",
    "SqliteError",
    "atomic_increments",
    "binary_sums",
    "block_pattern",
    "codec_levels",
    "codec_libraries",
    "codec_support",
    "compress",
    "compress_loop",
    "decompress",
    "decompress_loop",
    "decompress_packed_loop",
    "disk_io",
    "durable_writes",
    "free_bytes",
    "futex_pingpong",
    "group_commit",
    "hash_algorithms",
    "hash_digest",
    "hash_libraries",
    "hash_loop",
    "hash_word",
    "http_load",
    "liburing_version",
    "memcpy_rounds",
    "memory_bandwidth",
    "memtable_benchmark",
    "memtable_record_bytes",
    "mutex_lock_unlock",
    "parse_loop",
    "parse_sums",
    "pipe_pingpong",
    "pointer_chase",
    "prepare_file",
    "probe_direct_io",
    "probe_io_uring",
    "read_binary_loop",
    "record_sums",
    "recover",
    "request_load",
    "rocksdb_compressions",
    "rocksdb_version",
    "sattolo_cycle",
    "serial_libraries",
    "serial_support",
    "sort_algorithms",
    "sort_loop",
    "sort_u64",
    "sqlite_compiled_version",
    "sqlite_inserts",
    "sqlite_row_text",
    "sqlite_verify",
    "sqlite_version",
    "syscall_loop",
    "tcp_bulk",
    "tcp_ping_pong",
    "thread_create",
    "write_binary",
    "write_json",
    "write_loop",
    "yield_pingpong",
]

# ---- returned dicts ---------------------------------------------------------------------

class _Latency(typing.TypedDict):
    """Every request's latency, from a log-linear histogram (buckets < 1 % wide)."""

    p50_ns: int
    p90_ns: int
    p99_ns: int
    p999_ns: int
    max_ns: int
    mean_ns: float
    hist_edges_ns: _U64Array  # upper edge of each non-empty bucket
    hist_counts: _U64Array

class _TcpBulk(typing.TypedDict):
    bytes_sent: int
    bytes_received: int
    elapsed_ns: int

class _PingPong(typing.TypedDict):
    round_trips: int
    bytes: int
    elapsed_ns: int
    latency: _Latency

class _HttpLoad(typing.TypedDict):
    requests: int
    sent: int
    errors: int
    bytes: int
    elapsed_ns: int
    send_window_ns: int
    cpu_ns: int  # CPU time of the generator's threads
    latency: _Latency

class _IoUringProbe(typing.TypedDict):
    supported: bool
    reason: str
    liburing_version: str  # "" when built without liburing

class _DirectIoProbe(typing.TypedDict):
    supported: bool
    alignment: int
    reason: str

class _DurableWrites(typing.TypedDict):
    latency_ns: _U64Array
    sync_ns: _U64Array
    elapsed_ns: int
    bytes: int
    alignment: int

class _HashLoop(typing.TypedDict):
    elapsed_ns: int
    checksum: int
    bytes: int
    iterations: int

class _Ops(typing.TypedDict):
    elapsed_ns: int
    ops: int
    checksum: int

class _GroupCommit(typing.TypedDict):
    batch_ns: _U64Array
    elapsed_ns: int
    records: int
    bytes: int

class _MemtableStats(typing.TypedDict):
    records: int
    keys: int
    flushes: int
    segment_bytes: int
    segments: int
    wal_bytes: int
    wal_syncs: int
    wal_files: int
    bytes_written: int
    stall_ns: int
    segment_create_ns: int
    rollover_wait_ns: int
    segments_prepared: int
    segment_prepare_ns: int
    idle_ns: int
    submit_ns: int
    buffers: int
    fixed_buffers: bool
    recovered_records: int
    replayed_records: int
    torn_records: int
    empty_segments: int

class _IoEvent(typing.TypedDict):
    kind: str  # create, fallocate, write_submit, write_done, sync_start, sync_done, dir_sync_start, dir_sync_done, unlink, ack
    file: str | None
    id: int
    offset: int
    length: int
    dsync: bool
    data: bytes | None

class _MemtableCounters(typing.TypedDict):
    batches: int
    batch_records: int
    writer_waits: int
    producer_waits: int
    submits: int
    completion_waits: int
    flushes: int
    depth_sum: int
    idle_ns: int
    handoff_ns: int
    copy_ns: int
    index_ns: int
    ack_ns: int
    log_ns: int
    seal_ns: int
    submit_ns: int
    buffer_wait_ns: int
    reap_ns: int
    drain_ns: int
    writer_cpu_ns: int
    writer_voluntary_switches: int
    writer_involuntary_switches: int
    producer_cpu_ns: int
    producer_voluntary_switches: int
    producer_involuntary_switches: int
    producer_hash_ns: int

class _MemtableBenchmark(_MemtableStats):
    latency_ns: _U64Array
    flush_ns: _U64Array
    elapsed_ns: int
    first_fill_ns: int
    record_bytes: int
    counters: _MemtableCounters

class _RocksResult(typing.TypedDict):
    latency_ns: _U64Array
    sample_every: int
    threads: int
    ops: int
    elapsed_ns: int
    thread_ns: int
    latency_sum_ns: int
    latency_max_ns: int
    bytes: int
    found: int
    writer_ops: int
    writer_ns: int
    writer_latency_sum_ns: int

class _DiskIoJob(typing.TypedDict):
    latency_ns: _U64Array
    is_write: _U8Array
    bytes_read: int
    bytes_written: int
    elapsed_ns: int

class _DiskIo(typing.TypedDict):
    jobs: list[_DiskIoJob]
    elapsed_ns: int
    bytes_read: int
    bytes_written: int
    mismatches: int

class _SqliteInserts(typing.TypedDict):
    transaction_ns: _U64Array
    elapsed_ns: int
    cpu_ns: int
    rows: int
    transactions: int
    db_bytes: int
    wal_bytes: int
    checkpointed_bytes: int
    checkpoint_ns: int
    journal_mode: str
    synchronous: int

class _SqliteVerify(typing.TypedDict):
    rows: int
    matching: int
    first_bad_id: int
    integrity: str

# ---- module attributes ------------------------------------------------------------------

liburing_version: str | None
rocksdb_version: str | None
sqlite_version: str | None  # None (and no sqlite_inserts, sqlite_verify, SqliteError) without SQLite
sqlite_compiled_version: str | None

# ---- classes ----------------------------------------------------------------------------

class SqliteError(RuntimeError):
    """An error SQLite reported, with its result codes."""

    code: int
    extended_code: int
    code_name: str

class Memtable:
    """
    A memtable: records appended into aligned buffers of `capacity` bytes, flushed to O_DIRECT segment files in `dir` (blocking, or through io_uring with several buffers), with an optional write-ahead log (group commit) and an index for get().
    """

    def __init__(
        self,
        dir: str,
        capacity: _Int,
        *,
        record_size: _Int = 16384,
        dsync: bool = False,
        flush: str = "blocking",
        buffers: _Int = 0,
        wal: bool = False,
        pin_cpu: _Int = -1,
        direct: bool = True,
        segment_bytes: _Int = 67108864,
        segments_ahead: _Int = 2,
        queue_depth: _Int = 64,
        record_io: bool = False,
    ) -> None: ...
    def __enter__(self) -> Memtable: ...
    def __exit__(self, *args: object) -> None: ...
    def __len__(self) -> int: ...
    def close(self) -> None:
        """flush(), then stop the writer thread. Later calls raise ValueError."""
    def files(self) -> list[str]:
        """Every file this memtable created (some may since have been deleted)."""
    def flush(self) -> None:
        """Write the current buffer even if partly full, wait for every flush, make segments durable."""
    def get(self, key: bytes) -> bytes | None:
        """The latest value stored under key (from a buffer or a segment), or None."""
    def io_record(self) -> list[_IoEvent]:
        """With record_io=True: every write, sync, file creation and removal, and acknowledgement so far, in order, as dicts (kind, file, id, offset, length, dsync, data). ValueError when record_io is off."""
    def keys(self) -> list[bytes]: ...
    def put(self, key: bytes, value: bytes) -> None:
        """Store value under key; returns once acknowledged (after the log's fdatasync when wal=True)."""
    def put_many(self, items: collections.abc.Iterable[tuple[bytes, bytes]]) -> None:
        """Store (key, value) pairs; the writer commits them in groups (one log fdatasync per group) and this returns once all are acknowledged."""
    def stats(self) -> _MemtableStats: ...

class RocksDb:
    """
    A RocksDB opened in a new directory with db_bench's default options, and db_bench's workloads run in C++ with the GIL released. Keys are the 8-byte big-endian key index padded with '0'; values are db_bench-like compressible bytes (see value()).
    """

    def __init__(
        self,
        path: str,
        *,
        key_size: _Int = 16,
        value_size: _Int = 800,
        compression: str = "snappy",
        compression_ratio: _Float = 0.5,
        write_buffer_size: _Int = 67108864,
        max_write_buffer_number: _Int = 2,
        cache_size: _Int = 8388608,
        disable_wal: bool = False,
        sync: bool = False,
        seed: _Int = 1,
    ) -> None:
        """Create a database in the new directory `path` (its parent must exist)."""
    def close(self) -> None:
        """Close the database (waits for running background work). Idempotent."""
    def fillseq(self, count: _Int, *, sample_every: _Int = 1) -> _RocksResult:
        """Put keys 0..count-1 in order. Latencies of every `sample_every`-th Put are returned."""
    def get(self, key: bytes) -> bytes | None:
        """The stored value of `key`, or None."""
    def key(self, index: _Int) -> bytes:
        """The key of index `index`."""
    def overwrite(self, writes: _Int, *, key_range: _Int, sample_every: _Int = 1) -> _RocksResult:
        """Put `writes` keys drawn uniformly from [0, key_range) with fresh values."""
    def property(self, name: str) -> str:
        """A RocksDB property such as 'rocksdb.stats' ('' if unknown)."""
    def readrandom(self, reads: _Int, *, key_range: _Int, threads: _Int = 1, sample_every: _Int = 1) -> _RocksResult:
        """`threads` threads each Get `reads` keys drawn uniformly from [0, key_range)."""
    def readwhilewriting(
        self, reads: _Int, *, key_range: _Int, readers: _Int = 1, sample_every: _Int = 1
    ) -> _RocksResult:
        """`readers` threads as readrandom while one more thread overwrites random keys until they finish. Only the readers are measured (writer_ops, writer_ns report the writer)."""
    def value(self, index: _Int, generation: _Int = 0) -> bytes:
        """The value written for `index` by a workload of `generation` (0 is fillseq)."""
    @property
    def compression(self) -> str: ...
    @property
    def is_open(self) -> bool: ...
    @property
    def path(self) -> str: ...

# ---- network ----------------------------------------------------------------------------

HELLO_RESPONSE: bytes
"""The bytes HttpServer answers to every request."""

class HttpServer:
    """HTTP/1.1 keep-alive hello-world server on 127.0.0.1 (epoll, or io_uring with mode='io_uring'; one thread per core), running from construction until stop() (or the end of a with block)."""

    def __init__(self, *, threads: _Int = 0, port: _Int = 0, mode: str = "epoll") -> None: ...
    def __enter__(self) -> HttpServer: ...
    @property
    def mode(self) -> str:
        """epoll or io_uring"""
    def __exit__(self, *args: object) -> None: ...
    def stop(self) -> None:
        """Stop serving: join the threads, close every socket (idempotent)."""
    @property
    def port(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def running(self) -> bool: ...
    @property
    def served(self) -> int:
        """requests answered so far"""
    @property
    def connections(self) -> int:
        """connections accepted so far"""

def tcp_bulk(streams: _Int, seconds: _Float, *, write_size: _Int = 1048576) -> _TcpBulk:
    """Stream `write_size`-byte writes over `streams` TCP connections on 127.0.0.1 for `seconds`, one sender and one receiver thread per stream. Returns bytes sent, received and the time from the first write to the last end of stream."""

def tcp_ping_pong(connections: _Int, seconds: _Float, *, message_size: _Int = 64) -> _PingPong:
    """Bounce a `message_size`-byte message over each of `connections` TCP connections on 127.0.0.1 (one epoll echo thread, one epoll client thread) for `seconds`. Returns round trips and their latency histogram."""

def http_load(
    port: _Int,
    connections: _Int,
    seconds: _Float,
    *,
    threads: _Int = 1,
    rate: _Float = 0.0,
    grace: _Float = 2.0,
    host: str = "127.0.0.1",
    path: str = "/",
) -> _HttpLoad:
    """HTTP/1.1 keep-alive GETs to 127.0.0.1:`port` over `connections` connections and `threads` threads for `seconds`: closed loop when `rate` is 0, else open loop at `rate` requests/s (latency from the intended send time). Returns counts and the latency of every request as a histogram."""

def request_load(port: _Int, connections: _Int, seconds: _Float, request: bytes, reply: bytes) -> dict[str, object]:
    """Closed loop against a server on 127.0.0.1:`port` (memcached): `connections` connections on one epoll thread, each sending `request` and reading exactly `reply` back (any other byte is an error) for `seconds`. Returns replies, elapsed ns and the latency histogram."""

# ---- probes -----------------------------------------------------------------------------

def probe_io_uring() -> _IoUringProbe:
    """Can this process set up an io_uring and complete a NOP? Answers with the reason."""

def probe_direct_io(directory: str) -> _DirectIoProbe:
    """Does O_DIRECT work in `directory`, and with what smallest write size?"""

def free_bytes(directory: str) -> int: ...
def block_pattern(size: _Int, index: _Int, seed: _Int = 1) -> bytes:
    """The bytes the write loops put in block `index` (for read-back checks)."""

# ---- fsync ------------------------------------------------------------------------------

def durable_writes(
    path: str,
    block_size: _Int,
    count: _Int,
    *,
    sync: str = "fsync",
    direct: bool = False,
    layout: str = "append",
    seed: _Int = 1,
) -> _DurableWrites:
    """Write `count` blocks of `block_size` bytes to a new file at `path`, making each durable per `sync` ('none', 'fsync', 'fdatasync', 'dsync' = O_DSYNC), optionally with O_DIRECT. Returns per-operation latencies (ns) and totals. The file is left for the caller to verify and remove."""

def group_commit(
    path: str, record_size: _Int, records_per_sync: _Int, syncs: _Int, *, sync: str = "fsync", seed: _Int = 1
) -> _GroupCommit:
    """Append `records_per_sync` records, then one sync; repeat `syncs` times. Returns per-batch latencies."""

# ---- storage ----------------------------------------------------------------------------

def disk_io(
    path: str,
    *,
    engine: str = "sync",
    op: str = "read",
    random: bool = False,
    fsync: bool = False,
    direct: bool = False,
    block_size: _Int = 4096,
    file_size: _Int = 1048576,
    queue_depth: _Int = 1,
    jobs: _Int = 1,
    fixed_buffers: bool = False,
    fixed_files: bool = False,
    drop_cache: bool = True,
    verify: bool = False,
    seed: _Int = 1,
) -> _DiskIo:
    """Read or write `file_size` bytes per job in blocks of `block_size` with one engine ('sync', 'aio', 'io_uring'); job i uses the file `path`.i (which must exist for reads: prepare_file). Returns per-job latency arrays (ns) and totals."""

def prepare_file(path: str, file_size: _Int, block_size: _Int, seed: _Int = 1) -> None:
    """Write a new file of stamped blocks (what disk_io reads and verifies) and fsync it."""

def memcpy_rounds(size: _Int, rounds: _Int) -> _U64Array:
    """Copy `size` bytes `rounds` times; ns per round. ValueError when the source and destination (2 * size) exceed half of the memory available now; Ctrl-C stops it within a 256 MiB chunk."""

# ---- memtable ---------------------------------------------------------------------------

def recover(
    dir: str,
    capacity: _Int,
    *,
    record_size: _Int = 16384,
    dsync: bool = False,
    flush: str = "blocking",
    buffers: _Int = 0,
    wal: bool = False,
    pin_cpu: _Int = -1,
    direct: bool = True,
    segment_bytes: _Int = 67108864,
    segments_ahead: _Int = 2,
    queue_depth: _Int = 64,
    record_io: bool = False,
) -> Memtable:
    """Rebuild the memtable in `dir` from its segments and write-ahead logs (after a crash or a close) and continue it with these settings. Partial records are ignored."""

def memtable_benchmark(
    dir: str,
    capacity: _Int,
    records: _Int,
    *,
    record_size: _Int = 16384,
    dsync: bool = False,
    flush: str = "blocking",
    buffers: _Int = 0,
    wal: bool = False,
    pin_cpu: _Int = -1,
    producers: _Int = 4,
    direct: bool = True,
    segment_bytes: _Int = 67108864,
    segments_ahead: _Int = 2,
    queue_depth: _Int = 64,
    counters: bool = False,
) -> _MemtableBenchmark:
    """The seed's workload in C++: `producers` threads hand `records` records of `record_size` framed bytes (16-byte keys) to the single writer. Returns per-record latencies (ns), per-flush latencies, the elapsed time, totals and `counters` (where the writer's time went: counts always, times with counters=True, which reads the clock per batch and per flush). Files are removed before it returns."""

def _memtable_recover_flawed(
    dir: str, capacity: _Int, flaw: str, *, record_size: _Int = 16384, direct: bool = True
) -> Memtable:
    """Test only: recover() with a deliberate flaw ('no_checksum': records are trusted without their checksum; 'no_log': the log is not read; 'none': the real recovery)."""

def memtable_record_bytes(key_len: _Int, value_len: _Int) -> int:
    """Bytes a record occupies: 32-byte header, key, value, padding to 8."""

# ---- rocksdb ----------------------------------------------------------------------------

def rocksdb_compressions() -> list[str]:
    """Compression names this librocksdb supports (empty when built without RocksDB)."""

# ---- sqlite -----------------------------------------------------------------------------

def sqlite_row_text(row_size: _Int, id: _Int, *, content: str = "x", seed: _Int = 1) -> bytes:
    """The text the SQLite insert loop stores in row `id` (ASCII bytes): 'x' * row_size as sqlite-bench, or for content='random' a window into a seeded pool of row_size + 4096 printable characters starting at (id * 7919) % 4096."""

def sqlite_inserts(
    path: str,
    rows: _Int,
    batch_size: _Int,
    row_size: _Int,
    *,
    synchronous: str = "normal",
    journal_mode: str = "wal",
    content: str = "x",
    seed: _Int = 1,
    prepare_per_batch: bool = False,
) -> _SqliteInserts:
    """sqlite-bench's insert loop through the sqlite3 C API: create a new database at `path`, set journal_mode and synchronous ('off', 'normal', 'full'), create t (id INTEGER PRIMARY KEY, name TEXT), insert `rows` rows of `row_size` bytes in transactions of `batch_size` rows with one prepared INSERT. Returns per-transaction latencies (ns), the loop's elapsed and CPU time and the file sizes. SQLite errors raise SqliteError (a RuntimeError with code, extended_code, code_name). The database is left for the caller to verify and remove."""

def sqlite_verify(path: str, rows: _Int, row_size: _Int, *, content: str = "x", seed: _Int = 1) -> _SqliteVerify:
    """Open the existing database (only reading) and compare every row of t with what the insert loop wrote: returns the row count, how many rows match exactly, the first id that did not, and PRAGMA quick_check's answer."""

# ---- hashing ----------------------------------------------------------------------------

def hash_algorithms() -> dict[str, str]:
    """Every hash algorithm id mapped to '' when this build and CPU can run it, else the reason it cannot."""

def hash_libraries() -> dict[str, str]:
    """The hash libraries this module was built with, and their versions ('' when built without one)."""

def hash_digest(algorithm: str, data: bytes | bytearray | memoryview | _U8Array, *, seed: _Int = 0) -> bytes:
    """The library's hash of `data` as bytes (integers big-endian; murmur3 as mmh3.hash_bytes; crc32c continues from `seed` as crc32c.crc32c(data, seed))."""

def hash_loop(
    algorithm: str, data: bytes | bytearray | memoryview | _U8Array, iterations: _Int, *, seed: _Int = 0
) -> _HashLoop:
    """Hash `data` `iterations` times (seed + i on iteration i) with the GIL released; returns elapsed_ns, bytes, iterations and checksum (the wrapping sum of each hash's first word, so no hash can be skipped). iterations: at most 2**40; Ctrl-C stops it."""

def hash_word(algorithm: str, digest: bytes) -> int:
    """The word of a digest that hash_loop's checksum sums."""

# ---- cpu and memory ---------------------------------------------------------------------

def sattolo_cycle(n: _Int, *, seed: _Int = 1) -> _U64Array:
    """A random cyclic permutation of 0..n-1 (Sattolo's algorithm): following i -> next[i] visits every element once before returning. ValueError when its 8 * n bytes exceed half of the memory available now."""

def pointer_chase(working_set: _Int, loads: _Int, *, seed: _Int = 1) -> _Ops:
    """`loads` dependent loads through a random cycle of 64-byte lines spanning `working_set` bytes (one warm-up lap first). Returns elapsed_ns, ops (loads) and checksum (the index of the line reached). loads: at most 10**9; the lines and their cycle must fit in half of the memory available now; Ctrl-C stops it."""

def memory_bandwidth(kind: str, buffer_bytes: _Int, passes: _Int, *, threads: _Int = 1) -> _Ops:
    """Sequential 'read', 'write' or 'copy' over `buffer_bytes` (split between `threads`), `passes` times. ops = bytes read, written or copied; checksum = sum of the words read, or of the buffer written or copied to. passes: at most 1000; the buffer (twice for 'copy') must fit in half of the memory available now; Ctrl-C stops it."""

def mutex_lock_unlock(ops: _Int, *, threads: _Int = 1) -> _Ops:
    """Lock and unlock one std::mutex `ops` times in each of `threads` threads; checksum = the counter it guards. ops: at most 10**9; Ctrl-C stops it."""

def atomic_increments(ops: _Int, *, threads: _Int = 1, shared_line: bool = True) -> _Ops:
    """fetch_add `ops` times in each of `threads` threads on one counter (shared_line) or one per thread on its own cache line; checksum = sum of the counters. ops: at most 10**9; Ctrl-C stops it."""

def syscall_loop(kind: str, ops: _Int) -> _Ops:
    """'getppid' through syscall(2) (enters the kernel) or 'clock_gettime' (CLOCK_MONOTONIC, served by the vDSO), `ops` times (at most 10**9); Ctrl-C stops it."""

def pipe_pingpong(round_trips: _Int, *, same_cpu: bool = True) -> _Ops:
    """One byte there and back between two processes over two pipes, `round_trips` times; ops = round trips the parent completed, checksum = those the child counted. same_cpu pins both to the current CPU. round_trips: at most 2 * 10**7; Ctrl-C stops it."""

def futex_pingpong(round_trips: _Int, *, same_cpu: bool = True) -> _Ops:
    """Two threads waking each other through a futex, `round_trips` times; checksum = the partner's count. round_trips: at most 2 * 10**7; Ctrl-C stops it."""

def yield_pingpong(round_trips: _Int) -> _Ops:
    """Two threads pinned to one CPU handing over with sched_yield(), `round_trips` times; checksum = the partner's count. round_trips: at most 2 * 10**7; Ctrl-C stops it."""

def thread_create(count: _Int) -> _Ops:
    """Create and join `count` threads that do nothing; checksum = how many ran. count: at most 10**6; Ctrl-C stops it."""

# --- compress, encode, sort (native/src/codecs) -----------------------------------------------

def binary_sums(dump: bytes) -> dict[str, typing.Any]:
    """The sums of every field of the records read from a binary dump."""

def codec_levels(codec: str) -> tuple[int, int]:
    """The (lowest, highest) level a codec accepts."""

def codec_libraries() -> dict[str, str]:
    """The compression libraries this module was built with, and their versions ('' when built without one)."""

def codec_support() -> dict[str, str]:
    """Every codec id mapped to '' when this build can run it, else the reason it cannot."""

def compress(
    codec: str, level: _Int, data: bytes | bytearray | memoryview | _U8Array, *, block: _Int = 0
) -> tuple[bytes, list[int]]:
    """Compress `data` in independent blocks of `block` bytes (0: one block); returns (packed bytes, block sizes)."""

def compress_loop(
    codec: str, level: _Int, data: bytes | bytearray | memoryview | _U8Array, iterations: _Int, *, block: _Int = 0
) -> dict[str, typing.Any]:
    """Compress `data` in blocks `iterations` times with the GIL released; the last pass is decompressed and compared byte for byte. Returns elapsed_ns, bytes, compressed, checksum, iterations, round_trip."""

def decompress(
    codec: str,
    packed: bytes | bytearray | memoryview | _U8Array,
    sizes: collections.abc.Sequence[_Int],
    size: _Int,
    *,
    block: _Int = 0,
) -> bytes:
    """The inverse of compress: `size` bytes back."""

def decompress_loop(
    codec: str, level: _Int, data: bytes | bytearray | memoryview | _U8Array, iterations: _Int, *, block: _Int = 0
) -> dict[str, typing.Any]:
    """Compress `data` once, then decompress it `iterations` times with the GIL released; every block's size is checked and the last pass compared byte for byte. Returns as compress_loop."""

def decompress_packed_loop(
    codec: str,
    level: _Int,
    packed: bytes | bytearray | memoryview | _U8Array,
    sizes: collections.abc.Sequence[_Int],
    data: bytes | bytearray | memoryview | _U8Array,
    iterations: _Int,
    *,
    block: _Int = 0,
) -> dict[str, typing.Any]:
    """Decompress `packed` (compress's output for `data`, with its block sizes) `iterations` times with the GIL released, after one untimed pass compared with `data`; the last pass compared byte for byte. Returns as compress_loop."""

def parse_loop(library: str, text: str, iterations: _Int) -> dict[str, typing.Any]:
    """Parse `text` (a JSON array of records) `iterations` times with simdjson or rapidjson, GIL released; returns elapsed_ns, bytes, iterations and the sums of every field of the last pass's records."""

def parse_sums(library: str, text: str) -> dict[str, typing.Any]:
    """The sums of every field of the records `library` parses from `text`."""

def read_binary_loop(records: dict[str, typing.Any], iterations: _Int) -> dict[str, typing.Any]:
    """Read the binary dump of `records` `iterations` times (string views into the buffer), GIL released."""

def record_sums(records: dict[str, typing.Any]) -> dict[str, typing.Any]:
    """The sums of every field of `records`, as the loops compute them."""

def serial_libraries() -> dict[str, str]:
    """The JSON libraries this module was built with and their versions."""

def serial_support() -> dict[str, str]:
    """Every serialization library id mapped to '' or why it cannot run."""

def sort_algorithms() -> list[str]:
    """The sort ids sort_loop takes."""

def sort_loop(algorithm: str, values: _U64Array, iterations: _Int) -> dict[str, typing.Any]:
    """Copy `values` into a work buffer and sort it, `iterations` times, with the GIL released; only the sorts are timed, and each output is checked for order and sum. Returns elapsed_ns, elements, iterations, checksum."""

def sort_u64(algorithm: str, values: _U64Array) -> _U64Array:
    """A sorted copy of `values` (uint64)."""

def write_binary(records: dict[str, typing.Any]) -> bytes:
    """The binary dump of `records`."""

def write_json(records: dict[str, typing.Any]) -> bytes:
    """The JSON text RapidJSON writes for `records`."""

def write_loop(library: str, records: dict[str, typing.Any], iterations: _Int) -> dict[str, typing.Any]:
    """Write `records` (columns) as JSON (rapidjson) or the binary dump (binary) `iterations` times, GIL released; the last output is read back and its sums compared with the records'."""
