// Monotonic nanoseconds and a time-based poll for Ctrl-C inside long loops.
#pragma once

#include <cstdint>
#include <ctime>
#include <functional>
#include <utility>

namespace howfast {

inline uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Calls `check` (which may throw, e.g. on KeyboardInterrupt) at most every `period_ns`.
// Loops call maybe() between timed operations, never inside one.
class Poller {
 public:
  explicit Poller(std::function<void()> check, uint64_t period_ns = 50'000'000)
      : check_(std::move(check)), period_ns_(period_ns), last_(now_ns()) {}

  void maybe(uint64_t now) {
    if (check_ && now - last_ >= period_ns_) {
      check_();
      last_ = now_ns();
    }
  }

 private:
  std::function<void()> check_;
  uint64_t period_ns_;
  uint64_t last_;
};

}  // namespace howfast
