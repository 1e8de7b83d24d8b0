#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/kwargs.hpp"
#include "common/pyutil.hpp"
#include "sqlite/sqlite.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

constexpr const char* kDefaultContent = "x";
constexpr uint64_t kDefaultSeed = 1;

py::bytes row_text(int64_t row_size, int64_t id, const std::string& content, uint64_t seed) {
  return py::bytes(sqlite_row_text(row_size, id, parse_row_content(content), seed));
}

#ifdef HOWFAST_HAVE_SQLITE

// sqlite_inserts()'s arguments, each written once; the defaults are the ones Python sees
// (content and seed are also sqlite_verify's and sqlite_row_text's).
using SC = SqliteInsertConfig;

auto insert_positional() {
  return std::make_tuple(path_field<SC>("path", &SC::path), field<SC>("rows", &SC::rows),
                         field<SC>("batch_size", &SC::batch_size), field<SC>("row_size", &SC::row_size));
}

auto insert_keywords() {
  return std::make_tuple(
      converted<SC, std::string>(
          "synchronous", [](SC& c, const std::string& v) { c.synchronous = parse_synchronous(v); }, "normal"),
      field<SC>("journal_mode", &SC::journal_mode, "wal"),
      converted<SC, std::string>(
          "content", [](SC& c, const std::string& v) { c.content = parse_row_content(v); }, kDefaultContent),
      field<SC>("seed", &SC::seed, kDefaultSeed), field<SC>("prepare_per_batch", &SC::prepare_per_batch, false));
}

py::dict run_sqlite_inserts(const SqliteInsertConfig& config) {
  SqliteInsertResult r = without_gil([&](Poller& poller) { return sqlite_inserts(config, poller); });
  py::dict out;
  out["transaction_ns"] = to_array(std::move(r.transaction_ns));
  out["elapsed_ns"] = r.elapsed_ns;
  out["cpu_ns"] = r.cpu_ns;
  out["rows"] = r.rows;
  out["transactions"] = r.transactions;
  out["db_bytes"] = r.db_bytes;
  out["wal_bytes"] = r.wal_bytes;
  out["checkpointed_bytes"] = r.checkpointed_bytes;
  out["checkpoint_ns"] = r.checkpoint_ns;
  out["journal_mode"] = r.journal_mode;
  out["synchronous"] = r.synchronous;
  return out;
}

py::dict run_sqlite_verify(const std::string& path, int64_t rows, int64_t row_size, const std::string& content,
                           uint64_t seed) {
  const RowContent parsed = parse_row_content(content);
  require_path(path, "path");
  SqliteVerifyResult v;
  {
    py::gil_scoped_release release;
    v = sqlite_verify(path, rows, row_size, parsed, seed);
  }
  py::dict out;
  out["rows"] = v.rows;
  out["matching"] = v.matching;
  out["first_bad_id"] = v.first_bad_id;
  out["integrity"] = v.integrity;
  return out;
}

#endif

}  // namespace

void register_sqlite(py::module_& m) {
  m.def("sqlite_row_text", &row_text, py::arg("row_size"), py::arg("id"), py::kw_only(), py::arg("content") = kDefaultContent,
        py::arg("seed") = kDefaultSeed,
        "The text the SQLite insert loop stores in row `id` (ASCII bytes): 'x' * row_size as sqlite-bench, or "
        "for content='random' a window into a seeded pool of row_size + 4096 printable characters starting at "
        "(id * 7919) % 4096.");
#ifdef HOWFAST_HAVE_SQLITE
  // pybind11's recommended way to keep an exception type alive without a static py::object.
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::object> error_type;
  error_type.call_once_and_store_result(
      [&]() { return py::exception<SqliteError>(m, "SqliteError", PyExc_RuntimeError); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SqliteError& e) {
      py::object type = error_type.get_stored();
      py::object exc = type(e.what());
      exc.attr("code") = e.code();
      exc.attr("extended_code") = e.extended_code();
      exc.attr("code_name") = e.code_name();
      PyErr_SetObject(type.ptr(), exc.ptr());
    }
  });
  m.attr("sqlite_version") = sqlite_runtime_version();
  m.attr("sqlite_compiled_version") = sqlite_compiled_version();
  bind_function<SC>(m, "sqlite_inserts", insert_positional(), insert_keywords(), &run_sqlite_inserts,
        "sqlite-bench's insert loop through the sqlite3 C API: create a new database at `path`, set "
        "journal_mode and synchronous ('off', 'normal', 'full'), create t (id INTEGER PRIMARY KEY, name TEXT), "
        "insert `rows` rows of `row_size` bytes in transactions of `batch_size` rows with one prepared INSERT. "
        "Returns per-transaction latencies (ns), the loop's elapsed and CPU time and the file sizes. SQLite errors raise "
        "SqliteError (a RuntimeError with code, extended_code, code_name). The database is left for the caller "
        "to verify and remove.");
  m.def("sqlite_verify", &run_sqlite_verify, py::arg("path"), py::arg("rows"), py::arg("row_size"), py::kw_only(),
        py::arg("content") = kDefaultContent, py::arg("seed") = kDefaultSeed,
        "Open the existing database (only reading) and compare every row of t with what the insert loop wrote: returns the "
        "row count, how many rows match exactly, the first id that did not, and PRAGMA quick_check's answer.");
#else
  m.attr("sqlite_version") = py::none();
  m.attr("sqlite_compiled_version") = py::none();
#endif
}

}  // namespace howfast
