#include "memtable/memtable.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <deque>
#include <future>
#include <thread>
#include <unordered_map>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "memtable/memtable_format.hpp"
#include "memtable/memtable_index.hpp"
#include "memtable/wal.hpp"

#ifdef HOWFAST_HAVE_LIBURING
#include <liburing.h>
#endif

namespace howfast {

namespace {

constexpr int64_t kMaxCapacity = 1ll << 30;  // the seed sweeps up to 1 GiB
constexpr int64_t kMaxBuffers = 64;
constexpr uint64_t kWalRotateBytes = 64ull << 20;
// An io_uring flush is written in pieces of at most kPiece bytes, all submitted at once,
// each from its own registered (fixed) chunk of the buffer, so the kernel pins no pages
// per write. At 64 MiB with 8 buffers this took the flushes from about 1.9 to 2.4-2.8
// GB/s on this project's VM (unregistered before); a single 512 MiB write from a
// registered buffer had failed there with EIO (a kernel warning in __blk_rq_map_sg,
// Linux 6.18 / virtio-blk). The block layer cuts every write into requests of a few MiB
// anyway (max_sectors_kb).
constexpr uint64_t kPiece = 16ull << 20;

// Pieces (and registered chunks) covering `bytes` of a buffer from its start.
uint64_t pieces_for(uint64_t bytes) { return (bytes + kPiece - 1) / kPiece; }

uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

std::string join(const std::string& dir, const std::string& name) { return dir + "/" + name; }

// The memtable files in `dir`, by kind, sorted by id.
struct DirListing {
  std::vector<std::pair<uint64_t, std::string>> segments, wals;
};

DirListing list_memtable_files(const std::string& dir) {
  DirListing out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) throw_errno("opendir", dir);
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    uint64_t id = 0;
    const std::string name = e->d_name;
    if (parse_segment_name(name, &id)) out.segments.emplace_back(id, join(dir, name));
    else if (parse_wal_name(name, &id)) out.wals.emplace_back(id, join(dir, name));
  }
  const int err = errno;
  ::closedir(d);
  if (err != 0) throw_error(err, "readdir", dir);
  std::sort(out.segments.begin(), out.segments.end());
  std::sort(out.wals.begin(), out.wals.end());
  return out;
}

uint64_t file_size(const Fd& fd) {
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_errno("fstat", fd.path());
  return static_cast<uint64_t>(st.st_size);
}

// Reads a file through a window of a few MiB, so records are parsed in place.
class FileWindow {
 public:
  FileWindow(const Fd& fd, uint64_t size) : fd_(fd), size_(size) {}
  // [pos, pos + need) of the file, reading ahead no further than `limit`; nullptr past EOF.
  const unsigned char* at(uint64_t pos, uint64_t need, uint64_t limit) {
    if (pos >= start_ && pos + need <= start_ + len_) return buf_.data() + (pos - start_);
    if (pos + need > size_) return nullptr;
    uint64_t want = std::max<uint64_t>(need, std::min<uint64_t>(kWindow, limit > pos ? limit - pos : 0));
    want = std::min<uint64_t>(want, size_ - pos);
    if (buf_.size() < want) buf_.resize(want);
    pread_full(fd_, buf_.data(), want, static_cast<off_t>(pos));
    start_ = pos;
    len_ = want;
    return buf_.data();
  }

 private:
  static constexpr uint64_t kWindow = 4ull << 20;
  const Fd& fd_;
  uint64_t size_;
  std::vector<unsigned char> buf_;
  uint64_t start_ = 0, len_ = 0;
};

class RequestQueue {
 public:
  explicit RequestQueue(std::size_t capacity) : ring_(capacity) {}

  bool push(const Request& r) {
    std::unique_lock<std::mutex> lock(mu_);
    while (count_ == ring_.size() && !closed_) {
      ++waiting_producers_;
      not_full_.wait(lock);
      --waiting_producers_;
    }
    if (closed_) return false;
    ring_[(head_ + count_) % ring_.size()] = r;
    ++count_;
    if (consumer_waiting_) not_empty_.notify_one();
    return true;
  }

  // Up to `max` requests; blocks while empty; 0 once closed.
  std::size_t pop(Request* out, std::size_t max) {
    std::unique_lock<std::mutex> lock(mu_);
    if (count_ == 0 && !closed_) {
      const uint64_t t0 = now_ns();
      while (count_ == 0 && !closed_) {
        consumer_waiting_ = true;
        not_empty_.wait(lock);
        consumer_waiting_ = false;
      }
      idle_ns_ += now_ns() - t0;
    }
    if (closed_) return 0;
    const std::size_t n = std::min(count_, max);
    for (std::size_t i = 0; i < n; ++i) out[i] = ring_[(head_ + i) % ring_.size()];
    head_ = (head_ + n) % ring_.size();
    count_ -= n;
    if (waiting_producers_ > 0) not_full_.notify_all();
    return n;
  }

  // Closes the queue and returns what was still in it (for the caller to fail).
  std::vector<Request> close() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Request> left;
    for (std::size_t i = 0; i < count_; ++i) left.push_back(ring_[(head_ + i) % ring_.size()]);
    count_ = 0;
    closed_ = true;
    not_full_.notify_all();
    not_empty_.notify_all();
    return left;
  }

 private:
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::vector<Request> ring_;
  std::size_t head_ = 0, count_ = 0;
  bool closed_ = false;
  int waiting_producers_ = 0;
  bool consumer_waiting_ = false;

 public:
  uint64_t idle_ns_ = 0;  // the writer waited for requests (read after it stopped, or racy)
};

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &set)) cpus.push_back(i);
  return cpus;
}

uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

std::size_t queue_capacity_of(const MemtableConfig& c) {
  return static_cast<std::size_t>(std::max<int64_t>(c.queue_depth, 1));
}

std::exception_ptr closed_error() {
  return std::make_exception_ptr(std::invalid_argument("the memtable is closed"));
}

}  // namespace

// ---- what recover() finds on disk ------------------------------------------------------

struct OwnedRecord {
  std::string key, value;
  uint64_t seq;
};

struct RecoveryScan {
  KeyIndex index;
  uint64_t max_seq = 0;
  uint64_t next_segment = 0, next_wal = 0;
  std::vector<std::string> segment_paths, wal_paths;
  std::vector<OwnedRecord> replay;  // newest versions found only in the log, by seq
  uint64_t records = 0, torn = 0;
};

namespace {

RecoveryScan scan_directory(const std::string& dir) {
  RecoveryScan scan;
  const DirListing files = list_memtable_files(dir);
  std::vector<unsigned char> header(kSegmentHeader);
  for (const auto& [id, path] : files.segments) {
    scan.next_segment = std::max(scan.next_segment, id + 1);
    scan.segment_paths.push_back(path);
    Fd fd(path, O_RDONLY);
    const uint64_t size = file_size(fd);
    if (size < kSegmentHeader) continue;  // created, header never written: holds nothing
    pread_full(fd, header.data(), kSegmentHeader, 0);
    SegmentHeader h{};
    const HeaderState state = decode_segment_header(header.data(), &h);
    if (state == HeaderState::Empty) continue;
    require(state == HeaderState::Valid, "dir: " + path + " is not a memtable segment (its header is invalid)");
    FileWindow window(fd, size);
    for (uint64_t k = 0; k < h.slots; ++k) {
      const uint64_t slot = kSegmentHeader + k * h.capacity;
      if (slot >= size) break;
      const uint64_t end = std::min(slot + h.capacity, size);
      uint64_t p = slot;
      while (p + kRecordHeader <= end) {
        const unsigned char* hp = window.at(p, kRecordHeader, end);
        if (hp == nullptr) break;
        const RecordHeader rh = read_header(hp);
        if (rh.magic != kRecordMagic) break;  // zeros: the rest of the slot was never filled
        const uint64_t total = framed_size(rh.key_len, rh.value_len);
        const unsigned char* rp = total <= end - p ? window.at(p, total, end) : nullptr;
        if (rp == nullptr || check_record(rp, total) != total) {
          ++scan.torn;  // a flush that did not finish: nothing after it in this slot counts
          break;
        }
        scan.index.put(record_key(rp), rh.key_len, Location{rh.seq, id, p, static_cast<uint32_t>(total)});
        scan.max_seq = std::max(scan.max_seq, rh.seq);
        ++scan.records;
        p += total;
      }
    }
  }
  std::unordered_map<std::string, OwnedRecord> newest;
  for (const auto& [id, path] : files.wals) {
    scan.next_wal = std::max(scan.next_wal, id + 1);
    scan.wal_paths.push_back(path);
    Fd fd(path, O_RDONLY);
    const uint64_t size = file_size(fd);
    FileWindow window(fd, size);
    uint64_t p = 0;
    while (p < size) {
      const unsigned char* hp = window.at(p, kRecordHeader, size);
      const RecordHeader rh = hp ? read_header(hp) : RecordHeader{};
      const uint64_t total = hp ? framed_size(rh.key_len, rh.value_len) : 0;
      const unsigned char* rp = hp && rh.magic == kRecordMagic && total <= size - p ? window.at(p, total, size) : nullptr;
      if (rp == nullptr || check_record(rp, total) != total) {
        ++scan.torn;  // the log ends in a record that was being written: nothing after it counts
        break;
      }
      ++scan.records;
      scan.max_seq = std::max(scan.max_seq, rh.seq);
      const Location* in_segment = scan.index.find(record_key(rp), rh.key_len);
      if (in_segment == nullptr || in_segment->seq < rh.seq) {
        std::string key(reinterpret_cast<const char*>(record_key(rp)), rh.key_len);
        auto it = newest.find(key);
        if (it == newest.end() || it->second.seq < rh.seq) {
          OwnedRecord rec{key, std::string(reinterpret_cast<const char*>(rp + kRecordHeader + rh.key_len), rh.value_len),
                          rh.seq};
          newest[key] = std::move(rec);
        }
      }
      p += total;
    }
  }
  for (auto& kv : newest) scan.replay.push_back(std::move(kv.second));
  std::sort(scan.replay.begin(), scan.replay.end(),
            [](const OwnedRecord& a, const OwnedRecord& b) { return a.seq < b.seq; });
  return scan;
}

}  // namespace

// ---- Waiter ------------------------------------------------------------------------------

void Waiter::done(std::size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  remaining_ -= std::min(n, remaining_);
  if (remaining_ == 0) cv_.notify_all();
}

void Waiter::fail(std::exception_ptr error, std::size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!error_) error_ = error;
  remaining_ -= std::min(n, remaining_);
  if (remaining_ == 0) cv_.notify_all();
}

void Waiter::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return remaining_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

bool Waiter::wait_for(uint64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [&] { return remaining_ == 0; })) return false;
  if (error_) std::rethrow_exception(error_);
  return true;
}

FlushMode parse_flush_mode(const std::string& name) {
  if (name == "blocking") return FlushMode::Blocking;
  if (name == "io_uring") return FlushMode::IoUring;
  throw std::invalid_argument("flush must be 'blocking' or 'io_uring'; got '" + name + "'");
}

// ---- the writer ------------------------------------------------------------------------------

struct Memtable::Impl {
  struct Buffer {
    enum State { Free, Active, Flushing };
    // The first 4 KiB hold a segment header: the first flush into a segment writes the
    // header and the slot in one request, so no separate (and queued) header write exists.
    Buffer(std::size_t size, int i)
        : mem(kSegmentHeader + size, 4096), index(i), piece_written(pieces_for(kSegmentHeader + size)) {}
    unsigned char* data() noexcept { return mem.data() + kSegmentHeader; }
    const unsigned char* data() const noexcept { return mem.data() + kSegmentHeader; }
    AlignedBuffer mem;
    int index;
    unsigned char* io = nullptr;  // the flush writes [io, io + len) at `offset`
    // io_uring: bytes done of each piece of the flush. Piece k is the part of the flush
    // inside mem[k * kPiece, (k + 1) * kPiece), registered chunk k of this buffer.
    std::vector<uint64_t> piece_written;
    unsigned char* piece_begin(uint64_t k) noexcept { return std::max(io, mem.data() + k * kPiece); }
    uint64_t piece_size(uint64_t k) noexcept {
      unsigned char* end = std::min(io + len, mem.data() + (k + 1) * kPiece);
      return static_cast<uint64_t>(end - piece_begin(k));
    }
    uint64_t pieces() const noexcept { return pieces_for(static_cast<uint64_t>(io - mem.data()) + len); }
    State state = Free;
    uint64_t gen = 0;
    uint64_t used = 0;
    // the flush in progress
    uint64_t segment = 0, offset = 0, len = 0, written = 0, submit_ns = 0;
    int pending = 0;  // io_uring operations not yet completed
    bool need_sync = false, sync_sent = false, synced = false;
  };
  struct Segment {
    uint64_t id;
    std::string path;
    std::unique_ptr<Fd> fd;
    int inflight = 0;
    bool dirty = false;  // written without O_DSYNC and not fdatasync'ed yet
  };
  struct Prepared {
    uint64_t id = 0;
    std::string path;
    std::unique_ptr<Fd> fd;
  };
  struct Pending {
    const Request* request;
    const unsigned char* key;
    Location loc;
  };

  MemtableConfig cfg;
  uint64_t C = 0;
  uint64_t max_record = 0;
  uint64_t write_align = 8;
  uint64_t slots = 1;
  uint64_t base_segment = 0;
  bool durable = false;  // dsync or wal: created files' names are fsynced into the directory

  std::unique_ptr<Fd> dir_fd;
  std::vector<std::unique_ptr<Buffer>> bufs;
  Buffer* active = nullptr;
  uint64_t sealed_through = 0;  // generations below this were handed to a flush
  uint64_t next_seq = 1;
  std::deque<Segment> segs;
  // The next segment file, created ahead by a helper thread so no flush waits for
  // open + fallocate + header + directory fsync.
  std::future<Prepared> next_segment;
  uint64_t next_segment_id = 0;
  std::unique_ptr<WriteAheadLog> wal;
  std::vector<Pending> pending;

  mutable std::mutex index_mu;  // guards index, buffer states and contents read by get()
  KeyIndex index;

  RequestQueue queue;
  std::thread writer;
  std::atomic<bool> closed{false};
  std::atomic<bool> stopped{false};
  mutable std::mutex failure_mu;
  std::exception_ptr failure;

  mutable std::mutex files_mu;
  std::vector<std::string> created;

  uint64_t* sink = nullptr;
  std::size_t sink_size = 0;
  std::vector<uint64_t>* flush_ns = nullptr;

  std::atomic<uint64_t> records{0}, flushes{0}, segment_bytes{0}, segments{0}, wal_bytes{0}, wal_syncs{0},
      wal_files{0}, stall_ns{0}, segment_create_ns{0}, submit_ns{0}, first_flush_at_ns{0};
  MemtableStats recovery;

#ifdef HOWFAST_HAVE_LIBURING
  // Declared after the buffers, so the ring is torn down before they are freed, also
  // when the constructor throws.
  struct Ring {
    io_uring ring{};
    bool ok = false;
    ~Ring() {
      if (ok) io_uring_queue_exit(&ring);
    }
  } uring;
  io_uring& ring = uring.ring;
  bool& ring_ok = uring.ok;
  bool fixed = false;
  uint64_t chunks = 1;  // registered chunks (and flush pieces) per buffer
#endif

  Impl(const MemtableConfig& c, RecoveryScan* scan);
  ~Impl();

  void start();
  void run();
  void process(Request* batch, std::size_t n, std::size_t* done);
  void put_group(Request* reqs, std::size_t n);
  void control(Request& r);
  void wal_region(uint64_t start);
  void seal();
  Buffer* acquire(uint64_t gen);
  void complete(Buffer* b);
  void wait_all();
  void quiesce() noexcept;
  void sync_dirty();
  void close_idle_segments();
  uint64_t durable_gen() const;
  Segment& segment_for(uint64_t gen);
  Prepared create_segment_file(uint64_t id);
  void prepare_segment(uint64_t id);
  void discard_prepared() noexcept;
  Segment* find_segment(uint64_t id);
  uint64_t slot_offset(uint64_t gen) const { return kSegmentHeader + (gen % slots) * C; }
  uint64_t segment_of(uint64_t gen) const { return base_segment + gen / slots; }
  void submit_flush(Buffer* b);
  void submit_piece(Buffer* b, uint64_t piece);
  void submit_sync(Buffer* b);
  void submit_now(const std::string& path);
  void reap(bool wait);
  void handle_completion(uint64_t user_data, int res);
  void fail_requests(Request* reqs, std::size_t n, std::exception_ptr e);
  std::exception_ptr error() const {
    std::lock_guard<std::mutex> lock(failure_mu);
    return failure;
  }
  bool submit(const Request& r);
  void stop_writer(bool graceful) noexcept;
};

Memtable::Impl::Impl(const MemtableConfig& c, RecoveryScan* scan)
    : cfg(c), queue(queue_capacity_of(c)) {
  require_directory(cfg.dir, "dir");
  C = require_positive(cfg.capacity, "capacity", kMaxCapacity);
  max_record = require_positive(cfg.record_size, "record_size", kMaxCapacity);
  require(max_record >= kMinRecord, "record_size must be at least " + std::to_string(kMinRecord) +
                                        " bytes (the 32-byte header and a 1-byte key, padded)");
  require(C >= max_record, "capacity " + std::to_string(C) + " is smaller than a record: record_size is " +
                               std::to_string(max_record) + " bytes");
  require(C % 8 == 0, "capacity must be a multiple of 8 bytes, got " + std::to_string(C));
  require_positive(cfg.queue_depth, "queue_depth", 1 << 16);
  require_positive(cfg.segment_bytes, "segment_bytes", 1ll << 40);
  int64_t nbuf = cfg.buffers == 0 ? (cfg.flush == FlushMode::Blocking ? 1 : 2) : cfg.buffers;
  require(nbuf >= 1 && nbuf <= kMaxBuffers, "buffers must be 1 to " + std::to_string(kMaxBuffers) + ", got " +
                                                 std::to_string(cfg.buffers));
  require(cfg.flush == FlushMode::IoUring || nbuf == 1,
          "buffers must be 1 with flush='blocking' (it writes while the only buffer waits); got " +
              std::to_string(cfg.buffers));
  require(cfg.flush == FlushMode::Blocking || nbuf >= 2,
          "buffers must be at least 2 with flush='io_uring' (one fills while another is written); got " +
              std::to_string(cfg.buffers));
  const uint64_t memory = physical_memory();
  require(memory == 0 || static_cast<uint64_t>(nbuf) * C <= memory / 2,
          "buffers * capacity = " + std::to_string(static_cast<uint64_t>(nbuf) * C) +
              " bytes is more than half of this machine's memory (" + std::to_string(memory) + " bytes)");
  if (cfg.pin_cpu != -1) {
    const std::vector<int> cpus = allowed_cpus();
    require(cfg.pin_cpu >= 0 && std::find(cpus.begin(), cpus.end(), cfg.pin_cpu) != cpus.end(),
            "pin_cpu " + std::to_string(cfg.pin_cpu) + " is not a CPU this process may run on (-1 for no pinning)");
  }
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
  require_space(cfg.dir, kSegmentHeader + slots * C, "one segment file (" + std::to_string(slots) + " flushes)");
  durable = cfg.dsync || cfg.wal;

  dir_fd = std::make_unique<Fd>(cfg.dir, O_RDONLY | O_DIRECTORY);
  if (scan != nullptr) {
    index = std::move(scan->index);
    next_seq = scan->max_seq + 1;
    base_segment = scan->next_segment;
  }
  if (cfg.wal) wal = std::make_unique<WriteAheadLog>(cfg.dir, scan ? scan->next_wal : 0, kWalRotateBytes,
                                                       dir_fd.get());
  for (int64_t i = 0; i < nbuf; ++i) bufs.push_back(std::make_unique<Buffer>(C, static_cast<int>(i)));
  pending.reserve(queue_capacity_of(cfg));

  if (cfg.flush == FlushMode::IoUring) {
#ifdef HOWFAST_HAVE_LIBURING
    chunks = pieces_for(kSegmentHeader + C);
    unsigned entries = 8;
    while (entries < 4096 && entries < static_cast<uint64_t>(nbuf) * (chunks + 1) + 2) entries <<= 1;
    const int ret = io_uring_queue_init(entries, &ring, 0);
    if (ret < 0) throw_error(-ret, "io_uring_queue_init (flush='io_uring')");
    ring_ok = true;
    // Chunk k of buffer i is registered buffer i * chunks + k. Registering pins the pages
    // (RLIMIT_MEMLOCK for non-root); where it fails, the writes use plain memory.
    std::vector<iovec> iov;
    for (auto& b : bufs)
      for (uint64_t k = 0; k < chunks; ++k)
        iov.push_back({b->mem.data() + k * kPiece, std::min(kPiece, kSegmentHeader + C - k * kPiece)});
    fixed = io_uring_register_buffers(&ring, iov.data(), static_cast<unsigned>(iov.size())) == 0;
#else
    throw_error(ENOSYS, "flush='io_uring': the native module was built without liburing");
#endif
  }
  active = bufs[0].get();
  active->state = Buffer::Active;
  active->gen = 0;
  prepare_segment(base_segment);
  try {
    start();
  } catch (...) {
    discard_prepared();
    throw;
  }
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

void Memtable::Impl::run() {
  const std::size_t max_batch = queue_capacity_of(cfg);
  std::vector<Request> batch(max_batch);
  std::size_t n = 0, done = 0;
  try {
    for (;;) {
      n = queue.pop(batch.data(), max_batch);
      done = 0;
      if (n == 0) break;
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

void Memtable::Impl::quiesce() noexcept {
#ifdef HOWFAST_HAVE_LIBURING
  if (!ring_ok) return;
  for (;;) {
    int outstanding = 0;
    for (const auto& b : bufs) outstanding += b->pending;
    if (outstanding <= 0) return;
    io_uring_cqe* cqe = nullptr;
    const int ret = io_uring_wait_cqe(&ring, &cqe);
    if (ret == -EINTR) continue;
    if (ret < 0) return;
    const uint64_t index = cqe->user_data >> 32;
    io_uring_cqe_seen(&ring, cqe);
    if (index < bufs.size()) --bufs[index]->pending;
  }
#endif
}

void Memtable::Impl::process(Request* batch, std::size_t n, std::size_t* done) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i;
    while (j < n && batch[j].kind == Request::Put) ++j;
    if (j > i) put_group(batch + i, j - i);
    *done = j;  // acknowledged: from here on an error must not touch their waiters
    if (j < n) {
      control(batch[j]);
      ++j;
      *done = j;
    }
    reap(false);  // completed flushes free their buffers and let the log shrink
    i = j;
  }
}

void Memtable::Impl::wal_region(uint64_t start) {
  if (wal && active->used > start) {
    store_fence();
    wal->write(active->data() + start, active->used - start, active->gen);
    wal_bytes.store(wal->bytes_written(), std::memory_order_relaxed);
    wal_files.store(wal->files_created(), std::memory_order_relaxed);
  }
}

void Memtable::Impl::put_group(Request* reqs, std::size_t n) {
  pending.clear();
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
  if (wal) {
    wal->sync();  // group commit: one fdatasync for every record of the group
    wal_syncs.store(wal->syncs(), std::memory_order_relaxed);
  }
  {
    std::lock_guard<std::mutex> lock(index_mu);
    for (const Pending& p : pending) index.put(p.key, p.request->key_len, p.loc);
  }
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
}

void Memtable::Impl::control(Request& r) {
  if (active->used > 0) seal();
  wait_all();
  if (r.kind == Request::Flush) {
    sync_dirty();
    if (wal) wal->retire(durable_gen());
  }
  if (r.waiter) r.waiter->done();
}

Memtable::Impl::Segment* Memtable::Impl::find_segment(uint64_t id) {
  for (Segment& s : segs)
    if (s.id == id) return &s;
  return nullptr;
}

Memtable::Impl::Prepared Memtable::Impl::create_segment_file(uint64_t id) {
  Prepared p;
  p.id = id;
  p.path = join(cfg.dir, segment_name(id));
  int flags = O_WRONLY | O_CREAT | O_EXCL;
  if (cfg.direct) flags |= O_DIRECT;
  if (cfg.dsync) flags |= O_DSYNC;
  p.fd = std::make_unique<Fd>(p.path, flags, 0644);
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
  }
  if (durable) dir_fd->fsync();  // the new name must survive a crash too
  return p;
}

void Memtable::Impl::prepare_segment(uint64_t id) {
  next_segment_id = id;
  next_segment = std::async(std::launch::async, [this, id] { return create_segment_file(id); });
}

void Memtable::Impl::discard_prepared() noexcept {
  if (!next_segment.valid()) return;
  try {
    Prepared p = next_segment.get();
    p.fd.reset();
    ::unlink(p.path.c_str());
  } catch (...) {
  }
}

Memtable::Impl::Segment& Memtable::Impl::segment_for(uint64_t gen) {
  const uint64_t id = segment_of(gen);
  if (Segment* s = find_segment(id)) return *s;
  const uint64_t t0 = now_ns();
  Prepared p;
  if (next_segment.valid() && next_segment_id == id) {
    p = next_segment.get();  // rethrows what the helper ran into
  } else {
    discard_prepared();
    p = create_segment_file(id);
  }
  Segment s;
  s.id = p.id;
  s.path = std::move(p.path);
  s.fd = std::move(p.fd);
  segments.fetch_add(1, std::memory_order_relaxed);
  segment_create_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
  segs.push_back(std::move(s));
  prepare_segment(id + 1);
  return segs.back();
}

void Memtable::Impl::seal() {
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
  if (cfg.flush == FlushMode::Blocking) {
    pwrite_full(*seg.fd, b->io, b->len, static_cast<off_t>(b->offset));
    if (b->need_sync) seg.fd->fdatasync();
    b->written = b->len;
    b->synced = true;
    complete(b);
  } else {
    submit_flush(b);
  }
  active = acquire(b->gen + 1);
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
      s.fd->fdatasync();
      s.dirty = false;
    }
  }
  close_idle_segments();
}

void Memtable::Impl::wait_all() {
  if (cfg.flush == FlushMode::Blocking) return;  // a blocking flush finishes inside seal()
  for (;;) {
    bool busy = false;
    for (const auto& b : bufs) busy = busy || b->state == Buffer::Flushing;
    if (!busy) return;
    reap(true);
  }
}

// io_uring user_data: buffer index << 32 | piece << 1 | (1 for the fdatasync)
namespace {
uint64_t tag(int buffer, uint64_t piece, bool sync) {
  return (static_cast<uint64_t>(buffer) << 32) | (piece << 1) | (sync ? 1 : 0);
}
}  // namespace

#ifdef HOWFAST_HAVE_LIBURING
namespace {
io_uring_sqe* next_sqe(io_uring* ring) {
  io_uring_sqe* sqe = io_uring_get_sqe(ring);
  if (sqe == nullptr) {  // full: hand what is queued to the kernel, which frees the slots
    io_uring_submit(ring);
    sqe = io_uring_get_sqe(ring);
  }
  if (sqe == nullptr) throw_error(EBUSY, "io_uring submission queue full");
  return sqe;
}
}  // namespace
#endif

// A flush is written as pieces (see kPiece), all submitted at once; the fdatasync (log
// on, no O_DSYNC) follows once every piece has completed.
void Memtable::Impl::submit_flush(Buffer* b) {
  const uint64_t pieces = b->pieces();
  for (uint64_t p = 0; p < pieces; ++p) {
    b->piece_written[p] = 0;
    submit_piece(b, p);
  }
  submit_now(find_segment(b->segment)->path);
}

void Memtable::Impl::submit_piece(Buffer* b, uint64_t piece) {
#ifdef HOWFAST_HAVE_LIBURING
  const int fd = find_segment(b->segment)->fd->get();
  const uint64_t done = b->piece_written[piece];
  unsigned char* data = b->piece_begin(piece) + done;
  const unsigned n = static_cast<unsigned>(b->piece_size(piece) - done);
  const uint64_t offset = b->offset + static_cast<uint64_t>(data - b->io);
  io_uring_sqe* sqe = next_sqe(&ring);
  if (fixed) io_uring_prep_write_fixed(sqe, fd, data, n, offset, static_cast<int>(b->index * chunks + piece));
  else io_uring_prep_write(sqe, fd, data, n, offset);
  sqe->user_data = tag(b->index, piece, false);
  ++b->pending;
#else
  (void)b;
  (void)piece;
  throw_error(ENOSYS, "io_uring flush without liburing");
#endif
}

void Memtable::Impl::submit_sync(Buffer* b) {
#ifdef HOWFAST_HAVE_LIBURING
  io_uring_sqe* sqe = next_sqe(&ring);
  io_uring_prep_fsync(sqe, find_segment(b->segment)->fd->get(), IORING_FSYNC_DATASYNC);
  sqe->user_data = tag(b->index, 0, true);
  ++b->pending;
  b->sync_sent = true;
  submit_now(find_segment(b->segment)->path);
#else
  (void)b;
#endif
}

void Memtable::Impl::submit_now(const std::string& path) {
#ifdef HOWFAST_HAVE_LIBURING
  const uint64_t t0 = now_ns();
  int ret;
  do {
    ret = io_uring_submit(&ring);
  } while (ret == -EINTR || ret == -EAGAIN);
  submit_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
  if (ret < 0) throw_error(-ret, "io_uring_submit", path);
#else
  (void)path;
#endif
}

void Memtable::Impl::reap(bool wait) {
#ifdef HOWFAST_HAVE_LIBURING
  if (!ring_ok) return;
  for (;;) {
    io_uring_cqe* cqe = nullptr;
    const int ret = wait ? io_uring_wait_cqe(&ring, &cqe) : io_uring_peek_cqe(&ring, &cqe);
    if (ret == -EAGAIN && !wait) return;
    if (ret == -EINTR) continue;
    if (ret < 0) throw_error(-ret, "io_uring_wait_cqe");
    const uint64_t user_data = cqe->user_data;
    const int res = cqe->res;
    io_uring_cqe_seen(&ring, cqe);
    handle_completion(user_data, res);
    wait = false;  // then take whatever else has completed, without blocking
  }
#else
  (void)wait;
#endif
}

void Memtable::Impl::handle_completion(uint64_t user_data, int res) {
  Buffer* b = bufs.at(user_data >> 32).get();
  const bool is_sync = (user_data & 1) != 0;
  const uint64_t piece = (user_data & 0xffffffffu) >> 1;
  --b->pending;
  Segment* seg = find_segment(b->segment);
  const std::string path = seg ? seg->path : std::string();
  if (!is_sync) {
    const uint64_t size = b->piece_size(piece);
    if (res == -EINTR || res == -EAGAIN) {
      submit_piece(b, piece);  // try again
      submit_now(path);
    } else if (res < 0) {
      throw_error(-res, "io_uring write of a memtable flush at offset " +
                            std::to_string(b->offset + static_cast<uint64_t>(b->piece_begin(piece) - b->io)), path);
    } else if (res == 0) {
      throw_error(EIO, "io_uring write of a memtable flush wrote nothing", path);
    } else {
      b->piece_written.at(piece) += static_cast<uint64_t>(res);
      b->written += static_cast<uint64_t>(res);
      if (b->piece_written[piece] < size) {  // a short write: the rest again
        submit_piece(b, piece);
        submit_now(path);
      }
    }
    if (b->written == b->len && b->pending == 0 && b->need_sync && !b->sync_sent) submit_sync(b);
  } else if (res < 0) {
    throw_error(-res, "fdatasync of a segment (io_uring)", path);
  } else {
    b->synced = true;
  }
  if (b->pending == 0 && b->written == b->len && (!b->need_sync || b->synced)) complete(b);
}

bool Memtable::Impl::submit(const Request& r) { return queue.push(r); }

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
  s.idle_ns = m.queue.idle_ns_;
  s.submit_ns = m.submit_ns.load();
  s.first_flush_at_ns = m.first_flush_at_ns.load();
  s.buffers = m.bufs.size();
#ifdef HOWFAST_HAVE_LIBURING
  s.fixed_buffers = m.fixed;
#endif
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

std::vector<std::string> Memtable::files() const {
  std::lock_guard<std::mutex> lock(impl_->files_mu);
  std::vector<std::string> out = impl_->created;
  return out;
}

std::unique_ptr<Memtable> Memtable::recover(const MemtableConfig& config) {
  require_directory(config.dir, "dir");
  RecoveryScan scan = scan_directory(config.dir);
  for (const OwnedRecord& r : scan.replay) {
    const uint64_t len = framed_size(r.key.size(), r.value.size());
    require(len <= static_cast<uint64_t>(std::max<int64_t>(config.record_size, 0)) &&
                len <= static_cast<uint64_t>(std::max<int64_t>(config.capacity, 0)),
            "recover: the log holds a record of " + std::to_string(len) +
                " bytes, more than this memtable's record_size or capacity");
  }
  const uint64_t found = scan.records, torn = scan.torn, replayed = scan.replay.size();
  const std::vector<std::string> old_segments = scan.segment_paths, old_logs = scan.wal_paths;
  std::vector<OwnedRecord> replay = std::move(scan.replay);
  std::unique_ptr<Memtable> m(new Memtable(config, &scan));
  if (!replay.empty()) {
    std::vector<Entry> entries;
    entries.reserve(replay.size());
    for (const OwnedRecord& r : replay)
      entries.push_back({reinterpret_cast<const unsigned char*>(r.key.data()), r.key.size(),
                         reinterpret_cast<const unsigned char*>(r.value.data()), r.value.size()});
    m->put_many(entries);
    m->flush();  // the log's newest records now sit in durable segments
  }
  // The old segments must be durable before the logs that back them go.
  for (const std::string& path : old_segments) Fd(path, O_RDONLY).fdatasync();
  for (const std::string& path : old_logs)
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("unlink", path);
  if (!old_logs.empty()) m->impl_->dir_fd->fsync();
  m->impl_->recovery.recovered_records = found;
  m->impl_->recovery.replayed_records = replayed;
  m->impl_->recovery.torn_records = torn;
  return m;
}

}  // namespace howfast
