#include "memtable/queue.hpp"

#include <algorithm>
#include <chrono>

#include "common/clock.hpp"

namespace howfast {

// ---- RequestQueue --------------------------------------------------------------------------

bool RequestQueue::push(const Request& r) {
  std::unique_lock<std::mutex> lock(mu_);
  while (count_ == ring_.size() && !closed_) {
    ++waiting_producers_;
    ++producer_waits_;
    not_full_.wait(lock);
    --waiting_producers_;
  }
  if (closed_) return false;
  ring_[(head_ + count_) % ring_.size()] = r;
  ++count_;
  const bool wake = consumer_waiting_;
  lock.unlock();  // the woken writer must not find the lock still held
  if (wake) not_empty_.notify_one();
  return true;
}

std::size_t RequestQueue::pop(Request* out, std::size_t max) {
  std::unique_lock<std::mutex> lock(mu_);
  if (count_ == 0 && !closed_) {
    const uint64_t t0 = now_ns();
    while (count_ == 0 && !closed_) {
      consumer_waiting_ = true;
      ++consumer_waits_;
      not_empty_.wait(lock);
      consumer_waiting_ = false;
    }
    idle_ns_ += now_ns() - t0;
  }
  if (closed_) return 0;
  const std::size_t n = std::min(count_, max);
  for (std::size_t i = 0; i < n; ++i) out[i] = ring_[(head_ + i) % ring_.size()];
  head_ = (head_ + n) % ring_.size();
  count_ -= n;
  const bool wake = waiting_producers_ > 0;
  lock.unlock();  // woken producers must not find the lock still held (and block on it again)
  if (wake) not_full_.notify_all();
  return n;
}

uint64_t RequestQueue::producer_waits() {
  std::lock_guard<std::mutex> lock(mu_);
  return producer_waits_;
}

std::vector<Request> RequestQueue::close() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Request> left;
  for (std::size_t i = 0; i < count_; ++i) left.push_back(ring_[(head_ + i) % ring_.size()]);
  count_ = 0;
  closed_ = true;
  not_full_.notify_all();
  not_empty_.notify_all();
  return left;
}

// ---- Waiter --------------------------------------------------------------------------------

void Waiter::done(std::size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  remaining_ -= std::min(n, remaining_);
  if (remaining_ == 0) cv_.notify_all();
}

void Waiter::fail(std::exception_ptr error, std::size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!error_) error_ = error;
  remaining_ -= std::min(n, remaining_);
  if (remaining_ == 0) cv_.notify_all();
}

void Waiter::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return remaining_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

bool Waiter::wait_for(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [&] { return remaining_ == 0; })) return false;
  if (error_) std::rethrow_exception(error_);
  return true;
}

}  // namespace howfast
