#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/bindings.hpp"
#include "common/errors.hpp"
#include "common/pyutil.hpp"
#include "cpu/cpu.hpp"

namespace py = pybind11;

namespace howfast {

namespace {

py::dict as_dict(const OpsResult& r) {
  py::dict out;
  out["elapsed_ns"] = r.elapsed_ns;
  out["ops"] = r.ops;
  out["checksum"] = r.checksum;
  return out;
}

// Runs `f` with the GIL released and returns its result as a dict.
template <typename F>
py::dict released(F f) {
  OpsResult r;
  {
    py::gil_scoped_release release;
    r = f();
  }
  return as_dict(r);
}

uint64_t positive(int64_t v, const char* name) {
  require(v >= 1, std::string(name) + ": must be at least 1, got " + std::to_string(v));
  return static_cast<uint64_t>(v);
}

}  // namespace

void register_cpu(py::module_& m) {
  m.def(
      "sattolo_cycle",
      [](int64_t n, uint64_t seed) {
        require(n >= 2, "n: a cycle needs at least 2 elements, got " + std::to_string(n));
        return to_array(sattolo_cycle(static_cast<uint64_t>(n), seed));
      },
      py::arg("n"), py::kw_only(), py::arg("seed") = 1,
      "A random cyclic permutation of 0..n-1 (Sattolo's algorithm): following i -> next[i] visits every element "
      "once before returning.");
  m.def(
      "pointer_chase",
      [](int64_t working_set, int64_t loads, uint64_t seed) {
        const uint64_t ws = positive(working_set, "working_set");
        const uint64_t n = positive(loads, "loads");
        OpsResult r = without_gil([&](Poller& poller) { return pointer_chase(ws, n, seed, poller); });
        return as_dict(r);
      },
      py::arg("working_set"), py::arg("loads"), py::kw_only(), py::arg("seed") = 1,
      "`loads` dependent loads through a random cycle of 64-byte lines spanning `working_set` bytes (one warm-up "
      "lap first). Returns elapsed_ns, ops (loads) and checksum (the index of the line reached).");
  m.def(
      "memory_bandwidth",
      [](const std::string& kind, int64_t buffer_bytes, int64_t passes, int threads) {
        const uint64_t b = positive(buffer_bytes, "buffer_bytes");
        const uint64_t p = positive(passes, "passes");
        return released([&] { return bandwidth(kind, b, p, threads); });
      },
      py::arg("kind"), py::arg("buffer_bytes"), py::arg("passes"), py::kw_only(), py::arg("threads") = 1,
      "Sequential 'read', 'write' or 'copy' over `buffer_bytes` (split between `threads`), `passes` times. ops = "
      "bytes read, written or copied; checksum = sum of the words read, or of the buffer written or copied to.");
  m.def(
      "mutex_lock_unlock",
      [](int64_t ops, int threads) {
        const uint64_t n = positive(ops, "ops");
        return released([&] { return mutex_loop(n, threads); });
      },
      py::arg("ops"), py::kw_only(), py::arg("threads") = 1,
      "Lock and unlock one std::mutex `ops` times in each of `threads` threads; checksum = the counter it guards.");
  m.def(
      "atomic_increments",
      [](int64_t ops, int threads, bool shared_line) {
        const uint64_t n = positive(ops, "ops");
        return released([&] { return atomic_loop(n, threads, shared_line); });
      },
      py::arg("ops"), py::kw_only(), py::arg("threads") = 1, py::arg("shared_line") = true,
      "fetch_add `ops` times in each of `threads` threads on one counter (shared_line) or one per thread on its own "
      "cache line; checksum = sum of the counters.");
  m.def(
      "syscall_loop",
      [](const std::string& kind, int64_t ops) {
        const uint64_t n = positive(ops, "ops");
        return released([&] { return syscall_loop(kind, n); });
      },
      py::arg("kind"), py::arg("ops"),
      "'getppid' through syscall(2) (enters the kernel) or 'clock_gettime' (CLOCK_MONOTONIC, served by the vDSO), "
      "`ops` times.");
  m.def(
      "pipe_pingpong",
      [](int64_t round_trips, bool same_cpu) {
        const uint64_t n = positive(round_trips, "round_trips");
        return released([&] { return pipe_pingpong(n, same_cpu); });
      },
      py::arg("round_trips"), py::kw_only(), py::arg("same_cpu") = true,
      "One byte there and back between two processes over two pipes, `round_trips` times; ops = round trips the "
      "parent completed, checksum = those the child counted. same_cpu pins both to the current CPU.");
  m.def(
      "futex_pingpong",
      [](int64_t round_trips, bool same_cpu) {
        const uint64_t n = positive(round_trips, "round_trips");
        return released([&] { return futex_pingpong(n, same_cpu); });
      },
      py::arg("round_trips"), py::kw_only(), py::arg("same_cpu") = true,
      "Two threads waking each other through a futex, `round_trips` times; checksum = the partner's count.");
  m.def(
      "yield_pingpong",
      [](int64_t round_trips) {
        const uint64_t n = positive(round_trips, "round_trips");
        return released([&] { return yield_pingpong(n); });
      },
      py::arg("round_trips"),
      "Two threads pinned to one CPU handing over with sched_yield(), `round_trips` times; checksum = the "
      "partner's count.");
  m.def(
      "thread_create",
      [](int64_t count) {
        const uint64_t n = positive(count, "count");
        return released([&] { return thread_create(n); });
      },
      py::arg("count"), "Create and join `count` threads that do nothing; checksum = how many ran.");
}

}  // namespace howfast
