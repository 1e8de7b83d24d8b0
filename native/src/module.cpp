// howfast._native: the module. Each subject registers its functions (<subject>/bind.cpp);
// this file only maps C++ errors to Python exceptions and calls the registrations.
//
// SysError -> OSError(errno, message, path) (no path when it has none); std::invalid_argument -> ValueError
// (pybind11's default); py::error_already_set (Ctrl-C in a loop) passes through.
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_native, m) {
  m.doc() = "howfast native benchmark loops (C++, GIL released around every loop)";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const howfast::SysError& e) {
      py::object os_error = py::module_::import("builtins").attr("OSError");
      // OSError(errno, message[, path]): without a path, str() does not end in ": ''"
      py::object err = e.path().empty() ? os_error(e.err(), e.what()) : os_error(e.err(), e.what(), e.path());
      PyErr_SetObject(PyExc_OSError, err.ptr());
    }
  });

  howfast::register_probes(m);
  howfast::register_fsync(m);
  howfast::register_memtable(m);
  howfast::register_rocksdb(m);
  howfast::register_storage(m);
  howfast::register_sqlite(m);
  howfast::register_network(m);
  howfast::register_hashing(m);
  howfast::register_cpu(m);
  howfast::register_codecs(m);
  howfast::register_serial(m);
}
