#include "common/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/errors.hpp"
#include "common/random.hpp"

namespace howfast {

Fd::Fd(const std::string& path, int flags, mode_t mode) : fd_(-1), path_(path) {
  do {
    fd_ = ::open(path.c_str(), flags | O_CLOEXEC, mode);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) throw_errno("open", path);
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

void Fd::close() {
  const int fd = fd_;
  fd_ = -1;  // not closed twice, even when close fails (Linux frees the descriptor anyway)
  if (fd >= 0 && ::close(fd) != 0) throw_errno("close", path_);
}

void Fd::fsync() const {
  if (::fsync(fd_) != 0) throw_errno("fsync", path_);
}

void Fd::fdatasync() const {
  if (::fdatasync(fd_) != 0) throw_errno("fdatasync", path_);
}

UnlinkGuard::~UnlinkGuard() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

void AlignedBuffer::Free::operator()(unsigned char* p) const noexcept { std::free(p); }

AlignedBuffer::AlignedBuffer(std::size_t size, std::size_t alignment) : size_(size) {
  void* p = nullptr;
  int err = posix_memalign(&p, alignment, size == 0 ? alignment : size);
  if (err != 0) throw_error(err, "posix_memalign(" + std::to_string(size) + " bytes)");
  data_.reset(static_cast<unsigned char*>(p));
  std::memset(p, 0, size);
}

void pwrite_full(const Fd& fd, const void* buf, std::size_t len, off_t offset) {
  auto p = static_cast<const unsigned char*>(buf);
  while (len > 0) {
    ssize_t n = ::pwrite(fd.get(), p, len, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("pwrite at offset " + std::to_string(offset), fd.path());
    }
    if (n == 0) throw_error(EIO, "pwrite wrote nothing at offset " + std::to_string(offset), fd.path());
    p += n;
    len -= static_cast<std::size_t>(n);
    offset += n;
  }
}

void pread_full(const Fd& fd, void* buf, std::size_t len, off_t offset) {
  auto p = static_cast<unsigned char*>(buf);
  while (len > 0) {
    ssize_t n = ::pread(fd.get(), p, len, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("pread at offset " + std::to_string(offset), fd.path());
    }
    if (n == 0) throw_error(EIO, "pread hit end of file at offset " + std::to_string(offset), fd.path());
    p += n;
    len -= static_cast<std::size_t>(n);
    offset += n;
  }
}

std::string parent_directory(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

void require_directory(const std::string& dir, const std::string& arg) {
  struct stat st {};
  require(::stat(dir.c_str(), &st) == 0, arg + ": directory '" + dir + "' does not exist");
  require(S_ISDIR(st.st_mode), arg + ": '" + dir + "' is not a directory");
}

uint64_t free_bytes(const std::string& dir) {
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) throw_errno("statvfs", dir);
  return static_cast<uint64_t>(vfs.f_bavail) * static_cast<uint64_t>(vfs.f_frsize);
}

void require_space(const std::string& dir, uint64_t needed, const std::string& what) {
  constexpr uint64_t reserve = 256ull << 20;  // never fill the filesystem to the brim
  uint64_t available = free_bytes(dir);
  require(needed <= available && available - needed >= reserve,
          what + " is too large for the scratch space: it needs " + std::to_string(needed) +
              " bytes and " + dir + " has " + std::to_string(available) +
              " bytes free (256 MiB are always left free)");
}

uint64_t require_positive(int64_t value, const std::string& arg, int64_t max) {
  const std::string range = " (1 to " + std::to_string(max) + "), got " + std::to_string(value);
  require(value > 0, arg + " must be positive" + range);
  require(value <= max, arg + " must be at most " + std::to_string(max) + range);
  return static_cast<uint64_t>(value);
}

namespace {
std::string probe_name(const std::string& dir) {
  static std::atomic<unsigned> counter{0};
  return dir + "/.howfast-direct-probe-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}
}  // namespace

DirectIoProbe probe_direct_io(const std::string& dir) {
  require_directory(dir, "directory");
  DirectIoProbe probe;
  const std::string path = probe_name(dir);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0) {
    int err = errno;
    ::unlink(path.c_str());
    probe.reason = std::string("open with O_DIRECT failed: ") + std::strerror(err) +
                   (err == EINVAL ? " (this filesystem does not support direct I/O)" : "");
    return probe;
  }
  UnlinkGuard guard(path);
  AlignedBuffer buf(4096, 4096);
  for (int size : {512, 1024, 2048, 4096}) {
    if (::pwrite(fd, buf.data(), static_cast<std::size_t>(size), 0) == size) {
      probe.supported = true;
      probe.alignment = size;
      break;
    }
  }
  if (!probe.supported) {
    probe.reason = std::string("O_DIRECT writes of 512 to 4096 bytes all failed: ") + std::strerror(errno);
  }
  if (::close(fd) != 0 && probe.supported) {
    probe.supported = false;
    probe.reason = std::string("close after the O_DIRECT write failed: ") + std::strerror(errno);
  }
  return probe;
}

int direct_io_alignment(const std::string& dir) {
  DirectIoProbe probe = probe_direct_io(dir);
  if (!probe.supported) throw_error(EINVAL, "O_DIRECT unusable here (" + probe.reason + ")", dir);
  return probe.alignment;
}

void fill_pattern(unsigned char* buf, std::size_t size, uint64_t seed) {
  for (std::size_t i = 0; i < size; i += 8) {
    uint64_t state = seed + i / 8;
    const uint64_t word = splitmix64(state);
    std::memcpy(buf + i, &word, size - i < 8 ? size - i : 8);
  }
}

void stamp_block(unsigned char* buf, std::size_t size, uint64_t index) {
  std::memcpy(buf, &index, size < 8 ? size : 8);
  if (size >= 16) std::memcpy(buf + size - 8, &index, 8);
}

}  // namespace howfast
