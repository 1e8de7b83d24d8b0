// A memtable as LSM engines build them: keyed records appended into an aligned
// in-memory buffer of `capacity` bytes; when it is full the buffer is flushed to an
// append-only segment file opened with O_DIRECT (optionally O_DSYNC), and an index maps
// each key to its latest location, in a buffer or in a segment.
//
// One writer thread owns the buffers, the segment files, the log and the index; callers
// (Python threads, or the benchmark's producer threads) hand it requests through a
// bounded queue. Flushes are either blocking (one buffer: pwrite, as the seed did) or
// go through io_uring with N buffers, so the next buffer fills while earlier ones are
// written. With the write-ahead log on, every group of records taken from the queue is
// appended to the log and fdatasync'ed once before any of them is acknowledged.
//
// Files (all inside `dir`):
//   segment-<id>.dat  a 4 KiB header, then slots of `capacity` bytes, one per flush
//                     (preallocated with fallocate and made ahead by a helper thread,
//                     `segments_ahead` files ready, so a rollover to a new segment neither
//                     grows a file nor waits for one; the header goes to disk with the
//                     segment's first flush, in the same write; a file made ahead and
//                     never written holds nothing, and recover() removes it)
//   wal-<id>.log      framed records, deleted once their generations are durable in segments
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

enum class FlushMode { Blocking, IoUring };
FlushMode parse_flush_mode(const std::string& name);

// Filled by the binding (memtable/bind.cpp): the defaults Python sees are written there, once.
struct MemtableConfig {
  std::string dir;
  int64_t capacity{};      // bytes per buffer = bytes per flush
  int64_t record_size{};   // the largest framed record accepted (header + key + value)
  bool dsync{};            // segment files opened with O_DSYNC
  FlushMode flush{};
  int64_t buffers{};       // 0: 1 for blocking, 2 for io_uring
  bool wal{};
  int64_t pin_cpu{};       // pin the writer thread to this CPU (-1: no)
  bool direct{};           // O_DIRECT segment writes
  int64_t segment_bytes{}; // data bytes per segment file (rounded to whole slots)
  int64_t segments_ahead{}; // segment files a helper thread keeps ready (0: the writer makes each when it needs it)
  int64_t queue_depth{};   // requests waiting for the writer, at most
  bool record_io{};        // keep a record of every write and sync (memtable/iorecord.hpp); a new memtable only
};

// ValueError for any setting out of range (each names the argument and its range),
// before anything is allocated or created; the number of buffers.
int64_t check_memtable_config(const MemtableConfig& cfg);

// One acknowledgement for one or more requests (put, put_many, flush).
class Waiter {
 public:
  explicit Waiter(std::size_t count) : remaining_(count) {}
  void done(std::size_t n = 1);
  void fail(std::exception_ptr error, std::size_t n = 1);
  // Blocks until every request is done; rethrows the first failure.
  void wait();
  // Like wait() but gives up after `timeout_ns`; true when done.
  bool wait_for(uint64_t timeout_ns);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t remaining_;
  std::exception_ptr error_;
};

struct Request {
  enum Kind : uint8_t { Put, Flush, Drain };
  Kind kind = Put;
  uint32_t key_len = 0;
  uint32_t value_len = 0;
  const unsigned char* key = nullptr;  // nullptr: the key is in key_inline
  const unsigned char* value = nullptr;
  unsigned char key_inline[24] = {};
  bool hashed = false;     // body_hash already computed by the submitting thread
  uint64_t body = 0;       // body_hash(key, value) when `hashed`
  uint64_t id = 0;         // benchmark: index into the latency sink
  uint64_t submit_ns = 0;  // benchmark: when the producer handed it over
  Waiter* waiter = nullptr;
};

struct MemtableStats {
  uint64_t records = 0;
  uint64_t keys = 0;
  uint64_t flushes = 0;
  uint64_t segment_bytes = 0;  // bytes written to segment files (headers included)
  uint64_t segments = 0;
  uint64_t wal_bytes = 0;
  uint64_t wal_syncs = 0;
  uint64_t wal_files = 0;
  uint64_t stall_ns = 0;  // time the writer waited for a free buffer
  uint64_t segment_create_ns = 0;  // time the writer waited for a segment file to be created
  uint64_t rollover_wait_ns = 0;   // ... of which for the files after its first (rollovers)
  uint64_t segments_prepared = 0;  // segment files made (taken or still waiting)
  uint64_t segment_prepare_ns = 0; // time spent making them (by the helper, or the writer with segments_ahead 0)
  uint64_t idle_ns = 0;            // time the writer waited for records (queue empty)
  uint64_t submit_ns = 0;          // time spent in io_uring_submit (the kernel may start the write there)
  uint64_t first_flush_at_ns = 0;  // now_ns() when the first flush was handed to the disk (0: none yet)
  uint64_t buffers = 0;
  bool fixed_buffers = false;  // io_uring registered buffers in use
  uint64_t recovered_records = 0;  // records found by recover() (segments + log)
  uint64_t replayed_records = 0;   // ... of which came only from the log and were written again
  uint64_t torn_records = 0;       // places where recover() found a partial record and stopped
  uint64_t empty_segments = 0;     // segment files recover() found holding nothing (made ahead, never written) and removed
};

// Where the writer's time went, for the benchmark's breakdown. Counts are always kept;
// the *_ns fields only with set_counters(true) (clock reads per batch and per flush,
// never per record). Written by the writer thread only, which hands a copy to counters() at
// every drain() or flush().
struct MemtableCounters {
  uint64_t batches = 0;           // times the writer took requests from the queue
  uint64_t batch_records = 0;     // puts taken in those batches
  uint64_t writer_waits = 0;      // times the writer slept because the queue was empty
  uint64_t producer_waits = 0;    // times a producer slept because the queue was full
  uint64_t submits = 0;           // io_uring submissions (io_uring_enter calls that submit)
  uint64_t completion_waits = 0;  // times the writer blocked for an io_uring completion
  uint64_t flushes = 0;           // buffers sealed
  uint64_t depth_sum = 0;         // io_uring: flushes submitted and not complete, summed at each completion
  // with set_counters(true):
  uint64_t idle_ns = 0;         // waiting for records (queue empty)
  uint64_t handoff_ns = 0;      // taking requests from the queue (lock, copy, waking producers)
  uint64_t copy_ns = 0;         // framing records into the buffer (header, checksum mix, copy)
  uint64_t index_ns = 0;        // updating the key index
  uint64_t ack_ns = 0;          // acknowledging (waiters, latency sink)
  uint64_t log_ns = 0;          // write-ahead log: append and fdatasync
  uint64_t seal_ns = 0;         // preparing a flush (padding, segment, header)
  uint64_t submit_ns = 0;       // handing a flush to the kernel (io_uring) or writing it (blocking)
  uint64_t buffer_wait_ns = 0;  // after a flush, until a free buffer was found (includes stalls)
  uint64_t reap_ns = 0;         // handling completions between batches
  uint64_t drain_ns = 0;        // flush/drain requests: writing the last buffer, waiting for every flush
  // the writer thread's CPU time and context switches, from its start to the last drain/flush
  uint64_t cpu_ns = 0, voluntary_switches = 0, involuntary_switches = 0;
};

struct RecoveryScan;  // what recover() found on disk
struct IoRecord;      // memtable/iorecord.hpp

// For the power-cut test only: recovery with a deliberate flaw, which the crash-state
// checker must catch. None is the real recovery.
enum class RecoveryFlaw { None, NoChecksum, NoLog };

class Memtable {
 public:
  // A new memtable in `dir`, which must exist and hold no memtable files.
  explicit Memtable(const MemtableConfig& config);
  // Rebuilds the memtable from the segments and logs in `config.dir` and continues it.
  static std::unique_ptr<Memtable> recover(const MemtableConfig& config, RecoveryFlaw flaw = RecoveryFlaw::None);
  ~Memtable();
  Memtable(const Memtable&) = delete;
  Memtable& operator=(const Memtable&) = delete;

  // Blocking calls (release the GIL around them): they return once the writer
  // acknowledged the records (after the log's fdatasync when the log is on).
  void put(const unsigned char* key, std::size_t key_len, const unsigned char* value, std::size_t value_len);
  struct Entry {
    const unsigned char* key;
    std::size_t key_len;
    const unsigned char* value;
    std::size_t value_len;
  };
  void put_many(const std::vector<Entry>& entries);
  // The value of `key`, from a buffer or a segment; false when the key is unknown.
  bool get(const unsigned char* key, std::size_t key_len, std::string* value) const;
  // Writes the current buffer (even if partly filled), waits for every flush and makes
  // the segments durable; then the log files are deleted.
  void flush();
  // flush(), then stop the writer. Later calls raise ValueError.
  void close();
  MemtableStats stats() const;
  std::vector<std::string> keys() const;
  std::vector<std::string> files() const;  // every file this memtable created
  IoRecord io_record() const;  // what record_io recorded so far (ValueError when it is off)

  // For the benchmark: requests without a waiter record their latency (ack - submit)
  // in sink[id]; flush latencies (submit to completion) go to flush_ns.
  void set_latency_sink(uint64_t* sink, std::size_t size, std::vector<uint64_t>* flush_ns);
  // Clock the writer's work per batch and per flush (MemtableCounters); call before submit().
  void set_counters(bool on);
  MemtableCounters counters() const;  // as the writer left them at the last drain() or flush()
  void reserve(std::size_t keys, std::size_t key_bytes);  // size the index up front
  bool submit(const Request& request);  // false when the memtable failed or is closing
  void drain(Poller& poller);           // waits until every full buffer is written
  void abort() noexcept;                // stop now (on an error or Ctrl-C); files stay

  struct Impl;

 private:
  Memtable(const MemtableConfig& config, RecoveryScan* scan);
  std::unique_ptr<Impl> impl_;
};

// Filled by the binding (memtable/bind.cpp): the defaults Python sees are written there, once.
struct MemtableBenchConfig {
  MemtableConfig memtable;
  int64_t records{};
  int64_t producers{};
  int64_t key_size = 16;
  bool counters = false;  // MemtableCounters with clock reads (see set_counters)
};

// The producer threads' side of a benchmark, summed over them.
struct ProducerCounters {
  uint64_t cpu_ns = 0, voluntary_switches = 0, involuntary_switches = 0;  // thread_usage()
  uint64_t hash_ns = 0;  // checksumming records (xxh64 of key and value), timed for one record in 16, scaled
};

struct MemtableBenchResult {
  std::vector<uint64_t> latency_ns;  // per record: handed to the writer -> acknowledged
  std::vector<uint64_t> flush_ns;    // per flush: submitted -> written
  uint64_t elapsed_ns = 0;           // first record handed over -> last flush written
  uint64_t first_fill_ns = 0;        // first record handed over -> first flush handed to the disk
  uint64_t records = 0;
  uint64_t record_bytes = 0;         // framed bytes per record
  MemtableStats stats;
  MemtableCounters counters;
  ProducerCounters producer;
};

// The seed's workload: `producers` threads feed `records` records of exactly
// `memtable.record_size` framed bytes to the single writer. `records` is rounded up to
// fill whole buffers. Every file it creates in the directory is removed on return.
MemtableBenchResult memtable_benchmark(const MemtableBenchConfig& config, Poller& poller);

}  // namespace howfast
