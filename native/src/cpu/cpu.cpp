#include "cpu/cpu.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "common/errors.hpp"
#include "common/random.hpp"

namespace howfast {

namespace {

inline void clobber() { asm volatile("" ::: "memory"); }

struct alignas(64) Line {
  Line* next;
  char pad[64 - sizeof(Line*)];
};

struct Freer {
  void operator()(void* p) const { std::free(p); }
};

template <typename T>
std::unique_ptr<T[], Freer> aligned_array(uint64_t count, const char* what) {
  void* p = nullptr;
  const uint64_t bytes = (count * sizeof(T) + 4095) / 4096 * 4096;
  if (posix_memalign(&p, 4096, bytes) != 0) throw std::runtime_error(std::string("cannot allocate ") + what);
  return std::unique_ptr<T[], Freer>(static_cast<T*>(p));
}

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

// The CPUs this process may run on.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

// Starts `threads` workers together, worker t pinned to the t-th allowed CPU (round
// robin), so that two workers run side by side on two cores rather than taking turns on
// one; times from the release to the last one's end.
template <typename F>
uint64_t run_together(int threads, F work) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  pool.reserve(threads);
  const std::vector<int> cpus = allowed_cpus();
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      if (threads > 1 && !cpus.empty()) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[t % cpus.size()], &one);
        pthread_setaffinity_np(pthread_self(), sizeof(one), &one);  // best effort: unpinned if refused
      }
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      work(t);
    });
  }
  while (ready.load() != threads) {
  }
  const uint64_t start = now_ns();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return now_ns() - start;
}

long futex(std::atomic<int>* addr, int op, int val) {
  return syscall(SYS_futex, reinterpret_cast<int*>(addr), op, val, nullptr, nullptr, 0);
}

void write_all(int fd, const void* buf, size_t n) {
  if (write(fd, buf, n) != static_cast<ssize_t>(n)) throw_errno("write to pipe");
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

std::vector<uint64_t> sattolo_cycle(uint64_t n, uint64_t seed) {
  require(n >= 2, "n: a cycle needs at least 2 elements");
  std::vector<uint64_t> next(n);
  for (uint64_t i = 0; i < n; ++i) next[i] = i;
  uint64_t state = seed;
  for (uint64_t i = n - 1; i > 0; --i) std::swap(next[i], next[below(state, i)]);  // j < i: Sattolo
  return next;
}

OpsResult pointer_chase(uint64_t working_set, uint64_t loads, uint64_t seed, Poller& poller) {
  require(working_set >= 2 * sizeof(Line) && working_set % sizeof(Line) == 0,
          "working_set: a multiple of 64 bytes, at least 128");
  require(working_set <= (uint64_t(64) << 30), "working_set: at most 64 GiB");
  require(loads >= 1, "loads: must be at least 1");
  const uint64_t n = working_set / sizeof(Line);
  auto lines = aligned_array<Line>(n, "the pointer-chase buffer");
  {
    std::vector<uint64_t> next = sattolo_cycle(n, seed);
    for (uint64_t i = 0; i < n; ++i) lines[i].next = &lines[next[i]];
  }
  Line* p = &lines[0];
  for (uint64_t i = 0; i < n; ++i) p = p->next;  // one lap: every line touched, caches warm
  OpsResult r;
  const uint64_t chunk = 1 << 20;
  uint64_t elapsed = 0;
  for (uint64_t done = 0; done < loads;) {
    const uint64_t m = std::min(chunk, loads - done);
    const uint64_t start = now_ns();
    for (uint64_t i = 0; i < m; ++i) p = p->next;
    clobber();
    const uint64_t end = now_ns();
    elapsed += end - start;
    done += m;
    poller.maybe(end);
  }
  r.elapsed_ns = elapsed;
  r.ops = loads;
  r.checksum = static_cast<uint64_t>(p - &lines[0]);
  return r;
}

OpsResult bandwidth(const std::string& kind, uint64_t buffer_bytes, uint64_t passes, int threads) {
  require(kind == "read" || kind == "write" || kind == "copy", "kind: one of read, write, copy");
  require(threads >= 1 && threads <= 256, "threads: between 1 and 256");
  require(passes >= 1, "passes: must be at least 1");
  require(buffer_bytes >= 4096 * uint64_t(threads) && buffer_bytes % (64 * uint64_t(threads)) == 0,
          "buffer_bytes: at least 4 KiB per thread and a multiple of 64 bytes per thread");
  const uint64_t words = buffer_bytes / 8;
  auto src = aligned_array<uint64_t>(words, "the bandwidth buffer");
  std::unique_ptr<uint64_t[], Freer> dst;
  for (uint64_t i = 0; i < words; ++i) src[i] = i;
  if (kind == "copy") {
    dst = aligned_array<uint64_t>(words, "the copy destination");
    std::memset(dst.get(), 0, words * 8);
  }
  const uint64_t per = words / threads;
  std::vector<uint64_t> sums(threads * 8, 0);  // one cache line per thread
  uint64_t* s = src.get();
  uint64_t* d = dst.get();
  const uint64_t elapsed = run_together(threads, [&](int t) {
    uint64_t* part = s + per * t;
    uint64_t total = 0;
    for (uint64_t pass = 0; pass < passes; ++pass) {
      if (kind == "read") {
        uint64_t a = 0, b = 0, c = 0, e = 0;
        for (uint64_t i = 0; i < per; i += 4) {
          a += part[i];
          b += part[i + 1];
          c += part[i + 2];
          e += part[i + 3];
        }
        total += a + b + c + e;
      } else if (kind == "write") {
        const uint64_t v = pass + 1;
        for (uint64_t i = 0; i < per; ++i) part[i] = v;
      } else {
        std::memcpy(d + per * t, part, per * 8);
      }
      clobber();
    }
    sums[t * 8] = total;
  });
  OpsResult r;
  r.elapsed_ns = elapsed;
  r.ops = per * 8 * threads * passes;
  uint64_t sum = 0;
  if (kind == "read") {
    for (int t = 0; t < threads; ++t) sum += sums[t * 8];
  } else {
    const uint64_t* check = kind == "write" ? s : d;
    for (uint64_t i = 0; i < per * threads; ++i) sum += check[i];
  }
  r.checksum = sum;
  return r;
}

OpsResult mutex_loop(uint64_t ops, int threads) {
  require(ops >= 1, "ops: must be at least 1");
  require(threads >= 1 && threads <= 256, "threads: between 1 and 256");
  std::mutex m;
  uint64_t counter = 0;
  const uint64_t elapsed = run_together(threads, [&](int) {
    for (uint64_t i = 0; i < ops; ++i) {
      m.lock();
      ++counter;
      m.unlock();
    }
  });
  return {elapsed, ops * threads, counter};
}

OpsResult atomic_loop(uint64_t ops, int threads, bool shared_line) {
  require(ops >= 1, "ops: must be at least 1");
  require(threads >= 1 && threads <= 256, "threads: between 1 and 256");
  struct alignas(64) Slot {
    std::atomic<uint64_t> v{0};
  };
  std::vector<Slot> slots(threads);
  const uint64_t elapsed = run_together(threads, [&](int t) {
    std::atomic<uint64_t>& c = slots[shared_line ? 0 : t].v;
    for (uint64_t i = 0; i < ops; ++i) c.fetch_add(1);
  });
  uint64_t sum = 0;
  for (auto& s : slots) sum += s.v.load();
  return {elapsed, ops * threads, sum};
}

OpsResult syscall_loop(const std::string& kind, uint64_t ops) {
  require(kind == "getppid" || kind == "clock_gettime", "kind: getppid or clock_gettime");
  require(ops >= 1, "ops: must be at least 1");
  uint64_t sum = 0;
  const uint64_t start = now_ns();
  if (kind == "getppid") {
    for (uint64_t i = 0; i < ops; ++i) sum += static_cast<uint64_t>(syscall(SYS_getppid));
  } else {
    timespec ts{};
    for (uint64_t i = 0; i < ops; ++i) {
      clock_gettime(CLOCK_MONOTONIC, &ts);
      sum += static_cast<uint64_t>(ts.tv_nsec);
    }
  }
  return {now_ns() - start, ops, sum};
}

OpsResult pipe_pingpong(uint64_t round_trips, bool same_cpu) {
  require(round_trips >= 1, "round_trips: must be at least 1");
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
  const uint64_t start = now_ns();
  for (; done < round_trips; ++done) {
    write_all(there.write_end(), &c, 1);
    if (!read_one(back.read_end(), &c, 1)) break;
  }
  const uint64_t elapsed = now_ns() - start;
  there.close_write();  // the child sees EOF and reports
  uint64_t counted = 0;
  const bool reported = read_one(report.read_end(), &counted, sizeof(counted));
  if (!child.wait_ok() || !reported) throw std::runtime_error("the ping-pong child process failed");
  return {elapsed, done, counted};
}

namespace {

// Two threads passing the turn back and forth `round_trips` times: `hand_to(who)` gives
// it away, `wait_for(who)` waits until it is `who`'s. Pinned (when asked) before the
// partner starts, which inherits the pinning: nothing in a thread can throw, and nothing
// throws while the partner runs.
template <typename HandTo, typename WaitFor>
OpsResult thread_pingpong(uint64_t round_trips, bool same_cpu, HandTo hand_to, WaitFor wait_for) {
  uint64_t partner_count = 0;
  AffinityGuard affinity;
  if (same_cpu) pin_to(current_cpu());
  std::thread partner([&] {
    for (uint64_t i = 0; i < round_trips; ++i) {
      wait_for(1);
      ++partner_count;
      hand_to(0);
    }
  });
  const uint64_t start = now_ns();
  uint64_t done = 0;
  for (; done < round_trips; ++done) {
    hand_to(1);
    wait_for(0);
  }
  const uint64_t elapsed = now_ns() - start;
  partner.join();
  return {elapsed, done, partner_count};
}

}  // namespace

OpsResult futex_pingpong(uint64_t round_trips, bool same_cpu) {
  require(round_trips >= 1, "round_trips: must be at least 1");
  std::atomic<int> turn{0};  // 0: main thread's turn, 1: partner's
  auto hand_to = [&](int who) {
    turn.store(who, std::memory_order_release);
    futex(&turn, FUTEX_WAKE_PRIVATE, 1);
  };
  auto wait_for = [&](int want) {
    int v;
    while ((v = turn.load(std::memory_order_acquire)) != want) futex(&turn, FUTEX_WAIT_PRIVATE, v);
  };
  return thread_pingpong(round_trips, same_cpu, hand_to, wait_for);
}

OpsResult yield_pingpong(uint64_t round_trips) {
  require(round_trips >= 1, "round_trips: must be at least 1");
  std::atomic<int> turn{0};
  auto hand_to = [&](int who) { turn.store(who, std::memory_order_release); };
  auto wait_for = [&](int want) {
    while (turn.load(std::memory_order_acquire) != want) sched_yield();
  };
  return thread_pingpong(round_trips, /*same_cpu=*/true, hand_to, wait_for);
}

OpsResult thread_create(uint64_t count) {
  require(count >= 1, "count: must be at least 1");
  std::atomic<uint64_t> ran{0};
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < count; ++i) {
    std::thread t([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    t.join();
  }
  return {now_ns() - start, count, ran.load()};
}

}  // namespace howfast
