// Segment files made ahead of need. A rollover (the writer moving to a new segment file)
// costs an open with O_CREAT, a fallocate of the whole segment and, with the write-ahead
// log, an fsync of the directory: milliseconds, which must not fall in the writer's
// critical path. One helper thread keeps up to `ahead` segment files ready, in id order;
// the writer takes the next one at a rollover, and waits only when the helper is behind.
// With `ahead` 0 there is no helper: the writer makes each file itself, when it needs it
// (the rollover in the critical path, for the chapter's comparison).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/files.hpp"

namespace howfast {

struct PreparedSegment {
  uint64_t id = 0;
  std::string path;
  std::unique_ptr<Fd> fd;
  uint64_t make_ns = 0;  // how long making it took (create, allocate, directory fsync)
};

class SegmentPreparer {
 public:
  using Make = std::function<PreparedSegment(uint64_t id)>;
  // Starts the helper (when `ahead` > 0), which begins with segment `first`.
  SegmentPreparer(Make make, uint64_t first, uint64_t ahead);
  // Stops the helper (after the file it is making, if any); files not taken stay: see stop().
  ~SegmentPreparer();
  SegmentPreparer(const SegmentPreparer&) = delete;
  SegmentPreparer& operator=(const SegmentPreparer&) = delete;

  // Segment `id` (the next in order), waiting for the helper if it is not ready yet;
  // rethrows what the helper ran into. With no helper, makes it now.
  PreparedSegment take(uint64_t id);
  // Stops the helper and hands back the files made and never taken (prepared, empty).
  std::deque<PreparedSegment> stop();

 private:
  void loop();
  Make make_;
  const uint64_t ahead_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<PreparedSegment> ready_;
  uint64_t next_ = 0;  // the next id the helper makes (or, with no helper, take() expects)
  std::exception_ptr error_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace howfast
