// The io_uring engine (liburing): up to queue_depth I/Os in flight; a write followed by
// an fsync is submitted as a linked pair (IOSQE_IO_LINK) and completes with the fsync.
// Optionally with registered buffers (read/write_fixed) and a registered file.
#include "storage/storage.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"

#ifdef HOWFAST_HAVE_LIBURING
#include <liburing.h>
#include <sys/uio.h>

#include <memory>
#endif

namespace howfast {

#ifndef HOWFAST_HAVE_LIBURING
void run_uring(const JobPlan& plan, JobResult&) {
  throw_error(ENOSYS, "the native module was built without liburing", plan.config->path);
}
#else

namespace {

constexpr uint64_t kSyncBit = 1ull << 63;

class Ring {
 public:
  explicit Ring(unsigned entries, const std::string& path) : path_(path) {
    int ret = io_uring_queue_init(entries, &ring_, 0);
    if (ret < 0) throw_error(-ret, "io_uring_queue_init", path);
  }
  ~Ring() { io_uring_queue_exit(&ring_); }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  io_uring* get() { return &ring_; }
  io_uring_sqe* sqe() {
    io_uring_sqe* s = io_uring_get_sqe(&ring_);
    if (s == nullptr) throw_error(EBUSY, "io_uring submission queue full", path_);
    return s;
  }

 private:
  io_uring ring_{};
  std::string path_;
};

struct Slot {
  std::unique_ptr<AlignedBuffer> buf;
  std::size_t index = 0;
  uint64_t started = 0;
  bool busy = false;
};

}  // namespace

void run_uring(const JobPlan& plan, JobResult& out) {
  const IoConfig& c = *plan.config;
  const uint64_t block = static_cast<uint64_t>(c.block_size);
  const std::size_t depth = static_cast<std::size_t>(c.queue_depth);
  Ring ring(static_cast<unsigned>(depth * 2), c.path);
  std::vector<Slot> slots(depth);
  std::vector<iovec> iovs(depth);
  for (std::size_t k = 0; k < depth; ++k) {
    slots[k].buf = std::make_unique<AlignedBuffer>(block);
    fill_pattern(slots[k].buf->data(), block, c.seed);
    iovs[k] = iovec{slots[k].buf->data(), block};
  }
  if (c.fixed_buffers) {
    int ret = io_uring_register_buffers(ring.get(), iovs.data(), static_cast<unsigned>(depth));
    if (ret < 0) throw_error(-ret, "io_uring_register_buffers", c.path);
  }
  int fd = plan.fd;
  if (c.fixed_files) {
    int ret = io_uring_register_files(ring.get(), &fd, 1);
    if (ret < 0) throw_error(-ret, "io_uring_register_files", c.path);
    fd = 0;  // index into the registered table
  }
  std::vector<unsigned char> expected;
  std::size_t next = 0, done = 0, in_flight = 0;
  std::size_t outstanding = 0;  // CQEs still to come (two for a write + linked fsync)
  const std::size_t total = plan.offsets.size();

  auto submit = [&](std::size_t k) {
    Slot& s = slots[k];
    const std::size_t i = next++;
    const uint64_t off = plan.offsets[i];
    const bool write = plan.writes[i];
    if (write) stamp_for_write(s.buf->data(), block, off, c.seed);
    io_uring_sqe* sqe = ring.sqe();
    if (c.fixed_buffers) {
      if (write) io_uring_prep_write_fixed(sqe, fd, s.buf->data(), block, off, static_cast<int>(k));
      else io_uring_prep_read_fixed(sqe, fd, s.buf->data(), block, off, static_cast<int>(k));
    } else {
      if (write) io_uring_prep_write(sqe, fd, s.buf->data(), block, off);
      else io_uring_prep_read(sqe, fd, s.buf->data(), block, off);
    }
    if (c.fixed_files) sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, k);
    if (write && c.fsync) {
      sqe->flags |= IOSQE_IO_LINK;
      io_uring_sqe* sync = ring.sqe();
      io_uring_prep_fsync(sync, fd, 0);
      if (c.fixed_files) sync->flags |= IOSQE_FIXED_FILE;
      io_uring_sqe_set_data64(sync, k | kSyncBit);
      ++outstanding;
    }
    ++outstanding;
    s.index = i;
    s.busy = true;
    s.started = now_ns();
    ++in_flight;
  };

  auto complete = [&](io_uring_cqe* cqe) {
    const uint64_t data = io_uring_cqe_get_data64(cqe);
    const bool is_sync = (data & kSyncBit) != 0;
    Slot& s = slots[data & ~kSyncBit];
    const bool write = plan.writes[s.index];
    if (cqe->res < 0) throw_error(-cqe->res, is_sync ? "io_uring fsync" : "io_uring I/O", c.path);
    if (!is_sync && cqe->res != static_cast<int>(block))
      throw_error(EIO, "short io_uring I/O at offset " + std::to_string(plan.offsets[s.index]), c.path);
    if (!is_sync && write && c.fsync) return;  // the linked fsync completes the I/O
    out.latency_ns[s.index] = now_ns() - s.started;
    if (c.verify && !write && !block_matches(s.buf->data(), block, plan.offsets[s.index], c.seed, expected))
      ++out.mismatches;
    s.busy = false;
    --in_flight;
    ++done;
  };

  // Never free a buffer the kernel may still write into: on any error, wait for every
  // CQE still owed before the buffers go away.
  auto drain = [&] {
    io_uring_cqe* cqe = nullptr;
    if (io_uring_submit(ring.get()) < 0) return;
    while (outstanding > 0 && io_uring_wait_cqe(ring.get(), &cqe) == 0) {
      io_uring_cqe_seen(ring.get(), cqe);
      --outstanding;
    }
  };

  out.start_ns = now_ns();
  try {
    while (done < total) {
      const bool stopping = plan.stop->load(std::memory_order_relaxed);
      for (std::size_t k = 0; k < depth && next < total && !stopping; ++k)
        if (!slots[k].busy) submit(k);
      if (in_flight == 0) break;
      int ret = io_uring_submit(ring.get());
      if (ret < 0) throw_error(-ret, "io_uring_submit", c.path);
      io_uring_cqe* cqe = nullptr;
      ret = io_uring_wait_cqe(ring.get(), &cqe);
      if (ret < 0) throw_error(-ret, "io_uring_wait_cqe", c.path);
      unsigned head = 0, seen = 0;
      io_uring_for_each_cqe(ring.get(), head, cqe) {
        ++seen;
        --outstanding;
        try {
          complete(cqe);
        } catch (...) {
          io_uring_cq_advance(ring.get(), seen);
          throw;
        }
      }
      io_uring_cq_advance(ring.get(), seen);
    }
  } catch (...) {
    drain();
    throw;
  }
  out.end_ns = now_ns();
}

#endif

}  // namespace howfast
