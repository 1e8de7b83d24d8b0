// What the machine gives this process: its memory (and the one check that a buffer fits
// in it), the CPUs it may run on, the calling thread's CPU time and context switches,
// and threads started with their failure as an error with errno.
#pragma once

#include <cstdint>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "common/errors.hpp"

namespace howfast {

// Bytes that can be allocated now without swapping (/proc/meminfo's MemAvailable, else
// the free pages); 0 when unknown.
uint64_t available_memory();

// ValueError unless `count` * `each` bytes fit in half of the memory available now (any
// amount passes when that is unknown). The message starts with `what`, which names the
// argument ("size 123 bytes"), then says the bytes needed, `note` (why that many), and
// MemAvailable.
void require_memory(uint64_t count, uint64_t each, const std::string& what, const std::string& note = "");

// The CPUs this process may run on (sched_getaffinity); empty if it cannot be read.
std::vector<int> allowed_cpus();

// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in nanoseconds. Unlike wall
// time it does not grow while another process has the CPU.
uint64_t thread_cpu_ns();

// The calling thread's CPU time (thread_cpu_ns) and context switches so far
// (getrusage RUSAGE_THREAD).
struct ThreadUsage {
  uint64_t cpu_ns = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
};
ThreadUsage thread_usage();

// std::thread(f), but a thread the system refuses to start (EAGAIN: too many threads or
// no memory for its stack) is a SysError (OSError) with errno and `what`, not
// std::system_error. The caller joins the threads it started before this one. `what` is
// a literal, so that a loop starting threads allocates nothing.
template <typename F>
std::thread start_thread(F&& f, const char* what) {
  try {
    return std::thread(std::forward<F>(f));
  } catch (const std::system_error& e) {
    throw_error(e.code().value(), what);
  }
}

}  // namespace howfast
