#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "probes/probes.hpp"

namespace py = pybind11;

namespace howfast {

namespace {
py::bytes block_pattern(int64_t size, uint64_t index, uint64_t seed) {
  const uint64_t n = require_positive(size, "size", 256ll << 20);
  std::string buf(n, '\0');
  {
    py::gil_scoped_release release;  // up to 256 MiB to fill
    auto* data = reinterpret_cast<unsigned char*>(buf.data());
    fill_pattern(data, n, seed);
    stamp_block(data, n, index);
  }
  return py::bytes(buf);
}
}  // namespace

void register_probes(py::module_& m) {
  m.def("probe_io_uring", [] {
    IoUringProbe p;
    {
      py::gil_scoped_release release;  // sets up a ring and waits for a NOP
      p = probe_io_uring();
    }
    py::dict out;
    out["supported"] = p.supported;
    out["reason"] = p.reason;
    out["liburing_version"] = p.liburing_version;
    return out;
  }, "Can this process set up an io_uring and complete a NOP? Answers with the reason.");
  m.def("probe_direct_io", [](const std::string& directory) {
    require_path(directory, "directory");
    DirectIoProbe p;
    {
      py::gil_scoped_release release;  // creates, writes and removes a file
      p = probe_direct_io(directory);
    }
    py::dict out;
    out["supported"] = p.supported;
    out["alignment"] = p.alignment;
    out["reason"] = p.reason;
    return out;
  }, py::arg("directory"), "Does O_DIRECT work in `directory`, and with what smallest write size?");
  m.def("free_bytes", [](const std::string& directory) {
    require_path(directory, "directory");
    py::gil_scoped_release release;  // stat and statvfs
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

}  // namespace howfast
