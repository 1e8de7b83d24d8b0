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

}  // namespace

void register_cpu(py::module_& m) {
  m.def(
      "sattolo_cycle", [](int64_t n, uint64_t seed) { return to_array(sattolo_cycle(n, seed)); }, py::arg("n"),
      py::kw_only(), py::arg("seed") = 1,
      "A random cyclic permutation of 0..n-1 (Sattolo's algorithm): following i -> next[i] visits every element "
      "once before returning. ValueError when its 8 * n bytes exceed half of the memory available now.");
  m.def(
      "pointer_chase",
      [](int64_t working_set, int64_t loads, uint64_t seed) {
        return as_dict(without_gil([&](Poller& p) { return pointer_chase(working_set, loads, seed, p); }));
      },
      py::arg("working_set"), py::arg("loads"), py::kw_only(), py::arg("seed") = 1,
      "`loads` dependent loads through a random cycle of 64-byte lines spanning `working_set` bytes (one warm-up "
      "lap first). Returns elapsed_ns, ops (loads) and checksum (the index of the line reached). loads: at most "
      "10**9; the lines and their cycle must fit in half of the memory available now; Ctrl-C stops it.");
  m.def(
      "memory_bandwidth",
      [](const std::string& kind, int64_t buffer_bytes, int64_t passes, int threads) {
        return as_dict(without_gil([&](Poller& p) { return bandwidth(kind, buffer_bytes, passes, threads, p); }));
      },
      py::arg("kind"), py::arg("buffer_bytes"), py::arg("passes"), py::kw_only(), py::arg("threads") = 1,
      "Sequential 'read', 'write' or 'copy' over `buffer_bytes` (split between `threads`), `passes` times. ops = "
      "bytes read, written or copied; checksum = sum of the words read, or of the buffer written or copied to. "
      "passes: at most 1000; the buffer (twice for 'copy') must fit in half of the memory available now; Ctrl-C "
      "stops it.");
  m.def(
      "mutex_lock_unlock",
      [](int64_t ops, int threads) {
        return as_dict(without_gil([&](Poller& p) { return mutex_loop(ops, threads, p); }));
      },
      py::arg("ops"), py::kw_only(), py::arg("threads") = 1,
      "Lock and unlock one std::mutex `ops` times in each of `threads` threads; checksum = the counter it guards. "
      "ops: at most 10**9; Ctrl-C stops it.");
  m.def(
      "atomic_increments",
      [](int64_t ops, int threads, bool shared_line) {
        return as_dict(without_gil([&](Poller& p) { return atomic_loop(ops, threads, shared_line, p); }));
      },
      py::arg("ops"), py::kw_only(), py::arg("threads") = 1, py::arg("shared_line") = true,
      "fetch_add `ops` times in each of `threads` threads on one counter (shared_line) or one per thread on its own "
      "cache line; checksum = sum of the counters. ops: at most 10**9; Ctrl-C stops it.");
  m.def(
      "syscall_loop",
      [](const std::string& kind, int64_t ops) {
        return as_dict(without_gil([&](Poller& p) { return syscall_loop(kind, ops, p); }));
      },
      py::arg("kind"), py::arg("ops"),
      "'getppid' through syscall(2) (enters the kernel) or 'clock_gettime' (CLOCK_MONOTONIC, served by the vDSO), "
      "`ops` times (at most 10**9); Ctrl-C stops it.");
  m.def(
      "pipe_pingpong",
      [](int64_t round_trips, bool same_cpu) {
        return as_dict(without_gil([&](Poller& p) { return pipe_pingpong(round_trips, same_cpu, p); }));
      },
      py::arg("round_trips"), py::kw_only(), py::arg("same_cpu") = true,
      "One byte there and back between two processes over two pipes, `round_trips` times; ops = round trips the "
      "parent completed, checksum = those the child counted. same_cpu pins both to the current CPU. round_trips: at "
      "most 2 * 10**7; Ctrl-C stops it.");
  m.def(
      "futex_pingpong",
      [](int64_t round_trips, bool same_cpu) {
        return as_dict(without_gil([&](Poller& p) { return futex_pingpong(round_trips, same_cpu, p); }));
      },
      py::arg("round_trips"), py::kw_only(), py::arg("same_cpu") = true,
      "Two threads waking each other through a futex, `round_trips` times; checksum = the partner's count. "
      "round_trips: at most 2 * 10**7; Ctrl-C stops it.");
  m.def(
      "yield_pingpong",
      [](int64_t round_trips) {
        return as_dict(without_gil([&](Poller& p) { return yield_pingpong(round_trips, p); }));
      },
      py::arg("round_trips"),
      "Two threads pinned to one CPU handing over with sched_yield(), `round_trips` times; checksum = the "
      "partner's count. round_trips: at most 2 * 10**7; Ctrl-C stops it.");
  m.def(
      "thread_create",
      [](int64_t count) { return as_dict(without_gil([&](Poller& p) { return thread_create(count, p); })); },
      py::arg("count"),
      "Create and join `count` threads that do nothing; checksum = how many ran. count: at most 10**6; Ctrl-C stops "
      "it.");
}

}  // namespace howfast
