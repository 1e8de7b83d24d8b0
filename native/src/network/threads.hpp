// Worker threads for the network loops, run while the calling thread waits with the
// GIL released: it polls for Ctrl-C (the Poller) and, on an interrupt or the first
// worker's error, raises the stop flag every worker checks, joins them all, and
// rethrows. No worker outlives the call.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "common/clock.hpp"
#include "common/system.hpp"

namespace howfast {

class Workers {
 public:
  explicit Workers(std::atomic<bool>& stop) : stop_(stop) {}
  ~Workers() {
    stop_ = true;
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  void spawn(std::function<void()> body) {
    threads_.push_back(start_thread([this, body = std::move(body)] {
      try {
        body();
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = std::current_exception();
        stop_ = true;
      }
      done_.fetch_add(1);
    }, "start a worker thread"));  // refused: OSError, once the destructor joined the others
  }

  // Waits for every worker, polling for Ctrl-C; rethrows the first error.
  void join(Poller& poller) {
    try {
      while (done_.load() < threads_.size()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        poller.maybe(now_ns());
      }
    } catch (...) {
      stop_ = true;
      for (auto& t : threads_)
        if (t.joinable()) t.join();
      throw;
    }
    for (auto& t : threads_)
      if (t.joinable()) t.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic<bool>& stop_;
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> done_{0};
  std::mutex mu_;
  std::exception_ptr error_;
};

}  // namespace howfast
