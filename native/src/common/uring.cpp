#include "common/uring.hpp"

#include <algorithm>
#include <cerrno>

#include "common/errors.hpp"

#ifdef HOWFAST_HAVE_LIBURING
#include <liburing.h>
#else
struct io_uring {};  // never created: the constructor throws first
#endif

namespace howfast {

#ifndef HOWFAST_HAVE_LIBURING

Ring::Ring(unsigned, std::string context, Setup) : context_(std::move(context)) {
  throw_error(ENOSYS, "io_uring: the native module was built without liburing", context_);
}
Ring::~Ring() = default;
void Ring::register_buffers(const std::vector<iovec>&) {}
bool Ring::try_register_buffers(const std::vector<iovec>&) { return false; }
void Ring::register_file(int) {}
void Ring::queue(const UringOp&) {}
unsigned Ring::submit() { return 0; }
unsigned Ring::queued() const { return 0; }
Completion Ring::wait() { return {}; }
bool Ring::peek(Completion*) { return false; }
bool Ring::finish(UringOp&, int, const char*, const std::string*) { return true; }
void Ring::drain(std::size_t) noexcept {}
io_uring_sqe* Ring::sqe() { return nullptr; }

#else

Ring::Ring(unsigned entries, std::string context, Setup setup)
    : ring_(std::make_unique<io_uring>()), context_(std::move(context)) {
  unsigned flags = 0;
  if (setup == SingleThread)
    flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN;
  int ret = io_uring_queue_init(entries, ring_.get(), flags);
  // Older kernels refuse flags they do not know (EINVAL): DEFER_TASKRUN and SINGLE_ISSUER
  // came with 6.1, COOP_TASKRUN with 5.19. Drop them in that order, as fio does.
  if (ret == -EINVAL && (flags & IORING_SETUP_DEFER_TASKRUN) != 0) {
    flags &= ~(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    ret = io_uring_queue_init(entries, ring_.get(), flags);
  }
  if (ret == -EINVAL && flags != 0) {
    flags = 0;
    ret = io_uring_queue_init(entries, ring_.get(), 0);
  }
  deferred_ = (flags & IORING_SETUP_DEFER_TASKRUN) != 0;
  if (ret < 0) throw_error(-ret, "io_uring_queue_init(" + std::to_string(entries) + " entries)", context_);
}

Ring::~Ring() { io_uring_queue_exit(ring_.get()); }

void Ring::register_buffers(const std::vector<iovec>& buffers) {
  const int ret = io_uring_register_buffers(ring_.get(), buffers.data(), static_cast<unsigned>(buffers.size()));
  if (ret < 0) throw_error(-ret, "io_uring_register_buffers", context_);
}

bool Ring::try_register_buffers(const std::vector<iovec>& buffers) {
  return io_uring_register_buffers(ring_.get(), buffers.data(), static_cast<unsigned>(buffers.size())) == 0;
}

void Ring::register_file(int fd) {
  const int ret = io_uring_register_files(ring_.get(), &fd, 1);
  if (ret < 0) throw_error(-ret, "io_uring_register_files", context_);
}

io_uring_sqe* Ring::sqe() {
  io_uring_sqe* s = io_uring_get_sqe(ring_.get());
  if (s != nullptr) return s;
  submit();  // full: the kernel takes the queued entries, which frees their slots
  s = io_uring_get_sqe(ring_.get());
  if (s == nullptr) throw_error(EBUSY, "io_uring submission queue full", context_);
  return s;
}

namespace {

void prepare(io_uring_sqe* s, const UringOp& op) {
  const bool fixed_buf = op.buf_index >= 0;
  switch (op.kind) {
    case UringOp::Read:
      if (fixed_buf) io_uring_prep_read_fixed(s, op.fd, op.data, op.len, op.offset, op.buf_index);
      else io_uring_prep_read(s, op.fd, op.data, op.len, op.offset);
      break;
    case UringOp::Write:
      if (fixed_buf) io_uring_prep_write_fixed(s, op.fd, op.data, op.len, op.offset, op.buf_index);
      else io_uring_prep_write(s, op.fd, op.data, op.len, op.offset);
      break;
    case UringOp::Fsync:
      io_uring_prep_fsync(s, op.fd, 0);
      break;
    case UringOp::Fdatasync:
      io_uring_prep_fsync(s, op.fd, IORING_FSYNC_DATASYNC);
      break;
    case UringOp::Nop:
      io_uring_prep_nop(s);
      break;
  }
  if (op.fixed_file) s->flags |= IOSQE_FIXED_FILE;
  if (op.link) s->flags |= IOSQE_IO_LINK;
  io_uring_sqe_set_data64(s, op.user_data);
}

bool transfers(const UringOp& op) { return op.kind == UringOp::Read || op.kind == UringOp::Write; }

}  // namespace

void Ring::queue(const UringOp& op) { prepare(sqe(), op); }

unsigned Ring::submit() {
  // With DEFER_TASKRUN, completions reach the completion queue only when this thread
  // enters the kernel asking for events: every submit does (as fio's does), so the
  // completions that came in meanwhile are there to reap without another system call.
  int ret;
  do {
    ret = deferred_ ? io_uring_submit_and_get_events(ring_.get()) : io_uring_submit(ring_.get());
  } while (ret == -EINTR || ret == -EAGAIN);
  if (ret < 0) throw_error(-ret, "io_uring_submit", context_);
  return static_cast<unsigned>(ret);
}

unsigned Ring::queued() const { return io_uring_sq_ready(ring_.get()); }

Completion Ring::wait() {
  io_uring_cqe* cqe = nullptr;
  int ret;
  do {
    ret = io_uring_wait_cqe(ring_.get(), &cqe);
  } while (ret == -EINTR);
  if (ret < 0) throw_error(-ret, "io_uring_wait_cqe", context_);
  const Completion c{cqe->user_data, cqe->res};
  io_uring_cqe_seen(ring_.get(), cqe);
  return c;
}

bool Ring::peek(Completion* out) {
  io_uring_cqe* cqe = nullptr;
  const int ret = io_uring_peek_cqe(ring_.get(), &cqe);
  if (ret == -EAGAIN) return false;
  if (ret < 0) throw_error(-ret, "io_uring_peek_cqe", context_);
  *out = Completion{cqe->user_data, cqe->res};
  io_uring_cqe_seen(ring_.get(), cqe);
  return true;
}

bool Ring::finish(UringOp& op, int res, const char* what, const std::string* path) {
  const std::string& where = path != nullptr ? *path : context_;
  if (res == -EAGAIN || res == -EINTR) {  // not done, nothing transferred: the same again
    queue(op);
    return false;
  }
  if (res < 0) throw_error(-res, std::string(what) + " at offset " + std::to_string(op.offset), where);
  if (!transfers(op)) return true;
  if (res == 0)
    throw_error(EIO, std::string(what) + " at offset " + std::to_string(op.offset) + " transferred nothing", where);
  const auto done = static_cast<uint32_t>(res);
  if (done >= op.len) return true;
  op.data += done;  // short: the rest, from where it stopped
  op.len -= done;
  op.offset += done;
  queue(op);
  return false;
}

void Ring::drain(std::size_t outstanding) noexcept {
  if (outstanding == 0) return;
  const unsigned unsent = io_uring_sq_ready(ring_.get());
  int ret;
  do {
    ret = io_uring_submit(ring_.get());
  } while (ret == -EINTR);
  if (ret < 0) outstanding -= std::min<std::size_t>(outstanding, unsent);  // those will never complete
  while (outstanding > 0) {
    io_uring_cqe* cqe = nullptr;
    ret = io_uring_wait_cqe(ring_.get(), &cqe);
    if (ret == -EINTR) continue;
    if (ret < 0) return;
    io_uring_cqe_seen(ring_.get(), cqe);
    --outstanding;
  }
}

#endif

}  // namespace howfast
