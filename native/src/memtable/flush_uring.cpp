// The io_uring flusher: a flush is written in pieces (see kPiece), all submitted at once
// through the module's Ring (common/uring.hpp), which resubmits short writes and -EAGAIN.
// Completions free the buffers; the writer waits here for a free buffer or for every flush.
#include <cerrno>

#include "common/errors.hpp"
#include "memtable/impl.hpp"

namespace howfast {

namespace {

// io_uring user_data: buffer index << 32 | piece << 1 | (1 for the fdatasync)
uint64_t tag(int buffer, uint64_t piece, bool sync) {
  return (static_cast<uint64_t>(buffer) << 32) | (piece << 1) | (sync ? 1 : 0);
}

unsigned ring_entries(std::size_t buffers, uint64_t chunks) {
  unsigned entries = 8;
  while (entries < 4096 && entries < static_cast<uint64_t>(buffers) * (chunks + 1) + 2) entries <<= 1;
  return entries;
}

}  // namespace

void Memtable::Impl::init_uring() {
  chunks = pieces_for(kSegmentHeader + C);
  // Created by the writer thread, the only one that submits and waits: completions are
  // posted when it enters the kernel, and never interrupt it while it copies records.
  ring = std::make_unique<Ring>(ring_entries(bufs.size(), chunks), cfg.dir, Ring::SingleThread);
  // Chunk k of buffer i is registered buffer i * chunks + k. Registering pins the pages
  // (RLIMIT_MEMLOCK for non-root); where it fails, the writes use plain memory.
  std::vector<iovec> iov;
  for (auto& b : bufs)
    for (uint64_t k = 0; k < chunks; ++k)
      iov.push_back({b->mem.data() + k * kPiece, std::min(kPiece, kSegmentHeader + C - k * kPiece)});
  fixed = ring->try_register_buffers(iov);
}

void Memtable::Impl::quiesce() noexcept {
  if (!ring) return;
  std::size_t outstanding = 0;
  for (const auto& b : bufs) outstanding += static_cast<std::size_t>(std::max(b->pending, 0));
  ring->drain(outstanding);
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

// A flush is written as pieces (see kPiece), all submitted at once; the fdatasync (log
// on, no O_DSYNC) follows once every piece has completed.
//
// Small flushes come fast (at 64 KiB, tens of thousands per second), and one
// io_uring_enter per flush cost about as much as filling the buffer on this project's VM
// (about 5 us: the kernel issues the write, and the virtual disk is notified, inside it).
// With O_DSYNC, a flush may wait on the ring for others and go to the kernel with them:
// until the flushes waiting reach half of those the disk already has (at once when it
// has none or one, as with two buffers), and never past the end of the batch of records
// the writer is working on, nor past any wait (submit_queued before every blocking
// call); the disk always has at least two thirds of the flushes sealed. Without O_DSYNC
// a flush goes at once: every io_uring_enter also collects the completions that came in
// meanwhile (the ring posts them only then), so buffers come free sooner. Measured on
// this project's VM at 64 KiB with 32 buffers, 12 alternated rounds of 1 GiB: waiting
// for company was 4 % faster with O_DSYNC, and 4 % slower without.
void Memtable::Impl::submit_flush(Buffer* b) {
  const uint64_t pieces = b->pieces();
  for (uint64_t p = 0; p < pieces; ++p) submit_piece(b, p);
  ++unsubmitted;
  if (!cfg.dsync || 2 * unsubmitted > in_flight) submit_queued();
}

// Hands every queued flush (and anything else queued) to the kernel.
void Memtable::Impl::submit_queued() {
  if (!ring || ring->queued() == 0) return;
  submit_now();
}

void Memtable::Impl::submit_piece(Buffer* b, uint64_t piece) {
  UringOp& op = b->piece_ops[piece];
  op.kind = UringOp::Write;
  op.fd = find_segment(b->segment)->fd->get();
  op.data = b->piece_begin(piece);
  op.len = static_cast<uint32_t>(b->piece_size(piece));
  op.offset = b->offset + static_cast<uint64_t>(op.data - b->io);
  op.buf_index = fixed ? static_cast<int>(b->index * chunks + piece) : -1;
  op.user_data = tag(b->index, piece, false);
  if (rec) rec->write_submit(find_segment(b->segment)->path, op.offset, op.data, op.len, &op);
  ring->queue(op);
  ++b->pending;
}

void Memtable::Impl::submit_sync(Buffer* b) {
  b->sync_op.kind = UringOp::Fdatasync;
  b->sync_op.fd = find_segment(b->segment)->fd->get();
  b->sync_op.user_data = tag(b->index, 0, true);
  if (rec) rec->sync_start(find_segment(b->segment)->path, &b->sync_op);
  ring->queue(b->sync_op);
  ++b->pending;
  b->sync_sent = true;
  submit_now();
}

void Memtable::Impl::submit_now() {
  const uint64_t t0 = now_ns();
  ++ctr.submits;
  ring->submit();
  in_flight += unsubmitted;
  unsubmitted = 0;
  submit_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
}

void Memtable::Impl::reap(bool wait) {
  if (!ring) return;
  if (wait) {  // then whatever else has completed, without blocking
    submit_queued();  // what the wait is for may not have been submitted yet
    ++ctr.completion_waits;
    handle_completion(ring->wait());
  }
  Completion c;
  while (ring->peek(&c)) handle_completion(c);
}

void Memtable::Impl::piece_done(Buffer* b, uint64_t piece, int res) {
  const Segment* seg = find_segment(b->segment);
  const uint32_t left = b->piece_ops.at(piece).len;
  if (rec && res > 0 && seg != nullptr)
    rec->write_done_op(&b->piece_ops[piece], seg->path, b->piece_ops[piece].offset, static_cast<uint64_t>(res));
  if (!ring->finish(b->piece_ops[piece], res, "io_uring write of a memtable flush", seg ? &seg->path : nullptr)) {
    ++b->pending;  // the rest of a short write, or the same again after -EAGAIN
    b->written += left - b->piece_ops[piece].len;
    submit_now();
    return;
  }
  b->written += left;
}

void Memtable::Impl::handle_completion(const Completion& c) {
  Buffer* b = bufs.at(c.user_data >> 32).get();
  const bool is_sync = (c.user_data & 1) != 0;
  --b->pending;
  if (!is_sync) {
    piece_done(b, (c.user_data & 0xffffffffu) >> 1, c.res);
    if (b->written == b->len && b->pending == 0 && b->need_sync && !b->sync_sent) submit_sync(b);
  } else {
    Segment* seg = find_segment(b->segment);
    if (!ring->finish(b->sync_op, c.res, "fdatasync of a segment (io_uring)", seg ? &seg->path : nullptr)) {
      ++b->pending;
      submit_now();
      return;
    }
    b->synced = true;
    if (rec && seg != nullptr) rec->sync_done_op(&b->sync_op, seg->path);
  }
  if (b->pending == 0 && b->written == b->len && (!b->need_sync || b->synced)) complete(b);
}

}  // namespace howfast
