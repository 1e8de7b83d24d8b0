#include "memtable/iorecord.hpp"

#include <cstring>

namespace howfast {

const char* io_event_name(IoEvent::Kind kind) {
  switch (kind) {
    case IoEvent::Create: return "create";
    case IoEvent::Fallocate: return "fallocate";
    case IoEvent::WriteSubmit: return "write_submit";
    case IoEvent::WriteDone: return "write_done";
    case IoEvent::SyncStart: return "sync_start";
    case IoEvent::SyncDone: return "sync_done";
    case IoEvent::DirSyncStart: return "dir_sync_start";
    case IoEvent::DirSyncDone: return "dir_sync_done";
    case IoEvent::Unlink: return "unlink";
    case IoEvent::Ack: return "ack";
  }
  return "?";
}

uint32_t IoRecorder::file_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(record_.files.size());
  record_.files.push_back(name);
  ids_.emplace(std::move(name), id);
  return id;
}

IoEvent& IoRecorder::add(IoEvent::Kind kind, const std::string* path) {
  IoEvent e;
  e.kind = kind;
  if (path != nullptr) e.file = file_of(*path);
  record_.events.push_back(std::move(e));
  return record_.events.back();
}

void IoRecorder::create(const std::string& path, bool dsync) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::Create, &path).flag = dsync;
}

void IoRecorder::fallocate(const std::string& path, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::Fallocate, &path).length = size;
}

uint64_t IoRecorder::write_submit(const std::string& path, uint64_t offset, const void* data, uint64_t len,
                                  const void* op) {
  std::lock_guard<std::mutex> lock(mu_);
  IoEvent& e = add(IoEvent::WriteSubmit, &path);
  e.id = next_id_++;
  e.offset = offset;
  e.length = len;
  e.data.assign(static_cast<const char*>(data), len);
  if (op != nullptr) ops_[op] = e.id;
  return e.id;
}

void IoRecorder::write_done(uint64_t id, const std::string& path, uint64_t offset, uint64_t len) {
  std::lock_guard<std::mutex> lock(mu_);
  IoEvent& e = add(IoEvent::WriteDone, &path);
  e.id = id;
  e.offset = offset;
  e.length = len;
}

void IoRecorder::write_done_op(const void* op, const std::string& path, uint64_t offset, uint64_t len) {
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ops_.find(op);
    if (it != ops_.end()) id = it->second;
  }
  write_done(id, path, offset, len);
}

uint64_t IoRecorder::sync_start(const std::string& path, const void* op) {
  std::lock_guard<std::mutex> lock(mu_);
  IoEvent& e = add(IoEvent::SyncStart, &path);
  e.id = next_id_++;
  if (op != nullptr) ops_[op] = e.id;
  return e.id;
}

void IoRecorder::sync_done(uint64_t id, const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::SyncDone, &path).id = id;
}

void IoRecorder::sync_done_op(const void* op, const std::string& path) {
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ops_.find(op);
    if (it != ops_.end()) id = it->second;
  }
  sync_done(id, path);
}

uint64_t IoRecorder::dir_sync_start() {
  std::lock_guard<std::mutex> lock(mu_);
  IoEvent& e = add(IoEvent::DirSyncStart, nullptr);
  e.id = next_id_++;
  return e.id;
}

void IoRecorder::dir_sync_done(uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::DirSyncDone, nullptr).id = id;
}

void IoRecorder::unlink(const std::string& path) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::Unlink, &path);
}

void IoRecorder::ack(uint64_t seq) {
  std::lock_guard<std::mutex> lock(mu_);
  add(IoEvent::Ack, nullptr).offset = seq;
}

IoRecord IoRecorder::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return record_;
}

void recorded_pwrite(IoRecorder* rec, const Fd& fd, const void* buf, std::size_t len, off_t offset) {
  if (rec == nullptr) return pwrite_full(fd, buf, len, offset);
  const auto off = static_cast<uint64_t>(offset);
  const uint64_t id = rec->write_submit(fd.path(), off, buf, len);
  pwrite_full(fd, buf, len, offset);
  rec->write_done(id, fd.path(), off, len);
}

void recorded_fdatasync(IoRecorder* rec, const Fd& fd) {
  if (rec == nullptr) return fd.fdatasync();
  const uint64_t id = rec->sync_start(fd.path());
  fd.fdatasync();
  rec->sync_done(id, fd.path());
}

void recorded_dir_fsync(IoRecorder* rec, const Fd& dir) {
  if (rec == nullptr) return dir.fsync();
  const uint64_t id = rec->dir_sync_start();
  dir.fsync();
  rec->dir_sync_done(id);
}

}  // namespace howfast
