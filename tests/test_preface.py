"""The preface's words about the machine, on made-up facts and sets: the disk rows come
from the set that measured the durable writes, the write-cache sentence reads right when
the kernel did not report the mode, and the run count where intervals reach the book's
confidence is derived, not typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from howfast import headlines, stats, store


def _set(subject: str, facts: dict, tmp_path: Path) -> store.ResultSet:
    return store.ResultSet(subject, tmp_path, {"profile": "quick", "experiments": []}, facts)


NOW = {"cpu_model": "Some CPU", "logical_cpus": 2, "hypervisor": "yes (QEMU)", "scratch_dir": "/tmp/x",
       "block_device": "vda", "device_kind": "a virtual disk (virtio-blk)", "write_cache": "write back"}  # fmt: skip
ELSEWHERE = {"scratch_dir": "/mnt/nvme/scratch", "block_device": "nvme0n1", "device_kind": "an NVMe drive",
             "write_cache": "write through", "cpu_model": "recorded CPU"}  # fmt: skip


def test_the_disk_rows_come_from_the_fsync_set_then_the_storage_set(tmp_path: Path) -> None:
    """A set measured with HOWFAST_SCRATCH elsewhere keeps its own disk."""
    facts, source = headlines.preface_facts(NOW, [_set("cpu", {}, tmp_path), _set("fsync", ELSEWHERE, tmp_path)])
    assert source == "fsync" and facts["block_device"] == "nvme0n1" and facts["write_cache"] == "write through"
    assert facts["cpu_model"] == "Some CPU" and facts["hypervisor"] == "yes (QEMU)"  # the machine's rows: now
    assert facts["device_model"] is None  # a disk row the set did not record is not taken from now
    facts, source = headlines.preface_facts(NOW, [_set("storage", ELSEWHERE, tmp_path)])
    assert source == "storage" and facts["scratch_dir"] == "/mnt/nvme/scratch"
    facts, source = headlines.preface_facts(NOW, [_set("fsync", {}, tmp_path)])  # a set that recorded no facts
    assert source is None and facts == NOW
    assert headlines.preface_facts(NOW, []) == (NOW, None)


@pytest.mark.parametrize(
    ("facts", "source", "words"),
    [
        (ELSEWHERE, "fsync", "The disk rows are those the fsync set recorded for the directory it wrote in "
         "(/mnt/nvme/scratch). The write-cache row says how far an fsync's flush reaches on that disk, and so where "
         "the durable writes measured there end."),
        (ELSEWHERE | {"write_cache": None}, "storage", "The disk rows are those the storage set recorded for the "
         "directory it wrote in (/mnt/nvme/scratch). The kernel did not report that disk's write cache, so how far "
         "an fsync's flush reaches there is not known."),
        (NOW, None, "The disk rows describe this render's scratch directory (/tmp/x): no fsync or storage set is "
         "stored to say where the durable writes were measured. That disk is virtual, so the write-cache row says "
         "what the guest kernel sees of it, and so whether the kernel sends it cache flushes; where a flush ends, and "
         "so where the durable writes measured there end, is up to the host and cannot be seen from here."),
        (NOW | {"write_cache": None}, "fsync", "The disk rows are those the fsync set recorded for the directory it "
         "wrote in (/tmp/x). The kernel did not report that disk's write cache, so how far an fsync's flush reaches "
         "there is not known."),
        ({}, None, "The disk rows describe this render's scratch directory (directory not recorded): no fsync"),
        (ELSEWHERE | {"scratch_dir": None}, "fsync", "The disk rows are those the fsync set recorded for the "
         "directory it wrote in (directory not recorded). The write-cache row says how far"),
    ],
)  # fmt: skip
def test_the_write_cache_sentence_for_every_source_and_mode(facts, source, words) -> None:
    """A virtual disk's write-cache row is what the guest sees: where its flushes end is the host's."""
    assert headlines.write_cache_words(facts, source).startswith(words)
    if headlines.virtual_disk(facts):
        assert "how far an fsync's flush reaches on that disk" not in headlines.write_cache_words(facts, source)
    assert "every durable-write number in the book" not in headlines.write_cache_words(facts, source)


def test_the_write_cache_sentence_refuses_an_unknown_source() -> None:
    with pytest.raises(ValueError, match="source"):
        headlines.write_cache_words(NOW, "cpu")


def test_the_run_count_where_intervals_reach_the_confidence_is_derived() -> None:
    """'five runs or fewer', 'from six on' come from stats.interval_ranks."""
    n = headlines.first_confident_runs()
    assert n == 6 and stats.interval_ranks(n)[1] >= stats.CONFIDENCE > stats.interval_ranks(n - 1)[1]
    assert headlines.first_confident_runs(0.5) == 2
    with pytest.raises(ValueError, match="confidence"):
        headlines.first_confident_runs(1.0)


def test_the_card_keeps_its_words_to_what_was_measured() -> None:
    """No disk is called shared: whether other work shares it is not measured."""
    root = Path(__file__).resolve().parents[1]
    card = (root / "chapters" / "numbers-card.qmd").read_text()
    texts = [card] + [q.run for q in headlines.QUANTITIES]
    assert not any("shared disk" in t for t in texts)
