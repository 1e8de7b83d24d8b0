#include "fsync/fsync.hpp"

#include <fcntl.h>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace howfast {

namespace {

constexpr int64_t kMaxBlock = 256ll << 20;     // 256 MiB per write
constexpr int64_t kMaxOps = 10'000'000;        // latency arrays stay under 80 MB each

void sync_fd(const Fd& fd, SyncMode mode) {
  if (mode == SyncMode::Fsync) fd.fsync();
  if (mode == SyncMode::Fdatasync) fd.fdatasync();
}

// Writes every block once and syncs, so an overwrite run rewrites allocated, written
// blocks (no extent conversion, no size change) rather than growing the file.
void prewrite(const std::string& path, unsigned char* buf, uint64_t block, uint64_t count) {
  Fd fd(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  for (uint64_t i = 0; i < count; ++i) {
    stamp_block(buf, block, i);
    pwrite_full(fd, buf, block, static_cast<off_t>(i * block));
  }
  fd.fsync();
  fd.close();
}

}  // namespace

SyncMode parse_sync_mode(const std::string& name) {
  if (name == "none") return SyncMode::None;
  if (name == "fsync") return SyncMode::Fsync;
  if (name == "fdatasync") return SyncMode::Fdatasync;
  if (name == "dsync") return SyncMode::Dsync;
  throw std::invalid_argument("sync must be one of 'none', 'fsync', 'fdatasync', 'dsync'; got '" + name + "'");
}

Layout parse_layout(const std::string& name) {
  if (name == "append") return Layout::Append;
  if (name == "overwrite") return Layout::Overwrite;
  throw std::invalid_argument("layout must be 'append' or 'overwrite'; got '" + name + "'");
}

DurableWriteResult durable_writes(const DurableWriteConfig& c, Poller& poller) {
  const uint64_t block = require_positive(c.block_size, "block_size", kMaxBlock);
  const uint64_t count = require_positive(c.count, "count", kMaxOps);
  const std::string dir = parent_directory(c.path);
  require_directory(dir, "path");
  require_space(dir, block * count, "count * block_size");

  DurableWriteResult r;
  if (c.direct) {
    r.alignment = direct_io_alignment(dir);
    require(block % static_cast<uint64_t>(r.alignment) == 0,
            "block_size " + std::to_string(block) + " is not a multiple of " + std::to_string(r.alignment) +
                ", the smallest O_DIRECT write this filesystem accepts");
  }

  AlignedBuffer buf(block, 4096);
  fill_pattern(buf.data(), block, c.seed);
  r.latency_ns.assign(count, 0);
  r.sync_ns.assign(count, 0);

  int flags = O_WRONLY;
  if (c.layout == Layout::Overwrite) {
    prewrite(c.path, buf.data(), block, count);
  } else {
    flags |= O_CREAT | O_EXCL;
  }
  if (c.direct) flags |= O_DIRECT;
  if (c.sync == SyncMode::Dsync) flags |= O_DSYNC;
  Fd fd(c.path, flags, 0644);

  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < count; ++i) {
    stamp_block(buf.data(), block, i);
    const uint64_t t0 = now_ns();
    pwrite_full(fd, buf.data(), block, static_cast<off_t>(i * block));
    const uint64_t t1 = now_ns();
    sync_fd(fd, c.sync);
    const uint64_t t2 = now_ns();
    r.latency_ns[i] = t2 - t0;
    r.sync_ns[i] = (c.sync == SyncMode::Fsync || c.sync == SyncMode::Fdatasync) ? t2 - t1 : 0;
    poller.maybe(t2);
  }
  r.elapsed_ns = now_ns() - start;
  r.bytes = block * count;
  fd.close();  // outside the timed part; a write-back error surfaces here
  return r;
}

GroupCommitResult group_commit(const GroupCommitConfig& c, Poller& poller) {
  const uint64_t record = require_positive(c.record_size, "record_size", kMaxBlock);
  const uint64_t per_sync = require_positive(c.records_per_sync, "records_per_sync", kMaxOps);
  const uint64_t syncs = require_positive(c.syncs, "syncs", kMaxOps);
  require(c.sync == SyncMode::Fsync || c.sync == SyncMode::Fdatasync,
          "group commit needs sync='fsync' or 'fdatasync' (one sync per batch)");
  require(per_sync <= kMaxOps / syncs, "records_per_sync * syncs must be at most " + std::to_string(kMaxOps));
  const std::string dir = parent_directory(c.path);
  require_directory(dir, "path");
  require_space(dir, record * per_sync * syncs, "record_size * records_per_sync * syncs");

  AlignedBuffer buf(record, 4096);
  fill_pattern(buf.data(), record, c.seed);
  GroupCommitResult r;
  r.batch_ns.assign(syncs, 0);
  Fd fd(c.path, O_WRONLY | O_CREAT | O_EXCL, 0644);

  uint64_t index = 0;
  const uint64_t start = now_ns();
  for (uint64_t b = 0; b < syncs; ++b) {
    const uint64_t t0 = now_ns();
    for (uint64_t k = 0; k < per_sync; ++k, ++index) {
      stamp_block(buf.data(), record, index);
      pwrite_full(fd, buf.data(), record, static_cast<off_t>(index * record));
    }
    sync_fd(fd, c.sync);
    const uint64_t t1 = now_ns();
    r.batch_ns[b] = t1 - t0;
    poller.maybe(t1);
  }
  r.elapsed_ns = now_ns() - start;
  r.records = index;
  r.bytes = index * record;
  fd.close();  // outside the timed part
  return r;
}

}  // namespace howfast
