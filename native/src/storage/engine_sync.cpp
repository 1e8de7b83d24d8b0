// The synchronous engine: pread / pwrite, one I/O at a time (fio's psync).
#include <unistd.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "storage/storage.hpp"

namespace howfast {

void run_sync(const JobPlan& plan, JobResult& out) {
  const IoConfig& c = *plan.config;
  const uint64_t block = static_cast<uint64_t>(c.block_size);
  AlignedBuffer buf(block);
  fill_pattern(buf.data(), block, c.seed);
  std::vector<unsigned char> expected;
  const std::string& where = c.path;
  out.start_ns = now_ns();
  for (std::size_t i = 0; i < plan.offsets.size(); ++i) {
    if (plan.stop->load(std::memory_order_relaxed)) break;
    const uint64_t off = plan.offsets[i];
    if (plan.writes[i]) stamp_for_write(buf.data(), block, off, c.seed);
    const uint64_t t0 = now_ns();
    ssize_t n = plan.writes[i] ? ::pwrite(plan.fd, buf.data(), block, static_cast<off_t>(off))
                               : ::pread(plan.fd, buf.data(), block, static_cast<off_t>(off));
    if (n != static_cast<ssize_t>(block)) {
      if (n < 0) throw_errno(plan.writes[i] ? "pwrite" : "pread", where);
      throw_error(EIO, "short I/O at offset " + std::to_string(off), where);
    }
    if (plan.writes[i] && c.fsync && ::fsync(plan.fd) != 0) throw_errno("fsync", where);
    out.latency_ns[i] = now_ns() - t0;
    if (c.verify && !plan.writes[i] && !block_matches(buf.data(), block, off, c.seed, expected)) ++out.mismatches;
  }
  out.end_ns = now_ns();
}

}  // namespace howfast
