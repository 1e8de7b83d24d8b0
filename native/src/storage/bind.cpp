#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "storage/storage.hpp"
#include "common/pyutil.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

py::dict run_disk_io(const std::string& path, const std::string& engine, const std::string& op, bool random,
                     bool fsync, bool direct, int64_t block_size, int64_t file_size, int64_t queue_depth,
                     int64_t jobs, bool fixed_buffers, bool fixed_files, bool drop_cache, bool verify,
                     uint64_t seed) {
  IoConfig c;
  c.path = path;
  c.engine = parse_engine(engine);
  c.op = parse_io_op(op);
  c.random = random;
  c.fsync = fsync;
  c.direct = direct;
  c.block_size = block_size;
  c.file_size = file_size;
  c.queue_depth = queue_depth;
  c.jobs = jobs;
  c.fixed_buffers = fixed_buffers;
  c.fixed_files = fixed_files;
  c.drop_cache = drop_cache;
  c.verify = verify;
  c.seed = seed;
  IoResult r;
  {
    py::gil_scoped_release release;
    Poller poller = python_signal_poller();
    r = run_io(c, poller);
  }
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
  m.def("disk_io", &run_disk_io, py::arg("path"), py::kw_only(), py::arg("engine") = "sync",
        py::arg("op") = "read", py::arg("random") = false, py::arg("fsync") = false, py::arg("direct") = false,
        py::arg("block_size") = 4096, py::arg("file_size") = 1 << 20, py::arg("queue_depth") = 1,
        py::arg("jobs") = 1, py::arg("fixed_buffers") = false, py::arg("fixed_files") = false,
        py::arg("drop_cache") = true, py::arg("verify") = false, py::arg("seed") = 1,
        "Read or write `file_size` bytes per job in blocks of `block_size` with one engine ('sync', "
        "'aio', 'io_uring'); job i uses the file `path`.i (which must exist for reads: prepare_file). "
        "Returns per-job latency arrays (ns) and totals.");
  m.def("prepare_file", [](const std::string& path, int64_t file_size, int64_t block_size, uint64_t seed) {
    py::gil_scoped_release release;
    prepare_file(path, file_size, block_size, seed);
  }, py::arg("path"), py::arg("file_size"), py::arg("block_size"), py::arg("seed") = 1,
     "Write a new file of stamped blocks (what disk_io reads and verifies) and fsync it.");
  m.def("memcpy_rounds", [](int64_t size, int64_t rounds) {
    std::vector<uint64_t> ns;
    {
      py::gil_scoped_release release;
      ns = memcpy_rounds(size, rounds);
    }
    return to_array(std::move(ns));
  }, py::arg("size"), py::arg("rounds"), "Copy `size` bytes `rounds` times; ns per round.");
}

}  // namespace howfast
