#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "memtable/memtable.hpp"
#include "memtable/memtable_format.hpp"
#include "common/pyutil.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

MemtableConfig make_config(const std::string& dir, int64_t capacity, int64_t record_size, bool dsync,
                           const std::string& flush, int64_t buffers, bool wal, int64_t pin_cpu, bool direct,
                           int64_t segment_bytes, int64_t queue_depth) {
  MemtableConfig c;
  c.dir = dir;
  c.capacity = capacity;
  c.record_size = record_size;
  c.dsync = dsync;
  c.flush = parse_flush_mode(flush);
  c.buffers = buffers;
  c.wal = wal;
  c.pin_cpu = pin_cpu;
  c.direct = direct;
  c.segment_bytes = segment_bytes;
  c.queue_depth = queue_depth;
  return c;
}

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
  d["idle_ns"] = s.idle_ns;
  d["submit_ns"] = s.submit_ns;
  d["buffers"] = s.buffers;
  d["fixed_buffers"] = s.fixed_buffers;
  d["recovered_records"] = s.recovered_records;
  d["replayed_records"] = s.replayed_records;
  d["torn_records"] = s.torn_records;
  return d;
}

#define MEMTABLE_ARGS                                                                                          \
  py::arg("dir"), py::arg("capacity"), py::kw_only(), py::arg("record_size") = 16384, py::arg("dsync") = false, \
      py::arg("flush") = "blocking", py::arg("buffers") = 0, py::arg("wal") = false, py::arg("pin_cpu") = -1,   \
      py::arg("direct") = true, py::arg("segment_bytes") = 64ll << 20, py::arg("queue_depth") = 64

std::unique_ptr<Memtable> open_memtable(const std::string& dir, int64_t capacity, int64_t record_size, bool dsync,
                                        const std::string& flush, int64_t buffers, bool wal, int64_t pin_cpu,
                                        bool direct, int64_t segment_bytes, int64_t queue_depth, bool recover) {
  MemtableConfig c = make_config(dir, capacity, record_size, dsync, flush, buffers, wal, pin_cpu, direct,
                                 segment_bytes, queue_depth);
  py::gil_scoped_release release;
  if (recover) return Memtable::recover(c);
  return std::make_unique<Memtable>(c);
}

py::dict run_benchmark(const std::string& dir, int64_t capacity, int64_t records, int64_t record_size, bool dsync,
                       const std::string& flush, int64_t buffers, bool wal, int64_t pin_cpu, int64_t producers,
                       bool direct, int64_t segment_bytes, int64_t queue_depth) {
  MemtableBenchConfig c;
  c.memtable = make_config(dir, capacity, record_size, dsync, flush, buffers, wal, pin_cpu, direct, segment_bytes,
                           queue_depth);
  c.records = records;
  c.producers = producers;
  MemtableBenchResult r;
  {
    py::gil_scoped_release release;
    Poller poller = python_signal_poller();
    r = memtable_benchmark(c, poller);
  }
  py::dict out = stats_dict(r.stats);
  out["latency_ns"] = to_array(std::move(r.latency_ns));
  out["flush_ns"] = to_array(std::move(r.flush_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["first_fill_ns"] = r.first_fill_ns;
  out["records"] = r.records;
  out["record_bytes"] = r.record_bytes;
  return out;
}

}  // namespace

void register_memtable(py::module_& m) {
  py::class_<Memtable>(m, "Memtable",
                       "A memtable: records appended into aligned buffers of `capacity` bytes, flushed to "
                       "O_DIRECT segment files in `dir` (blocking, or through io_uring with several buffers), "
                       "with an optional write-ahead log (group commit) and an index for get().")
      .def(py::init([](const std::string& dir, int64_t capacity, int64_t record_size, bool dsync,
                       const std::string& flush, int64_t buffers, bool wal, int64_t pin_cpu, bool direct,
                       int64_t segment_bytes, int64_t queue_depth) {
             return open_memtable(dir, capacity, record_size, dsync, flush, buffers, wal, pin_cpu, direct,
                                  segment_bytes, queue_depth, false);
           }),
           MEMTABLE_ARGS)
      .def(
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
      .def("__len__", [](const Memtable& self) { return self.stats().keys; })
      .def("__enter__", [](Memtable& self) -> Memtable& { return self; }, py::return_value_policy::reference)
      .def("__exit__", [](Memtable& self, py::args) {
        py::gil_scoped_release release;
        self.close();
      });

  m.def(
      "recover",
      [](const std::string& dir, int64_t capacity, int64_t record_size, bool dsync, const std::string& flush,
         int64_t buffers, bool wal, int64_t pin_cpu, bool direct, int64_t segment_bytes, int64_t queue_depth) {
        return open_memtable(dir, capacity, record_size, dsync, flush, buffers, wal, pin_cpu, direct,
                             segment_bytes, queue_depth, true);
      },
      MEMTABLE_ARGS,
      "Rebuild the memtable in `dir` from its segments and write-ahead logs (after a crash or a close) "
      "and continue it with these settings. Partial records are ignored.");

  m.def("memtable_benchmark", &run_benchmark, py::arg("dir"), py::arg("capacity"), py::arg("records"), py::kw_only(),
        py::arg("record_size") = 16384, py::arg("dsync") = false, py::arg("flush") = "blocking",
        py::arg("buffers") = 0, py::arg("wal") = false, py::arg("pin_cpu") = -1, py::arg("producers") = 4,
        py::arg("direct") = true, py::arg("segment_bytes") = 64ll << 20, py::arg("queue_depth") = 64,
        "The seed's workload in C++: `producers` threads hand `records` records of `record_size` framed "
        "bytes (16-byte keys) to the single writer. Returns per-record latencies (ns), per-flush latencies, "
        "the elapsed time and totals. Files are removed before it returns.");

  m.def("memtable_record_bytes", [](int64_t key_len, int64_t value_len) {
    require(key_len >= 0 && value_len >= 0, "lengths must not be negative");
    return framed_size(static_cast<uint64_t>(key_len), static_cast<uint64_t>(value_len));
  }, py::arg("key_len"), py::arg("value_len"), "Bytes a record occupies: 32-byte header, key, value, padding to 8.");
}

}  // namespace howfast
