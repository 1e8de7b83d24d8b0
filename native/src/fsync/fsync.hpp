// How long does one durable write take? Loops that write blocks to a new file and make
// them durable in one of several ways, timing every operation; and group commit, where
// one sync covers a batch of writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

enum class SyncMode { None, Fsync, Fdatasync, Dsync };
enum class Layout { Append, Overwrite };

SyncMode parse_sync_mode(const std::string& name);
Layout parse_layout(const std::string& name);

// Filled by the binding (fsync/bind.cpp): the defaults Python sees are written there, once.
struct DurableWriteConfig {
  std::string path; // must not exist yet; its directory must
  int64_t block_size{};
  int64_t count{};
  SyncMode sync{};
  bool direct{};    // O_DIRECT: bypass the page cache
  Layout layout{};  // append grows the file; overwrite rewrites a prewritten one
  uint64_t seed{};
};

struct DurableWriteResult {
  std::vector<uint64_t> latency_ns;  // per operation: the write plus its sync
  std::vector<uint64_t> sync_ns;     // the fsync/fdatasync part alone (0 when none is called)
  uint64_t elapsed_ns = 0;           // wall time of the whole loop
  uint64_t bytes = 0;
  int alignment = 0;                 // O_DIRECT alignment used (0 when buffered)
};

DurableWriteResult durable_writes(const DurableWriteConfig& config, Poller& poller);

// Filled by the binding (fsync/bind.cpp): the defaults Python sees are written there, once.
struct GroupCommitConfig {
  std::string path;
  int64_t record_size{};
  int64_t records_per_sync{}; // N writes, then one sync
  int64_t syncs{};            // how many batches
  SyncMode sync{};
  uint64_t seed{};
};

struct GroupCommitResult {
  std::vector<uint64_t> batch_ns;  // per batch: N writes and the sync that makes them durable
  uint64_t elapsed_ns = 0;
  uint64_t records = 0;
  uint64_t bytes = 0;
};

GroupCommitResult group_commit(const GroupCommitConfig& config, Poller& poller);

}  // namespace howfast
