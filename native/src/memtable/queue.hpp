// The bounded queue between the callers (Python threads, the benchmark's producers) and
// the memtable's single writer thread, and the Waiter that acknowledges requests.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "memtable/memtable.hpp"

namespace howfast {

class RequestQueue {
 public:
  explicit RequestQueue(std::size_t capacity) : ring_(capacity) {}

  // Blocks while full; false once closed.
  bool push(const Request& r);
  // Up to `max` requests; blocks while empty; 0 once closed.
  std::size_t pop(Request* out, std::size_t max);
  // Closes the queue and returns what was still in it (for the caller to fail).
  std::vector<Request> close();
  // How long the writer waited for requests (read after it stopped, or racy).
  uint64_t idle_ns() const { return idle_ns_; }
  // Times the consumer slept on an empty queue, and producers on a full one.
  uint64_t consumer_waits() const { return consumer_waits_; }  // the consumer's thread, or after it stopped
  uint64_t producer_waits();

 private:
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::vector<Request> ring_;
  std::size_t head_ = 0, count_ = 0;
  bool closed_ = false;
  int waiting_producers_ = 0;
  bool consumer_waiting_ = false;
  uint64_t idle_ns_ = 0;
  uint64_t consumer_waits_ = 0, producer_waits_ = 0;
};

}  // namespace howfast
