// What recover() finds on disk: the memtable files of a directory, every intact record
// of the segments (indexed), and the newest log records the segments do not hold.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <unordered_map>

#include "common/errors.hpp"
#include "memtable/impl.hpp"

namespace howfast {

DirListing list_memtable_files(const std::string& dir) {
  DirListing out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) throw_errno("opendir", dir);
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    uint64_t id = 0;
    const std::string name = e->d_name;
    if (parse_segment_name(name, &id)) out.segments.emplace_back(id, join(dir, name));
    else if (parse_wal_name(name, &id)) out.wals.emplace_back(id, join(dir, name));
  }
  const int read_err = errno;
  const int close_err = ::closedir(d) == 0 ? 0 : errno;
  if (read_err != 0) throw_error(read_err, "readdir", dir);
  if (close_err != 0) throw_error(close_err, "closedir", dir);
  std::sort(out.segments.begin(), out.segments.end());
  std::sort(out.wals.begin(), out.wals.end());
  return out;
}

namespace {

uint64_t file_size(const Fd& fd) {
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_errno("fstat", fd.path());
  return static_cast<uint64_t>(st.st_size);
}

// Reads a file through a window of a few MiB, so records are parsed in place.
class FileWindow {
 public:
  FileWindow(const Fd& fd, uint64_t size) : fd_(fd), size_(size) {}
  // [pos, pos + need) of the file, reading ahead no further than `limit`; nullptr past EOF.
  const unsigned char* at(uint64_t pos, uint64_t need, uint64_t limit) {
    if (pos >= start_ && pos + need <= start_ + len_) return buf_.data() + (pos - start_);
    if (pos + need > size_) return nullptr;
    uint64_t want = std::max<uint64_t>(need, std::min<uint64_t>(kWindow, limit > pos ? limit - pos : 0));
    want = std::min<uint64_t>(want, size_ - pos);
    if (buf_.size() < want) buf_.resize(want);
    pread_full(fd_, buf_.data(), want, static_cast<off_t>(pos));
    start_ = pos;
    len_ = want;
    return buf_.data();
  }

 private:
  static constexpr uint64_t kWindow = 4ull << 20;
  const Fd& fd_;
  uint64_t size_;
  std::vector<unsigned char> buf_;
  uint64_t start_ = 0, len_ = 0;
};

using Newest = std::unordered_map<std::string, OwnedRecord>;

// check_record, or with the NoChecksum flaw (for the power-cut test) the framing alone:
// magic, lengths and room, never the checksum.
uint64_t checked_length(const unsigned char* p, uint64_t avail, RecoveryFlaw flaw) {
  if (flaw != RecoveryFlaw::NoChecksum) return check_record(p, avail);
  if (avail < kRecordHeader) return 0;
  const RecordHeader h = read_header(p);
  const uint64_t total = framed_size(h.key_len, h.value_len);
  const bool framed = h.magic == kRecordMagic && h.key_len > 0 && h.key_len <= kMaxKey && h.total_len == total;
  return framed && total <= avail ? total : 0;
}

// The intact records of one slot [slot, end) of a segment; stops at the first zeros
// (never filled) or at a torn record (a flush that did not finish).
void scan_slot(FileWindow& window, uint64_t id, uint64_t slot, uint64_t end, RecoveryScan& scan, RecoveryFlaw flaw) {
  uint64_t p = slot;
  while (p + kRecordHeader <= end) {
    const unsigned char* hp = window.at(p, kRecordHeader, end);
    if (hp == nullptr) break;
    const RecordHeader rh = read_header(hp);
    if (rh.magic != kRecordMagic) break;  // zeros: the rest of the slot was never filled
    const uint64_t total = framed_size(rh.key_len, rh.value_len);
    const unsigned char* rp = total <= end - p ? window.at(p, total, end) : nullptr;
    if (rp == nullptr || checked_length(rp, total, flaw) != total) {
      ++scan.torn;  // a flush that did not finish: nothing after it in this slot counts
      break;
    }
    scan.index.put(record_key(rp), rh.key_len, Location{rh.seq, id, p, static_cast<uint32_t>(total)});
    scan.max_seq = std::max(scan.max_seq, rh.seq);
    ++scan.records;
    p += total;
  }
}

void scan_segment(uint64_t id, const std::string& path, RecoveryScan& scan, RecoveryFlaw flaw) {
  scan.next_segment = std::max(scan.next_segment, id + 1);
  scan.segment_paths.push_back(path);
  Fd fd(path, O_RDONLY);
  const uint64_t size = file_size(fd);
  // Made (ahead of need, perhaps) and its header never written: it holds nothing. Records
  // of a later slot whose flush completed before the first one's are still in the log
  // (it shrinks only past flushes that all completed), or were never acknowledged
  // (without the log, flush() waits for every flush before it acknowledges).
  if (size < kSegmentHeader) {
    scan.empty_segments.push_back(path);
    return;
  }
  std::vector<unsigned char> header(kSegmentHeader);
  pread_full(fd, header.data(), kSegmentHeader, 0);
  SegmentHeader h{};
  const HeaderState state = decode_segment_header(header.data(), &h);
  if (state == HeaderState::Empty) {
    scan.empty_segments.push_back(path);
    return;
  }
  require(state == HeaderState::Valid, "dir: " + path + " is not a memtable segment (its header is invalid)");
  FileWindow window(fd, size);
  for (uint64_t k = 0; k < h.slots; ++k) {
    const uint64_t slot = kSegmentHeader + k * h.capacity;
    if (slot >= size) break;
    scan_slot(window, id, slot, std::min(slot + h.capacity, size), scan, flaw);
  }
}

// Keeps the log record at `rp` when it is newer than what the segments and earlier log
// records hold for its key.
void keep_if_newest(const unsigned char* rp, const RecordHeader& rh, const RecoveryScan& scan, Newest& newest) {
  const Location* in_segment = scan.index.find(record_key(rp), rh.key_len);
  if (in_segment != nullptr && in_segment->seq >= rh.seq) return;
  std::string key(reinterpret_cast<const char*>(record_key(rp)), rh.key_len);
  auto it = newest.find(key);
  if (it != newest.end() && it->second.seq >= rh.seq) return;
  OwnedRecord rec{key, std::string(reinterpret_cast<const char*>(rp + kRecordHeader + rh.key_len), rh.value_len),
                  rh.seq};
  newest[key] = std::move(rec);
}

void scan_log(uint64_t id, const std::string& path, RecoveryScan& scan, Newest& newest, RecoveryFlaw flaw) {
  scan.next_wal = std::max(scan.next_wal, id + 1);
  scan.wal_paths.push_back(path);
  Fd fd(path, O_RDONLY);
  const uint64_t size = file_size(fd);
  FileWindow window(fd, size);
  uint64_t p = 0;
  while (p < size) {
    const unsigned char* hp = window.at(p, kRecordHeader, size);
    const RecordHeader rh = hp ? read_header(hp) : RecordHeader{};
    const uint64_t total = hp ? framed_size(rh.key_len, rh.value_len) : 0;
    const unsigned char* rp = hp && rh.magic == kRecordMagic && total <= size - p ? window.at(p, total, size) : nullptr;
    if (rp == nullptr || checked_length(rp, total, flaw) != total) {
      ++scan.torn;  // the log ends in a record that was being written: nothing after it counts
      break;
    }
    ++scan.records;
    scan.max_seq = std::max(scan.max_seq, rh.seq);
    keep_if_newest(rp, rh, scan, newest);
    p += total;
  }
}

}  // namespace

RecoveryScan scan_directory(const std::string& dir, RecoveryFlaw flaw) {
  RecoveryScan scan;
  const DirListing files = list_memtable_files(dir);
  for (const auto& [id, path] : files.segments) scan_segment(id, path, scan, flaw);
  Newest newest;
  for (const auto& [id, path] : files.wals) {
    if (flaw == RecoveryFlaw::NoLog) {  // the flaw: the log is deleted unread
      scan.next_wal = std::max(scan.next_wal, id + 1);
      scan.wal_paths.push_back(path);
      continue;
    }
    scan_log(id, path, scan, newest, flaw);
  }
  for (auto& kv : newest) scan.replay.push_back(std::move(kv.second));
  std::sort(scan.replay.begin(), scan.replay.end(),
            [](const OwnedRecord& a, const OwnedRecord& b) { return a.seq < b.seq; });
  return scan;
}

std::unique_ptr<Memtable> Memtable::recover(const MemtableConfig& config, RecoveryFlaw flaw) {
  check_memtable_config(config);  // before the scan reads anything into memory
  RecoveryScan scan = scan_directory(config.dir, flaw);
  for (const OwnedRecord& r : scan.replay) {
    const uint64_t len = framed_size(r.key.size(), r.value.size());
    require(len <= static_cast<uint64_t>(std::max<int64_t>(config.record_size, 0)) &&
                len <= static_cast<uint64_t>(std::max<int64_t>(config.capacity, 0)),
            "recover: the log holds a record of " + std::to_string(len) +
                " bytes, more than this memtable's record_size or capacity");
  }
  const uint64_t found = scan.records, torn = scan.torn, replayed = scan.replay.size();
  const std::vector<std::string> old_segments = scan.segment_paths, old_logs = scan.wal_paths,
                                 empty = scan.empty_segments;
  std::vector<OwnedRecord> replay = std::move(scan.replay);
  std::unique_ptr<Memtable> m(new Memtable(config, &scan));
  if (!replay.empty()) {
    std::vector<Entry> entries;
    entries.reserve(replay.size());
    for (const OwnedRecord& r : replay)
      entries.push_back({reinterpret_cast<const unsigned char*>(r.key.data()), r.key.size(),
                         reinterpret_cast<const unsigned char*>(r.value.data()), r.value.size()});
    m->put_many(entries);
    m->flush();  // the log's newest records now sit in durable segments
  }
  // The old segments must be durable before the logs that back them go.
  for (const std::string& path : old_segments) Fd(path, O_RDONLY).fdatasync();
  for (const std::string& path : old_logs)
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("unlink", path);
  // Segment files that hold nothing (made ahead, never written) would keep their
  // preallocated space for good: removed, now that nothing can need them.
  for (const std::string& path : empty)
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("unlink", path);
  if (!old_logs.empty() || !empty.empty()) m->impl_->dir_fd->fsync();
  m->impl_->recovery.empty_segments = empty.size();
  m->impl_->recovery.recovered_records = found;
  m->impl_->recovery.replayed_records = replayed;
  m->impl_->recovery.torn_records = torn;
  return m;
}

}  // namespace howfast
