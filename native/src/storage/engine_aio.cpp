// The POSIX asynchronous engine: aio_read / aio_write with up to queue_depth requests
// in flight, aio_suspend to wait (fio's posixaio). With fsync, a write's slot issues
// aio_fsync when the write completes, and the I/O is done when the fsync is.
#include <aio.h>
#include <fcntl.h>

#include <cerrno>
#include <memory>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "storage/storage.hpp"

namespace howfast {

namespace {

enum class Stage { Idle, Data, Sync };

struct Slot {
  aiocb cb{};
  std::unique_ptr<AlignedBuffer> buf;
  Stage stage = Stage::Idle;
  std::size_t index = 0;  // which I/O of the plan
  uint64_t started = 0;
};

void submit(Slot& s, const JobPlan& plan, std::size_t index, uint64_t block) {
  const IoConfig& c = *plan.config;
  const uint64_t off = plan.offsets[index];
  s.index = index;
  s.cb = aiocb{};
  s.cb.aio_fildes = plan.fd;
  s.cb.aio_buf = s.buf->data();
  s.cb.aio_nbytes = block;
  s.cb.aio_offset = static_cast<off_t>(off);
  if (plan.writes[index]) stamp_for_write(s.buf->data(), block, off, c.seed);
  s.started = now_ns();
  s.stage = Stage::Data;
  if ((plan.writes[index] ? ::aio_write(&s.cb) : ::aio_read(&s.cb)) != 0)
    throw_errno(plan.writes[index] ? "aio_write" : "aio_read", c.path);
}

}  // namespace

void run_aio(const JobPlan& plan, JobResult& out) {
  const IoConfig& c = *plan.config;
  const uint64_t block = static_cast<uint64_t>(c.block_size);
  const std::size_t depth = static_cast<std::size_t>(c.queue_depth);
  std::vector<Slot> slots(depth);
  std::vector<const aiocb*> waiting(depth, nullptr);
  for (auto& s : slots) {
    s.buf = std::make_unique<AlignedBuffer>(block);
    fill_pattern(s.buf->data(), block, c.seed);
  }
  std::vector<unsigned char> expected;
  std::size_t next = 0, done = 0, in_flight = 0;
  const std::size_t total = plan.offsets.size();
  out.start_ns = now_ns();
  try {
    while (done < total) {
      const bool stopping = plan.stop->load(std::memory_order_relaxed);
      for (auto& s : slots) {
        if (s.stage == Stage::Idle && next < total && !stopping) {
          submit(s, plan, next++, block);
          ++in_flight;
        }
      }
      if (in_flight == 0) break;
      for (std::size_t k = 0; k < depth; ++k) waiting[k] = slots[k].stage == Stage::Idle ? nullptr : &slots[k].cb;
      while (::aio_suspend(waiting.data(), static_cast<int>(depth), nullptr) != 0) {
        if (errno != EINTR && errno != EAGAIN) throw_errno("aio_suspend", c.path);
      }
      for (auto& s : slots) {
        if (s.stage == Stage::Idle) continue;
        int err = ::aio_error(&s.cb);
        if (err == EINPROGRESS) continue;
        ssize_t n = ::aio_return(&s.cb);
        if (err != 0) throw_error(err, s.stage == Stage::Sync ? "aio_fsync" : "aio request", c.path);
        if (s.stage == Stage::Data && n != static_cast<ssize_t>(block))
          throw_error(EIO, "short aio I/O at offset " + std::to_string(plan.offsets[s.index]), c.path);
        if (s.stage == Stage::Data && plan.writes[s.index] && c.fsync) {
          s.cb.aio_fildes = plan.fd;
          s.stage = Stage::Sync;
          if (::aio_fsync(O_SYNC, &s.cb) != 0) throw_errno("aio_fsync", c.path);
          continue;
        }
        out.latency_ns[s.index] = now_ns() - s.started;
        if (c.verify && !plan.writes[s.index] &&
            !block_matches(s.buf->data(), block, plan.offsets[s.index], c.seed, expected))
          ++out.mismatches;
        s.stage = Stage::Idle;
        --in_flight;
        ++done;
      }
    }
  } catch (...) {
    for (auto& s : slots)
      if (s.stage != Stage::Idle) {
        ::aio_cancel(plan.fd, &s.cb);
        const aiocb* one[1] = {&s.cb};
        while (::aio_error(&s.cb) == EINPROGRESS) ::aio_suspend(one, 1, nullptr);
      }
    throw;
  }
  out.end_ns = now_ns();
}

}  // namespace howfast
