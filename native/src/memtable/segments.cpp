// Segment files: made ahead by a helper thread (open, fallocate, directory fsync; see
// segment_preparer.hpp), found by id, synced when written without O_DSYNC, closed once
// nothing is in flight.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "common/errors.hpp"
#include "memtable/impl.hpp"

namespace howfast {

Memtable::Impl::Segment* Memtable::Impl::find_segment(uint64_t id) {
  for (Segment& s : segs)
    if (s.id == id) return &s;
  return nullptr;
}

PreparedSegment Memtable::Impl::create_segment_file(uint64_t id) {
  const uint64_t t0 = now_ns();
  PreparedSegment p;
  p.id = id;
  p.path = join(cfg.dir, segment_name(id));
  int flags = O_WRONLY | O_CREAT | O_EXCL;
  if (cfg.direct) flags |= O_DIRECT;
  if (cfg.dsync) flags |= O_DSYNC;
  p.fd = std::make_unique<Fd>(p.path, flags, 0644);
  if (rec) rec->create(p.path, cfg.dsync);
  {
    std::lock_guard<std::mutex> lock(files_mu);
    created.push_back(p.path);
  }
  // With io_uring, every slot is preallocated, so flushes in flight write inside the file:
  // O_DIRECT writes that grow a file are serialized by ext4 (fio, 64 KiB at depth 32 on
  // this project's VM: about 2.0 GB/s preallocated, 0.4 GB/s appending). The blocking
  // flush has one write in flight and appends, as the seed's Go memtable does: writing
  // into preallocated (unwritten) blocks makes the file system convert them at every
  // write, which cost a 64 KiB write about 70 us more there. The header is written with
  // the first flush (see Buffer).
  if (cfg.flush == FlushMode::IoUring) {
    const off_t size = static_cast<off_t>(kSegmentHeader + slots * C);
    if (::fallocate(p.fd->get(), 0, 0, size) != 0 && errno != EOPNOTSUPP && errno != ENOSYS)
      throw_errno("fallocate " + std::to_string(size) + " bytes", p.path);
    if (rec) rec->fallocate(p.path, static_cast<uint64_t>(size));
  }
  if (durable) recorded_dir_fsync(rec.get(), *dir_fd);  // the new name must survive a crash too
  else names_unsynced.store(true);  // flush() fsyncs the directory (sync_dirty)
  p.make_ns = now_ns() - t0;
  segments_prepared.fetch_add(1, std::memory_order_relaxed);
  segment_prepare_ns.fetch_add(p.make_ns, std::memory_order_relaxed);
  return p;
}

// A file made ahead and never written holds nothing, and recover() removes such files;
// the preparer is still stopped and its files removed before the memtable goes.
void Memtable::Impl::start_preparer(uint64_t first) {
  preparer = std::make_unique<SegmentPreparer>([this](uint64_t id) { return create_segment_file(id); }, first,
                                               static_cast<uint64_t>(cfg.segments_ahead));
}

void Memtable::Impl::discard_prepared() noexcept {
  if (!preparer) return;
  try {
    for (PreparedSegment& p : preparer->stop()) {
      p.fd.reset();
      ::unlink(p.path.c_str());  // best effort (noexcept): an empty file left behind holds nothing
      if (rec) rec->unlink(p.path);
    }
  } catch (...) {
    // an empty file left behind holds nothing, and recover() removes it
  }
}

Memtable::Impl::Segment& Memtable::Impl::segment_for(uint64_t gen) {
  const uint64_t id = segment_of(gen);
  if (Segment* s = find_segment(id)) return *s;
  const uint64_t t0 = now_ns();
  PreparedSegment p = preparer->take(id);  // rethrows what the helper ran into
  Segment s;
  s.id = p.id;
  s.path = std::move(p.path);
  s.fd = std::move(p.fd);
  const uint64_t waited = now_ns() - t0;
  if (segments.fetch_add(1, std::memory_order_relaxed) > 0) rollover_wait_ns.fetch_add(waited, std::memory_order_relaxed);
  segment_create_ns.fetch_add(waited, std::memory_order_relaxed);
  segs.push_back(std::move(s));
  return segs.back();
}

void Memtable::Impl::close_idle_segments() {
  for (std::size_t i = 0; i + 1 < segs.size(); ++i) {
    Segment& s = segs[i];
    if (s.fd && s.inflight == 0 && !s.dirty) s.fd.reset();
  }
  while (segs.size() > 1 && !segs.front().fd) segs.pop_front();
}

void Memtable::Impl::sync_dirty() {
  for (Segment& s : segs) {
    if (s.dirty && s.fd) {
      recorded_fdatasync(rec.get(), *s.fd);
      s.dirty = false;
    }
  }
  if (names_unsynced.exchange(false)) recorded_dir_fsync(rec.get(), *dir_fd);  // the segments' names
  close_idle_segments();
}

}  // namespace howfast
