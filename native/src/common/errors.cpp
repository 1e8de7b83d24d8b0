#include "common/errors.hpp"

#include <cerrno>
#include <cstring>

namespace howfast {

SysError::SysError(int err, const std::string& what, std::string path)
    : std::runtime_error(what + ": " + std::strerror(err)), err_(err), path_(std::move(path)) {}

void throw_errno(const std::string& what, const std::string& path) { throw_error(errno, what, path); }

void throw_error(int err, const std::string& what, const std::string& path) {
  throw SysError(err, what, path);
}

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

const std::string& require_path(const std::string& path, const char* arg) {
  // "" would name the current directory's files (disk_io wrote ".0" there) or fail later
  // with a bare ENOENT.
  if (path.empty()) throw std::invalid_argument(std::string(arg) + " must not be empty");
  const std::size_t nul = path.find('\0');
  if (nul == std::string::npos) return path;
  std::string shown;
  for (char ch : path) shown += ch == '\0' ? std::string("\\x00") : std::string(1, ch);
  throw std::invalid_argument(std::string(arg) + " must not contain a NUL byte (at index " + std::to_string(nul) +
                              " of '" + shown + "'): the system would cut the path short there");
}

}  // namespace howfast
