// The module's one io_uring owner (liburing), used by the storage engine, the memtable's
// flusher and the probe. Ring owns the ring (io_uring_queue_init in the constructor,
// io_uring_queue_exit in the destructor) and turns every liburing error into a SysError
// with errno and context. Reads and writes are described by a UringOp that the ring
// carries until every byte is done: a short transfer is resubmitted for the rest and
// -EAGAIN (or -EINTR) resubmits the same operation.
//
// This header needs no liburing: built without it (HOWFAST_HAVE_LIBURING undefined), the
// constructor throws SysError(ENOSYS) and callers need no #ifdef of their own.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct io_uring;
struct io_uring_sqe;

namespace howfast {

// One operation: for a read or write, [data, data + len) at `offset` is what is still to
// be transferred (finish() advances it after a short transfer).
struct UringOp {
  enum Kind : uint8_t { Nop, Read, Write, Fsync, Fdatasync };
  Kind kind = Nop;
  int fd = -1;                   // a file descriptor, or the registered file's index (fixed_file)
  unsigned char* data = nullptr;
  uint32_t len = 0;
  uint64_t offset = 0;
  int buf_index = -1;            // registered buffer holding `data` (read/write_fixed), -1: none
  bool fixed_file = false;       // `fd` indexes the registered files
  bool link = false;             // IOSQE_IO_LINK: the next queued operation waits for this one
  uint64_t user_data = 0;
};

struct Completion {
  uint64_t user_data = 0;
  int res = 0;  // bytes transferred, 0, or -errno
};

class Ring {
 public:
  // How the ring is set up. SingleThread: one thread creates the ring and does all its
  // submitting and waiting (IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN | COOP_TASKRUN,
  // what fio's io_uring engine asks for): completions are processed when that thread
  // waits, never by interrupting it. A kernel without these flags gets a plain ring.
  enum Setup : unsigned { Default = 0, SingleThread = 1 };

  // A ring of `entries` submission slots; `context` (a path or a setting) goes into
  // every error this ring raises.
  Ring(unsigned entries, std::string context, Setup setup = Default);
  ~Ring();
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  // Registered buffers (read_fixed / write_fixed with UringOp::buf_index). The try_ form
  // answers false instead of throwing (registration pins pages: RLIMIT_MEMLOCK).
  void register_buffers(const std::vector<iovec>& buffers);
  bool try_register_buffers(const std::vector<iovec>& buffers);
  // Registers one file: operations then use fd 0 with fixed_file.
  void register_file(int fd);

  // Prepares `op` in a submission slot; when the queue is full, the queued operations are
  // submitted first to free slots.
  void queue(const UringOp& op);
  // Hands the queued operations to the kernel (retrying EINTR and EAGAIN); their count.
  // A SingleThread ring also posts the completions that arrived meanwhile.
  unsigned submit();
  // Operations queued and not yet submitted.
  unsigned queued() const;
  // Blocks until an operation completes (EINTR retried) and returns its completion.
  Completion wait();
  // A completion if one is ready, without blocking.
  bool peek(Completion* out);
  // Applies `res`, the result of `op`'s completion. True when `op` is done. After a short
  // read or write, `op` is advanced past the bytes done and the rest queued again; after
  // -EAGAIN or -EINTR the same operation is queued again (false: one more completion
  // is owed; call submit()). Any other error throws SysError(-res, "<what> at offset N"),
  // a read or write that transferred nothing throws EIO. `path` (nullptr: the context) and
  // `what` are only read on an error: no allocation on the completion path.
  bool finish(UringOp& op, int res, const char* what, const std::string* path = nullptr);

  // Error path: submits what is queued and waits for `outstanding` completions, ignoring
  // their results, so no buffer is freed while the kernel may still use it.
  void drain(std::size_t outstanding) noexcept;

  const std::string& context() const noexcept { return context_; }

 private:
  io_uring_sqe* sqe();
  std::unique_ptr<io_uring> ring_;
  std::string context_;
  bool deferred_ = false;  // IORING_SETUP_DEFER_TASKRUN: completions are posted when we enter
};

}  // namespace howfast
