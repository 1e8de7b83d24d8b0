#include "probes/probes.hpp"

#include <cstring>
#include <fstream>
#include <memory>

#include "common/errors.hpp"
#include "common/uring.hpp"

namespace howfast {

#ifdef HOWFAST_HAVE_LIBURING
namespace {

std::string io_uring_disabled_setting() {
  std::ifstream in("/proc/sys/kernel/io_uring_disabled");
  std::string value;
  if (in >> value) return value;
  return "";
}

std::string setup_failure(int err) {
  std::string reason = std::string("io_uring_queue_init failed: ") + std::strerror(err);
  const std::string disabled = io_uring_disabled_setting();
  if (!disabled.empty() && disabled != "0")
    reason += " (kernel.io_uring_disabled = " + disabled + ")";
  else if (err == EPERM || err == ENOSYS)
    reason += " (a seccomp policy or an old kernel blocks io_uring)";
  return reason;
}

// A ring that opens may still refuse work: submit one NOP and wait for it.
void nop_round_trip(Ring& ring, IoUringProbe& probe) {
  try {
    ring.queue(UringOp{});
    ring.submit();
    const Completion c = ring.wait();
    if (c.res < 0) {
      probe.reason = std::string("io_uring NOP completed with error: ") + std::strerror(-c.res);
      return;
    }
  } catch (const SysError& e) {
    probe.reason = std::string("io_uring NOP failed: ") + std::strerror(e.err());
    return;
  }
  probe.supported = true;
  probe.reason = "io_uring_queue_init and a NOP round trip succeeded";
}

}  // namespace
#endif

IoUringProbe probe_io_uring() {
  IoUringProbe probe;
#ifndef HOWFAST_HAVE_LIBURING
  probe.reason = "the native module was built without liburing (install liburing-dev and reinstall ./native)";
  return probe;
#else
  probe.liburing_version = HOWFAST_LIBURING_VERSION;
  std::unique_ptr<Ring> ring;
  try {
    ring = std::make_unique<Ring>(8, "probe_io_uring");
  } catch (const SysError& e) {
    probe.reason = setup_failure(e.err());
    return probe;
  }
  nop_round_trip(*ring, probe);
  return probe;
#endif
}

}  // namespace howfast
