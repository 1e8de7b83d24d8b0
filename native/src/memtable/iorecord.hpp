// A record of every write, sync and file operation the memtable and its log issue, for the
// power-cut test (howfast/memtable/powercut.py). SIGKILL keeps the page cache; a power cut
// loses every write not yet made durable, or tears it. From this record, Python builds the
// states a power cut could leave at any moment and recovers each.
//
// Recording is an option of a new memtable (record_io=True), off by default: when off, the
// writer's hooks cost one branch each. The recorder is called from the writer thread and
// from the helper that creates segment files ahead, so it takes a lock.
//
// Events, in the order they happened (a total order; events of one thread keep theirs):
//   Create        a file created (`flag`: opened with O_DSYNC, so a completed write is durable)
//   Fallocate     the file preallocated to `length` bytes
//   WriteSubmit   bytes handed to the kernel for [offset, offset + length) (pwrite or io_uring)
//   WriteDone     [offset, offset + length) of write `id` is written (a short write or a
//                 resubmitted rest completes with more WriteDone events of the same id)
//   SyncStart     fdatasync of the file begins (it covers writes done before it began)
//   SyncDone      ... and returned successfully (`id` names its SyncStart)
//   DirSyncStart / DirSyncDone  fsync of the directory: names created or removed before it
//                 began are durable once it returned
//   Unlink        the file's name removed
//   Ack           records with sequence numbers up to `offset` were acknowledged as durable
//                 (log on: after the log's fdatasync; any mode: once flush() is done)
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/files.hpp"

namespace howfast {

struct IoEvent {
  enum Kind : uint8_t { Create, Fallocate, WriteSubmit, WriteDone, SyncStart, SyncDone, DirSyncStart, DirSyncDone,
                        Unlink, Ack };
  Kind kind;
  bool flag = false;
  uint32_t file = 0;  // index into IoRecord::files (0 for Ack and directory syncs)
  uint64_t id = 0;    // WriteSubmit/WriteDone: the write; SyncStart/SyncDone: the sync
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string data;   // WriteSubmit: the bytes
};

const char* io_event_name(IoEvent::Kind kind);

struct IoRecord {
  std::vector<std::string> files;  // file names (no directory)
  std::vector<IoEvent> events;
};

class IoRecorder {
 public:
  void create(const std::string& path, bool dsync);
  void fallocate(const std::string& path, uint64_t size);
  // A write of [offset, offset + len): its id. `op` (optional) names the io_uring
  // operation so its completions can find the write (see done_op).
  uint64_t write_submit(const std::string& path, uint64_t offset, const void* data, uint64_t len,
                        const void* op = nullptr);
  void write_done(uint64_t id, const std::string& path, uint64_t offset, uint64_t len);
  void write_done_op(const void* op, const std::string& path, uint64_t offset, uint64_t len);
  uint64_t sync_start(const std::string& path, const void* op = nullptr);
  void sync_done(uint64_t id, const std::string& path);
  void sync_done_op(const void* op, const std::string& path);
  uint64_t dir_sync_start();
  void dir_sync_done(uint64_t id);
  void unlink(const std::string& path);
  void ack(uint64_t seq);
  IoRecord snapshot() const;

 private:
  uint32_t file_of(const std::string& path);  // with mu_ held
  IoEvent& add(IoEvent::Kind kind, const std::string* path);
  mutable std::mutex mu_;
  IoRecord record_;
  std::unordered_map<std::string, uint32_t> ids_;
  std::unordered_map<const void*, uint64_t> ops_;  // io_uring operation -> its write or sync
  uint64_t next_id_ = 1;
};

// The memtable's blocking calls, recorded when `rec` is set (as they were without it otherwise).
void recorded_pwrite(IoRecorder* rec, const Fd& fd, const void* buf, std::size_t len, off_t offset);
void recorded_fdatasync(IoRecorder* rec, const Fd& fd);
void recorded_dir_fsync(IoRecorder* rec, const Fd& dir);

}  // namespace howfast
