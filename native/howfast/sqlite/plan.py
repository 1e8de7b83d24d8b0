"""The sqlite subject's settings: every size and count its experiments use, quick
and full side by side. The one place to change them."""

from __future__ import annotations

from dataclasses import dataclass

KiB = 1024
MiB = 1024 * KiB


@dataclass(frozen=True)
class Plan:
    """Sizes for the SQLite experiments of the storing-data chapter."""

    row_size: int = 1000  # bytes per row, as the seeds' sqlite-bench runs
    batch_sizes: tuple[int, ...] = (1, 1000)  # rows per transaction
    rows: tuple[int, ...] = (1000, 10000)  # rows per repetition, one per batch size
    full_sync_rows: tuple[int, ...] = (200, 10000)  # ... with synchronous=FULL (an fsync per commit)
    big_row_size: int = 4096  # the "rows of 4 KB" of seed 003, measured too
    fsync_baseline_writes: int = 200  # plain 4 KiB write + fsync, the seed's "just fsync"
    cli_rows: tuple[int, ...] = (1000, 10000)  # the sqlite3 shell cross-check, per batch size
    client_rows: tuple[int, ...] = (1000, 10000)  # client cost on tmpfs (no disk noise), per batch size


QUICK = Plan(
    rows=(10_000, 30_000),
    full_sync_rows=(300, 30_000),
    fsync_baseline_writes=200,
    cli_rows=(5_000, 30_000),
    client_rows=(10_000, 30_000),
)
# The million one-row transactions per client and mode of the first full plan did not finish
# their first experiment in 27 minutes on a 2-vCPU VM (20,000 fsynced commits alone take
# 80 s a run at this disk's 250 a second, times four clients, six runs and the added
# rounds). The batched runs keep the seeds' million rows; one-row transactions stop at
# 100,000 (2,000 with an fsync each), still 10× the quick profile's and thousands of
# commits, enough for a steady per-commit figure.
FULL = Plan(
    rows=(100_000, 1_000_000),
    full_sync_rows=(2_000, 100_000),
    fsync_baseline_writes=2000,
    cli_rows=(20_000, 200_000),
    client_rows=(20_000, 200_000),
)

#: For the test suite: every code path of the chapter in seconds; its numbers mean nothing.
SMOKE = Plan(
    rows=(20, 2000), full_sync_rows=(10, 2000), fsync_baseline_writes=20, cli_rows=(20, 2000), client_rows=(20, 2000)
)
