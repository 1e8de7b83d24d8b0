// The public Memtable calls: they check arguments, hand requests to the writer and wait.
#include "memtable/memtable.hpp"

#include <fcntl.h>

#include "common/errors.hpp"
#include "memtable/impl.hpp"

namespace howfast {

FlushMode parse_flush_mode(const std::string& name) {
  if (name == "blocking") return FlushMode::Blocking;
  if (name == "io_uring") return FlushMode::IoUring;
  throw std::invalid_argument("flush must be 'blocking' or 'io_uring'; got '" + name + "'");
}

// ---- Memtable ----------------------------------------------------------------------------

Memtable::Memtable(const MemtableConfig& config) : impl_(std::make_unique<Impl>(config, nullptr)) {}
Memtable::Memtable(const MemtableConfig& config, RecoveryScan* scan) : impl_(std::make_unique<Impl>(config, scan)) {}

Memtable::~Memtable() {
  if (!impl_->closed.load()) {
    try {
      close();
    } catch (...) {
      abort();
    }
  }
}

namespace {
[[noreturn]] void throw_unavailable(const Memtable::Impl& impl) {
  if (std::exception_ptr e = impl.error()) std::rethrow_exception(e);
  throw std::invalid_argument("the memtable is closed");
}
}  // namespace

static void check_entry(uint64_t C, uint64_t max_record, std::size_t key_len, std::size_t value_len) {
  require(key_len >= 1 && key_len <= kMaxKey,
          "key must be 1 to " + std::to_string(kMaxKey) + " bytes, got " + std::to_string(key_len));
  require(value_len <= C, "record (value of " + std::to_string(value_len) +
                              " bytes) is larger than the memtable capacity " + std::to_string(C));
  const uint64_t len = framed_size(key_len, value_len);
  require(len <= C, "record of " + std::to_string(len) + " bytes (32-byte header, key, value) is larger than "
                        "the memtable capacity " + std::to_string(C));
  require(len <= max_record, "record of " + std::to_string(len) + " bytes (32-byte header, key, value) is larger "
                                 "than record_size " + std::to_string(max_record));
}

void Memtable::put(const unsigned char* key, std::size_t key_len, const unsigned char* value, std::size_t value_len) {
  put_many({Entry{key, key_len, value, value_len}});
}

void Memtable::put_many(const std::vector<Entry>& entries) {
  for (const Entry& e : entries) check_entry(impl_->C, impl_->max_record, e.key_len, e.value_len);
  if (impl_->closed.load()) throw_unavailable(*impl_);
  if (entries.empty()) return;
  Waiter waiter(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    Request r;
    r.kind = Request::Put;
    r.key = entries[i].key;
    r.key_len = static_cast<uint32_t>(entries[i].key_len);
    r.value = entries[i].value;
    r.value_len = static_cast<uint32_t>(entries[i].value_len);
    r.body = body_hash(r.key, r.key_len, r.value, r.value_len);  // here, not on the writer
    r.hashed = true;
    r.waiter = &waiter;
    if (!impl_->submit(r)) {
      std::exception_ptr e = impl_->error();
      waiter.fail(e ? e : closed_error(), entries.size() - i);
      break;
    }
  }
  waiter.wait();
}

bool Memtable::get(const unsigned char* key, std::size_t key_len, std::string* value) const {
  require(key_len >= 1 && key_len <= kMaxKey,
          "key must be 1 to " + std::to_string(kMaxKey) + " bytes, got " + std::to_string(key_len));
  Impl& m = *impl_;
  Location loc;
  {
    std::lock_guard<std::mutex> lock(m.index_mu);
    const Location* found = m.index.find(key, static_cast<uint32_t>(key_len));
    if (found == nullptr) return false;
    loc = *found;
    if (loc.segment >= m.base_segment) {
      const uint64_t rel = loc.offset - kSegmentHeader;
      const uint64_t gen = (loc.segment - m.base_segment) * m.slots + rel / m.C;
      for (const auto& b : m.bufs) {
        if (b->state != Impl::Buffer::Free && b->gen == gen) {
          const unsigned char* p = b->data() + rel % m.C;
          const RecordHeader h = read_header(p);
          value->assign(reinterpret_cast<const char*>(p + kRecordHeader + h.key_len), h.value_len);
          return true;
        }
      }
    }
  }
  // Flushed: segment files are never rewritten, so read without the lock.
  const std::string path = join(m.cfg.dir, segment_name(loc.segment));
  Fd fd(path, O_RDONLY);
  std::vector<unsigned char> buf(loc.length);
  pread_full(fd, buf.data(), loc.length, static_cast<off_t>(loc.offset));
  if (check_record(buf.data(), loc.length) != loc.length)
    throw_error(EIO, "the record at offset " + std::to_string(loc.offset) + " failed its checksum", path);
  const RecordHeader h = read_header(buf.data());
  value->assign(reinterpret_cast<const char*>(buf.data() + kRecordHeader + h.key_len), h.value_len);
  return true;
}

namespace {
void run_control(Memtable::Impl& m, Request::Kind kind, Poller* poller) {
  if (m.closed.load()) throw_unavailable(m);
  Waiter waiter(1);
  Request r;
  r.kind = kind;
  r.waiter = &waiter;
  if (!m.submit(r)) throw_unavailable(m);
  if (poller == nullptr) {
    waiter.wait();
    return;
  }
  try {
    while (!waiter.wait_for(50'000'000)) poller->maybe(now_ns());
  } catch (...) {
    // Ctrl-C: stop the writer before `waiter` goes out of scope (it still points to it)
    m.closed.store(true);
    m.stop_writer(false);
    throw;
  }
}
}  // namespace

void Memtable::flush() { run_control(*impl_, Request::Flush, nullptr); }

void Memtable::drain(Poller& poller) { run_control(*impl_, Request::Drain, &poller); }

void Memtable::close() {
  if (impl_->closed.exchange(true)) return;
  std::exception_ptr failed;
  try {
    Waiter waiter(1);
    Request r;
    r.kind = Request::Flush;
    r.waiter = &waiter;
    if (!impl_->submit(r)) throw_unavailable(*impl_);
    waiter.wait();
  } catch (...) {
    failed = std::current_exception();
  }
  impl_->stop_writer(true);
  impl_->discard_prepared();
  if (failed) std::rethrow_exception(failed);
}

void Memtable::abort() noexcept {
  impl_->closed.store(true);
  impl_->stop_writer(false);
}

bool Memtable::submit(const Request& request) { return impl_->submit(request); }

void Memtable::set_latency_sink(uint64_t* sink, std::size_t size, std::vector<uint64_t>* flush_ns) {
  impl_->sink = sink;
  impl_->sink_size = size;
  impl_->flush_ns = flush_ns;
}

void Memtable::set_counters(bool on) { impl_->counting.store(on, std::memory_order_relaxed); }

MemtableCounters Memtable::counters() const {
  std::lock_guard<std::mutex> lock(impl_->published_mu);
  return impl_->published;
}

void Memtable::reserve(std::size_t keys, std::size_t key_bytes) {
  std::lock_guard<std::mutex> lock(impl_->index_mu);
  impl_->index.reserve(keys, key_bytes);
}

MemtableStats Memtable::stats() const {
  const Impl& m = *impl_;
  MemtableStats s = m.recovery;
  s.records = m.records.load();
  {
    std::lock_guard<std::mutex> lock(m.index_mu);
    s.keys = m.index.size();
  }
  s.flushes = m.flushes.load();
  s.segment_bytes = m.segment_bytes.load();
  s.segments = m.segments.load();
  s.wal_bytes = m.wal_bytes.load();
  s.wal_syncs = m.wal_syncs.load();
  s.wal_files = m.wal_files.load();
  s.stall_ns = m.stall_ns.load();
  s.segment_create_ns = m.segment_create_ns.load();
  s.rollover_wait_ns = m.rollover_wait_ns.load();
  s.segments_prepared = m.segments_prepared.load();
  s.segment_prepare_ns = m.segment_prepare_ns.load();
  s.idle_ns = m.queue.idle_ns();
  s.submit_ns = m.submit_ns.load();
  s.first_flush_at_ns = m.first_flush_at_ns.load();
  s.buffers = m.bufs.size();
  s.fixed_buffers = m.fixed;
  return s;
}

std::vector<std::string> Memtable::keys() const {
  std::vector<std::string> out;
  std::lock_guard<std::mutex> lock(impl_->index_mu);
  out.reserve(impl_->index.size());
  impl_->index.for_each([&](const unsigned char* k, uint32_t len, const Location&) {
    out.emplace_back(reinterpret_cast<const char*>(k), len);
  });
  return out;
}

IoRecord Memtable::io_record() const {
  require(impl_->rec != nullptr, "this memtable records no I/O: open it with record_io=True");
  return impl_->rec->snapshot();
}

std::vector<std::string> Memtable::files() const {
  std::lock_guard<std::mutex> lock(impl_->files_mu);
  std::vector<std::string> out = impl_->created;
  return out;
}


}  // namespace howfast
