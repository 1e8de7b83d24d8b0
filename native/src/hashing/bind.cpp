#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/pyutil.hpp"
#include "hashing/hashing.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

// A contiguous byte buffer (bytes, bytearray, memoryview, numpy uint8) viewed without a copy.
struct Bytes {
  const uint8_t* data;
  size_t size;
};

Bytes view(const py::buffer& buffer, py::buffer_info& info) {
  info = buffer.request();
  require(info.ndim == 1 && info.itemsize == 1 && (info.size <= 1 || info.strides[0] == 1),
          "data: must be a contiguous one-dimensional byte buffer (bytes, bytearray or numpy uint8)");
  return {static_cast<const uint8_t*>(info.ptr), static_cast<size_t>(info.size)};
}

py::dict run_hash_loop(const std::string& algorithm, const py::buffer& data, int64_t iterations, uint64_t seed) {
  // At most 2**40 hashes (iterations_for's own ceiling); Ctrl-C stops any loop within 64 MiB hashed.
  const uint64_t n = require_positive(iterations, "iterations", kMaxHashIterations);
  py::buffer_info info;
  Bytes b = view(data, info);
  HashLoopResult r = without_gil([&](Poller& poller) {
    return hash_loop(algorithm, b.data, b.size, n, seed, poller);
  });
  py::dict out;
  out["elapsed_ns"] = r.elapsed_ns;
  out["checksum"] = r.checksum;
  out["bytes"] = r.bytes;
  out["iterations"] = r.iterations;
  return out;
}

py::bytes run_hash_digest(const std::string& algorithm, const py::buffer& data, uint64_t seed) {
  py::buffer_info info;
  Bytes b = view(data, info);
  auto d = hash_digest(algorithm, b.data, b.size, seed);
  return py::bytes(reinterpret_cast<const char*>(d.data()), d.size());
}

}  // namespace

void register_hashing(py::module_& m) {
  m.def("hash_algorithms", &hash_algorithm_support,
        "Every hash algorithm id mapped to '' when this build and CPU can run it, else the reason it cannot.");
  m.def("hash_libraries", &hash_library_versions,
        "The hash libraries this module was built with, and their versions ('' when built without one).");
  m.def("hash_digest", &run_hash_digest, py::arg("algorithm"), py::arg("data"), py::kw_only(), py::arg("seed") = 0,
        "The library's hash of `data` as bytes (integers big-endian; murmur3 as mmh3.hash_bytes; "
        "crc32c continues from `seed` as crc32c.crc32c(data, seed)).");
  m.def("hash_loop", &run_hash_loop, py::arg("algorithm"), py::arg("data"), py::arg("iterations"), py::kw_only(),
        py::arg("seed") = 0,
        "Hash `data` `iterations` times (seed + i on iteration i) with the GIL released; returns elapsed_ns, bytes, "
        "iterations and checksum (the wrapping sum of each hash's first word, so no hash can be skipped). "
        "iterations: at most 2**40; Ctrl-C stops it.");
  m.def("hash_word", [](const std::string& algorithm, const py::bytes& digest) {
        std::string s = digest;
        return hash_word(algorithm, std::vector<uint8_t>(s.begin(), s.end()));
      }, py::arg("algorithm"), py::arg("digest"), "The word of a digest that hash_loop's checksum sums.");
}

}  // namespace howfast
