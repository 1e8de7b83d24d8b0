#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "codecs/codecs.hpp"
#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/pyutil.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

// A contiguous byte buffer (bytes, bytearray, memoryview, numpy uint8) viewed without a copy.
struct Bytes {
  const uint8_t* data;
  size_t size;
};

Bytes view(const py::buffer& buffer, py::buffer_info& info, const char* arg) {
  info = buffer.request();
  require(info.ndim == 1 && info.itemsize == 1 && (info.size <= 1 || info.strides[0] == 1),
          std::string(arg) + ": must be a contiguous one-dimensional byte buffer (bytes, bytearray or numpy uint8)");
  return {static_cast<const uint8_t*>(info.ptr), static_cast<size_t>(info.size)};
}

size_t checked_block(int64_t block) {
  require(block >= 0, "block: must be 0 (one block) or a positive size, got " + std::to_string(block));
  return static_cast<size_t>(block);
}

py::dict as_dict(const CodecLoopResult& r) {
  py::dict out;
  out["elapsed_ns"] = r.elapsed_ns;
  out["bytes"] = r.bytes;
  out["compressed"] = r.compressed;
  out["checksum"] = r.checksum;
  out["iterations"] = r.iterations;
  out["round_trip"] = r.round_trip;
  return out;
}

template <typename Loop>
py::dict codec_loop(Loop loop, const std::string& codec, int level, const py::buffer& data, int64_t block,
                    int64_t iterations) {
  require(iterations >= 1, "iterations: must be at least 1, got " + std::to_string(iterations));
  size_t b = checked_block(block);
  codec_levels(codec);  // an unknown codec is a ValueError before the GIL is released
  py::buffer_info info;
  Bytes d = view(data, info, "data");
  CodecLoopResult r = without_gil([&](Poller& poller) {
    return loop(codec, level, d.data, d.size, b, static_cast<uint64_t>(iterations), poller);
  });
  return as_dict(r);
}

py::dict run_decompress_packed_loop(const std::string& codec, int level, const py::buffer& packed,
                                    const std::vector<size_t>& sizes, const py::buffer& data, int64_t iterations,
                                    int64_t block) {
  require(iterations >= 1, "iterations: must be at least 1, got " + std::to_string(iterations));
  size_t b = checked_block(block);
  codec_levels(codec);  // an unknown codec is a ValueError before the GIL is released
  py::buffer_info packed_info, data_info;
  Bytes p = view(packed, packed_info, "packed");
  Bytes d = view(data, data_info, "data");
  CodecLoopResult r = without_gil([&](Poller& poller) {
    return decompress_packed_loop(codec, level, p.data, p.size, sizes, d.data, d.size, b,
                                  static_cast<uint64_t>(iterations), poller);
  });
  return as_dict(r);
}

py::tuple run_compress(const std::string& codec, int level, const py::buffer& data, int64_t block) {
  size_t b = checked_block(block);
  py::buffer_info info;
  Bytes d = view(data, info, "data");
  std::vector<size_t> sizes;
  std::vector<uint8_t> packed;
  {
    py::gil_scoped_release release;
    packed = compress_blocks(codec, level, d.data, d.size, b, sizes);
  }
  return py::make_tuple(py::bytes(reinterpret_cast<const char*>(packed.data()), packed.size()), sizes);
}

py::bytes run_decompress(const std::string& codec, const py::buffer& packed, const std::vector<size_t>& sizes,
                         int64_t size, int64_t block) {
  size_t b = checked_block(block);
  require(size >= 0, "size: must not be negative, got " + std::to_string(size));
  py::buffer_info info;
  Bytes p = view(packed, info, "packed");
  std::vector<uint8_t> out;
  {
    py::gil_scoped_release release;
    out = decompress_blocks(codec, p.data, p.size, sizes, static_cast<size_t>(size), b);
  }
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

using U64Array = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>;

py::dict run_sort_loop(const std::string& algorithm, const U64Array& values, int64_t iterations) {
  require(iterations >= 1, "iterations: must be at least 1, got " + std::to_string(iterations));
  require(values.ndim() == 1, "values: must be a one-dimensional array of uint64");
  const uint64_t* p = values.data();
  size_t n = static_cast<size_t>(values.size());
  SortLoopResult r = without_gil([&](Poller& poller) {
    return sort_loop(algorithm, p, n, static_cast<uint64_t>(iterations), poller);
  });
  py::dict out;
  out["elapsed_ns"] = r.elapsed_ns;
  out["elements"] = r.elements;
  out["iterations"] = r.iterations;
  out["checksum"] = r.checksum;
  return out;
}

py::array_t<uint64_t> run_sort(const std::string& algorithm, const U64Array& values) {
  require(values.ndim() == 1, "values: must be a one-dimensional array of uint64");
  std::vector<uint64_t> work(values.data(), values.data() + values.size());
  std::vector<uint64_t> scratch(work.size());
  {
    py::gil_scoped_release release;
    sort_u64(algorithm, work.data(), work.size(), scratch.data());
  }
  return to_array(std::move(work));
}

}  // namespace

void register_codecs(py::module_& m) {
  m.def("codec_support", &codec_support,
        "Every codec id mapped to '' when this build can run it, else the reason it cannot.");
  m.def("codec_libraries", &codec_libraries,
        "The compression libraries this module was built with, and their versions ('' when built without one).");
  m.def("codec_levels", &codec_levels, py::arg("codec"), "The (lowest, highest) level a codec accepts.");
  m.def("compress", &run_compress, py::arg("codec"), py::arg("level"), py::arg("data"), py::kw_only(),
        py::arg("block") = 0,
        "Compress `data` in independent blocks of `block` bytes (0: one block); returns (packed bytes, block sizes).");
  m.def("decompress", &run_decompress, py::arg("codec"), py::arg("packed"), py::arg("sizes"), py::arg("size"),
        py::kw_only(), py::arg("block") = 0, "The inverse of compress: `size` bytes back.");
  m.def("compress_loop", [](const std::string& c, int l, const py::buffer& d, int64_t it, int64_t b) {
        return codec_loop(compress_loop, c, l, d, b, it);
      }, py::arg("codec"), py::arg("level"), py::arg("data"), py::arg("iterations"), py::kw_only(), py::arg("block") = 0,
        "Compress `data` in blocks `iterations` times with the GIL released; the last pass is decompressed and "
        "compared byte for byte. Returns elapsed_ns, bytes, compressed, checksum, iterations, round_trip.");
  m.def("decompress_loop", [](const std::string& c, int l, const py::buffer& d, int64_t it, int64_t b) {
        return codec_loop(decompress_loop, c, l, d, b, it);
      }, py::arg("codec"), py::arg("level"), py::arg("data"), py::arg("iterations"), py::kw_only(), py::arg("block") = 0,
        "Compress `data` once, then decompress it `iterations` times with the GIL released; every block's size is "
        "checked and the last pass compared byte for byte. Returns as compress_loop.");
  m.def("decompress_packed_loop", &run_decompress_packed_loop, py::arg("codec"), py::arg("level"), py::arg("packed"),
        py::arg("sizes"), py::arg("data"), py::arg("iterations"), py::kw_only(), py::arg("block") = 0,
        "Decompress `packed` (compress's output for `data`, with its block sizes) `iterations` times with the GIL "
        "released, after one untimed pass compared with `data`; the last pass compared byte for byte. Returns as "
        "compress_loop.");
  m.def("sort_algorithms", &sort_algorithms, "The sort ids sort_loop takes.");
  m.def("sort_u64", &run_sort, py::arg("algorithm"), py::arg("values"), "A sorted copy of `values` (uint64).");
  m.def("sort_loop", &run_sort_loop, py::arg("algorithm"), py::arg("values"), py::arg("iterations"),
        "Copy `values` into a work buffer and sort it, `iterations` times, with the GIL released; only the sorts are "
        "timed, and each output is checked for order and sum. Returns elapsed_ns, elements, iterations, checksum.");
}

}  // namespace howfast
