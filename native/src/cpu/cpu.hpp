// CPU and memory costs: pointer chasing over a random cycle (memory latency), sequential
// read/write/copy (bandwidth), mutexes and atomics, system calls, context switches
// between processes (pipe) and threads (futex, sched_yield), thread creation.
// Every loop returns a count or checksum from which the caller can check it did the work.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// The largest count each loop takes: a hundred times what the full profile asks
// (native/howfast/cpu/plan.py), so no call is refused that a plan could make, and a
// mistyped count is a ValueError naming it rather than hours of work. Every loop also
// stops within a second of Ctrl-C (the poller), whatever its count.
constexpr int64_t kMaxLoads = 1'000'000'000;       // full: 10 million loads
constexpr int64_t kMaxPasses = 1'000;              // full: 8 passes
constexpr int64_t kMaxOps = 1'000'000'000;         // full: 10 million operations
constexpr int64_t kMaxRoundTrips = 20'000'000;     // full: 200,000 round trips
constexpr int64_t kMaxThreadsCreated = 1'000'000;  // full: 10,000 threads
constexpr int64_t kMaxThreads = 256;               // threads working side by side

struct OpsResult {
  uint64_t elapsed_ns = 0;
  uint64_t ops = 0;       // operations completed (as counted by the loop itself)
  uint64_t checksum = 0;  // a value the work produced (see each function)
};

// Sattolo's algorithm: a random cyclic permutation of 0..n-1 (one cycle through all).
// ValueError unless n >= 2 and its 8 * n bytes fit in half of the memory available now.
std::vector<uint64_t> sattolo_cycle(int64_t n, uint64_t seed);

// `loads` dependent loads through a random cycle of 64-byte lines spanning `working_set`
// bytes; checksum = index of the line reached.
OpsResult pointer_chase(int64_t working_set, int64_t loads, uint64_t seed, Poller& poller);

// kind: "read" (checksum = sum of the words read), "write" (checksum = sum of the buffer
// afterwards), "copy" (checksum = sum of the destination afterwards). ops = bytes moved.
OpsResult bandwidth(const std::string& kind, int64_t buffer_bytes, int64_t passes, int threads, Poller& poller);

// Lock/unlock a std::mutex `ops` times in each of `threads` threads; checksum = the counter.
OpsResult mutex_loop(int64_t ops, int threads, Poller& poller);
// fetch_add `ops` times in each of `threads` threads, on one shared counter or one per
// thread on separate cache lines; checksum = sum of the counters.
OpsResult atomic_loop(int64_t ops, int threads, bool shared_line, Poller& poller);
// "getppid" through syscall(2), or "clock_gettime" (the vDSO, no kernel entry).
OpsResult syscall_loop(const std::string& kind, int64_t ops, Poller& poller);
// Round trips of one byte between two processes over two pipes; checksum = the round
// trips the child counted. same_cpu pins both to one CPU.
OpsResult pipe_pingpong(int64_t round_trips, bool same_cpu, Poller& poller);
// Round trips between two threads waking each other through a futex (same_cpu: pinned).
OpsResult futex_pingpong(int64_t round_trips, bool same_cpu, Poller& poller);
// Round trips between two threads pinned to one CPU, handing over with sched_yield().
OpsResult yield_pingpong(int64_t round_trips, Poller& poller);
// Create and join `count` threads that do nothing.
OpsResult thread_create(int64_t count, Poller& poller);

}  // namespace howfast
