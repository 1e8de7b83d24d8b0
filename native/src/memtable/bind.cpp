#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "memtable/iorecord.hpp"
#include "memtable/memtable.hpp"
#include "memtable/memtable_format.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

// Borrows the bytes of a Python bytes object (alive for the duration of the call).
std::pair<const unsigned char*, std::size_t> view(const py::bytes& b) {
  char* data = nullptr;
  Py_ssize_t len = 0;
  if (PyBytes_AsStringAndSize(b.ptr(), &data, &len) != 0) throw py::error_already_set();
  return {reinterpret_cast<const unsigned char*>(data), static_cast<std::size_t>(len)};
}

py::dict stats_dict(const MemtableStats& s) {
  py::dict d;
  d["records"] = s.records;
  d["keys"] = s.keys;
  d["flushes"] = s.flushes;
  d["segment_bytes"] = s.segment_bytes;
  d["segments"] = s.segments;
  d["wal_bytes"] = s.wal_bytes;
  d["wal_syncs"] = s.wal_syncs;
  d["wal_files"] = s.wal_files;
  d["bytes_written"] = s.segment_bytes + s.wal_bytes;
  d["stall_ns"] = s.stall_ns;
  d["segment_create_ns"] = s.segment_create_ns;
  d["rollover_wait_ns"] = s.rollover_wait_ns;
  d["segments_prepared"] = s.segments_prepared;
  d["segment_prepare_ns"] = s.segment_prepare_ns;
  d["idle_ns"] = s.idle_ns;
  d["submit_ns"] = s.submit_ns;
  d["buffers"] = s.buffers;
  d["fixed_buffers"] = s.fixed_buffers;
  d["recovered_records"] = s.recovered_records;
  d["replayed_records"] = s.replayed_records;
  d["torn_records"] = s.torn_records;
  d["empty_segments"] = s.empty_segments;
  return d;
}

py::dict counters_dict(const MemtableCounters& c, const ProducerCounters& p) {
  py::dict d;
  d["batches"] = c.batches;
  d["batch_records"] = c.batch_records;
  d["writer_waits"] = c.writer_waits;
  d["producer_waits"] = c.producer_waits;
  d["submits"] = c.submits;
  d["completion_waits"] = c.completion_waits;
  d["flushes"] = c.flushes;
  d["depth_sum"] = c.depth_sum;
  d["idle_ns"] = c.idle_ns;
  d["handoff_ns"] = c.handoff_ns;
  d["copy_ns"] = c.copy_ns;
  d["index_ns"] = c.index_ns;
  d["ack_ns"] = c.ack_ns;
  d["log_ns"] = c.log_ns;
  d["seal_ns"] = c.seal_ns;
  d["submit_ns"] = c.submit_ns;
  d["buffer_wait_ns"] = c.buffer_wait_ns;
  d["reap_ns"] = c.reap_ns;
  d["drain_ns"] = c.drain_ns;
  d["writer_cpu_ns"] = c.cpu_ns;
  d["writer_voluntary_switches"] = c.voluntary_switches;
  d["writer_involuntary_switches"] = c.involuntary_switches;
  d["producer_cpu_ns"] = p.cpu_ns;
  d["producer_voluntary_switches"] = p.voluntary_switches;
  d["producer_involuntary_switches"] = p.involuntary_switches;
  d["producer_hash_ns"] = p.hash_ns;
  return d;
}

// ---- the arguments, each written once -----------------------------------------------------
// Memtable(), recover() and memtable_benchmark() take the same memtable settings; the
// defaults here are the ones Python sees.

using MC = MemtableConfig;
using BC = MemtableBenchConfig;

const auto kDir = path_field<MC>("dir", &MC::dir);
const auto kCapacity = field<MC>("capacity", &MC::capacity);
const auto kRecordSize = field<MC>("record_size", &MC::record_size, 16384);
const auto kDsync = field<MC>("dsync", &MC::dsync, false);
const auto kFlush = converted<MC, std::string>(
    "flush", [](MC& c, const std::string& v) { c.flush = parse_flush_mode(v); }, "blocking");
const auto kBuffers = field<MC>("buffers", &MC::buffers, 0);
const auto kWal = field<MC>("wal", &MC::wal, false);
const auto kPinCpu = field<MC>("pin_cpu", &MC::pin_cpu, -1);
const auto kDirect = field<MC>("direct", &MC::direct, true);
const auto kSegmentBytes = field<MC>("segment_bytes", &MC::segment_bytes, 64ll << 20);
const auto kSegmentsAhead = field<MC>("segments_ahead", &MC::segments_ahead, 2);
const auto kQueueDepth = field<MC>("queue_depth", &MC::queue_depth, 64);
const auto kRecordIo = field<MC>("record_io", &MC::record_io, false);

// Memtable() and recover(): dir, capacity, *, the settings.
auto memtable_positional() { return std::make_tuple(kDir, kCapacity); }
auto memtable_keywords() {
  return std::make_tuple(kRecordSize, kDsync, kFlush, kBuffers, kWal, kPinCpu, kDirect, kSegmentBytes,
                         kSegmentsAhead, kQueueDepth, kRecordIo);
}

// memtable_benchmark(): the memtable's settings (inside BenchConfig::memtable) and the workload's.
template <typename F>
auto in_bench(const F& f) { return nested(f, &BC::memtable); }
auto bench_positional() { return std::make_tuple(in_bench(kDir), in_bench(kCapacity), field<BC>("records", &BC::records)); }
auto bench_keywords() {
  return std::make_tuple(in_bench(kRecordSize), in_bench(kDsync), in_bench(kFlush), in_bench(kBuffers),
                         in_bench(kWal), in_bench(kPinCpu), field<BC>("producers", &BC::producers, 4),
                         in_bench(kDirect), in_bench(kSegmentBytes), in_bench(kSegmentsAhead), in_bench(kQueueDepth),
                         field<BC>("counters", &BC::counters, false));
}

std::unique_ptr<Memtable> open_memtable(const MemtableConfig& c, bool recover) {
  py::gil_scoped_release release;
  if (recover) return Memtable::recover(c);
  return std::make_unique<Memtable>(c);
}

// The recorder's events as dicts (memtable/iorecord.hpp says what each kind means).
py::list io_record_list(const IoRecord& r) {
  py::list out;
  for (const IoEvent& e : r.events) {
    py::dict d;
    d["kind"] = io_event_name(e.kind);
    const bool has_file = e.kind != IoEvent::Ack && e.kind != IoEvent::DirSyncStart && e.kind != IoEvent::DirSyncDone;
    d["file"] = has_file ? py::object(py::str(r.files.at(e.file))) : py::object(py::none());
    d["id"] = e.id;
    d["offset"] = e.offset;
    d["length"] = e.length;
    d["dsync"] = e.flag;
    d["data"] = e.kind == IoEvent::WriteSubmit ? py::object(py::bytes(e.data)) : py::object(py::none());
    out.append(std::move(d));
  }
  return out;
}

RecoveryFlaw parse_flaw(const std::string& name) {
  if (name == "none") return RecoveryFlaw::None;
  if (name == "no_checksum") return RecoveryFlaw::NoChecksum;
  if (name == "no_log") return RecoveryFlaw::NoLog;
  throw std::invalid_argument("flaw must be 'none', 'no_checksum' or 'no_log'; got '" + name + "'");
}

py::dict run_benchmark(const MemtableBenchConfig& c) {
  MemtableBenchResult r = without_gil([&](Poller& poller) { return memtable_benchmark(c, poller); });
  py::dict out = stats_dict(r.stats);
  out["latency_ns"] = to_array(std::move(r.latency_ns));
  out["flush_ns"] = to_array(std::move(r.flush_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["first_fill_ns"] = r.first_fill_ns;
  out["records"] = r.records;
  out["record_bytes"] = r.record_bytes;
  out["counters"] = counters_dict(r.counters, r.producer);
  return out;
}

}  // namespace

void register_memtable(py::module_& m) {
  py::class_<Memtable> cls(m, "Memtable",
                       "A memtable: records appended into aligned buffers of `capacity` bytes, flushed to "
                       "O_DIRECT segment files in `dir` (blocking, or through io_uring with several buffers), "
                       "with an optional write-ahead log (group commit) and an index for get().");
  bind_init<MC>(cls, memtable_positional(), memtable_keywords(),
                [](const MC& c) { return open_memtable(c, false); });
  cls.def(
          "put",
          [](Memtable& self, const py::bytes& key, const py::bytes& value) {
            auto k = view(key);
            auto v = view(value);
            py::gil_scoped_release release;
            self.put(k.first, k.second, v.first, v.second);
          },
          py::arg("key"), py::arg("value"),
          "Store value under key; returns once acknowledged (after the log's fdatasync when wal=True).")
      .def(
          "put_many",
          [](Memtable& self, const py::iterable& items) {
            std::vector<py::bytes> keep;
            std::vector<Memtable::Entry> entries;
            for (py::handle item : items) {
              py::tuple pair = py::reinterpret_borrow<py::object>(item).cast<py::tuple>();
              if (pair.size() != 2) throw std::invalid_argument("put_many takes (key, value) pairs");
              keep.push_back(pair[0].cast<py::bytes>());
              keep.push_back(pair[1].cast<py::bytes>());
            }
            for (std::size_t i = 0; i < keep.size(); i += 2) {
              auto k = view(keep[i]);
              auto v = view(keep[i + 1]);
              entries.push_back({k.first, k.second, v.first, v.second});
            }
            py::gil_scoped_release release;
            self.put_many(entries);
          },
          py::arg("items"),
          "Store (key, value) pairs; the writer commits them in groups (one log fdatasync per group) and "
          "this returns once all are acknowledged.")
      .def(
          "get",
          [](const Memtable& self, const py::bytes& key) -> py::object {
            auto k = view(key);
            std::string value;
            bool found;
            {
              py::gil_scoped_release release;
              found = self.get(k.first, k.second, &value);
            }
            if (!found) return py::none();
            return py::bytes(value);
          },
          py::arg("key"), "The latest value stored under key (from a buffer or a segment), or None.")
      .def(
          "flush",
          [](Memtable& self) {
            py::gil_scoped_release release;
            self.flush();
          },
          "Write the current buffer even if partly full, wait for every flush, make segments durable.")
      .def(
          "close",
          [](Memtable& self) {
            py::gil_scoped_release release;
            self.close();
          },
          "flush(), then stop the writer thread. Later calls raise ValueError.")
      .def("stats", [](const Memtable& self) { return stats_dict(self.stats()); })
      .def("keys",
           [](const Memtable& self) {
             py::list out;
             for (const std::string& k : self.keys()) out.append(py::bytes(k));
             return out;
           })
      .def("files", &Memtable::files, "Every file this memtable created (some may since have been deleted).")
      .def(
          "io_record", [](const Memtable& self) { return io_record_list(self.io_record()); },
          "With record_io=True: every write, sync, file creation and removal, and acknowledgement so far, in "
          "order, as dicts (kind, file, id, offset, length, dsync, data). ValueError when record_io is off.")
      .def("__len__", [](const Memtable& self) { return self.stats().keys; })
      .def("__enter__", [](Memtable& self) -> Memtable& { return self; }, py::return_value_policy::reference)
      .def("__exit__", [](Memtable& self, py::args) {
        py::gil_scoped_release release;
        self.close();
      });

  bind_function<MC>(m, "recover", memtable_positional(), memtable_keywords(),
                    [](const MC& c) { return open_memtable(c, true); },
                    "Rebuild the memtable in `dir` from its segments and write-ahead logs (after a crash or a close) "
                    "and continue it with these settings. Partial records are ignored.");

  // For the power-cut test only: recovery with a deliberate flaw that its checker must catch.
  m.def(
      "_memtable_recover_flawed",
      [](const std::string& dir, int64_t capacity, const std::string& flaw, int64_t record_size, bool direct) {
        require_path(dir, "dir");
        MemtableConfig c;
        c.dir = dir;
        c.capacity = capacity;
        c.record_size = record_size;
        c.flush = FlushMode::Blocking;
        c.direct = direct;
        c.segment_bytes = 64ll << 20;
        c.segments_ahead = 2;
        c.queue_depth = 64;
        c.pin_cpu = -1;
        const RecoveryFlaw f = parse_flaw(flaw);
        py::gil_scoped_release release;
        return Memtable::recover(c, f);
      },
      py::arg("dir"), py::arg("capacity"), py::arg("flaw"), py::kw_only(), py::arg("record_size") = 16384,
      py::arg("direct") = true,
      "Test only: recover() with a deliberate flaw ('no_checksum': records are trusted without their checksum; "
      "'no_log': the log is not read; 'none': the real recovery).");

  bind_function<BC>(m, "memtable_benchmark", bench_positional(), bench_keywords(), &run_benchmark,
                    "The seed's workload in C++: `producers` threads hand `records` records of `record_size` framed "
                    "bytes (16-byte keys) to the single writer. Returns per-record latencies (ns), per-flush "
                    "latencies, the elapsed time, totals and `counters` (where the writer's time went: counts "
                    "always, times with counters=True, which reads the clock per batch and per flush). Files are "
                    "removed before it returns.");

  m.def("memtable_record_bytes", [](int64_t key_len, int64_t value_len) {
    require(key_len >= 0 && value_len >= 0, "lengths must not be negative");
    return framed_size(static_cast<uint64_t>(key_len), static_cast<uint64_t>(value_len));
  }, py::arg("key_len"), py::arg("value_len"), "Bytes a record occupies: 32-byte header, key, value, padding to 8.");
}

}  // namespace howfast
