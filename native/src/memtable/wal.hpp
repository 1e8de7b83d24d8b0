// The memtable's write-ahead log: framed records appended to wal-<id>.log files, made
// durable with one fdatasync per group of records (group commit) before any of them is
// acknowledged.
//
// A log file may be deleted once every record in it also sits in a durable segment:
// each file remembers the newest memtable generation it holds, and retire(d) deletes
// the files whose records all belong to generations below d (all flushed and durable).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "common/files.hpp"
#include "memtable/iorecord.hpp"

namespace howfast {

class WriteAheadLog {
 public:
  // Files are created in `dir` with ids from `first_id`; a new file is started when the
  // current one holds `rotate_bytes` or more. `dir_fd` is fsynced after a file is created.
  WriteAheadLog(std::string dir, uint64_t first_id, uint64_t rotate_bytes, const Fd* dir_fd);
  ~WriteAheadLog();
  WriteAheadLog(const WriteAheadLog&) = delete;
  WriteAheadLog& operator=(const WriteAheadLog&) = delete;

  // Appends bytes holding records of generations up to `max_gen` (not yet durable).
  void write(const unsigned char* data, std::size_t len, uint64_t max_gen);
  // Makes everything written so far durable (one fdatasync), if anything is pending.
  void sync();
  // Deletes the files whose records all belong to generations below `durable_gen`.
  void retire(uint64_t durable_gen);

  uint64_t bytes_written() const noexcept { return bytes_; }
  uint64_t syncs() const noexcept { return syncs_; }
  uint64_t files_created() const noexcept { return created_; }
  void set_recorder(IoRecorder* rec) noexcept { rec_ = rec; }  // record every write, sync and unlink

 private:
  struct File {
    uint64_t id;
    std::string path;
    std::unique_ptr<Fd> fd;  // open while current
    uint64_t size = 0;
    uint64_t max_gen = 0;
  };
  void open_next();

  std::string dir_;
  uint64_t next_id_;
  uint64_t rotate_bytes_;
  const Fd* dir_fd_;
  std::deque<File> files_;  // oldest first; the back one is current when `current_` is set
  bool current_ = false;
  bool pending_ = false;
  uint64_t bytes_ = 0;
  uint64_t syncs_ = 0;
  uint64_t created_ = 0;
  IoRecorder* rec_ = nullptr;
};

}  // namespace howfast
