// Checks common/uring's completion path without a device: a pipe gives short reads on
// demand (a read returns what the pipe holds), and finish() is fed -EAGAIN, errors and 0.
// Built by tests/test_native_uring.py (or CMake with -DHOWFAST_TESTS=ON); exits non-zero
// and names the failed check on failure.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/errors.hpp"
#include "common/uring.hpp"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

template <typename F>
int thrown_errno(F&& f) {
  try {
    f();
  } catch (const howfast::SysError& e) {
    return e.err();
  }
  return 0;
}

void write_all(int fd, const char* data, std::size_t n) {
  if (::write(fd, data, n) != static_cast<ssize_t>(n)) {
    std::perror("write to pipe");
    std::exit(2);
  }
}

// A read of 8 bytes from a pipe holding 3 completes short; finish() queues the other 5
// at the right place, and the second completion finishes the operation.
void short_read_is_resubmitted() {
  int p[2];
  if (::pipe(p) != 0) std::exit(2);
  howfast::Ring ring(8, "pipe");
  char buf[8] = {};
  howfast::UringOp op;
  op.kind = howfast::UringOp::Read;
  op.fd = p[0];
  op.data = reinterpret_cast<unsigned char*>(buf);
  op.len = 8;
  op.user_data = 42;
  write_all(p[1], "abc", 3);
  ring.queue(op);
  check(ring.queued() == 1, "queue() prepares one operation");
  check(ring.submit() == 1, "submit() hands it to the kernel");
  howfast::Completion c = ring.wait();
  check(c.user_data == 42 && c.res == 3, "the first read returns the 3 bytes the pipe holds");
  check(!ring.finish(op, c.res, "read"), "a short read is not done");
  check(op.len == 5 && op.data == reinterpret_cast<unsigned char*>(buf) + 3, "the rest starts after the 3 bytes");
  check(ring.queued() == 1, "the rest is queued again");
  write_all(p[1], "defgh", 5);
  ring.submit();
  c = ring.wait();
  check(c.res == 5 && ring.finish(op, c.res, "read"), "the rest completes the read");
  check(std::memcmp(buf, "abcdefgh", 8) == 0, "the bytes land in order");
  howfast::Completion none;
  check(!ring.peek(&none), "nothing else completes");
  ::close(p[0]);
  ::close(p[1]);
}

void eagain_is_resubmitted_and_errors_throw() {
  howfast::Ring ring(8, "ctx");
  unsigned char byte = 0;
  howfast::UringOp op;
  op.kind = howfast::UringOp::Write;
  op.fd = -1;
  op.data = &byte;
  op.len = 1;
  op.offset = 4096;
  check(!ring.finish(op, -EAGAIN, "write"), "-EAGAIN: not done");
  check(ring.queued() == 1 && op.len == 1 && op.offset == 4096, "-EAGAIN: the same operation queued again");
  check(thrown_errno([&] { ring.finish(op, -EIO, "write"); }) == EIO, "-EIO throws SysError(EIO)");
  check(thrown_errno([&] { ring.finish(op, 0, "write"); }) == EIO, "a write of nothing throws EIO");
  std::string message;
  try {
    ring.finish(op, -ENOSPC, "the write");
  } catch (const howfast::SysError& e) {
    message = e.what() + std::string(" | ") + e.path();
  }
  check(message.find("the write at offset 4096") != std::string::npos && message.find("| ctx") != std::string::npos,
        "the error names the operation, its offset and the context");
  howfast::UringOp sync;
  sync.kind = howfast::UringOp::Fsync;
  check(ring.finish(sync, 0, "fsync"), "an fsync that returns 0 is done");
  ring.drain(1);  // the queued retry (on fd -1) completes with an error; drain waits for it
}

void nop_round_trip() {
  howfast::Ring ring(2, "nop");
  howfast::UringOp nop;
  nop.user_data = 7;
  for (int i = 0; i < 3; ++i) ring.queue(nop);  // the third finds the queue full: submitted first
  ring.submit();
  int seen = 0;
  for (int i = 0; i < 3; ++i) seen += ring.wait().user_data == 7 ? 1 : 0;
  check(seen == 3, "three NOPs through a 2-entry ring");
}

}  // namespace

int main() {
  if (thrown_errno([] { howfast::Ring probe(2, "probe"); }) != 0) {
    std::puts("SKIP: io_uring unavailable");
    return 77;
  }
  short_read_is_resubmitted();
  eagain_is_resubmitted_and_errors_throw();
  nop_round_trip();
  if (failures == 0) std::puts("OK");
  return failures == 0 ? 0 : 1;
}
