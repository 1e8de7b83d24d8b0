#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "common/bindings.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "rocksdb/rocksdb.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

py::dict to_dict(RocksResult&& r) {
  py::dict out;
  out["latency_ns"] = to_array(std::move(r.latency_ns));
  out["sample_every"] = r.sample_every;
  out["threads"] = r.threads;
  out["ops"] = r.ops;
  out["elapsed_ns"] = r.elapsed_ns;
  out["thread_ns"] = r.thread_ns;
  out["latency_sum_ns"] = r.latency_sum_ns;
  out["latency_max_ns"] = r.latency_max_ns;
  out["bytes"] = r.bytes;
  out["found"] = r.found;
  out["writer_ops"] = r.writer_ops;
  out["writer_ns"] = r.writer_ns;
  out["writer_latency_sum_ns"] = r.writer_latency_sum_ns;
  return out;
}

// Runs one workload with the GIL released; Ctrl-C reaches it through the poller.
template <typename F>
py::dict workload(F&& f) {
  return to_dict(without_gil(std::forward<F>(f)));
}

// RocksDb()'s arguments, each written once; the defaults (db_bench's) are the ones Python sees.
using RC = RocksConfig;
const auto kPath = path_field<RC>("path", &RC::path);

auto rocks_keywords() {
  return std::make_tuple(field<RC>("key_size", &RC::key_size, 16), field<RC>("value_size", &RC::value_size, 800),
                         field<RC>("compression", &RC::compression, "snappy"),
                         field<RC>("compression_ratio", &RC::compression_ratio, 0.5),
                         field<RC>("write_buffer_size", &RC::write_buffer_size, 64ll << 20),
                         field<RC>("max_write_buffer_number", &RC::max_write_buffer_number, 2),
                         field<RC>("cache_size", &RC::cache_size, 8ll << 20),
                         field<RC>("disable_wal", &RC::disable_wal, false), field<RC>("sync", &RC::sync, false),
                         field<RC>("seed", &RC::seed, 1));
}

}  // namespace

void register_rocksdb(py::module_& m) {
  if (rocksdb_available()) {
    m.attr("rocksdb_version") = rocksdb_version();
  } else {
    m.attr("rocksdb_version") = py::none();
  }
  m.def("rocksdb_compressions", &rocksdb_compressions,
        "Compression names this librocksdb supports (empty when built without RocksDB).");

  py::class_<RocksBench> cls(m, "RocksDb",
                         "A RocksDB opened in a new directory with db_bench's default options, and db_bench's "
                         "workloads run in C++ with the GIL released. Keys are the 8-byte big-endian key index "
                         "padded with '0'; values are db_bench-like compressible bytes (see value()).");
  bind_init<RC>(cls, std::make_tuple(kPath), rocks_keywords(),
                [](const RC& c) {
                  py::gil_scoped_release release;
                  return std::make_unique<RocksBench>(c);
                },
                "Create a database in the new directory `path` (its parent must exist).");
  cls.def("fillseq", [](RocksBench& db, int64_t count, int64_t sample_every) {
             return workload([&](Poller& p) { return db.fillseq(count, sample_every, p); });
           },
           py::arg("count"), py::kw_only(), py::arg("sample_every") = 1,
           "Put keys 0..count-1 in order. Latencies of every `sample_every`-th Put are returned.")
      .def("readrandom", [](RocksBench& db, int64_t reads, int64_t key_range, int64_t threads, int64_t sample_every) {
             return workload([&](Poller& p) { return db.readrandom(reads, key_range, threads, sample_every, p); });
           },
           py::arg("reads"), py::kw_only(), py::arg("key_range"), py::arg("threads") = 1, py::arg("sample_every") = 1,
           "`threads` threads each Get `reads` keys drawn uniformly from [0, key_range).")
      .def("overwrite", [](RocksBench& db, int64_t writes, int64_t key_range, int64_t sample_every) {
             return workload([&](Poller& p) { return db.overwrite(writes, key_range, sample_every, p); });
           },
           py::arg("writes"), py::kw_only(), py::arg("key_range"), py::arg("sample_every") = 1,
           "Put `writes` keys drawn uniformly from [0, key_range) with fresh values.")
      .def("readwhilewriting",
           [](RocksBench& db, int64_t reads, int64_t key_range, int64_t readers, int64_t sample_every) {
             return workload(
                 [&](Poller& p) { return db.readwhilewriting(reads, key_range, readers, sample_every, p); });
           },
           py::arg("reads"), py::kw_only(), py::arg("key_range"), py::arg("readers") = 1, py::arg("sample_every") = 1,
           "`readers` threads as readrandom while one more thread overwrites random keys until they finish. "
           "Only the readers are measured (writer_ops, writer_ns report the writer).")
      .def("get", [](RocksBench& db, const py::bytes& key) -> py::object {
             std::string k = key;
             std::optional<std::string> v;
             {
               py::gil_scoped_release release;
               v = db.get(k);
             }
             if (!v) return py::none();
             return py::bytes(*v);
           },
           py::arg("key"), "The stored value of `key`, or None.")
      .def("key", [](const RocksBench& db, int64_t index) { return py::bytes(db.key(index)); }, py::arg("index"),
           "The key of index `index`.")
      .def("value", [](const RocksBench& db, int64_t index, uint64_t generation) {
             return py::bytes(db.value(index, generation));
           },
           py::arg("index"), py::arg("generation") = 0,
           "The value written for `index` by a workload of `generation` (0 is fillseq).")
      .def("property", [](RocksBench& db, const std::string& name) {
             py::gil_scoped_release release;
             return db.property(name);
           },
           py::arg("name"), "A RocksDB property such as 'rocksdb.stats' ('' if unknown).")
      .def("close", [](RocksBench& db) {
             py::gil_scoped_release release;
             db.close();
           },
           "Close the database (waits for running background work). Idempotent.")
      .def_property_readonly("is_open", &RocksBench::is_open)
      .def_property_readonly("compression", &RocksBench::compression)
      .def_property_readonly("path", [](const RocksBench& db) { return db.config().path; });
}

}  // namespace howfast
