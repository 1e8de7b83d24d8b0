// The memtable's on-disk format: framed records (segments and the write-ahead log use
// the same framing), segment file headers, file names, and the checksum.
//
// A record is a 32-byte header, the key, the value and zero padding to a multiple of
// 8 bytes. The checksum (xxh64) covers everything after itself: sequence number,
// lengths, key and value. A torn or partial record fails the check and is never
// returned; recovery stops reading that slot (or log file) there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace howfast {

// xxh64 of `len` bytes (the public XXH64 algorithm, written out here).
uint64_t xxh64(const void* data, std::size_t len, uint64_t seed = 0);

// The same hash over data that arrives in pieces.
class Xxh64Stream {
 public:
  explicit Xxh64Stream(uint64_t seed = 0);
  void update(const void* data, std::size_t len);
  uint64_t digest() const;

 private:
  uint64_t v_[4];
  uint64_t seed_;
  uint64_t total_ = 0;
  unsigned char buf_[32];
  std::size_t used_ = 0;
};

constexpr uint32_t kRecordMagic = 0x3152544du;  // "MTR1"
constexpr std::size_t kRecordHeader = 32;
constexpr std::size_t kMaxKey = 1024;
constexpr std::size_t kSegmentHeader = 4096;  // first block of every segment file

struct RecordHeader {
  uint32_t magic;
  uint32_t total_len;  // header + key + value + padding
  uint64_t checksum;   // body_hash(key, value) ^ header_mix(seq, key_len, value_len)
  uint64_t seq;
  uint32_t key_len;
  uint32_t value_len;
};

// The checksum has two halves so the expensive one (over key and value) can be computed
// by the thread that submits the record, before the writer assigns its sequence number.
uint64_t body_hash(const unsigned char* key, uint32_t key_len, const unsigned char* value, uint32_t value_len);
uint64_t header_mix(uint64_t seq, uint32_t key_len, uint32_t value_len);
static_assert(sizeof(RecordHeader) == kRecordHeader, "record header is 32 bytes");

// Bytes a record of this key and value occupies (header and padding included).
constexpr uint64_t framed_size(uint64_t key_len, uint64_t value_len) {
  return (kRecordHeader + key_len + value_len + 7) & ~uint64_t{7};
}
// The smallest record: a 1-byte key and an empty value.
constexpr uint64_t kMinRecord = framed_size(1, 0);

// Writes the framed record at `dst` (which must hold framed_size bytes); `body` is
// body_hash(key, value). Large values are copied with non-temporal stores (the buffer is
// written once, then read by the device): call store_fence() before the buffer is
// handed to the kernel.
void encode_record(unsigned char* dst, uint64_t seq, const unsigned char* key, uint32_t key_len,
                   const unsigned char* value, uint32_t value_len, uint64_t body);

void store_fence();

// Checks the record at `p` with `avail` readable bytes. Returns its total length, or 0
// when the bytes there are not a complete, intact record.
uint64_t check_record(const unsigned char* p, uint64_t avail);
// The header fields of a record that passed check_record.
RecordHeader read_header(const unsigned char* p);
inline const unsigned char* record_key(const unsigned char* p) { return p + kRecordHeader; }
inline const unsigned char* record_value(const unsigned char* p) {
  return p + kRecordHeader + read_header(p).key_len;
}

struct SegmentHeader {
  char magic[8];
  uint32_t version;
  uint32_t header_size;
  uint64_t capacity;  // bytes per slot: one memtable flush each
  uint64_t slots;
  uint64_t segment_id;
  uint64_t checksum;  // xxh64 of the fields above
};

void encode_segment_header(unsigned char* block, uint64_t capacity, uint64_t slots, uint64_t segment_id);
enum class HeaderState { Valid, Empty, Invalid };
// Empty: the block is all zeros (the file was created, the header never written).
HeaderState decode_segment_header(const unsigned char* block, SegmentHeader* out);

std::string segment_name(uint64_t id);
std::string wal_name(uint64_t id);
// Parses "segment-<digits>.dat" / "wal-<digits>.log"; false for any other name.
bool parse_segment_name(const std::string& name, uint64_t* id);
bool parse_wal_name(const std::string& name, uint64_t* id);

}  // namespace howfast
