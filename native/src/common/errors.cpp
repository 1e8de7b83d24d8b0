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

}  // namespace howfast
