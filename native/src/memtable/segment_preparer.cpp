// The helper that makes segment files ahead of need (memtable/segment_preparer.hpp).
#include "memtable/segment_preparer.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "common/errors.hpp"
#include <utility>

namespace howfast {

SegmentPreparer::SegmentPreparer(Make make, uint64_t first, uint64_t ahead)
    : make_(std::move(make)), ahead_(ahead), next_(first) {
  if (ahead_ > 0) thread_ = std::thread([this] { loop(); });
}

SegmentPreparer::~SegmentPreparer() {
  try {
    stop();  // the files not taken are the owner's to remove (memtable: discard_prepared)
  } catch (...) {
    // only an allocation can fail here, after the helper was joined
  }
}

namespace {

// The helper runs at the lowest priority (nice 19): woken when the writer takes a file,
// it would otherwise take the writer's CPU at once, in the middle of a rollover (on this
// project's 2-core VM the writer's wait per rollover, files ready, went from 90-250 us
// to 5-15 us in the rollover experiment's quick runs).
void lower_priority() {
  if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19) != 0)
    throw_errno("setpriority(nice 19) for the segment helper thread");
}

}  // namespace

void SegmentPreparer::loop() {
  try {
    lower_priority();
  } catch (...) {
    std::lock_guard<std::mutex> guard(mu_);
    error_ = std::current_exception();
    cv_.notify_all();
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stopping_ || ready_.size() < ahead_; });
    if (stopping_) return;
    const uint64_t id = next_;
    lock.unlock();
    PreparedSegment p;
    std::exception_ptr error;
    try {
      p = make_(id);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error) {
      error_ = error;  // take() rethrows it; the helper makes nothing more
      cv_.notify_all();
      return;
    }
    ready_.push_back(std::move(p));
    ++next_;
    cv_.notify_all();
  }
}

PreparedSegment SegmentPreparer::take(uint64_t id) {
  if (ahead_ == 0) {
    if (id != next_) throw std::logic_error("segment " + std::to_string(id) + " taken out of order");
    PreparedSegment p = make_(id);
    ++next_;
    return p;
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return !ready_.empty() || error_ != nullptr; });
  if (ready_.empty()) std::rethrow_exception(error_);
  if (ready_.front().id != id)
    throw std::logic_error("segment " + std::to_string(id) + " asked, segment " + std::to_string(ready_.front().id) +
                           " ready");
  PreparedSegment p = std::move(ready_.front());
  ready_.pop_front();
  cv_.notify_all();  // room for the next one
  return p;
}

std::deque<PreparedSegment> SegmentPreparer::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::deque<PreparedSegment> left;
  std::lock_guard<std::mutex> lock(mu_);
  left.swap(ready_);
  return left;
}

}  // namespace howfast
