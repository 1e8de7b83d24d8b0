// Can this process use io_uring? Answers with a reason instead of failing.
#pragma once

#include <string>

namespace howfast {

struct IoUringProbe {
  bool supported = false;
  std::string reason;            // why not, or what was checked
  std::string liburing_version;  // empty when built without liburing
};

IoUringProbe probe_io_uring();

}  // namespace howfast
