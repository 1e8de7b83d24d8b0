// The io_uring flusher: a flush is written in pieces (see kPiece), completions free the
// buffers, and the writer waits here for a free buffer or for every flush.
#include <cerrno>

#include "common/errors.hpp"
#include "memtable/impl.hpp"

namespace howfast {

void Memtable::Impl::init_uring() {
#ifdef HOWFAST_HAVE_LIBURING
    chunks = pieces_for(kSegmentHeader + C);
    unsigned entries = 8;
    while (entries < 4096 && entries < static_cast<uint64_t>(bufs.size()) * (chunks + 1) + 2) entries <<= 1;
    const int ret = io_uring_queue_init(entries, &ring, 0);
    if (ret < 0) throw_error(-ret, "io_uring_queue_init (flush='io_uring')");
    ring_ok = true;
    // Chunk k of buffer i is registered buffer i * chunks + k. Registering pins the pages
    // (RLIMIT_MEMLOCK for non-root); where it fails, the writes use plain memory.
    std::vector<iovec> iov;
    for (auto& b : bufs)
      for (uint64_t k = 0; k < chunks; ++k)
        iov.push_back({b->mem.data() + k * kPiece, std::min(kPiece, kSegmentHeader + C - k * kPiece)});
    fixed = io_uring_register_buffers(&ring, iov.data(), static_cast<unsigned>(iov.size())) == 0;
#else
    throw_error(ENOSYS, "flush='io_uring': the native module was built without liburing");
#endif
}

void Memtable::Impl::quiesce() noexcept {
#ifdef HOWFAST_HAVE_LIBURING
  if (!ring_ok) return;
  for (;;) {
    int outstanding = 0;
    for (const auto& b : bufs) outstanding += b->pending;
    if (outstanding <= 0) return;
    io_uring_cqe* cqe = nullptr;
    const int ret = io_uring_wait_cqe(&ring, &cqe);
    if (ret == -EINTR) continue;
    if (ret < 0) return;
    const uint64_t index = cqe->user_data >> 32;
    io_uring_cqe_seen(&ring, cqe);
    if (index < bufs.size()) --bufs[index]->pending;
  }
#endif
}

void Memtable::Impl::wait_all() {
  if (cfg.flush == FlushMode::Blocking) return;  // a blocking flush finishes inside seal()
  for (;;) {
    bool busy = false;
    for (const auto& b : bufs) busy = busy || b->state == Buffer::Flushing;
    if (!busy) return;
    reap(true);
  }
}

// io_uring user_data: buffer index << 32 | piece << 1 | (1 for the fdatasync)
namespace {
uint64_t tag(int buffer, uint64_t piece, bool sync) {
  return (static_cast<uint64_t>(buffer) << 32) | (piece << 1) | (sync ? 1 : 0);
}
}  // namespace

#ifdef HOWFAST_HAVE_LIBURING
namespace {
io_uring_sqe* next_sqe(io_uring* ring) {
  io_uring_sqe* sqe = io_uring_get_sqe(ring);
  if (sqe == nullptr) {  // full: hand what is queued to the kernel, which frees the slots
    io_uring_submit(ring);
    sqe = io_uring_get_sqe(ring);
  }
  if (sqe == nullptr) throw_error(EBUSY, "io_uring submission queue full");
  return sqe;
}
}  // namespace
#endif

// A flush is written as pieces (see kPiece), all submitted at once; the fdatasync (log
// on, no O_DSYNC) follows once every piece has completed.
void Memtable::Impl::submit_flush(Buffer* b) {
  const uint64_t pieces = b->pieces();
  for (uint64_t p = 0; p < pieces; ++p) {
    b->piece_written[p] = 0;
    submit_piece(b, p);
  }
  submit_now(find_segment(b->segment)->path);
}

void Memtable::Impl::submit_piece(Buffer* b, uint64_t piece) {
#ifdef HOWFAST_HAVE_LIBURING
  const int fd = find_segment(b->segment)->fd->get();
  const uint64_t done = b->piece_written[piece];
  unsigned char* data = b->piece_begin(piece) + done;
  const unsigned n = static_cast<unsigned>(b->piece_size(piece) - done);
  const uint64_t offset = b->offset + static_cast<uint64_t>(data - b->io);
  io_uring_sqe* sqe = next_sqe(&ring);
  if (fixed) io_uring_prep_write_fixed(sqe, fd, data, n, offset, static_cast<int>(b->index * chunks + piece));
  else io_uring_prep_write(sqe, fd, data, n, offset);
  sqe->user_data = tag(b->index, piece, false);
  ++b->pending;
#else
  (void)b;
  (void)piece;
  throw_error(ENOSYS, "io_uring flush without liburing");
#endif
}

void Memtable::Impl::submit_sync(Buffer* b) {
#ifdef HOWFAST_HAVE_LIBURING
  io_uring_sqe* sqe = next_sqe(&ring);
  io_uring_prep_fsync(sqe, find_segment(b->segment)->fd->get(), IORING_FSYNC_DATASYNC);
  sqe->user_data = tag(b->index, 0, true);
  ++b->pending;
  b->sync_sent = true;
  submit_now(find_segment(b->segment)->path);
#else
  (void)b;
#endif
}

void Memtable::Impl::submit_now(const std::string& path) {
#ifdef HOWFAST_HAVE_LIBURING
  const uint64_t t0 = now_ns();
  int ret;
  do {
    ret = io_uring_submit(&ring);
  } while (ret == -EINTR || ret == -EAGAIN);
  submit_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
  if (ret < 0) throw_error(-ret, "io_uring_submit", path);
#else
  (void)path;
#endif
}

void Memtable::Impl::reap(bool wait) {
#ifdef HOWFAST_HAVE_LIBURING
  if (!ring_ok) return;
  for (;;) {
    io_uring_cqe* cqe = nullptr;
    const int ret = wait ? io_uring_wait_cqe(&ring, &cqe) : io_uring_peek_cqe(&ring, &cqe);
    if (ret == -EAGAIN && !wait) return;
    if (ret == -EINTR) continue;
    if (ret < 0) throw_error(-ret, "io_uring_wait_cqe");
    const uint64_t user_data = cqe->user_data;
    const int res = cqe->res;
    io_uring_cqe_seen(&ring, cqe);
    handle_completion(user_data, res);
    wait = false;  // then take whatever else has completed, without blocking
  }
#else
  (void)wait;
#endif
}

void Memtable::Impl::handle_completion(uint64_t user_data, int res) {
  Buffer* b = bufs.at(user_data >> 32).get();
  const bool is_sync = (user_data & 1) != 0;
  const uint64_t piece = (user_data & 0xffffffffu) >> 1;
  --b->pending;
  Segment* seg = find_segment(b->segment);
  const std::string path = seg ? seg->path : std::string();
  if (!is_sync) {
    const uint64_t size = b->piece_size(piece);
    if (res == -EINTR || res == -EAGAIN) {
      submit_piece(b, piece);  // try again
      submit_now(path);
    } else if (res < 0) {
      throw_error(-res, "io_uring write of a memtable flush at offset " +
                            std::to_string(b->offset + static_cast<uint64_t>(b->piece_begin(piece) - b->io)), path);
    } else if (res == 0) {
      throw_error(EIO, "io_uring write of a memtable flush wrote nothing", path);
    } else {
      b->piece_written.at(piece) += static_cast<uint64_t>(res);
      b->written += static_cast<uint64_t>(res);
      if (b->piece_written[piece] < size) {  // a short write: the rest again
        submit_piece(b, piece);
        submit_now(path);
      }
    }
    if (b->written == b->len && b->pending == 0 && b->need_sync && !b->sync_sent) submit_sync(b);
  } else if (res < 0) {
    throw_error(-res, "fdatasync of a segment (io_uring)", path);
  } else {
    b->synced = true;
  }
  if (b->pending == 0 && b->written == b->len && (!b->need_sync || b->synced)) complete(b);
}

}  // namespace howfast
