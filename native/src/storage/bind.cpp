#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "storage/storage.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

// disk_io()'s arguments, each written once; the defaults are the ones Python sees.
using IC = IoConfig;

auto io_keywords() {
  return std::make_tuple(
      converted<IC, std::string>("engine", [](IC& c, const std::string& v) { c.engine = parse_engine(v); }, "sync"),
      converted<IC, std::string>("op", [](IC& c, const std::string& v) { c.op = parse_io_op(v); }, "read"),
      field<IC>("random", &IC::random, false), field<IC>("fsync", &IC::fsync, false),
      field<IC>("direct", &IC::direct, false), field<IC>("block_size", &IC::block_size, 4096),
      field<IC>("file_size", &IC::file_size, 1 << 20), field<IC>("queue_depth", &IC::queue_depth, 1),
      field<IC>("jobs", &IC::jobs, 1), field<IC>("fixed_buffers", &IC::fixed_buffers, false),
      field<IC>("fixed_files", &IC::fixed_files, false), field<IC>("drop_cache", &IC::drop_cache, true),
      field<IC>("verify", &IC::verify, false), field<IC>("seed", &IC::seed, 1));
}

py::dict run_disk_io(const IoConfig& c) {
  IoResult r = without_gil([&](Poller& poller) { return run_io(c, poller); });
  py::list jobs_out;
  uint64_t bytes_read = 0, bytes_written = 0, mismatches = 0;
  for (auto& job : r.jobs) {
    py::dict j;
    bytes_read += job.bytes_read;
    bytes_written += job.bytes_written;
    mismatches += job.mismatches;
    j["latency_ns"] = to_array(std::move(job.latency_ns));
    j["is_write"] = to_array(std::move(job.is_write));
    j["bytes_read"] = job.bytes_read;
    j["bytes_written"] = job.bytes_written;
    j["elapsed_ns"] = job.end_ns - job.start_ns;
    jobs_out.append(j);
  }
  py::dict out;
  out["jobs"] = jobs_out;
  out["elapsed_ns"] = r.elapsed_ns;
  out["bytes_read"] = bytes_read;
  out["bytes_written"] = bytes_written;
  out["mismatches"] = mismatches;
  return out;
}

}  // namespace

void register_storage(py::module_& m) {
  bind_function<IC>(m, "disk_io", std::make_tuple(path_field<IC>("path", &IC::path)), io_keywords(), &run_disk_io,
        "Read or write `file_size` bytes per job in blocks of `block_size` with one engine ('sync', "
        "'aio', 'io_uring'); job i uses the file `path`.i (which must exist for reads: prepare_file). "
        "Returns per-job latency arrays (ns) and totals.");
  m.def("prepare_file", [](const std::string& path, int64_t file_size, int64_t block_size, uint64_t seed) {
    require_path(path, "path");
    py::gil_scoped_release release;
    prepare_file(path, file_size, block_size, seed);
  }, py::arg("path"), py::arg("file_size"), py::arg("block_size"), py::arg("seed") = 1,
     "Write a new file of stamped blocks (what disk_io reads and verifies) and fsync it.");
  m.def("memcpy_rounds", [](int64_t size, int64_t rounds) {
    std::vector<uint64_t> ns = without_gil([&](Poller& poller) { return memcpy_rounds(size, rounds, poller); });
    return to_array(std::move(ns));
  }, py::arg("size"), py::arg("rounds"), "Copy `size` bytes `rounds` times; ns per round. ValueError when the source and destination (2 * size) exceed half of the memory available now; Ctrl-C stops it within a 256 MiB chunk.");
}

}  // namespace howfast
