#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "fsync/fsync.hpp"
#include "common/pyutil.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

py::dict run_durable_writes(const std::string& path, int64_t block_size, int64_t count, const std::string& sync,
                            bool direct, const std::string& layout, uint64_t seed) {
  DurableWriteConfig config{path, block_size, count, parse_sync_mode(sync), direct, parse_layout(layout), seed};
  DurableWriteResult r;
  {
    py::gil_scoped_release release;
    Poller poller = python_signal_poller();
    r = durable_writes(config, poller);
  }
  py::dict out;
  out["latency_ns"] = to_array(std::move(r.latency_ns));
  out["sync_ns"] = to_array(std::move(r.sync_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["bytes"] = r.bytes;
  out["alignment"] = r.alignment;
  return out;
}

py::dict run_group_commit(const std::string& path, int64_t record_size, int64_t records_per_sync, int64_t syncs,
                          const std::string& sync, uint64_t seed) {
  GroupCommitConfig config{path, record_size, records_per_sync, syncs, parse_sync_mode(sync), seed};
  GroupCommitResult r;
  {
    py::gil_scoped_release release;
    Poller poller = python_signal_poller();
    r = group_commit(config, poller);
  }
  py::dict out;
  out["batch_ns"] = to_array(std::move(r.batch_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["records"] = r.records;
  out["bytes"] = r.bytes;
  return out;
}

}  // namespace

void register_fsync(py::module_& m) {
  m.def("durable_writes", &run_durable_writes, py::arg("path"), py::arg("block_size"), py::arg("count"),
        py::kw_only(), py::arg("sync") = "fsync", py::arg("direct") = false, py::arg("layout") = "append",
        py::arg("seed") = 1,
        "Write `count` blocks of `block_size` bytes to a new file at `path`, making each durable per "
        "`sync` ('none', 'fsync', 'fdatasync', 'dsync' = O_DSYNC), optionally with O_DIRECT. Returns "
        "per-operation latencies (ns) and totals. The file is left for the caller to verify and remove.");
  m.def("group_commit", &run_group_commit, py::arg("path"), py::arg("record_size"), py::arg("records_per_sync"),
        py::arg("syncs"), py::kw_only(), py::arg("sync") = "fsync", py::arg("seed") = 1,
        "Append `records_per_sync` records, then one sync; repeat `syncs` times. Returns per-batch latencies.");
}

}  // namespace howfast
