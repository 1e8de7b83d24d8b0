// The disk matrix: one job (or several in parallel, like fio's numjobs) reading or
// writing a file with the synchronous, POSIX aio or io_uring engine, sequentially or at
// random offsets, buffered or O_DIRECT, with or without an fsync after every write.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

enum class Engine { Sync, Aio, IoUring };
enum class IoOp { Read, Write, ReadWrite };

Engine parse_engine(const std::string& name);
IoOp parse_io_op(const std::string& name);

// Filled by the binding (storage/bind.cpp): the defaults Python sees are written there, once.
struct IoConfig {
  std::string path;      // job i uses path + "." + i; files must exist for reads
  Engine engine{};
  IoOp op{};
  bool random{};         // a random permutation of the blocks, each once
  bool fsync{};          // writes: fsync after every write
  bool direct{};         // O_DIRECT
  int64_t block_size{};
  int64_t file_size{};   // per job; ops per job = file_size / block_size
  int64_t queue_depth{}; // aio and io_uring: I/Os in flight per job
  int64_t jobs{};
  bool fixed_buffers{};  // io_uring: registered buffers
  bool fixed_files{};    // io_uring: registered file
  bool drop_cache{};     // buffered reads: posix_fadvise(DONTNEED) first, so reads hit the device
  bool verify{};         // reads: compare every block with the pattern (outside the timed part)
  uint64_t seed{};
};

struct JobResult {
  std::vector<uint64_t> latency_ns;  // per I/O (a write and its fsync count as one)
  std::vector<uint8_t> is_write;     // per I/O: 1 for writes (matters for readwrite)
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  uint64_t mismatches = 0;           // blocks read whose content was wrong (verify only)
};

struct IoResult {
  std::vector<JobResult> jobs;
  uint64_t elapsed_ns = 0;  // first job's start to last job's end
};

//: Reads verify prepared files in units of this many bytes (see block_matches).
constexpr uint64_t kVerifyUnit = 4096;

// Writes `file_size` bytes of stamped blocks of `block_size` to a new file and syncs it.
// Prepare with block_size 4096 to read the file back at any multiple of 4 KiB.
void prepare_file(const std::string& path, int64_t file_size, int64_t block_size, uint64_t seed);

IoResult run_io(const IoConfig& config, Poller& poller);

// Memory copy bandwidth: `size` bytes copied `rounds` times; ns per round. The source and
// destination (2 * size) must fit in half of the memory available now (ValueError);
// `poller` is called between chunks of a round (Ctrl-C).
std::vector<uint64_t> memcpy_rounds(int64_t size, int64_t rounds, Poller& poller);

// --- engines (one file each) -------------------------------------------------------
struct JobPlan {
  const IoConfig* config;
  int fd;
  std::vector<uint64_t> offsets;  // one per I/O, in issue order
  std::vector<uint8_t> writes;    // one per I/O
  const std::atomic<bool>* stop;   // set on Ctrl-C or when another job fails
};

void run_sync(const JobPlan& plan, JobResult& out);
void run_aio(const JobPlan& plan, JobResult& out);
void run_uring(const JobPlan& plan, JobResult& out);

// Shared by the engines: fill a write buffer for the block at `offset`, and check a read.
void stamp_for_write(unsigned char* buf, uint64_t block_size, uint64_t offset, uint64_t seed);
bool block_matches(const unsigned char* buf, uint64_t block_size, uint64_t offset, uint64_t seed,
                   std::vector<unsigned char>& scratch);

}  // namespace howfast
