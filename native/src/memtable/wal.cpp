#include "memtable/wal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "common/errors.hpp"
#include "memtable/memtable_format.hpp"

namespace howfast {

WriteAheadLog::WriteAheadLog(std::string dir, uint64_t first_id, uint64_t rotate_bytes, const Fd* dir_fd)
    : dir_(std::move(dir)), next_id_(first_id), rotate_bytes_(rotate_bytes), dir_fd_(dir_fd) {}

WriteAheadLog::~WriteAheadLog() = default;

void WriteAheadLog::open_next() {
  if (current_) files_.back().fd.reset();  // the old file stays until retired
  File f;
  f.id = next_id_++;
  f.path = dir_ + "/" + wal_name(f.id);
  f.fd = std::make_unique<Fd>(f.path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (rec_) rec_->create(f.path, false);
  files_.push_back(std::move(f));
  current_ = true;
  ++created_;
  if (dir_fd_) recorded_dir_fsync(rec_, *dir_fd_);  // the new name must survive a crash too
}

void WriteAheadLog::write(const unsigned char* data, std::size_t len, uint64_t max_gen) {
  if (len == 0) return;
  if (!current_ || (files_.back().size >= rotate_bytes_ && !pending_)) open_next();
  File& f = files_.back();
  recorded_pwrite(rec_, *f.fd, data, len, static_cast<off_t>(f.size));
  f.size += len;
  if (max_gen > f.max_gen) f.max_gen = max_gen;
  bytes_ += len;
  pending_ = true;
}

void WriteAheadLog::sync() {
  if (!pending_) return;
  recorded_fdatasync(rec_, *files_.back().fd);
  ++syncs_;
  pending_ = false;
}

void WriteAheadLog::retire(uint64_t durable_gen) {
  while (!files_.empty()) {
    File& f = files_.front();
    const bool is_current = current_ && files_.size() == 1;
    if (f.max_gen >= durable_gen || (is_current && pending_)) break;
    if (::unlink(f.path.c_str()) != 0 && errno != ENOENT) throw_errno("unlink", f.path);
    if (rec_) rec_->unlink(f.path);
    files_.pop_front();
    if (is_current) current_ = false;
  }
}

}  // namespace howfast
