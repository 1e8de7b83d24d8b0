#include "probes/probes.hpp"

#include <cstring>
#include <fstream>

#ifdef HOWFAST_HAVE_LIBURING
#include <liburing.h>
#endif

namespace howfast {

namespace {
std::string io_uring_disabled_setting() {
  std::ifstream in("/proc/sys/kernel/io_uring_disabled");
  std::string value;
  if (in >> value) return value;
  return "";
}
}  // namespace

IoUringProbe probe_io_uring() {
  IoUringProbe probe;
#ifndef HOWFAST_HAVE_LIBURING
  probe.reason = "the native module was built without liburing (install liburing-dev and reinstall ./native)";
  return probe;
#else
  probe.liburing_version = HOWFAST_LIBURING_VERSION;
  io_uring ring{};
  int ret = io_uring_queue_init(8, &ring, 0);
  if (ret < 0) {
    probe.reason = std::string("io_uring_queue_init failed: ") + std::strerror(-ret);
    const std::string disabled = io_uring_disabled_setting();
    if (!disabled.empty() && disabled != "0")
      probe.reason += " (kernel.io_uring_disabled = " + disabled + ")";
    else if (-ret == EPERM || -ret == ENOSYS)
      probe.reason += " (a seccomp policy or an old kernel blocks io_uring)";
    return probe;
  }
  // A ring that opens may still refuse work: submit one NOP and wait for it.
  io_uring_sqe* sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  ret = io_uring_submit(&ring);
  io_uring_cqe* cqe = nullptr;
  if (ret == 1) ret = io_uring_wait_cqe(&ring, &cqe);
  if (ret < 0) {
    probe.reason = std::string("io_uring NOP failed: ") + std::strerror(-ret);
  } else if (cqe != nullptr && cqe->res < 0) {
    probe.reason = std::string("io_uring NOP completed with error: ") + std::strerror(-cqe->res);
  } else {
    probe.supported = true;
    probe.reason = "io_uring_queue_init and a NOP round trip succeeded";
  }
  if (cqe != nullptr) io_uring_cqe_seen(&ring, cqe);
  io_uring_queue_exit(&ring);
  return probe;
#endif
}

}  // namespace howfast
