#include "storage/storage.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/random.hpp"
#include "common/system.hpp"

namespace howfast {

namespace {

constexpr int64_t kMaxBlock = 64ll << 20;
constexpr int64_t kMaxFile = 1ll << 40;
constexpr int64_t kMaxOps = 20'000'000;

std::string job_path(const std::string& base, int64_t job) { return base + "." + std::to_string(job); }

JobPlan make_plan(const IoConfig& c, int64_t job, const std::atomic<bool>* stop) {
  const uint64_t ops = static_cast<uint64_t>(c.file_size / c.block_size);
  JobPlan plan{&c, -1, std::vector<uint64_t>(ops), std::vector<uint8_t>(ops), stop};
  for (uint64_t i = 0; i < ops; ++i) plan.offsets[i] = i * static_cast<uint64_t>(c.block_size);
  uint64_t state = c.seed * 1000003ull + static_cast<uint64_t>(job);
  if (c.random) {
    for (uint64_t i = ops; i > 1; --i) std::swap(plan.offsets[i - 1], plan.offsets[splitmix64(state) % i]);
  }
  for (uint64_t i = 0; i < ops; ++i) {
    plan.writes[i] = c.op == IoOp::Write ? 1 : c.op == IoOp::Read ? 0 : static_cast<uint8_t>(splitmix64(state) & 1);
  }
  return plan;
}

void validate(const IoConfig& c) {
  const uint64_t block = require_positive(c.block_size, "block_size", kMaxBlock);
  const uint64_t size = require_positive(c.file_size, "file_size", kMaxFile);
  require_positive(c.queue_depth, "queue_depth", 4096);
  require_positive(c.jobs, "jobs", 256);
  require(size % block == 0, "file_size " + std::to_string(size) + " is not a multiple of block_size " +
                                 std::to_string(block));
  require(size / block <= static_cast<uint64_t>(kMaxOps), "file_size / block_size must be at most " +
                                                               std::to_string(kMaxOps) + " I/Os per job");
  // Each I/O costs 17 bytes of plan and result (offset, kind, latency): all jobs together
  // stay within kMaxOps, about 340 MB, before anything is allocated.
  require(size / block * static_cast<uint64_t>(c.jobs) <= static_cast<uint64_t>(kMaxOps),
          "file_size / block_size * jobs must be at most " + std::to_string(kMaxOps) + " I/Os in all, got " +
              std::to_string(size / block * static_cast<uint64_t>(c.jobs)));
  require(c.engine != Engine::Sync || c.queue_depth == 1, "queue_depth must be 1 for the sync engine");
  require(!c.fixed_buffers || c.engine == Engine::IoUring, "fixed_buffers needs engine='io_uring'");
  require(!c.fixed_files || c.engine == Engine::IoUring, "fixed_files needs engine='io_uring'");
  require(!c.fsync || c.op != IoOp::Read, "fsync applies to writes; op is 'read'");
  const std::string dir = parent_directory(c.path);
  require_directory(dir, "path");
  if (c.op == IoOp::Read || c.op == IoOp::ReadWrite) {
    for (int64_t j = 0; j < c.jobs; ++j) {
      struct stat st {};
      const std::string p = job_path(c.path, j);
      require(::stat(p.c_str(), &st) == 0, "path: " + p + " does not exist (prepare_file it first for reads)");
      require(st.st_size >= c.file_size, "path: " + p + " is smaller than file_size");
    }
  } else {
    // Writes create new files only: an existing one is refused before any file is made
    // (open with O_EXCL then also catches one that appears meanwhile).
    for (int64_t j = 0; j < c.jobs; ++j) {
      struct stat st {};
      const std::string p = job_path(c.path, j);
      if (::lstat(p.c_str(), &st) == 0)
        throw_error(EEXIST, "disk_io(op='write') creates new files and never overwrites one; path: " + p +
                                " already exists", p);
    }
    require_space(dir, size * static_cast<uint64_t>(c.jobs), "file_size * jobs");
  }
  if (c.direct) {
    const int alignment = direct_io_alignment(dir);
    require(block % static_cast<uint64_t>(alignment) == 0,
            "block_size " + std::to_string(block) + " is not a multiple of " + std::to_string(alignment) +
                ", the smallest O_DIRECT I/O this filesystem accepts");
  }
}

int open_flags(const IoConfig& c) {
  // readwrite opens an existing (prepared) file and creates nothing; write only new files.
  int flags = c.op == IoOp::Read ? O_RDONLY : c.op == IoOp::Write ? O_WRONLY | O_CREAT | O_EXCL : O_RDWR;
  if (c.direct) flags |= O_DIRECT;
  return flags;
}

void run_job(JobPlan& plan, JobResult& out) {
  const IoConfig& c = *plan.config;
  out.latency_ns.assign(plan.offsets.size(), 0);
  out.is_write = plan.writes;
  switch (c.engine) {
    case Engine::Sync: run_sync(plan, out); break;
    case Engine::Aio: run_aio(plan, out); break;
    case Engine::IoUring: run_uring(plan, out); break;
  }
  for (std::size_t i = 0; i < plan.writes.size(); ++i) {
    (plan.writes[i] ? out.bytes_written : out.bytes_read) += static_cast<uint64_t>(c.block_size);
  }
}

}  // namespace

Engine parse_engine(const std::string& name) {
  if (name == "sync") return Engine::Sync;
  if (name == "aio") return Engine::Aio;
  if (name == "io_uring") return Engine::IoUring;
  throw std::invalid_argument("engine must be 'sync', 'aio' or 'io_uring'; got '" + name + "'");
}

IoOp parse_io_op(const std::string& name) {
  if (name == "read") return IoOp::Read;
  if (name == "write") return IoOp::Write;
  if (name == "readwrite") return IoOp::ReadWrite;
  throw std::invalid_argument("op must be 'read', 'write' or 'readwrite'; got '" + name + "'");
}

void stamp_for_write(unsigned char* buf, uint64_t block_size, uint64_t offset, uint64_t seed) {
  // the base pattern is already in buf (fill_pattern once per buffer); only the stamp changes
  (void)seed;
  stamp_block(buf, block_size, offset / block_size);
}

bool block_matches(const unsigned char* buf, uint64_t block_size, uint64_t offset, uint64_t seed,
                   std::vector<unsigned char>& scratch) {
  // Files from prepare_file are stamped per unit: 4 KiB when the read size is a multiple
  // of it (so any such block size can read them), else the block size itself.
  const uint64_t unit = block_size % kVerifyUnit == 0 ? kVerifyUnit : block_size;
  scratch.resize(unit);
  for (uint64_t done = 0; done < block_size; done += unit) {
    fill_pattern(scratch.data(), unit, seed);
    stamp_block(scratch.data(), unit, (offset + done) / unit);
    if (std::memcmp(buf + done, scratch.data(), unit) != 0) return false;
  }
  return true;
}

void prepare_file(const std::string& path, int64_t file_size, int64_t block_size, uint64_t seed) {
  const uint64_t block = require_positive(block_size, "block_size", kMaxBlock);
  const uint64_t size = require_positive(file_size, "file_size", kMaxFile);
  require(size % block == 0, "file_size must be a multiple of block_size");
  const std::string dir = parent_directory(path);
  require_directory(dir, "path");
  require_space(dir, size, "file_size");
  AlignedBuffer buf(block);
  fill_pattern(buf.data(), block, seed);
  Fd fd(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  for (uint64_t off = 0; off < size; off += block) {
    stamp_block(buf.data(), block, off / block);
    pwrite_full(fd, buf.data(), block, static_cast<off_t>(off));
  }
  fd.fsync();
  fd.close();
}

IoResult run_io(const IoConfig& c, Poller& poller) {
  validate(c);
  std::atomic<bool> stop{false};
  std::vector<JobPlan> plans;
  std::vector<std::unique_ptr<Fd>> fds;
  // Files this call created (op='write') are removed again if it fails: nothing half
  // written is left behind.
  std::vector<std::unique_ptr<UnlinkGuard>> created;
  for (int64_t j = 0; j < c.jobs; ++j) {
    plans.push_back(make_plan(c, j, &stop));
    fds.push_back(std::make_unique<Fd>(job_path(c.path, j), open_flags(c), 0644));
    if (c.op == IoOp::Write) created.push_back(std::make_unique<UnlinkGuard>(job_path(c.path, j)));
    plans.back().fd = fds.back()->get();
    if (!c.direct && c.op != IoOp::Write && c.drop_cache) {
      // Clean pages are dropped; a read then has to come from the device.
      fds.back()->fdatasync();
      if (int err = ::posix_fadvise(plans.back().fd, 0, 0, POSIX_FADV_DONTNEED); err != 0)
        throw_error(err, "posix_fadvise(DONTNEED)", fds.back()->path());
    }
  }
  IoResult result;
  result.jobs.resize(static_cast<std::size_t>(c.jobs));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(c.jobs));
  std::atomic<int64_t> running{c.jobs};
  std::vector<std::thread> threads;
  for (int64_t j = 0; j < c.jobs; ++j) {
    threads.emplace_back([&, j] {
      try {
        run_job(plans[static_cast<std::size_t>(j)], result.jobs[static_cast<std::size_t>(j)]);
      } catch (...) {
        errors[static_cast<std::size_t>(j)] = std::current_exception();
        stop = true;
      }
      --running;
    });
  }
  std::exception_ptr interrupted;
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    try {
      poller.maybe(now_ns());
    } catch (...) {
      interrupted = std::current_exception();
      stop = true;
      break;
    }
  }
  for (auto& t : threads) t.join();
  if (interrupted) std::rethrow_exception(interrupted);
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& job : result.jobs) {
    first = std::min(first, job.start_ns);
    last = std::max(last, job.end_ns);
  }
  result.elapsed_ns = last - first;
  for (auto& g : created) g->release();
  return result;
}

std::vector<uint64_t> memcpy_rounds(int64_t size, int64_t rounds, Poller& poller) {
  const uint64_t n = require_positive(size, "size", 16ll << 30);
  const uint64_t r = require_positive(rounds, "rounds", 100000);
  require_memory(n, 2, "size " + std::to_string(n) + " bytes", " (source and destination)");
  AlignedBuffer src(n), dst(n);
  std::memset(src.data(), 0x5a, n);
  std::memset(dst.data(), 0, n);  // touch every page before timing
  std::vector<uint64_t> out(r);
  // A round is copied in chunks so Ctrl-C is seen within one chunk (~10-50 ms); only
  // the copies are timed, never the signal check between them.
  constexpr uint64_t kChunk = 256ull << 20;
  for (uint64_t i = 0; i < r; ++i) {
    src.data()[i % n] = static_cast<unsigned char>(i);
    uint64_t ns = 0;
    for (uint64_t off = 0; off < n; off += kChunk) {
      const uint64_t len = std::min(kChunk, n - off);
      const uint64_t t0 = now_ns();
      std::memcpy(dst.data() + off, src.data() + off, len);
      const uint64_t t1 = now_ns();
      ns += t1 - t0;
      poller.maybe(t1);
    }
    out[i] = ns;
    require(dst.data()[i % n] == src.data()[i % n], "memcpy check failed");
  }
  return out;
}

}  // namespace howfast
