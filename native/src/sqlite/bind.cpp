#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/pyutil.hpp"
#include "sqlite/sqlite.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

py::bytes row_text(int64_t row_size, int64_t id, const std::string& content, uint64_t seed) {
  return py::bytes(sqlite_row_text(row_size, id, parse_row_content(content), seed));
}

#ifdef HOWFAST_HAVE_SQLITE

py::dict run_sqlite_inserts(const std::string& path, int64_t rows, int64_t batch_size, int64_t row_size,
                            const std::string& synchronous, const std::string& journal_mode,
                            const std::string& content, uint64_t seed, bool prepare_per_batch) {
  SqliteInsertConfig config{path, rows, batch_size, row_size, parse_synchronous(synchronous), journal_mode,
                            parse_row_content(content), seed, prepare_per_batch};
  SqliteInsertResult r;
  {
    py::gil_scoped_release release;
    Poller poller = python_signal_poller();
    r = sqlite_inserts(config, poller);
  }
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
  m.def("sqlite_row_text", &row_text, py::arg("row_size"), py::arg("id"), py::kw_only(), py::arg("content") = "x",
        py::arg("seed") = 1,
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
  m.def("sqlite_inserts", &run_sqlite_inserts, py::arg("path"), py::arg("rows"), py::arg("batch_size"),
        py::arg("row_size"), py::kw_only(), py::arg("synchronous") = "normal", py::arg("journal_mode") = "wal",
        py::arg("content") = "x", py::arg("seed") = 1, py::arg("prepare_per_batch") = false,
        "sqlite-bench's insert loop through the sqlite3 C API: create a new database at `path`, set "
        "journal_mode and synchronous ('off', 'normal', 'full'), create t (id INTEGER PRIMARY KEY, name TEXT), "
        "insert `rows` rows of `row_size` bytes in transactions of `batch_size` rows with one prepared INSERT. "
        "Returns per-transaction latencies (ns), the loop's elapsed and CPU time and the file sizes. SQLite errors raise "
        "SqliteError (a RuntimeError with code, extended_code, code_name). The database is left for the caller "
        "to verify and remove.");
  m.def("sqlite_verify", &run_sqlite_verify, py::arg("path"), py::arg("rows"), py::arg("row_size"), py::kw_only(),
        py::arg("content") = "x", py::arg("seed") = 1,
        "Open the existing database (only reading) and compare every row of t with what the insert loop wrote: returns the "
        "row count, how many rows match exactly, the first id that did not, and PRAGMA quick_check's answer.");
#else
  m.attr("sqlite_version") = py::none();
  m.attr("sqlite_compiled_version") = py::none();
#endif
}

}  // namespace howfast
