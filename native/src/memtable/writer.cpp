// The writer thread: it takes requests from the queue, encodes records into the active
// buffer, appends each group to the log (one fdatasync), updates the index, acknowledges,
// and seals a full buffer into a flush (blocking or io_uring).
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cstring>

#include "common/errors.hpp"
#include "common/system.hpp"
#include "memtable/impl.hpp"

namespace howfast {

Memtable::Impl::Impl(const MemtableConfig& c, RecoveryScan* scan)
    : cfg((check_memtable_config(c), c)), queue(queue_capacity_of(c)) {  // checked before the queue is made
  const int64_t nbuf = check_config();
  require(!cfg.record_io || scan == nullptr, "record_io is for a new memtable only, not for recover()");
  if (cfg.record_io) rec = std::make_unique<IoRecorder>();
  check_directory(scan, nbuf);
  open_files(scan);
  for (int64_t i = 0; i < nbuf; ++i) bufs.push_back(std::make_unique<Buffer>(C, static_cast<int>(i)));
  pending.reserve(queue_capacity_of(cfg));
  active = bufs[0].get();
  active->state = Buffer::Active;
  active->gen = 0;
  start_preparer(base_segment);
  try {
    start();
  } catch (...) {
    discard_prepared();
    throw;
  }
}

// Checks the settings (ValueError) without allocating anything or touching a file, and
// returns the number of buffers. Called before any member that allocates is made.
int64_t check_memtable_config(const MemtableConfig& cfg) {
  require_directory(cfg.dir, "dir");
  const uint64_t C = require_positive(cfg.capacity, "capacity", kMaxCapacity);
  const uint64_t max_record = require_positive(cfg.record_size, "record_size", kMaxCapacity);
  require(max_record >= kMinRecord, "record_size must be at least " + std::to_string(kMinRecord) +
                                        " bytes (the 32-byte header and a 1-byte key, padded)");
  require(C >= max_record, "capacity " + std::to_string(C) + " is smaller than a record: record_size is " +
                               std::to_string(max_record) + " bytes");
  require(C % 8 == 0, "capacity must be a multiple of 8 bytes, got " + std::to_string(C));
  require_positive(cfg.queue_depth, "queue_depth", kMaxQueueDepth);
  require_positive(cfg.segment_bytes, "segment_bytes", kMaxSegmentBytes);
  require(cfg.segments_ahead >= 0 && cfg.segments_ahead <= kMaxSegmentsAhead,
          "segments_ahead must be 0 to " + std::to_string(kMaxSegmentsAhead) + ", got " +
              std::to_string(cfg.segments_ahead));
  const int64_t nbuf = cfg.buffers == 0 ? (cfg.flush == FlushMode::Blocking ? 1 : 2) : cfg.buffers;
  require(nbuf >= 1 && nbuf <= kMaxBuffers, "buffers must be 1 to " + std::to_string(kMaxBuffers) + ", got " +
                                                 std::to_string(cfg.buffers));
  require(cfg.flush == FlushMode::IoUring || nbuf == 1,
          "buffers must be 1 with flush='blocking' (it writes while the only buffer waits); got " +
              std::to_string(cfg.buffers));
  require(cfg.flush == FlushMode::Blocking || nbuf >= 2,
          "buffers must be at least 2 with flush='io_uring' (one fills while another is written); got " +
              std::to_string(cfg.buffers));
  require_memory(static_cast<uint64_t>(nbuf), C,
                 "buffers * capacity (" + std::to_string(nbuf) + " * " + std::to_string(C) + " bytes)");
  if (cfg.pin_cpu != -1) {
    const std::vector<int> cpus = allowed_cpus();
    require(cfg.pin_cpu >= 0 && std::find(cpus.begin(), cpus.end(), cfg.pin_cpu) != cpus.end(),
            "pin_cpu " + std::to_string(cfg.pin_cpu) + " is not a CPU this process may run on (-1 for no pinning)");
  }
  return nbuf;
}

int64_t Memtable::Impl::check_config() {
  const int64_t nbuf = check_memtable_config(cfg);
  C = static_cast<uint64_t>(cfg.capacity);
  max_record = static_cast<uint64_t>(cfg.record_size);
  return nbuf;
}

// The directory: no memtable files unless recovering, O_DIRECT alignment, room for a
// segment file.
void Memtable::Impl::check_directory(const RecoveryScan* scan, int64_t nbuf) {
  if (scan == nullptr) {
    const DirListing existing = list_memtable_files(cfg.dir);
    require(existing.segments.empty() && existing.wals.empty(),
            "dir: " + cfg.dir + " already holds memtable files; use recover() to continue them");
  }
  if (cfg.direct) {
    write_align = static_cast<uint64_t>(direct_io_alignment(cfg.dir));  // OSError without O_DIRECT
    require(C % write_align == 0, "capacity " + std::to_string(C) + " is not a multiple of " +
                                      std::to_string(write_align) +
                                      ", the smallest O_DIRECT write this filesystem accepts");
  }
  // At least one slot per buffer: the writer may run that many flushes ahead of the
  // disk, and should not need more than one new segment file meanwhile.
  slots = std::max<uint64_t>({1, static_cast<uint64_t>(cfg.segment_bytes) / C, static_cast<uint64_t>(nbuf)});
  const uint64_t files = 1 + static_cast<uint64_t>(cfg.segments_ahead);  // the one in use, and those made ahead
  require_space(cfg.dir, files * (kSegmentHeader + slots * C),
                std::to_string(files) + " segment files (" + std::to_string(slots) + " flushes each)");
  // With the log, records are acknowledged before any flush() and the log shrinks once
  // their segments are durable, so a new segment's name is fsynced as it is made. Without
  // it (O_DSYNC or not), nothing is durable before flush(), which fsyncs the directory
  // once for every file made since: a rollover then costs no directory fsync.
  durable = cfg.wal;
}

void Memtable::Impl::open_files(RecoveryScan* scan) {
  dir_fd = std::make_unique<Fd>(cfg.dir, O_RDONLY | O_DIRECTORY);
  if (scan != nullptr) {
    index = std::move(scan->index);
    next_seq = scan->max_seq + 1;
    base_segment = scan->next_segment;
  }
  if (cfg.wal) wal = std::make_unique<WriteAheadLog>(cfg.dir, scan ? scan->next_wal : 0, kWalRotateBytes,
                                                       dir_fd.get());
  if (wal) wal->set_recorder(rec.get());
}

Memtable::Impl::~Impl() {
  stop_writer(false);
  discard_prepared();  // created ahead, never written: it holds nothing
}

void Memtable::Impl::start() {
  std::promise<void> started;
  std::future<void> ready = started.get_future();
  writer = std::thread([this, &started] {
    if (cfg.pin_cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(static_cast<int>(cfg.pin_cpu), &set);
      const int err = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
      if (err != 0) {
        started.set_exception(std::make_exception_ptr(
            SysError(err, "pthread_setaffinity_np(cpu " + std::to_string(cfg.pin_cpu) + ")", "")));
        return;
      }
    }
    try {
      // The writer owns the ring: it creates it, submits and waits (Ring::SingleThread).
      if (cfg.flush == FlushMode::IoUring) init_uring();
    } catch (...) {
      started.set_exception(std::current_exception());
      return;
    }
    started.set_value();
    run();
  });
  try {
    ready.get();
  } catch (...) {
    writer.join();
    throw;
  }
}

void Memtable::Impl::stop_writer(bool graceful) noexcept {
  if (!stopped.exchange(true)) {
    std::vector<Request> left = queue.close();
    fail_requests(left.data(), left.size(), graceful ? closed_error() : [&] {
      std::exception_ptr e = error();
      return e ? e : std::make_exception_ptr(std::runtime_error("the memtable was aborted"));
    }());
  }
  if (writer.joinable()) writer.join();
}

void Memtable::Impl::fail_requests(Request* reqs, std::size_t n, std::exception_ptr e) {
  for (std::size_t i = 0; i < n; ++i)
    if (reqs[i].waiter) reqs[i].waiter->fail(e);
}

// The writer's CPU time and context switches (howfast::thread_usage): noted at its
// start, published into ctr at every flush/drain request (rare: not on the hot path).
void Memtable::Impl::thread_usage(bool start) {
  const ThreadUsage u = howfast::thread_usage();
  const uint64_t cpu = u.cpu_ns, vol = u.voluntary_switches, invol = u.involuntary_switches;
  if (start) {
    rusage_cpu0 = cpu, rusage_vol0 = vol, rusage_invol0 = invol;
  } else {
    ctr.cpu_ns = cpu - rusage_cpu0;
    ctr.voluntary_switches = vol - rusage_vol0;
    ctr.involuntary_switches = invol - rusage_invol0;
  }
}

void Memtable::Impl::run() {
  const std::size_t max_batch = queue_capacity_of(cfg);
  std::vector<Request> batch(max_batch);
  std::size_t n = 0, done = 0;
  try {
    thread_usage(true);
    for (;;) {
      const uint64_t t0 = tick(), idle0 = queue.idle_ns();
      n = queue.pop(batch.data(), max_batch);
      done = 0;
      if (n == 0) break;
      if (counting && t0 != 0) {  // t0 is 0 when the counters were switched on during this pop
        const uint64_t idle = queue.idle_ns() - idle0;  // the writer's own field: no race
        ctr.idle_ns += idle;
        ctr.handoff_ns += now_ns() - t0 - idle;
      }
      ++ctr.batches;
      process(batch.data(), n, &done);
    }
  } catch (...) {
    std::exception_ptr e = std::current_exception();
    {
      std::lock_guard<std::mutex> lock(failure_mu);
      failure = e;
    }
    fail_requests(batch.data() + done, n - done, e);
    std::vector<Request> left = queue.close();
    fail_requests(left.data(), left.size(), e);
  }
  // On a graceful stop nothing is in flight (close flushed); after an error or an abort,
  // let the kernel finish with the buffers before they can be freed.
  quiesce();
}

void Memtable::Impl::process(Request* batch, std::size_t n, std::size_t* done) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i;
    while (j < n && batch[j].kind == Request::Put) ++j;
    if (j > i) {
      ctr.batch_records += j - i;
      put_group(batch + i, j - i);
    }
    *done = j;  // acknowledged: from here on an error must not touch their waiters
    if (j < n) {
      control(batch[j]);
      ++j;
      *done = j;
    }
    const uint64_t t0 = tick();
    reap(false);  // completed flushes free their buffers and let the log shrink
    ctr.reap_ns += tick() - t0;
    i = j;
  }
}

void Memtable::Impl::wal_region(uint64_t start) {
  if (wal && active->used > start) {
    const uint64_t t0 = tick();
    store_fence();
    wal->write(active->data() + start, active->used - start, active->gen);
    wal_bytes.store(wal->bytes_written(), std::memory_order_relaxed);
    wal_files.store(wal->files_created(), std::memory_order_relaxed);
    ctr.log_ns += tick() - t0;
  }
}

void Memtable::Impl::put_group(Request* reqs, std::size_t n) {
  pending.clear();
  const uint64_t t0 = tick(), path0 = flush_path_ns, log0 = ctr.log_ns;
  uint64_t region = active->used;
  for (std::size_t i = 0; i < n; ++i) {
    Request& r = reqs[i];
    const unsigned char* key = r.key ? r.key : r.key_inline;
    const uint64_t len = framed_size(r.key_len, r.value_len);
    if (active->used + len > C) {
      wal_region(region);
      seal();
      region = 0;
    }
    Buffer* b = active;
    const uint64_t body = r.hashed ? r.body : body_hash(key, r.key_len, r.value, r.value_len);
    encode_record(b->data() + b->used, next_seq, key, r.key_len, r.value, r.value_len, body);
    pending.push_back({&r, key, Location{next_seq, segment_of(b->gen), slot_offset(b->gen) + b->used,
                                         static_cast<uint32_t>(len)}});
    ++next_seq;
    b->used += len;
    if (C - b->used < kMinRecord) {  // full: flush now rather than when the next record comes
      wal_region(region);
      seal();
      region = 0;
    }
  }
  wal_region(region);
  if (unsubmitted > 0) {  // the batch's flushes that still wait for company go now
    const uint64_t s0 = tick();
    submit_queued();
    const uint64_t spent = tick() - s0;
    flush_path_ns += spent;
    ctr.submit_ns += spent;
  }
  const uint64_t t1 = tick();
  if (wal) {
    wal->sync();  // group commit: one fdatasync for every record of the group
    wal_syncs.store(wal->syncs(), std::memory_order_relaxed);
    if (rec) rec->ack(next_seq - 1);
  }
  const uint64_t t2 = tick();
  {
    std::lock_guard<std::mutex> lock(index_mu);
    for (const Pending& p : pending) index.put(p.key, p.request->key_len, p.loc);
  }
  const uint64_t t3 = tick();
  records.fetch_add(n, std::memory_order_relaxed);
  const uint64_t now = now_ns();
  for (std::size_t i = 0; i < pending.size();) {
    Waiter* w = pending[i].request->waiter;
    std::size_t k = i + 1;
    if (w != nullptr) {
      while (k < pending.size() && pending[k].request->waiter == w) ++k;
      w->done(k - i);
    } else if (sink != nullptr && pending[i].request->id < sink_size) {
      sink[pending[i].request->id] = now - pending[i].request->submit_ns;
    }
    i = k;
  }
  if (counting) {
    // the flushes sealed and the log writes made inside the loop are counted on their own
    ctr.copy_ns += (t1 - t0) - (flush_path_ns - path0) - (ctr.log_ns - log0);
    ctr.log_ns += t2 - t1;
    ctr.index_ns += t3 - t2;
    ctr.ack_ns += now_ns() - t3;
  }
}

void Memtable::Impl::control(Request& r) {
  const uint64_t t0 = tick();
  if (active->used > 0) seal();
  wait_all();
  ctr.drain_ns += tick() - t0;
  if (r.kind == Request::Flush) {
    sync_dirty();
    if (wal) wal->retire(durable_gen());
    if (rec) rec->ack(next_seq - 1);
  }
  thread_usage(false);
  publish_counters();  // before done(): the caller reads them as soon as it wakes
  if (r.waiter) r.waiter->done();
}

// The counters as they stand, copied for counters() under published_mu: the live ones
// (ctr, the queue's wait counts) keep changing once the writer goes back to its queue.
void Memtable::Impl::publish_counters() {
  MemtableCounters c = ctr;
  c.writer_waits = queue.consumer_waits();
  c.producer_waits = queue.producer_waits();
  std::lock_guard<std::mutex> lock(published_mu);
  published = c;
}

void Memtable::Impl::seal() {
  const uint64_t t0 = tick();
  ++ctr.flushes;
  Buffer* b = active;
  const uint64_t len = align_up(b->used, write_align);
  if (len > b->used) std::memset(b->data() + b->used, 0, len - b->used);
  Segment& seg = segment_for(b->gen);
  b->segment = seg.id;
  if (b->gen % slots == 0) {  // the segment's first slot: its header goes along
    encode_segment_header(b->mem.data(), C, slots, seg.id);
    b->io = b->mem.data();
    b->offset = 0;
    b->len = kSegmentHeader + len;
  } else {
    b->io = b->data();
    b->offset = slot_offset(b->gen);
    b->len = len;
  }
  store_fence();  // the non-temporal stores of encode_record must be visible to the device
  b->written = 0;
  b->pending = 0;
  b->need_sync = cfg.wal && !cfg.dsync;  // the log may only shrink once the flush is durable
  b->sync_sent = false;
  b->synced = false;
  b->submit_ns = now_ns();
  if (first_flush_at_ns.load(std::memory_order_relaxed) == 0)
    first_flush_at_ns.store(b->submit_ns, std::memory_order_relaxed);  // only the writer stores
  if (!cfg.dsync && !b->need_sync) seg.dirty = true;
  ++seg.inflight;
  {
    std::lock_guard<std::mutex> lock(index_mu);
    b->state = Buffer::Flushing;
  }
  sealed_through = b->gen + 1;
  const uint64_t t1 = tick();
  if (cfg.flush == FlushMode::Blocking) flush_blocking(b, seg);
  else submit_flush(b);
  const uint64_t t2 = tick();
  active = acquire(b->gen + 1);
  if (counting) {
    const uint64_t t3 = now_ns();
    ctr.seal_ns += t1 - t0;
    ctr.submit_ns += t2 - t1;
    ctr.buffer_wait_ns += t3 - t2;
    flush_path_ns += t3 - t0;
  }
}

Memtable::Impl::Buffer* Memtable::Impl::acquire(uint64_t gen) {
  for (;;) {
    for (auto& b : bufs) {
      if (b->state == Buffer::Free) {
        std::lock_guard<std::mutex> lock(index_mu);
        b->state = Buffer::Active;
        b->gen = gen;
        b->used = 0;
        return b.get();
      }
    }
    const uint64_t t0 = now_ns();
    reap(true);
    stall_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
  }
}

uint64_t Memtable::Impl::durable_gen() const {
  uint64_t d = sealed_through;
  for (const auto& b : bufs)
    if (b->state == Buffer::Flushing) d = std::min(d, b->gen);
  return d;
}

void Memtable::Impl::complete(Buffer* b) {
  ctr.depth_sum += in_flight;     // io_uring flushes on their way, this one included
  if (in_flight > 0) --in_flight;  // (a blocking flush never counts)
  if (flush_ns != nullptr) flush_ns->push_back(now_ns() - b->submit_ns);
  flushes.fetch_add(1, std::memory_order_relaxed);
  segment_bytes.fetch_add(b->len, std::memory_order_relaxed);
  if (Segment* s = find_segment(b->segment)) --s->inflight;
  {
    std::lock_guard<std::mutex> lock(index_mu);
    b->state = Buffer::Free;
  }
  close_idle_segments();
  if (wal) wal->retire(durable_gen());
}

bool Memtable::Impl::submit(const Request& r) { return queue.push(r); }

}  // namespace howfast
