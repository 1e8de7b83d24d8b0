// The seed's memtable workload, entirely in C++: producer threads hand fixed-size
// records (16-byte keys) to the memtable's single writer through its bounded queue.
// The clock runs from the moment the producers are released until the last buffer's
// flush has completed; every record's latency (handed over -> acknowledged) is kept.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/system.hpp"
#include "memtable/memtable.hpp"
#include "memtable/memtable_format.hpp"

namespace howfast {

namespace {

// Removes the files a benchmark created, whatever way it ends.
class RemoveFiles {
 public:
  explicit RemoveFiles(const Memtable* m) : m_(m) {}
  ~RemoveFiles() {
    if (m_ == nullptr) return;
    for (const std::string& path : m_->files()) ::unlink(path.c_str());
  }
  RemoveFiles(const RemoveFiles&) = delete;
  RemoveFiles& operator=(const RemoveFiles&) = delete;

 private:
  const Memtable* m_;
};

// Holds producers at the line until the clock starts.
class Gate {
 public:
  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }
  void open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// This thread's CPU time and context switches so far.
ProducerCounters producer_usage() {
  const ThreadUsage u = thread_usage();
  ProducerCounters c;
  c.cpu_ns = u.cpu_ns;
  c.voluntary_switches = u.voluntary_switches;
  c.involuntary_switches = u.involuntary_switches;
  return c;
}

}  // namespace

MemtableBenchResult memtable_benchmark(const MemtableBenchConfig& c, Poller& poller) {
  const MemtableConfig& mc = c.memtable;
  require_directory(mc.dir, "dir");
  const uint64_t capacity = require_positive(mc.capacity, "capacity", 1ll << 30);
  const uint64_t record = require_positive(mc.record_size, "record_size", 1ll << 30);
  const uint64_t key_size = require_positive(c.key_size, "key_size", 24);
  require(key_size >= 8, "key_size must be 8 to 24 bytes, got " + std::to_string(key_size));
  require(record % 8 == 0 && record >= framed_size(key_size, 0),
          "record_size must be a multiple of 8 and at least " + std::to_string(framed_size(key_size, 0)) +
              " bytes (header and key), got " + std::to_string(record));
  require(record <= capacity, "capacity " + std::to_string(capacity) + " is smaller than a record: record_size is " +
                                  std::to_string(record) + " bytes");
  const uint64_t producers = require_positive(c.producers, "producers", 64);
  const uint64_t asked = require_positive(c.records, "records", 100'000'000);
  check_memtable_config(mc);  // every other memtable setting, before anything below allocates
  const uint64_t value_len = record - kRecordHeader - key_size;

  // Whole buffers only, so every flush writes the same number of bytes.
  const uint64_t per_buffer = capacity / record;
  const uint64_t n = (asked + per_buffer - 1) / per_buffer * per_buffer;
  const uint64_t flushes = n / per_buffer;
  const uint64_t nbuf = mc.buffers > 0 ? static_cast<uint64_t>(mc.buffers) : (mc.flush == FlushMode::Blocking ? 1 : 2);
  // Segment files no larger than the run needs: preallocating more only takes space.
  MemtableConfig config = mc;
  config.segment_bytes = static_cast<int64_t>(
      std::min<uint64_t>(static_cast<uint64_t>(std::max<int64_t>(mc.segment_bytes, 1)), flushes * capacity));
  const uint64_t slots = std::max<uint64_t>({1, static_cast<uint64_t>(config.segment_bytes) / capacity, nbuf});
  const uint64_t segments = (flushes + slots - 1) / slots;
  // and the segments made ahead of need, never written at the end
  const uint64_t ahead = static_cast<uint64_t>(std::max<int64_t>(mc.segments_ahead, 0));
  const uint64_t need = (segments + ahead) * (kSegmentHeader + slots * capacity) + (mc.wal ? n * record : 0);
  require_space(mc.dir, need, "records * record_size (segments" + std::string(mc.wal ? " and log)" : ")"));

  MemtableBenchResult r;
  r.records = n;
  r.record_bytes = record;
  r.latency_ns.assign(n, 0);
  r.flush_ns.reserve(flushes + 8);
  AlignedBuffer payload(value_len ? value_len : 1, 4096);
  fill_pattern(payload.data(), payload.size(), 0x6d656d);

  Memtable memtable(config);
  RemoveFiles remove(&memtable);
  memtable.reserve(n, n * key_size);
  memtable.set_latency_sink(r.latency_ns.data(), n, &r.flush_ns);

  Gate gate;
  std::mutex done_mu;
  std::condition_variable done_cv;
  uint64_t finished = 0;
  ProducerCounters producer;  // summed under done_mu
  std::exception_ptr producer_error;  // the first a producer ran into (under done_mu)
  std::vector<std::thread> threads;
  auto stop_all = [&] {
    memtable.abort();
    gate.open();
    for (auto& t : threads)
      if (t.joinable()) t.join();
  };
  uint64_t start = 0;
  try {
    for (uint64_t p = 0; p < producers; ++p) {
      threads.emplace_back([&, p] {
        gate.wait();
        ProducerCounters u0, u1;
        std::exception_ptr error;
        try {
          u0 = producer_usage();
        } catch (...) {
          error = std::current_exception();
        }
        uint64_t hash_ns = 0;
        Request q;
        q.kind = Request::Put;
        q.key_len = static_cast<uint32_t>(key_size);
        std::memset(q.key_inline, static_cast<int>(0xA0 + p), sizeof q.key_inline);
        q.value = payload.data();
        q.value_len = static_cast<uint32_t>(value_len);
        for (uint64_t i = p; i < n; i += producers) {
          std::memcpy(q.key_inline, &i, 8);
          // the producer's share; with counters, one record in 16 is timed (cheap, and scaled up)
          const bool timed = c.counters && (i / producers) % 16 == 0;
          const uint64_t h0 = timed ? now_ns() : 0;
          q.body = body_hash(q.key_inline, q.key_len, q.value, q.value_len);
          if (timed) hash_ns += 16 * (now_ns() - h0);
          q.hashed = true;
          q.id = i;
          q.submit_ns = now_ns();
          if (!memtable.submit(q)) break;  // the writer failed or was stopped
        }
        try {
          if (!error) u1 = producer_usage();
        } catch (...) {
          error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(done_mu);
        if (error && !producer_error) producer_error = error;
        producer.cpu_ns += u1.cpu_ns - u0.cpu_ns;
        producer.voluntary_switches += u1.voluntary_switches - u0.voluntary_switches;
        producer.involuntary_switches += u1.involuntary_switches - u0.involuntary_switches;
        producer.hash_ns += hash_ns;
        ++finished;
        done_cv.notify_all();
      });
    }
    // the counters start with the clock: the writer's wait for its first request began
    // when it was created, before the producers, and must not count as idle time of the run
    memtable.set_counters(c.counters);
    start = now_ns();
    gate.open();
    {
      std::unique_lock<std::mutex> lock(done_mu);
      while (finished < producers) {
        done_cv.wait_for(lock, std::chrono::milliseconds(50));
        lock.unlock();
        poller.maybe(now_ns());
        lock.lock();
      }
    }
    memtable.drain(poller);  // every buffer written
    r.elapsed_ns = now_ns() - start;
    for (auto& t : threads) t.join();
    if (producer_error) std::rethrow_exception(producer_error);
  } catch (...) {
    stop_all();
    throw;
  }
  r.stats = memtable.stats();
  r.counters = memtable.counters();
  r.producer = producer;
  if (r.stats.first_flush_at_ns > start) r.first_fill_ns = r.stats.first_flush_at_ns - start;
  if (r.stats.records != n) throw_error(EIO, "the writer acknowledged " + std::to_string(r.stats.records) +
                                                 " records of " + std::to_string(n), mc.dir);
  memtable.close();
  return r;
}

}  // namespace howfast
