// RocksDB through its C++ API with db_bench's settings: a store opened in a fresh
// directory, and the four db_bench workloads of seed 000 (fillseq, readrandom,
// overwrite, readwhilewriting) run entirely in C++ on worker threads, every operation
// timed with the monotonic clock.
//
// The RocksDB headers stay inside rocksdb/rocksdb.cpp: without librocksdb-dev the module
// still builds (HOWFAST_HAVE_ROCKSDB undefined) and every entry point throws
// std::runtime_error saying so.
//
// Keys are db_bench's: the 8-byte big-endian key index, padded with '0' to key_size.
// Values are slices of a 1 MiB buffer built like db_bench's RandomGenerator (pieces of
// 100 bytes whose first half is random printable characters and whose second half
// repeats it, so a compressor halves them), at an offset drawn from (key index,
// generation), with the key index stamped into the first 8 bytes. The same (index,
// generation) always gives the same value, which is how reads are checked.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// True when the module was built against librocksdb.
bool rocksdb_available();
// "7.8.3", or "" when built without RocksDB.
std::string rocksdb_version();
// Compression names this librocksdb supports ("snappy", "zlib", "lz4", "zstd", ...).
std::vector<std::string> rocksdb_compressions();

// Filled by the binding (rocksdb/bind.cpp): the defaults Python sees are written there, once.
struct RocksConfig {
  std::string path;            // the DB directory: must not exist; its parent must
  int64_t key_size{};          // at least 8 (the key index)
  int64_t value_size{};
  std::string compression{};   // "snappy", "lz4", "zstd", "zlib", "none"
  double compression_ratio{};  // share of each value that is random (db_bench's flag)
  int64_t write_buffer_size{}; // memtable size (db_bench default 64 MiB)
  int64_t max_write_buffer_number{};
  int64_t cache_size{};        // block cache (db_bench default 8 MiB)
  bool disable_wal{};          // db_bench default: WAL on ...
  bool sync{};                 // ... and not synced per write
  uint64_t seed{};
};

struct RocksResult {
  std::vector<uint64_t> latency_ns;  // every sample_every-th operation of each measured thread
  uint64_t sample_every = 1;
  int threads = 1;                   // measured threads (readers in readwhilewriting)
  uint64_t ops = 0;                  // operations of the measured threads
  uint64_t elapsed_ns = 0;           // wall time, first start to last finish
  uint64_t thread_ns = 0;            // sum over measured threads of their own durations
  uint64_t latency_sum_ns = 0;       // sum over every operation (for an exact mean)
  uint64_t latency_max_ns = 0;
  uint64_t bytes = 0;                // key + value bytes written, or read (found reads only)
  uint64_t found = 0;                // reads that found their key
  uint64_t writer_ops = 0;           // readwhilewriting: writes done by the background writer
  uint64_t writer_ns = 0;            // ... and the writer's wall time
  uint64_t writer_latency_sum_ns = 0;
};

class RocksBench {
 public:
  explicit RocksBench(const RocksConfig& config);
  ~RocksBench();
  RocksBench(const RocksBench&) = delete;
  RocksBench& operator=(const RocksBench&) = delete;

  // Writes keys 0..count-1 in order, one Put each (generation 0).
  RocksResult fillseq(int64_t count, int64_t sample_every, Poller& poller);
  // `threads` threads each Get `reads` keys drawn uniformly from [0, key_range).
  RocksResult readrandom(int64_t reads, int64_t key_range, int64_t threads, int64_t sample_every, Poller& poller);
  // `writes` Puts of keys drawn uniformly from [0, key_range), fresh values.
  RocksResult overwrite(int64_t writes, int64_t key_range, int64_t sample_every, Poller& poller);
  // `readers` threads as readrandom, while one more thread overwrites random keys until
  // the readers are done. Only the readers are measured, as in db_bench; they start once
  // the writer has done its first Put, so every read overlaps writing.
  RocksResult readwhilewriting(int64_t reads, int64_t key_range, int64_t readers, int64_t sample_every,
                               Poller& poller);

  std::optional<std::string> get(const std::string& key);
  std::string key(int64_t index) const;
  std::string value(int64_t index, uint64_t generation) const;
  // A RocksDB property ("rocksdb.estimate-num-keys", "rocksdb.stats", ...); "" if unknown.
  std::string property(const std::string& name);
  void close();
  bool is_open() const;
  const std::string& compression() const;
  const RocksConfig& config() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace howfast
