#include "cpu/cpu.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/random.hpp"
#include "common/system.hpp"

namespace howfast {

namespace {

inline void clobber() { asm volatile("" ::: "memory"); }

struct alignas(64) Line {
  Line* next;
  char pad[64 - sizeof(Line*)];
};

void pin_to(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) throw_errno("sched_setaffinity");
}

int current_cpu() {
  int cpu = sched_getcpu();
  return cpu < 0 ? 0 : cpu;
}

int require_threads(int threads) {
  require(threads >= 1 && threads <= kMaxThreads, "threads: between 1 and " + std::to_string(kMaxThreads) +
                                                      ", got " + std::to_string(threads));
  return threads;
}

// Runs body(m) over `total` iterations, m at most `chunk` at a time, timing only the
// chunks: Ctrl-C (the poller) is checked between them, never inside one. body returns
// false to stop early. Returns the nanoseconds timed.
template <typename Body>
uint64_t timed_chunks(uint64_t total, uint64_t chunk, Poller& poller, Body body) {
  uint64_t elapsed = 0;
  for (uint64_t done = 0; done < total;) {
    const uint64_t m = std::min(chunk, total - done);
    const uint64_t start = now_ns();
    const bool more = body(m);
    const uint64_t end = now_ns();
    elapsed += end - start;
    done += m;
    if (!more) break;
    poller.maybe(end);
  }
  return elapsed;
}

// Runs body(m) over `total` iterations, m at most `chunk` at a time, until `stop` is
// raised (a worker of run_together: its caller saw Ctrl-C).
template <typename Body>
void until_stopped(uint64_t total, uint64_t chunk, const std::atomic<bool>& stop, Body body) {
  for (uint64_t done = 0; done < total && !stop.load(std::memory_order_relaxed);) {
    const uint64_t m = std::min(chunk, total - done);
    body(m);
    done += m;
  }
}

// The workers of run_together. They wait at the line until go() releases them all at
// once; however the scope ends (Ctrl-C, a thread that would not start), the destructor
// raises `stop`, lets waiting workers leave without working, and joins every one.
class Crew {
 public:
  explicit Crew(int size) : ends_(size, 0) { pool_.reserve(size); }
  ~Crew() {
    stop_.store(true);
    state_.store(Abort, std::memory_order_release);
    for (auto& t : pool_) t.join();
  }
  Crew(const Crew&) = delete;
  Crew& operator=(const Crew&) = delete;

  // Starts worker t (pinned to `cpu` unless it is -1, best effort): work(t, stop).
  template <typename F>
  void start(int t, int cpu, F& work) {
    pool_.push_back(start_thread([this, t, cpu, &work] { body(t, cpu, work); }, "start a worker thread"));
  }

  // Releases the workers once all are at the line; the release time.
  uint64_t go() {
    while (ready_.load() != static_cast<int>(pool_.size())) sched_yield();
    const uint64_t start = now_ns();
    state_.store(Go, std::memory_order_release);
    return start;
  }

  // Waits for every worker to finish, polling for Ctrl-C; the last one's end time.
  uint64_t wait(Poller& poller) {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished_ == pool_.size(); })) {
      lock.unlock();
      poller.maybe(now_ns());
      lock.lock();
    }
    return *std::max_element(ends_.begin(), ends_.end());
  }

 private:
  enum State : int { Waiting, Go, Abort };

  template <typename F>
  void body(int t, int cpu, F& work) {
    if (cpu >= 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      pthread_setaffinity_np(pthread_self(), sizeof(one), &one);  // best effort: unpinned if refused
    }
    ready_.fetch_add(1);
    int s;
    while ((s = state_.load(std::memory_order_acquire)) == Waiting) {
    }
    if (s == Abort) return;
    work(t, static_cast<const std::atomic<bool>&>(stop_));
    const uint64_t end = now_ns();
    std::lock_guard<std::mutex> lock(mu_);
    ends_[t] = end;
    ++finished_;
    cv_.notify_one();
  }

  std::vector<std::thread> pool_;
  std::vector<uint64_t> ends_;
  std::atomic<int> ready_{0};
  std::atomic<int> state_{Waiting};
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t finished_ = 0;
};

// Starts `threads` workers together, worker t pinned to the t-th allowed CPU (round
// robin), so that two workers run side by side on two cores rather than taking turns on
// one; times from the release to the last one's end. work(t, stop) returns soon after
// `stop` is raised (Ctrl-C). A thread that cannot start is an OSError with errno, once
// the workers already started are joined.
template <typename F>
uint64_t run_together(int threads, Poller& poller, F work) {
  const std::vector<int> cpus = allowed_cpus();
  Crew crew(threads);
  for (int t = 0; t < threads; ++t)
    crew.start(t, threads > 1 && !cpus.empty() ? cpus[t % cpus.size()] : -1, work);
  const uint64_t start = crew.go();
  return crew.wait(poller) - start;
}

long futex(std::atomic<int>* addr, int op, int val) {
  return syscall(SYS_futex, reinterpret_cast<int*>(addr), op, val, nullptr, nullptr, 0);
}

void write_all(int fd, const void* buf, size_t n) {
  ssize_t put;
  do put = write(fd, buf, n);
  while (put < 0 && errno == EINTR);
  if (put != static_cast<ssize_t>(n)) throw_errno("write to pipe");
}

bool read_one(int fd, void* buf, size_t n) {
  ssize_t got;
  do got = read(fd, buf, n);
  while (got < 0 && errno == EINTR);
  return got == static_cast<ssize_t>(n);
}

// The calling thread's CPU affinity, put back when the scope ends, however it ends.
class AffinityGuard {
 public:
  AffinityGuard() {
    if (sched_getaffinity(0, sizeof(saved_), &saved_) != 0) throw_errno("sched_getaffinity");
  }
  ~AffinityGuard() { sched_setaffinity(0, sizeof(saved_), &saved_); }
  AffinityGuard(const AffinityGuard&) = delete;
  AffinityGuard& operator=(const AffinityGuard&) = delete;

 private:
  cpu_set_t saved_;
};

// A pipe whose ends are closed when the scope ends, unless closed before.
class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_, O_CLOEXEC) != 0) throw_errno("pipe2");
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const noexcept { return fds_[0]; }
  int write_end() const noexcept { return fds_[1]; }
  void close_read() noexcept { close_end(0); }
  void close_write() noexcept { close_end(1); }

 private:
  void close_end(int i) noexcept {
    if (fds_[i] >= 0) ::close(fds_[i]);
    fds_[i] = -1;
  }
  int fds_[2];
};

// A child process killed and reaped when the scope ends early (an exception).
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;
  // Waits for the child to exit; true if it exited with status 0.
  bool wait_ok() {
    int status = 0;
    pid_t got;
    do got = waitpid(pid_, &status, 0);
    while (got < 0 && errno == EINTR);
    pid_ = -1;
    return got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }

 private:
  pid_t pid_;
};

}  // namespace

std::vector<uint64_t> sattolo_cycle(int64_t n, uint64_t seed) {
  require(n >= 2, "n: a cycle needs at least 2 elements, got " + std::to_string(n));
  require_memory(static_cast<uint64_t>(n), sizeof(uint64_t), "n " + std::to_string(n) + " elements");
  std::vector<uint64_t> next(static_cast<uint64_t>(n));
  for (uint64_t i = 0; i < next.size(); ++i) next[i] = i;
  uint64_t state = seed;
  for (uint64_t i = next.size() - 1; i > 0; --i) std::swap(next[i], next[below(state, i)]);  // j < i: Sattolo
  return next;
}

OpsResult pointer_chase(int64_t working_set, int64_t loads, uint64_t seed, Poller& poller) {
  const uint64_t ws = require_positive(working_set, "working_set", int64_t(64) << 30);
  require(ws >= 2 * sizeof(Line) && ws % sizeof(Line) == 0, "working_set: a multiple of 64 bytes, at least 128");
  const uint64_t total = require_positive(loads, "loads", kMaxLoads);
  const uint64_t n = ws / sizeof(Line);
  require_memory(ws + n * sizeof(uint64_t), 1, "working_set " + std::to_string(ws) + " bytes",
                 " (the lines and, while they are linked, their cycle)");
  AlignedBuffer buffer(ws);
  Line* lines = reinterpret_cast<Line*>(buffer.data());
  {
    std::vector<uint64_t> next = sattolo_cycle(static_cast<int64_t>(n), seed);
    for (uint64_t i = 0; i < n; ++i) lines[i].next = &lines[next[i]];
  }
  Line* p = &lines[0];
  for (uint64_t i = 0; i < n; ++i) p = p->next;  // one lap: every line touched, caches warm
  const uint64_t elapsed = timed_chunks(total, 1 << 20, poller, [&](uint64_t m) {
    for (uint64_t i = 0; i < m; ++i) p = p->next;
    clobber();
    return true;
  });
  return {elapsed, total, static_cast<uint64_t>(p - &lines[0])};
}

namespace {

// Each worker's share of a bandwidth pass is moved in blocks of this many words (64 MiB)
// so that a stop (Ctrl-C) is seen within one block.
constexpr uint64_t kBandwidthBlock = 8ull << 20;

uint64_t read_words(const uint64_t* part, uint64_t words) {
  uint64_t a = 0, b = 0, c = 0, e = 0;
  for (uint64_t i = 0; i < words; i += 4) {
    a += part[i];
    b += part[i + 1];
    c += part[i + 2];
    e += part[i + 3];
  }
  return a + b + c + e;
}

}  // namespace

OpsResult bandwidth(const std::string& kind, int64_t buffer_bytes, int64_t passes, int threads, Poller& poller) {
  require(kind == "read" || kind == "write" || kind == "copy", "kind: one of read, write, copy");
  require_threads(threads);
  const uint64_t bytes = require_positive(buffer_bytes, "buffer_bytes", INT64_MAX);
  const uint64_t rounds = require_positive(passes, "passes", kMaxPasses);
  require(bytes >= 4096 * uint64_t(threads) && bytes % (64 * uint64_t(threads)) == 0,
          "buffer_bytes: at least 4 KiB per thread and a multiple of 64 bytes per thread");
  require_memory(bytes, kind == "copy" ? 2 : 1, "buffer_bytes " + std::to_string(bytes),
                 kind == "copy" ? " (source and destination)" : "");
  const uint64_t words = bytes / 8;
  AlignedBuffer src_buffer(bytes);
  AlignedBuffer dst_buffer(kind == "copy" ? bytes : 0);
  uint64_t* s = reinterpret_cast<uint64_t*>(src_buffer.data());
  uint64_t* d = kind == "copy" ? reinterpret_cast<uint64_t*>(dst_buffer.data()) : nullptr;
  for (uint64_t i = 0; i < words; ++i) s[i] = i;
  if (d != nullptr) std::memset(d, 0, bytes);
  const uint64_t per = words / threads;
  std::vector<uint64_t> sums(threads * 8, 0);  // one cache line per thread
  const uint64_t elapsed = run_together(threads, poller, [&](int t, const std::atomic<bool>& stop) {
    uint64_t* part = s + per * t;
    uint64_t total = 0;
    for (uint64_t pass = 0; pass < rounds; ++pass) {
      until_stopped(per, kBandwidthBlock, stop, [&, off = uint64_t{0}](uint64_t m) mutable {
        if (kind == "read") {
          total += read_words(part + off, m);
        } else if (kind == "write") {
          const uint64_t v = pass + 1;
          for (uint64_t i = 0; i < m; ++i) part[off + i] = v;
        } else {
          std::memcpy(d + per * t + off, part + off, m * 8);
        }
        off += m;
        clobber();
      });
    }
    sums[t * 8] = total;
  });
  uint64_t sum = 0;
  if (kind == "read") {
    for (int t = 0; t < threads; ++t) sum += sums[t * 8];
  } else {
    const uint64_t* check = kind == "write" ? s : d;
    for (uint64_t i = 0; i < per * threads; ++i) sum += check[i];
  }
  return {elapsed, per * 8 * threads * rounds, sum};
}

OpsResult mutex_loop(int64_t ops, int threads, Poller& poller) {
  const uint64_t n = require_positive(ops, "ops", kMaxOps);
  require_threads(threads);
  std::mutex m;
  uint64_t counter = 0;
  const uint64_t elapsed = run_together(threads, poller, [&](int, const std::atomic<bool>& stop) {
    until_stopped(n, 1 << 16, stop, [&](uint64_t chunk) {
      for (uint64_t i = 0; i < chunk; ++i) {
        m.lock();
        ++counter;
        m.unlock();
      }
    });
  });
  return {elapsed, n * threads, counter};
}

OpsResult atomic_loop(int64_t ops, int threads, bool shared_line, Poller& poller) {
  const uint64_t n = require_positive(ops, "ops", kMaxOps);
  require_threads(threads);
  struct alignas(64) Slot {
    std::atomic<uint64_t> v{0};
  };
  std::vector<Slot> slots(threads);
  const uint64_t elapsed = run_together(threads, poller, [&](int t, const std::atomic<bool>& stop) {
    std::atomic<uint64_t>& c = slots[shared_line ? 0 : t].v;
    until_stopped(n, 1 << 16, stop, [&](uint64_t chunk) {
      for (uint64_t i = 0; i < chunk; ++i) c.fetch_add(1);
    });
  });
  uint64_t sum = 0;
  for (auto& s : slots) sum += s.v.load();
  return {elapsed, n * threads, sum};
}

OpsResult syscall_loop(const std::string& kind, int64_t ops, Poller& poller) {
  require(kind == "getppid" || kind == "clock_gettime", "kind: getppid or clock_gettime");
  const uint64_t n = require_positive(ops, "ops", kMaxOps);
  uint64_t sum = 0;
  uint64_t elapsed = 0;
  if (kind == "getppid") {
    elapsed = timed_chunks(n, 1 << 14, poller, [&](uint64_t m) {
      for (uint64_t i = 0; i < m; ++i) sum += static_cast<uint64_t>(syscall(SYS_getppid));
      return true;
    });
  } else {
    elapsed = timed_chunks(n, 1 << 16, poller, [&](uint64_t m) {
      timespec ts{};
      for (uint64_t i = 0; i < m; ++i) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += static_cast<uint64_t>(ts.tv_nsec);
      }
      return true;
    });
  }
  return {elapsed, n, sum};
}

namespace {

// Round trips between the two processes of pipe_pingpong that are timed in one go (Ctrl-C
// is polled between them): a few milliseconds.
constexpr uint64_t kPingPongChunk = 256;

}  // namespace

OpsResult pipe_pingpong(int64_t round_trips, bool same_cpu, Poller& poller) {
  const uint64_t total = require_positive(round_trips, "round_trips", kMaxRoundTrips);
  Pipe there, back, report;
  AffinityGuard affinity;
  if (same_cpu) pin_to(current_cpu());  // the child inherits the pinning
  const pid_t pid = fork();
  if (pid < 0) throw_errno("fork");
  if (pid == 0) {  // echo every byte back; report the count; no allocation, no exceptions
    there.close_write();  // else the parent's close would never reach us as EOF
    back.close_read();
    report.close_read();
    char c;
    uint64_t count = 0;
    while (read_one(there.read_end(), &c, 1)) {
      if (write(back.write_end(), &c, 1) != 1) _exit(2);
      ++count;
    }
    if (write(report.write_end(), &count, sizeof(count)) != sizeof(count)) _exit(3);
    _exit(0);
  }
  ChildGuard child(pid);
  there.close_read();
  back.close_write();
  report.close_write();
  char c = 'x';
  uint64_t done = 0;
  const uint64_t elapsed = timed_chunks(total, kPingPongChunk, poller, [&](uint64_t m) {
    for (uint64_t i = 0; i < m; ++i, ++done) {
      write_all(there.write_end(), &c, 1);
      if (!read_one(back.read_end(), &c, 1)) return false;
    }
    return true;
  });
  there.close_write();  // the child sees EOF and reports
  uint64_t counted = 0;
  const bool reported = read_one(report.read_end(), &counted, sizeof(counted));
  if (!child.wait_ok() || !reported) throw std::runtime_error("the ping-pong child process failed");
  return {elapsed, done, counted};
}

namespace {

// Two threads passing the turn back and forth `round_trips` times: `hand_to(who)` gives
// it away, `wait_for(who)` waits until it is `who`'s. Pinned (when asked) before the
// partner starts, which inherits the pinning. The calling thread polls for Ctrl-C while
// it holds the turn; however it leaves, it raises `stop` and hands the turn over, so the
// partner wakes, sees the stop and ends, and is joined.
template <typename HandTo, typename WaitFor>
OpsResult thread_pingpong(uint64_t round_trips, bool same_cpu, Poller& poller, HandTo hand_to, WaitFor wait_for) {
  uint64_t partner_count = 0;
  std::atomic<bool> stop{false};
  AffinityGuard affinity;
  if (same_cpu) pin_to(current_cpu());
  std::thread partner = start_thread(
      [&] {
        for (uint64_t i = 0; i < round_trips; ++i) {
          wait_for(1);
          if (stop.load(std::memory_order_relaxed)) return;
          ++partner_count;
          hand_to(0);
        }
      },
      "start the ping-pong partner thread");
  struct Release {
    std::thread& partner;
    std::atomic<bool>& stop;
    HandTo& hand_to;
    ~Release() {
      stop.store(true, std::memory_order_relaxed);
      hand_to(1);
      partner.join();
    }
  };
  uint64_t done = 0;
  uint64_t elapsed = 0;
  {
    Release release{partner, stop, hand_to};
    elapsed = timed_chunks(round_trips, kPingPongChunk, poller, [&](uint64_t m) {
      for (uint64_t i = 0; i < m; ++i, ++done) {
        hand_to(1);
        wait_for(0);
      }
      return true;
    });
  }
  return {elapsed, done, partner_count};
}

}  // namespace

OpsResult futex_pingpong(int64_t round_trips, bool same_cpu, Poller& poller) {
  const uint64_t total = require_positive(round_trips, "round_trips", kMaxRoundTrips);
  std::atomic<int> turn{0};  // 0: main thread's turn, 1: partner's
  auto hand_to = [&](int who) {
    turn.store(who, std::memory_order_release);
    futex(&turn, FUTEX_WAKE_PRIVATE, 1);
  };
  auto wait_for = [&](int want) {
    int v;
    while ((v = turn.load(std::memory_order_acquire)) != want) futex(&turn, FUTEX_WAIT_PRIVATE, v);
  };
  return thread_pingpong(total, same_cpu, poller, hand_to, wait_for);
}

OpsResult yield_pingpong(int64_t round_trips, Poller& poller) {
  const uint64_t total = require_positive(round_trips, "round_trips", kMaxRoundTrips);
  std::atomic<int> turn{0};
  auto hand_to = [&](int who) { turn.store(who, std::memory_order_release); };
  auto wait_for = [&](int want) {
    while (turn.load(std::memory_order_acquire) != want) sched_yield();
  };
  return thread_pingpong(total, /*same_cpu=*/true, poller, hand_to, wait_for);
}

OpsResult thread_create(int64_t count, Poller& poller) {
  const uint64_t total = require_positive(count, "count", kMaxThreadsCreated);
  std::atomic<uint64_t> ran{0};
  const uint64_t elapsed = timed_chunks(total, 16, poller, [&](uint64_t m) {
    for (uint64_t i = 0; i < m; ++i) {
      std::thread t = start_thread([&] { ran.fetch_add(1, std::memory_order_relaxed); }, "start a thread");
      t.join();
    }
    return true;
  });
  return {elapsed, total, ran.load()};
}

}  // namespace howfast
