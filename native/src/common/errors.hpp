// Errors raised by the native loops.
//
// SysError carries errno, the failing call and the path; the module turns it into
// Python's OSError(errno, message, path). Bad arguments throw std::invalid_argument,
// which pybind11 turns into ValueError.
#pragma once

#include <stdexcept>
#include <string>

namespace howfast {

class SysError : public std::runtime_error {
 public:
  SysError(int err, const std::string& what, std::string path);
  int err() const noexcept { return err_; }
  const std::string& path() const noexcept { return path_; }

 private:
  int err_;
  std::string path_;
};

// Throws SysError for the current errno: "<what>: <strerror>".
[[noreturn]] void throw_errno(const std::string& what, const std::string& path = "");
// Throws SysError for an explicit error number (liburing returns -errno).
[[noreturn]] void throw_error(int err, const std::string& what, const std::string& path = "");
// Throws std::invalid_argument (ValueError) with the message when ok is false.
void require(bool ok, const std::string& message);
// Every path a binding takes passes here first (kwargs.hpp's path_field, or a direct
// call): an empty path, or one with a NUL byte (every system call would cut it short
// there), is refused with a ValueError naming the argument `arg`. Returns `path`.
const std::string& require_path(const std::string& path, const char* arg);

}  // namespace howfast
