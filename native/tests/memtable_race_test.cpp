// Runs the memtable benchmark, which reads the writer's counters right after drain()
// while the writer thread carries on, so that ThreadSanitizer sees every access to them.
// Built with -fsanitize=thread by tests/test_native_memtable_race.py; prints OK, or
// names the failed check and exits non-zero (ThreadSanitizer reports on its own).
#include <cstdio>
#include <initializer_list>

#include "common/clock.hpp"
#include "common/errors.hpp"
#include "memtable/memtable.hpp"

namespace {

howfast::MemtableBenchConfig config(const char* dir, howfast::FlushMode flush, bool counters) {
  howfast::MemtableBenchConfig c;
  c.memtable.dir = dir;
  c.memtable.capacity = 64 << 10;
  c.memtable.record_size = 256;
  c.memtable.flush = flush;
  c.memtable.pin_cpu = -1;
  c.memtable.segment_bytes = 64 << 20;
  c.memtable.queue_depth = 64;
  c.records = 2000;
  c.producers = 2;
  c.counters = counters;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  howfast::Poller poller(nullptr);  // no Ctrl-C to look for
  int runs = 0;
  for (howfast::FlushMode flush : {howfast::FlushMode::Blocking, howfast::FlushMode::IoUring}) {
    for (bool counters : {false, true}) {
      howfast::MemtableBenchResult r;
      try {
        r = howfast::memtable_benchmark(config(argv[1], flush, counters), poller);
      } catch (const howfast::SysError& e) {
        if (flush == howfast::FlushMode::IoUring) continue;  // no io_uring here
        std::fprintf(stderr, "FAILED: %s\n", e.what());
        return 1;
      }
      if (r.counters.batch_records != r.records) {
        std::fprintf(stderr, "FAILED: %llu records taken in batches, %llu written\n",
                     static_cast<unsigned long long>(r.counters.batch_records),
                     static_cast<unsigned long long>(r.records));
        return 1;
      }
      ++runs;
    }
  }
  std::printf("OK %d\n", runs);
  return 0;
}
