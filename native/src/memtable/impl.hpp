// Internal to the memtable (src/memtable/*.cpp): the writer's state (Memtable::Impl),
// shared constants and what recover() finds on disk. Which file holds what:
//   queue.cpp           the request queue and Waiter
//   recovery.cpp        scanning segments and logs, Memtable::recover
//   writer.cpp          the writer thread: set-up, records into buffers, sealing a buffer
//   segments.cpp        segment files: created ahead, looked up, synced, closed
//   segment_preparer.cpp the helper thread that makes segment files ahead of need
//   flush_blocking.cpp  a flush as one pwrite (and fdatasync)
//   flush_uring.cpp     a flush through io_uring, in pieces, completions
//   memtable.cpp        the public Memtable calls
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/files.hpp"
#include "common/uring.hpp"
#include "memtable/iorecord.hpp"
#include "memtable/memtable.hpp"
#include "memtable/memtable_format.hpp"
#include "memtable/memtable_index.hpp"
#include "memtable/queue.hpp"
#include "memtable/segment_preparer.hpp"
#include "memtable/wal.hpp"


namespace howfast {


inline constexpr int64_t kMaxCapacity = 1ll << 30;  // the seed sweeps up to 1 GiB
inline constexpr int64_t kMaxBuffers = 64;
inline constexpr int64_t kMaxQueueDepth = 1 << 16;
inline constexpr int64_t kMaxSegmentBytes = 1ll << 40;
inline constexpr int64_t kMaxSegmentsAhead = 16;
inline constexpr uint64_t kWalRotateBytes = 64ull << 20;
// An io_uring flush is written in pieces of at most kPiece bytes, all submitted at once,
// each from its own registered (fixed) chunk of the buffer, so the kernel pins no pages
// per write. At 64 MiB with 8 buffers this took the flushes from about 1.9 to 2.4-2.8
// GB/s on this project's VM (unregistered before); a single 512 MiB write from a
// registered buffer had failed there with EIO (a kernel warning in __blk_rq_map_sg,
// Linux 6.18 / virtio-blk). The block layer cuts every write into requests of a few MiB
// anyway (max_sectors_kb).
inline constexpr uint64_t kPiece = 16ull << 20;

// Pieces (and registered chunks) covering `bytes` of a buffer from its start.
inline uint64_t pieces_for(uint64_t bytes) { return (bytes + kPiece - 1) / kPiece; }

inline uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

inline std::string join(const std::string& dir, const std::string& name) { return dir + "/" + name; }

inline std::size_t queue_capacity_of(const MemtableConfig& c) {
  return static_cast<std::size_t>(std::max<int64_t>(c.queue_depth, 1));
}

inline std::exception_ptr closed_error() {
  return std::make_exception_ptr(std::invalid_argument("the memtable is closed"));
}

// The memtable files in `dir`, by kind, sorted by id.
struct DirListing {
  std::vector<std::pair<uint64_t, std::string>> segments, wals;
};

DirListing list_memtable_files(const std::string& dir);

struct OwnedRecord {
  std::string key, value;
  uint64_t seq;
};

struct RecoveryScan {
  KeyIndex index;
  uint64_t max_seq = 0;
  uint64_t next_segment = 0, next_wal = 0;
  std::vector<std::string> segment_paths, wal_paths;
  std::vector<std::string> empty_segments;  // no header: made ahead and never written, they hold nothing
  std::vector<OwnedRecord> replay;  // newest versions found only in the log, by seq
  uint64_t records = 0, torn = 0;
};

// Reads every segment and log in `dir`: the index of what the segments hold, and the
// newest records found only in the logs (to be written again).
RecoveryScan scan_directory(const std::string& dir, RecoveryFlaw flaw = RecoveryFlaw::None);

struct Memtable::Impl {
  struct Buffer {
    enum State { Free, Active, Flushing };
    // The first 4 KiB hold a segment header: the first flush into a segment writes the
    // header and the slot in one request, so no separate (and queued) header write exists.
    Buffer(std::size_t size, int i)
        : mem(kSegmentHeader + size, 4096), index(i), piece_ops(pieces_for(kSegmentHeader + size)) {}
    unsigned char* data() noexcept { return mem.data() + kSegmentHeader; }
    const unsigned char* data() const noexcept { return mem.data() + kSegmentHeader; }
    AlignedBuffer mem;
    int index;
    unsigned char* io = nullptr;  // the flush writes [io, io + len) at `offset`
    // io_uring: the write of each piece of the flush (what is left of it). Piece k is the
    // part of the flush inside mem[k * kPiece, (k + 1) * kPiece), registered chunk k of
    // this buffer.
    std::vector<UringOp> piece_ops;
    UringOp sync_op;  // the fdatasync once every piece is written (log on, no O_DSYNC)
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
  struct Pending {
    const Request* request;
    const unsigned char* key;
    Location loc;
  };

  MemtableConfig cfg;
  std::unique_ptr<IoRecorder> rec;  // record_io: every write and sync (nullptr: off)
  uint64_t C = 0;
  uint64_t max_record = 0;
  uint64_t write_align = 8;
  uint64_t slots = 1;
  uint64_t base_segment = 0;
  bool durable = false;  // wal: created files' names are fsynced into the directory at once
  // No log: a segment file was created since the directory was last fsynced, so
  // flush() must fsync the directory too (fdatasync of a new file does not make its name
  // durable; without this, a power cut could lose a flushed segment whole).
  std::atomic<bool> names_unsynced{false};

  std::unique_ptr<Fd> dir_fd;
  std::vector<std::unique_ptr<Buffer>> bufs;
  Buffer* active = nullptr;
  uint64_t sealed_through = 0;  // generations below this were handed to a flush
  uint64_t next_seq = 1;
  std::deque<Segment> segs;
  // The next segment files, made ahead by a helper thread so no flush waits for
  // open + fallocate + directory fsync (cfg.segments_ahead of them; 0: made by the writer).
  std::unique_ptr<SegmentPreparer> preparer;
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
      wal_files{0}, stall_ns{0}, segment_create_ns{0}, submit_ns{0}, first_flush_at_ns{0}, segments_prepared{0},
      segment_prepare_ns{0}, rollover_wait_ns{0};
  MemtableStats recovery;
  // The breakdown (MemtableCounters): written by the writer only; the clocks run only
  // when `counting` (set before the first request; the writer may already wait for it).
  MemtableCounters ctr;
  std::atomic<bool> counting{false};
  uint64_t tick() const { return counting.load(std::memory_order_relaxed) ? now_ns() : 0; }
  uint64_t flush_path_ns = 0;  // seal() from entry to exit, summed (put_group subtracts it)
  uint64_t rusage_cpu0 = 0, rusage_vol0 = 0, rusage_invol0 = 0;  // the writer's at its start
  void thread_usage(bool start);
  // What counters() returns: a copy of ctr the writer makes at every flush/drain request,
  // before it acknowledges it (publish_counters), so no reader touches ctr itself.
  std::mutex published_mu;
  MemtableCounters published;
  void publish_counters();

  // flush='io_uring' only. Declared after the buffers, so the ring is torn down before
  // they are freed, also when the constructor throws.
  std::unique_ptr<Ring> ring;
  // Flushes queued on the ring but not yet submitted, and flushes submitted and not yet
  // complete: several flushes go to the kernel in one io_uring_enter (see submit_flush).
  uint64_t unsubmitted = 0, in_flight = 0;
  bool fixed = false;   // the buffers' chunks are registered
  uint64_t chunks = 1;  // registered chunks (and flush pieces) per buffer

  Impl(const MemtableConfig& c, RecoveryScan* scan);
  ~Impl();

  int64_t check_config();
  void check_directory(const RecoveryScan* scan, int64_t nbuf);
  void open_files(RecoveryScan* scan);
  void init_uring();
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
  PreparedSegment create_segment_file(uint64_t id);
  void start_preparer(uint64_t first);
  void discard_prepared() noexcept;
  Segment* find_segment(uint64_t id);
  uint64_t slot_offset(uint64_t gen) const { return kSegmentHeader + (gen % slots) * C; }
  uint64_t segment_of(uint64_t gen) const { return base_segment + gen / slots; }
  void flush_blocking(Buffer* b, Segment& seg);
  void submit_flush(Buffer* b);
  void submit_piece(Buffer* b, uint64_t piece);
  void submit_sync(Buffer* b);
  void submit_now();
  void submit_queued();
  void reap(bool wait);
  void handle_completion(const Completion& c);
  void piece_done(Buffer* b, uint64_t piece, int res);
  void fail_requests(Request* reqs, std::size_t n, std::exception_ptr e);
  std::exception_ptr error() const {
    std::lock_guard<std::mutex> lock(failure_mu);
    return failure;
  }
  bool submit(const Request& r);
  void stop_writer(bool graceful) noexcept;
};

}  // namespace howfast
