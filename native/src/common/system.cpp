#include "common/system.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <ctime>

namespace howfast {

uint64_t available_memory() {
  // MemAvailable: what can be allocated now without swapping (free, plus cache the
  // kernel can drop); without /proc, the free pages.
  if (std::FILE* f = std::fopen("/proc/meminfo", "re")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f) != nullptr)
      found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return static_cast<uint64_t>(kib) * 1024;
  }
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

void require_memory(uint64_t count, uint64_t each, const std::string& what, const std::string& note) {
  const uint64_t available = available_memory();
  if (available == 0) return;
  const unsigned __int128 needed = static_cast<unsigned __int128>(count) * each;
  if (needed <= available / 2) return;
  const std::string bytes = needed > UINT64_MAX ? "more than 2**64" : std::to_string(static_cast<uint64_t>(needed));
  throw std::invalid_argument(what + " needs " + bytes + " bytes" + note +
                              ", more than half of the memory available now (at most " +
                              std::to_string(available / 2) + " bytes: half of MemAvailable " +
                              std::to_string(available) + " bytes)");
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &set)) cpus.push_back(i);
  return cpus;
}

uint64_t thread_cpu_ns() {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) throw_errno("clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

ThreadUsage thread_usage() {
  rusage u{};
  if (::getrusage(RUSAGE_THREAD, &u) != 0) throw_errno("getrusage(RUSAGE_THREAD)");
  ThreadUsage out;
  out.cpu_ns = thread_cpu_ns();
  out.voluntary_switches = static_cast<uint64_t>(u.ru_nvcsw);
  out.involuntary_switches = static_cast<uint64_t>(u.ru_nivcsw);
  return out;
}

}  // namespace howfast
