// RAII file descriptors, aligned buffers, full-length pread/pwrite, and the checks
// every disk benchmark runs before it writes: directory, free space, O_DIRECT alignment.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace howfast {

class Fd {
 public:
  Fd(const std::string& path, int flags, mode_t mode = 0644);
  ~Fd();
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const noexcept { return fd_; }
  const std::string& path() const noexcept { return path_; }
  void fsync() const;
  void fdatasync() const;
  // Closes now and throws on an error (a write-back error may surface here); the
  // destructor closes too, but can only ignore one.
  void close();

 private:
  int fd_;
  std::string path_;
};

// Removes a file when it goes out of scope unless released (probe files, failed setups).
class UnlinkGuard {
 public:
  explicit UnlinkGuard(std::string path) : path_(std::move(path)) {}
  ~UnlinkGuard();
  UnlinkGuard(const UnlinkGuard&) = delete;
  UnlinkGuard& operator=(const UnlinkGuard&) = delete;
  void release() noexcept { path_.clear(); }

 private:
  std::string path_;
};

class AlignedBuffer {
 public:
  AlignedBuffer(std::size_t size, std::size_t alignment = 4096);
  unsigned char* data() noexcept { return data_.get(); }
  const unsigned char* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }

 private:
  struct Free {
    void operator()(unsigned char* p) const noexcept;
  };
  std::unique_ptr<unsigned char, Free> data_;
  std::size_t size_;
};

void pwrite_full(const Fd& fd, const void* buf, std::size_t len, off_t offset);
void pread_full(const Fd& fd, void* buf, std::size_t len, off_t offset);

std::string parent_directory(const std::string& path);
// ValueError unless `dir` exists and is a directory; `arg` names the argument.
void require_directory(const std::string& dir, const std::string& arg);
// Bytes available to an unprivileged writer on the filesystem holding `dir`.
uint64_t free_bytes(const std::string& dir);
// ValueError when writing `needed` bytes would leave less than the reserve free.
void require_space(const std::string& dir, uint64_t needed, const std::string& what);
// Positive integer argument check, naming the argument in the ValueError.
uint64_t require_positive(int64_t value, const std::string& arg, int64_t max);

struct DirectIoProbe {
  bool supported = false;
  int alignment = 0;  // smallest write size (and offset multiple) O_DIRECT accepted
  std::string reason;
};
// Creates a probe file in `dir` with O_DIRECT, finds the smallest accepted write size
// among 512..4096, removes the file.
DirectIoProbe probe_direct_io(const std::string& dir);
// The alignment, or OSError when the filesystem refuses O_DIRECT.
int direct_io_alignment(const std::string& dir);

// Deterministic block contents: a seed-dependent pattern with the block index stamped
// into the first and last 8 bytes, so a misplaced or torn block is detected on read-back.
void fill_pattern(unsigned char* buf, std::size_t size, uint64_t seed);
void stamp_block(unsigned char* buf, std::size_t size, uint64_t index);

}  // namespace howfast
