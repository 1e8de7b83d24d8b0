// Helpers shared by the binding files: numpy arrays from vectors, and the poller that
// lets Ctrl-C reach a loop running with the GIL released.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

namespace py = pybind11;

template <typename T>
py::array_t<T> to_array(std::vector<T>&& values) {
  auto* heap = new std::vector<T>(std::move(values));
  py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(static_cast<py::ssize_t>(heap->size()), heap->data(), owner);
}

// Re-takes the GIL (between timed operations, every 50 ms at most) to run Python's
// signal handlers; a pending KeyboardInterrupt or SystemExit unwinds the loop.
inline Poller python_signal_poller() {
  return Poller([] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  });
}

// Runs f(poller) with the GIL released and returns its result (plain C++ values, built
// before the GIL is taken back); Ctrl-C reaches the loop through the poller.
template <typename F>
auto without_gil(F&& f) {
  py::gil_scoped_release release;
  Poller poller = python_signal_poller();
  return std::forward<F>(f)(poller);
}

}  // namespace howfast
