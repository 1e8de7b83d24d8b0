#include "rocksdb/rocksdb.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <stdexcept>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/random.hpp"

#ifdef HOWFAST_HAVE_ROCKSDB

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace howfast {

namespace {

constexpr int64_t kMaxOps = 2'000'000'000;      // per call (and per thread)
constexpr int64_t kMaxSamples = 50'000'000;      // stored latencies per call (400 MB)
constexpr int64_t kMaxThreads = 256;
constexpr int64_t kMaxKey = 1024;
constexpr int64_t kMaxValue = 64ll << 20;
constexpr int64_t kMaxWriteBuffer = 4ll << 30;
constexpr int64_t kMaxCache = 64ll << 30;
constexpr std::size_t kGeneratorBytes = 1 << 20;  // db_bench's RandomGenerator holds 1 MiB
constexpr std::size_t kPiece = 100;               // ... made of 100-byte compressible pieces

const std::pair<const char*, rocksdb::CompressionType> kCompressions[] = {
    {"none", rocksdb::kNoCompression},   {"snappy", rocksdb::kSnappyCompression},
    {"zlib", rocksdb::kZlibCompression}, {"bzip2", rocksdb::kBZip2Compression},
    {"lz4", rocksdb::kLZ4Compression},   {"lz4hc", rocksdb::kLZ4HCCompression},
    {"zstd", rocksdb::kZSTD},
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t state = a * 0xd1b54a32d192ed03ull ^ (b + 0x8cb92ba72f3d8dd7ull);
  return splitmix64(state);
}

[[noreturn]] void throw_status(const rocksdb::Status& s, const std::string& what, const std::string& path) {
  const std::string text = "rocksdb " + what + " failed: " + s.ToString();
  if (s.IsIOError()) {
    // RocksDB keeps only the text of errno; recover the number where the text names it.
    int err = s.IsNoSpace() ? ENOSPC : s.IsPathNotFound() ? ENOENT : EIO;
    if (err == EIO) {
      for (int e : {ENOENT, ENOTDIR, EISDIR, EACCES, EPERM, ENOSPC, EDQUOT, EROFS, EAGAIN, EEXIST, EMFILE, ENFILE,
                    EINVAL}) {
        if (text.find(std::strerror(e)) != std::string::npos) {
          err = e;
          break;
        }
      }
    }
    throw SysError(err, text, path);
  }
  throw std::runtime_error(text + (path.empty() ? "" : " (" + path + ")"));
}

rocksdb::CompressionType parse_compression(const std::string& name) {
  for (const auto& [n, type] : kCompressions) {
    if (name != n) continue;
    if (type == rocksdb::kNoCompression) return type;
    auto supported = rocksdb::GetSupportedCompressions();
    if (std::find(supported.begin(), supported.end(), type) != supported.end()) return type;
    std::string have;
    for (const auto& s : rocksdb_compressions()) have += (have.empty() ? "" : ", ") + s;
    throw std::invalid_argument("compression '" + name + "' is not supported by this librocksdb (it has: " +
                                have + ")");
  }
  throw std::invalid_argument("compression must be one of none, snappy, zlib, bzip2, lz4, lz4hc, zstd; got '" +
                              name + "'");
}

// What one thread measured.
struct ThreadStats {
  std::vector<uint64_t> samples;
  std::size_t stored = 0;
  uint64_t ops = 0, found = 0, bytes = 0, lat_sum = 0, lat_max = 0, start = 0, finish = 0;

  void reserve(uint64_t ops_planned, uint64_t every) { samples.assign((ops_planned + every - 1) / every, 0); }
};

// Runs body(tid, stats) on n threads that start together; the calling thread polls for
// Ctrl-C meanwhile. A worker's exception or an interrupt stops every worker (they check
// `stop` between operations) and is rethrown once all have joined.
template <typename Body>
uint64_t run_threads(int n, std::vector<ThreadStats>& stats, std::atomic<bool>& stop, Poller& poller, Body body) {
  std::atomic<int> ready{0}, done{0};
  std::atomic<bool> go{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  uint64_t start = 0;
  auto stop_all = [&](std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(failure_mutex);
    if (!failure) failure = e;
    stop.store(true);
  };
  try {
    for (int t = 0; t < n; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
        try {
          body(t, stats[static_cast<std::size_t>(t)]);
        } catch (...) {
          stop_all(std::current_exception());
        }
        done.fetch_add(1, std::memory_order_release);
      });
    }
    while (ready.load() < n) std::this_thread::yield();
    start = now_ns();
    go.store(true, std::memory_order_release);
    while (done.load(std::memory_order_acquire) < n) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      poller.maybe(now_ns());
    }
  } catch (...) {
    stop_all(std::current_exception());
    go.store(true);  // threads that never saw the start signal must still run to the end
  }
  for (auto& th : threads) th.join();
  if (failure) std::rethrow_exception(failure);
  return start;
}

}  // namespace

bool rocksdb_available() { return true; }

std::string rocksdb_version() {
  return std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH);
}

std::vector<std::string> rocksdb_compressions() {
  std::vector<std::string> out{"none"};
  auto supported = rocksdb::GetSupportedCompressions();
  for (const auto& [n, type] : kCompressions) {
    if (type != rocksdb::kNoCompression && std::find(supported.begin(), supported.end(), type) != supported.end())
      out.emplace_back(n);
  }
  return out;
}

struct RocksBench::Impl {
  RocksConfig config;
  std::unique_ptr<rocksdb::DB> db;
  std::string generator;  // compressible random bytes that values are cut from
  rocksdb::WriteOptions write_options;
  rocksdb::ReadOptions read_options;
  uint64_t generation = 0;  // 0: fillseq; each overwrite and readwhilewriting takes the next
  std::mutex busy;          // one operation at a time on this object

  rocksdb::DB& open_db() {
    if (!db) throw std::runtime_error("the RocksDB at " + config.path + " is closed");
    return *db;
  }

  void make_key(char* out, uint64_t index) const {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((index >> (8 * (7 - i))) & 0xff);
    std::memset(out + 8, '0', static_cast<std::size_t>(config.key_size - 8));
  }

  void make_value(char* out, uint64_t index, uint64_t gen) const {
    const std::size_t size = static_cast<std::size_t>(config.value_size);
    const std::size_t offset = mix(index, gen) % (generator.size() - size + 1);
    std::memcpy(out, generator.data() + offset, size);
    std::memcpy(out, &index, 8);  // the key index, so a misplaced value cannot pass a check
  }

  void check_space(uint64_t entries, const std::string& what) const {
    const uint64_t bytes = entries * static_cast<uint64_t>(config.key_size + config.value_size);
    require_space(config.path, bytes, what);
  }
};

RocksBench::RocksBench(const RocksConfig& c) : impl_(std::make_unique<Impl>()) {
  require(c.key_size >= 8, "key_size must be at least 8 bytes to hold the key index, got " +
                               std::to_string(c.key_size));
  require(c.key_size <= kMaxKey, "key_size must be at most " + std::to_string(kMaxKey) + ", got " +
                                     std::to_string(c.key_size));
  require(c.value_size >= 8, "value_size must be at least 8 bytes (it carries the key index), got " +
                                 std::to_string(c.value_size));
  require(c.value_size <= kMaxValue, "value_size must be at most " + std::to_string(kMaxValue) + ", got " +
                                         std::to_string(c.value_size));
  require(c.compression_ratio > 0.0 && c.compression_ratio <= 1.0,
          "compression_ratio must be in (0, 1], got " + std::to_string(c.compression_ratio));
  require(c.write_buffer_size >= (64 << 10) && c.write_buffer_size <= kMaxWriteBuffer,
          "write_buffer_size must be 64 KiB to 4 GiB (65536 to " + std::to_string(kMaxWriteBuffer) + "), got " +
              std::to_string(c.write_buffer_size));
  require(c.max_write_buffer_number >= 1 && c.max_write_buffer_number <= 64,
          "max_write_buffer_number must be between 1 and 64, got " + std::to_string(c.max_write_buffer_number));
  require(c.cache_size >= 0 && c.cache_size <= kMaxCache, "cache_size must be 0 to 64 GiB (0 to " +
                                                              std::to_string(kMaxCache) + "), got " +
                                                              std::to_string(c.cache_size));
  require(!c.path.empty(), "path must name the new database directory");
  require_directory(parent_directory(c.path), "path");
  struct stat st {};
  require(::stat(c.path.c_str(), &st) != 0 && errno == ENOENT,
          "path: '" + c.path + "' already exists; the database goes into a new directory");
  const rocksdb::CompressionType compression = parse_compression(c.compression);

  Impl& m = *impl_;
  m.config = c;
  // The value generator, as db_bench builds it: 100-byte pieces, each `ratio` random
  // printable characters repeated to fill the piece.
  const std::size_t gen_size = std::max<std::size_t>(kGeneratorBytes, static_cast<std::size_t>(c.value_size) * 2);
  m.generator.resize(gen_size);
  uint64_t rng = c.seed;
  const std::size_t raw = std::max<std::size_t>(1, static_cast<std::size_t>(kPiece * c.compression_ratio));
  for (std::size_t at = 0; at < gen_size; at += kPiece) {
    char piece[kPiece];
    for (std::size_t i = 0; i < raw; ++i) piece[i] = static_cast<char>(' ' + below(rng, 95));
    for (std::size_t i = raw; i < kPiece; ++i) piece[i] = piece[i % raw];
    std::memcpy(m.generator.data() + at, piece, std::min(kPiece, gen_size - at));
  }

  rocksdb::Options options;  // RocksDB's defaults are db_bench's for everything not set here
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.compression = compression;
  options.write_buffer_size = static_cast<std::size_t>(c.write_buffer_size);
  options.max_write_buffer_number = static_cast<int>(c.max_write_buffer_number);
  options.max_background_jobs = 2;
  options.max_open_files = -1;
  options.enable_pipelined_write = true;  // db_bench's default (RocksDB's is false)
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 4096;
  if (c.cache_size > 0) {
    table.block_cache = rocksdb::NewLRUCache(static_cast<std::size_t>(c.cache_size));
  } else {
    table.no_block_cache = true;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  m.write_options.sync = c.sync;
  m.write_options.disableWAL = c.disable_wal;

  rocksdb::DB* raw_db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, c.path, &raw_db);
  if (!s.ok()) throw_status(s, "open", c.path);
  m.db.reset(raw_db);
}

RocksBench::~RocksBench() {
  try {
    close();
  } catch (...) {
    // a destructor must not throw; close() reports errors when called explicitly
  }
}

void RocksBench::close() {
  std::lock_guard<std::mutex> lock(impl_->busy);
  if (!impl_->db) return;
  rocksdb::Status s = impl_->db->Close();
  impl_->db.reset();
  if (!s.ok()) throw_status(s, "close", impl_->config.path);
}

bool RocksBench::is_open() const { return impl_->db != nullptr; }
const std::string& RocksBench::compression() const { return impl_->config.compression; }
const RocksConfig& RocksBench::config() const { return impl_->config; }

std::string RocksBench::key(int64_t index) const {
  require(index >= 0, "index must not be negative, got " + std::to_string(index));
  std::string k(static_cast<std::size_t>(impl_->config.key_size), '\0');
  impl_->make_key(k.data(), static_cast<uint64_t>(index));
  return k;
}

std::string RocksBench::value(int64_t index, uint64_t generation) const {
  require(index >= 0, "index must not be negative, got " + std::to_string(index));
  std::string v(static_cast<std::size_t>(impl_->config.value_size), '\0');
  impl_->make_value(v.data(), static_cast<uint64_t>(index), generation);
  return v;
}

std::optional<std::string> RocksBench::get(const std::string& key) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  rocksdb::PinnableSlice value;
  rocksdb::Status s = impl_->open_db().Get(impl_->read_options, impl_->open_db().DefaultColumnFamily(), key, &value);
  if (s.IsNotFound()) return std::nullopt;
  if (!s.ok()) throw_status(s, "get", impl_->config.path);
  return value.ToString();
}

std::string RocksBench::property(const std::string& name) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  std::string out;
  if (!impl_->open_db().GetProperty(name, &out)) return "";
  return out;
}

namespace {

uint64_t sampling(int64_t every, uint64_t ops_per_thread, uint64_t threads) {
  const uint64_t k = require_positive(every, "sample_every", kMaxOps);
  require((ops_per_thread + k - 1) / k * threads <= static_cast<uint64_t>(kMaxSamples),
          "too many latency samples: raise sample_every so that at most " + std::to_string(kMaxSamples) +
              " are kept");
  return k;
}

RocksResult collect(const std::vector<ThreadStats>& stats, int measured, uint64_t start, uint64_t every) {
  RocksResult r;
  r.sample_every = every;
  r.threads = measured;
  uint64_t finish = start, stored = 0;
  for (int t = 0; t < measured; ++t) stored += stats[static_cast<std::size_t>(t)].stored;
  r.latency_ns.reserve(stored);
  for (int t = 0; t < measured; ++t) {
    const ThreadStats& s = stats[static_cast<std::size_t>(t)];
    r.latency_ns.insert(r.latency_ns.end(), s.samples.begin(), s.samples.begin() + static_cast<long>(s.stored));
    r.ops += s.ops;
    r.found += s.found;
    r.bytes += s.bytes;
    r.latency_sum_ns += s.lat_sum;
    r.latency_max_ns = std::max(r.latency_max_ns, s.lat_max);
    r.thread_ns += s.finish - s.start;
    finish = std::max(finish, s.finish);
  }
  r.elapsed_ns = finish - start;
  return r;
}

// Times one operation and keeps every k-th latency.
struct Timer {
  ThreadStats& s;
  uint64_t every;
  uint64_t countdown = 1;
  void record(uint64_t ns) {
    s.lat_sum += ns;
    if (ns > s.lat_max) s.lat_max = ns;
    if (--countdown == 0) {
      s.samples[s.stored++] = ns;
      countdown = every;
    }
    ++s.ops;
  }
};

// Writes the value of key `index` (generation `gen`) into `key` and `value`, Puts it,
// and returns how long the Put took.
uint64_t timed_put(RocksBench::Impl& m, rocksdb::DB& db, std::string& key, std::string& value, uint64_t index,
                   uint64_t gen) {
  m.make_key(key.data(), index);
  m.make_value(value.data(), index, gen);
  const uint64_t t0 = now_ns();
  rocksdb::Status st = db.Put(m.write_options, key, value);
  const uint64_t t1 = now_ns();
  if (!st.ok()) throw_status(st, "put", m.config.path);
  return t1 - t0;
}

// Puts `n` values, timing each Put; `next_index(i)` picks the key of the i-th write
// (sequential for fillseq, random for overwrite). `gen` goes into the values.
template <typename NextIndex>
void write_loop(RocksBench::Impl& m, rocksdb::DB& db, ThreadStats& s, uint64_t n, uint64_t every, uint64_t gen,
                const std::atomic<bool>& stop, NextIndex next_index) {
  std::string key(static_cast<std::size_t>(m.config.key_size), '\0');
  std::string value(static_cast<std::size_t>(m.config.value_size), '\0');
  Timer timer{s, every};
  s.start = now_ns();
  for (uint64_t i = 0; i < n && !stop.load(std::memory_order_relaxed); ++i) {
    timer.record(timed_put(m, db, key, value, next_index(i), gen));
    s.bytes += key.size() + value.size();
  }
  s.finish = now_ns();
}

}  // namespace

RocksResult RocksBench::fillseq(int64_t count, int64_t sample_every, Poller& poller) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  Impl& m = *impl_;
  rocksdb::DB& db = m.open_db();
  const uint64_t n = require_positive(count, "count", kMaxOps);
  const uint64_t every = sampling(sample_every, n, 1);
  m.check_space(n, "count * (key_size + value_size)");
  std::vector<ThreadStats> stats(1);
  stats[0].reserve(n, every);
  std::atomic<bool> stop{false};
  const uint64_t start = run_threads(1, stats, stop, poller, [&](int, ThreadStats& s) {
    write_loop(m, db, s, n, every, 0, stop, [](uint64_t i) { return i; });
  });
  return collect(stats, 1, start, every);
}

namespace {

// `writing`, when given, holds the readers back until the writer has done its first Put,
// so that every read of readwhilewriting happens while writes are going on.
void read_loop(RocksBench::Impl& m, rocksdb::DB& db, ThreadStats& s, uint64_t reads, uint64_t range, uint64_t every,
               uint64_t seed, const std::atomic<bool>& stop, const std::atomic<bool>* writing = nullptr) {
  std::string key(static_cast<std::size_t>(m.config.key_size), '\0');
  rocksdb::PinnableSlice value;
  rocksdb::ColumnFamilyHandle* cf = db.DefaultColumnFamily();
  uint64_t rng = seed;
  Timer timer{s, every};
  while (writing && !writing->load(std::memory_order_acquire) && !stop.load(std::memory_order_relaxed)) {
    std::this_thread::yield();
  }
  s.start = now_ns();
  for (uint64_t i = 0; i < reads && !stop.load(std::memory_order_relaxed); ++i) {
    m.make_key(key.data(), below(rng, range));
    const uint64_t t0 = now_ns();
    rocksdb::Status st = db.Get(m.read_options, cf, key, &value);
    const uint64_t t1 = now_ns();
    if (st.ok()) {
      ++s.found;
      s.bytes += key.size() + value.size();
    } else if (!st.IsNotFound()) {
      throw_status(st, "get", m.config.path);
    }
    value.Reset();
    timer.record(t1 - t0);
  }
  s.finish = now_ns();
}

}  // namespace

RocksResult RocksBench::readrandom(int64_t reads, int64_t key_range, int64_t threads, int64_t sample_every,
                                   Poller& poller) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  Impl& m = *impl_;
  rocksdb::DB& db = m.open_db();
  const uint64_t n = require_positive(reads, "reads", kMaxOps);
  const uint64_t range = require_positive(key_range, "key_range", kMaxOps);
  const int nthreads = static_cast<int>(require_positive(threads, "threads", kMaxThreads));
  const uint64_t every = sampling(sample_every, n, static_cast<uint64_t>(nthreads));
  std::vector<ThreadStats> stats(static_cast<std::size_t>(nthreads));
  for (auto& s : stats) s.reserve(n, every);
  std::atomic<bool> stop{false};
  const uint64_t base = m.config.seed * 1000003ull + (++m.generation) * 7919ull;
  const uint64_t start = run_threads(nthreads, stats, stop, poller, [&](int t, ThreadStats& s) {
    read_loop(m, db, s, n, range, every, base + static_cast<uint64_t>(t), stop);
  });
  return collect(stats, nthreads, start, every);
}

RocksResult RocksBench::overwrite(int64_t writes, int64_t key_range, int64_t sample_every, Poller& poller) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  Impl& m = *impl_;
  rocksdb::DB& db = m.open_db();
  const uint64_t n = require_positive(writes, "writes", kMaxOps);
  const uint64_t range = require_positive(key_range, "key_range", kMaxOps);
  const uint64_t every = sampling(sample_every, n, 1);
  m.check_space(n, "writes * (key_size + value_size)");
  std::vector<ThreadStats> stats(1);
  stats[0].reserve(n, every);
  std::atomic<bool> stop{false};
  const uint64_t gen = ++m.generation;
  const uint64_t start = run_threads(1, stats, stop, poller, [&](int, ThreadStats& s) {
    uint64_t rng = m.config.seed * 1000003ull + gen * 7919ull;
    write_loop(m, db, s, n, every, gen, stop, [&rng, range](uint64_t) { return below(rng, range); });
  });
  return collect(stats, 1, start, every);
}

RocksResult RocksBench::readwhilewriting(int64_t reads, int64_t key_range, int64_t readers, int64_t sample_every,
                                         Poller& poller) {
  std::lock_guard<std::mutex> lock(impl_->busy);
  Impl& m = *impl_;
  rocksdb::DB& db = m.open_db();
  const uint64_t n = require_positive(reads, "reads", kMaxOps);
  const uint64_t range = require_positive(key_range, "key_range", kMaxOps);
  const int nreaders = static_cast<int>(require_positive(readers, "readers", kMaxThreads));
  const uint64_t every = sampling(sample_every, n, static_cast<uint64_t>(nreaders));
  // The writer runs as long as the readers; its volume is unknown up front, so the space
  // check assumes it keeps pace with them.
  m.check_space(n * static_cast<uint64_t>(nreaders), "reads * readers * (key_size + value_size)");
  std::vector<ThreadStats> stats(static_cast<std::size_t>(nreaders) + 1);
  for (int t = 0; t < nreaders; ++t) stats[static_cast<std::size_t>(t)].reserve(n, every);
  std::atomic<bool> stop{false};
  std::atomic<int> readers_done{0};
  std::atomic<bool> writing{false};
  const uint64_t gen = ++m.generation;
  const uint64_t base = m.config.seed * 1000003ull + gen * 7919ull;
  const uint64_t start = run_threads(nreaders + 1, stats, stop, poller, [&](int t, ThreadStats& s) {
    if (t < nreaders) {
      try {
        read_loop(m, db, s, n, range, every, base + static_cast<uint64_t>(t), stop, &writing);
      } catch (...) {
        readers_done.fetch_add(1);
        throw;
      }
      readers_done.fetch_add(1);
      return;
    }
    // The writer: random overwrites until every reader is done (at least one), not
    // measured per operation, as in db_bench.
    std::string key(static_cast<std::size_t>(m.config.key_size), '\0');
    std::string value(static_cast<std::size_t>(m.config.value_size), '\0');
    uint64_t rng = base + 0x5bd1e995ull;
    s.start = now_ns();
    while (readers_done.load(std::memory_order_relaxed) < nreaders && !stop.load(std::memory_order_relaxed)) {
      s.lat_sum += timed_put(m, db, key, value, below(rng, range), gen);
      ++s.ops;
      writing.store(true, std::memory_order_release);
    }
    s.finish = now_ns();
  });
  RocksResult r = collect(stats, nreaders, start, every);
  const ThreadStats& w = stats.back();
  r.writer_ops = w.ops;
  r.writer_ns = w.finish - w.start;
  r.writer_latency_sum_ns = w.lat_sum;
  return r;
}

}  // namespace howfast

#else  // no librocksdb: the module builds, and every entry point says why it cannot run

namespace howfast {

namespace {
[[noreturn]] void missing() {
  throw std::runtime_error(
      "howfast was built without librocksdb-dev: install it (apt-get install librocksdb-dev) and rebuild "
      "the native module to measure RocksDB");
}
}  // namespace

bool rocksdb_available() { return false; }
std::string rocksdb_version() { return ""; }
std::vector<std::string> rocksdb_compressions() { return {}; }

struct RocksBench::Impl {};

RocksBench::RocksBench(const RocksConfig&) { missing(); }
RocksBench::~RocksBench() = default;
RocksResult RocksBench::fillseq(int64_t, int64_t, Poller&) { missing(); }
RocksResult RocksBench::readrandom(int64_t, int64_t, int64_t, int64_t, Poller&) { missing(); }
RocksResult RocksBench::overwrite(int64_t, int64_t, int64_t, Poller&) { missing(); }
RocksResult RocksBench::readwhilewriting(int64_t, int64_t, int64_t, int64_t, Poller&) { missing(); }
std::optional<std::string> RocksBench::get(const std::string&) { missing(); }
std::string RocksBench::key(int64_t) const { missing(); }
std::string RocksBench::value(int64_t, uint64_t) const { missing(); }
std::string RocksBench::property(const std::string&) { missing(); }
void RocksBench::close() {}
bool RocksBench::is_open() const { return false; }
const std::string& RocksBench::compression() const { missing(); }
const RocksConfig& RocksBench::config() const { missing(); }

}  // namespace howfast

#endif
