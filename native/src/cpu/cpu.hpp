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

struct OpsResult {
  uint64_t elapsed_ns = 0;
  uint64_t ops = 0;       // operations completed (as counted by the loop itself)
  uint64_t checksum = 0;  // a value the work produced (see each function)
};

// Sattolo's algorithm: a random cyclic permutation of 0..n-1 (one cycle through all).
std::vector<uint64_t> sattolo_cycle(uint64_t n, uint64_t seed);

// `loads` dependent loads through a random cycle of 64-byte lines spanning `working_set`
// bytes; checksum = index of the line reached.
OpsResult pointer_chase(uint64_t working_set, uint64_t loads, uint64_t seed, Poller& poller);

// kind: "read" (checksum = sum of the words read), "write" (checksum = sum of the buffer
// afterwards), "copy" (checksum = sum of the destination afterwards). ops = bytes moved.
OpsResult bandwidth(const std::string& kind, uint64_t buffer_bytes, uint64_t passes, int threads);

// Lock/unlock a std::mutex `ops` times in each of `threads` threads; checksum = the counter.
OpsResult mutex_loop(uint64_t ops, int threads);
// fetch_add `ops` times in each of `threads` threads, on one shared counter or one per
// thread on separate cache lines; checksum = sum of the counters.
OpsResult atomic_loop(uint64_t ops, int threads, bool shared_line);
// "getppid" through syscall(2), or "clock_gettime" (the vDSO, no kernel entry).
OpsResult syscall_loop(const std::string& kind, uint64_t ops);
// Round trips of one byte between two processes over two pipes; checksum = the round
// trips the child counted. same_cpu pins both to one CPU.
OpsResult pipe_pingpong(uint64_t round_trips, bool same_cpu);
// Round trips between two threads waking each other through a futex (same_cpu: pinned).
OpsResult futex_pingpong(uint64_t round_trips, bool same_cpu);
// Round trips between two threads pinned to one CPU, handing over with sched_yield().
OpsResult yield_pingpong(uint64_t round_trips);
// Create and join `count` threads that do nothing.
OpsResult thread_create(uint64_t count);

}  // namespace howfast
