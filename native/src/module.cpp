// Python bindings: howfast._native.
//
// Every loop runs with the GIL released; a Poller re-takes it every 50 ms between
// operations only to let Ctrl-C (KeyboardInterrupt) stop the loop.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "durable_write.hpp"
#include "errors.hpp"
#include "files.hpp"
#include "probes.hpp"

namespace py = pybind11;
using namespace howfast;

namespace {

py::array_t<uint64_t> to_array(std::vector<uint64_t>&& values) {
  auto* heap = new std::vector<uint64_t>(std::move(values));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<uint64_t>*>(p); });
  return py::array_t<uint64_t>(static_cast<py::ssize_t>(heap->size()), heap->data(), owner);
}

Poller python_signal_poller() {
  return Poller([] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  });
}

py::dict run_durable_writes(const std::string& path, int64_t block_size, int64_t count,
                            const std::string& sync, bool direct, const std::string& layout,
                            uint64_t seed) {
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

py::dict run_group_commit(const std::string& path, int64_t record_size, int64_t records_per_sync,
                          int64_t syncs, const std::string& sync, uint64_t seed) {
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

py::bytes block_pattern(int64_t size, uint64_t index, uint64_t seed) {
  const uint64_t n = require_positive(size, "size", 256ll << 20);
  std::vector<unsigned char> buf(n);
  fill_pattern(buf.data(), n, seed);
  stamp_block(buf.data(), n, index);
  return py::bytes(reinterpret_cast<const char*>(buf.data()), n);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "howfast native benchmark loops (C++, GIL released)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SysError& e) {
      py::object err = py::module_::import("builtins").attr("OSError")(e.err(), e.what(), e.path());
      PyErr_SetObject(PyExc_OSError, err.ptr());
    }
  });

  m.def("durable_writes", &run_durable_writes, py::arg("path"), py::arg("block_size"), py::arg("count"),
        py::kw_only(), py::arg("sync") = "fsync", py::arg("direct") = false, py::arg("layout") = "append",
        py::arg("seed") = 1,
        "Write `count` blocks of `block_size` bytes to a new file at `path`, making each durable per "
        "`sync` ('none', 'fsync', 'fdatasync', 'dsync' = O_DSYNC), optionally with O_DIRECT. Returns "
        "per-operation latencies (ns) and totals. The file is left for the caller to verify and remove.");
  m.def("group_commit", &run_group_commit, py::arg("path"), py::arg("record_size"), py::arg("records_per_sync"),
        py::arg("syncs"), py::kw_only(), py::arg("sync") = "fsync", py::arg("seed") = 1,
        "Append `records_per_sync` records, then one sync; repeat `syncs` times. Returns per-batch latencies.");
  m.def("probe_io_uring", [] {
    IoUringProbe p = probe_io_uring();
    py::dict out;
    out["supported"] = p.supported;
    out["reason"] = p.reason;
    out["liburing_version"] = p.liburing_version;
    return out;
  });
  m.def("probe_direct_io", [](const std::string& directory) {
    DirectIoProbe p = probe_direct_io(directory);
    py::dict out;
    out["supported"] = p.supported;
    out["alignment"] = p.alignment;
    out["reason"] = p.reason;
    return out;
  }, py::arg("directory"));
  m.def("free_bytes", [](const std::string& directory) {
    require_directory(directory, "directory");
    return free_bytes(directory);
  }, py::arg("directory"));
  m.def("block_pattern", &block_pattern, py::arg("size"), py::arg("index"), py::arg("seed") = 1,
        "The bytes the write loops put in block `index` (for read-back checks).");
#ifdef HOWFAST_HAVE_LIBURING
  m.attr("liburing_version") = HOWFAST_LIBURING_VERSION;
#else
  m.attr("liburing_version") = py::none();
#endif
}
