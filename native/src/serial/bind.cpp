#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/pyutil.hpp"
#include "serial/serial.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

template <typename T>
py::array_t<T, py::array::c_style | py::array::forcecast> column(const py::dict& records, const char* name) {
  require(records.contains(name), std::string("records: missing the column ") + name);
  return py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(records[name]);
}

// The records' columns (id, ts, status, ms, bytes as arrays; user, path as lists of str)
// made into C++ records once, before any loop.
std::vector<Record> to_records(const py::dict& records) {
  auto id = column<int64_t>(records, "id");
  auto ts = column<double>(records, "ts");
  auto status = column<int64_t>(records, "status");
  auto ms = column<double>(records, "ms");
  auto bytes = column<int64_t>(records, "bytes");
  require(records.contains("user") && records.contains("path"), "records: missing the column user or path");
  auto user = records["user"].cast<std::vector<std::string>>();
  auto path = records["path"].cast<std::vector<std::string>>();
  size_t n = static_cast<size_t>(id.size());
  require(static_cast<size_t>(ts.size()) == n && static_cast<size_t>(status.size()) == n &&
              static_cast<size_t>(ms.size()) == n && static_cast<size_t>(bytes.size()) == n && user.size() == n &&
              path.size() == n,
          "records: every column must have the same length");
  std::vector<Record> out(n);
  for (size_t i = 0; i < n; ++i)
    out[i] = Record{id.data()[i], ts.data()[i], status.data()[i], ms.data()[i], bytes.data()[i], user[i], path[i]};
  return out;
}

py::dict sums_dict(const RecordSums& s) {
  py::dict d;
  d["records"] = s.records;
  d["ids"] = s.ids;
  d["statuses"] = s.statuses;
  d["bytes"] = s.bytes;
  d["ts"] = s.ts;
  d["ms"] = s.ms;
  d["string_bytes"] = s.string_bytes;
  d["string_sum"] = s.string_sum;
  return d;
}

py::dict result_dict(const SerialLoopResult& r) {
  py::dict d;
  d["elapsed_ns"] = r.elapsed_ns;
  d["bytes"] = r.bytes;
  d["iterations"] = r.iterations;
  d["sums"] = sums_dict(r.sums);
  return d;
}

void check_iterations(int64_t iterations) {
  require(iterations >= 1, "iterations: must be at least 1, got " + std::to_string(iterations));
}

}  // namespace

void register_serial(py::module_& m) {
  m.def("serial_support", &serial_support, "Every serialization library id mapped to '' or why it cannot run.");
  m.def("serial_libraries", &serial_libraries, "The JSON libraries this module was built with and their versions.");
  m.def("parse_loop", [](const std::string& library, const std::string& text, int64_t iterations) {
        check_iterations(iterations);
        return result_dict(without_gil([&](Poller& p) { return parse_loop(library, text, uint64_t(iterations), p); }));
      }, py::arg("library"), py::arg("text"), py::arg("iterations"),
        "Parse `text` (a JSON array of records) `iterations` times with simdjson or rapidjson, GIL released; returns "
        "elapsed_ns, bytes, iterations and the sums of every field of the last pass's records.");
  m.def("write_loop", [](const std::string& library, const py::dict& records, int64_t iterations) {
        check_iterations(iterations);
        auto rs = to_records(records);
        return result_dict(without_gil([&](Poller& p) { return write_loop(library, rs, uint64_t(iterations), p); }));
      }, py::arg("library"), py::arg("records"), py::arg("iterations"),
        "Write `records` (columns) as JSON (rapidjson) or the binary dump (binary) `iterations` times, GIL released; "
        "the last output is read back and its sums compared with the records'.");
  m.def("read_binary_loop", [](const py::dict& records, int64_t iterations) {
        check_iterations(iterations);
        auto rs = to_records(records);
        return result_dict(without_gil([&](Poller& p) { return read_binary_loop(rs, uint64_t(iterations), p); }));
      }, py::arg("records"), py::arg("iterations"),
        "Read the binary dump of `records` `iterations` times (string views into the buffer), GIL released.");
  m.def("write_json", [](const py::dict& records) { return py::bytes(write_json(to_records(records))); },
        py::arg("records"), "The JSON text RapidJSON writes for `records`.");
  m.def("write_binary", [](const py::dict& records) { return py::bytes(write_binary(to_records(records))); },
        py::arg("records"), "The binary dump of `records`.");
  m.def("parse_sums", [](const std::string& library, const std::string& text) {
        return sums_dict(parse_sums(library, text));
      }, py::arg("library"), py::arg("text"), "The sums of every field of the records `library` parses from `text`.");
  m.def("binary_sums", [](const py::bytes& dump) { return sums_dict(binary_sums(std::string(dump))); },
        py::arg("dump"), "The sums of every field of the records read from a binary dump.");
  m.def("record_sums", [](const py::dict& records) { return sums_dict(sums_of(to_records(records))); },
        py::arg("records"), "The sums of every field of `records`, as the loops compute them.");
}

}  // namespace howfast
