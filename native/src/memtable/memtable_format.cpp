#include "memtable/memtable_format.hpp"

#include <emmintrin.h>

#include <cstdio>
#include <cstring>

namespace howfast {

namespace {

constexpr uint64_t P1 = 11400714785074694791ull;
constexpr uint64_t P2 = 14029467366897019727ull;
constexpr uint64_t P3 = 1609587929392839161ull;
constexpr uint64_t P4 = 9650029242287828579ull;
constexpr uint64_t P5 = 2870177450012600261ull;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t read64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint32_t read32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t round(uint64_t acc, uint64_t input) {
  acc += input * P2;
  acc = rotl(acc, 31);
  return acc * P1;
}
inline uint64_t merge(uint64_t acc, uint64_t val) {
  acc ^= round(0, val);
  return acc * P1 + P4;
}

constexpr char kSegmentMagic[8] = {'H', 'F', 'M', 'E', 'M', 'S', 'G', '1'};

}  // namespace

// The last bytes (fewer than 32) and the final avalanche, shared by the one-shot hash
// and the stream.
static uint64_t finish(uint64_t h, const unsigned char* p, const unsigned char* end) {
  while (p + 8 <= end) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * P1 + P4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= static_cast<uint64_t>(read32(p)) * P1;
    h = rotl(h, 23) * P2 + P3;
    p += 4;
  }
  while (p < end) {
    h ^= static_cast<uint64_t>(*p) * P5;
    h = rotl(h, 11) * P1;
    ++p;
  }
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

uint64_t xxh64(const void* data, std::size_t len, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* end = p + len;
  uint64_t h;
  if (len >= 32) {
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    const unsigned char* limit = end - 32;
    do {
      v1 = round(v1, read64(p));
      v2 = round(v2, read64(p + 8));
      v3 = round(v3, read64(p + 16));
      v4 = round(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    h = merge(h, v1);
    h = merge(h, v2);
    h = merge(h, v3);
    h = merge(h, v4);
  } else {
    h = seed + P5;
  }
  h += static_cast<uint64_t>(len);
  return finish(h, p, end);
}

Xxh64Stream::Xxh64Stream(uint64_t seed) : v_{seed + P1 + P2, seed + P2, seed, seed - P1}, seed_(seed) {}

void Xxh64Stream::update(const void* data, std::size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* end = p + len;
  total_ += len;
  if (used_ + len < 32) {
    std::memcpy(buf_ + used_, p, len);
    used_ += len;
    return;
  }
  if (used_) {
    const std::size_t fill = 32 - used_;
    std::memcpy(buf_ + used_, p, fill);
    p += fill;
    for (int i = 0; i < 4; ++i) v_[i] = round(v_[i], read64(buf_ + 8 * i));
    used_ = 0;
  }
  uint64_t v1 = v_[0], v2 = v_[1], v3 = v_[2], v4 = v_[3];
  while (p + 32 <= end) {
    v1 = round(v1, read64(p));
    v2 = round(v2, read64(p + 8));
    v3 = round(v3, read64(p + 16));
    v4 = round(v4, read64(p + 24));
    p += 32;
  }
  v_[0] = v1, v_[1] = v2, v_[2] = v3, v_[3] = v4;
  used_ = static_cast<std::size_t>(end - p);
  std::memcpy(buf_, p, used_);
}

uint64_t Xxh64Stream::digest() const {
  uint64_t h;
  if (total_ >= 32) {
    h = rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) + rotl(v_[3], 18);
    for (int i = 0; i < 4; ++i) h = merge(h, v_[i]);
  } else {
    h = seed_ + P5;
  }
  h += total_;
  const unsigned char* p = buf_;
  const unsigned char* end = buf_ + used_;
  return finish(h, p, end);
}

namespace {
// memcpy with non-temporal stores for the aligned middle: the destination is not read
// again by this core, so it need not be fetched into (and evict) the cache.
void stream_copy(unsigned char* dst, const unsigned char* src, std::size_t len) {
  if (len < 4096) {
    std::memcpy(dst, src, len);
    return;
  }
  const std::size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  len -= head;
  const std::size_t blocks = len / 64;
  for (std::size_t i = 0; i < blocks; ++i) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 48), d);
    dst += 64;
    src += 64;
  }
  std::memcpy(dst, src, len - blocks * 64);
}
}  // namespace

void store_fence() { _mm_sfence(); }

uint64_t body_hash(const unsigned char* key, uint32_t key_len, const unsigned char* value, uint32_t value_len) {
  Xxh64Stream h(0);
  h.update(key, key_len);
  if (value_len) h.update(value, value_len);
  return h.digest();
}

uint64_t header_mix(uint64_t seq, uint32_t key_len, uint32_t value_len) {
  unsigned char fields[16];
  std::memcpy(fields, &seq, 8);
  std::memcpy(fields + 8, &key_len, 4);
  std::memcpy(fields + 12, &value_len, 4);
  return xxh64(fields, sizeof fields, 0x6865616465720a01ull);
}

void encode_record(unsigned char* dst, uint64_t seq, const unsigned char* key, uint32_t key_len,
                   const unsigned char* value, uint32_t value_len, uint64_t body) {
  const uint64_t end = kRecordHeader + key_len + value_len;
  const uint64_t total = framed_size(key_len, value_len);
  const RecordHeader h{kRecordMagic, static_cast<uint32_t>(total), body ^ header_mix(seq, key_len, value_len), seq,
                       key_len, value_len};
  std::memcpy(dst, &h, kRecordHeader);
  std::memcpy(dst + kRecordHeader, key, key_len);
  if (value_len) stream_copy(dst + kRecordHeader + key_len, value, value_len);
  if (total > end) std::memset(dst + end, 0, total - end);
}

RecordHeader read_header(const unsigned char* p) {
  RecordHeader h;
  std::memcpy(&h, p, kRecordHeader);
  return h;
}

uint64_t check_record(const unsigned char* p, uint64_t avail) {
  if (avail < kRecordHeader) return 0;
  RecordHeader h = read_header(p);
  if (h.magic != kRecordMagic || h.key_len == 0 || h.key_len > kMaxKey) return 0;
  const uint64_t total = framed_size(h.key_len, h.value_len);
  if (h.total_len != total || total > avail) return 0;
  const uint64_t body = xxh64(p + kRecordHeader, h.key_len + h.value_len, 0);  // = body_hash()
  if ((body ^ header_mix(h.seq, h.key_len, h.value_len)) != h.checksum) return 0;
  return total;
}

void encode_segment_header(unsigned char* block, uint64_t capacity, uint64_t slots, uint64_t segment_id) {
  std::memset(block, 0, kSegmentHeader);
  SegmentHeader h{};
  std::memcpy(h.magic, kSegmentMagic, 8);
  h.version = 1;
  h.header_size = static_cast<uint32_t>(kSegmentHeader);
  h.capacity = capacity;
  h.slots = slots;
  h.segment_id = segment_id;
  h.checksum = xxh64(&h, offsetof(SegmentHeader, checksum), 0);
  std::memcpy(block, &h, sizeof h);
}

HeaderState decode_segment_header(const unsigned char* block, SegmentHeader* out) {
  bool zero = true;
  for (std::size_t i = 0; i < kSegmentHeader && zero; ++i) zero = block[i] == 0;
  if (zero) return HeaderState::Empty;
  std::memcpy(out, block, sizeof *out);
  if (std::memcmp(out->magic, kSegmentMagic, 8) != 0 || out->version != 1 ||
      out->header_size != kSegmentHeader || out->capacity == 0 || out->slots == 0 ||
      xxh64(out, offsetof(SegmentHeader, checksum), 0) != out->checksum)
    return HeaderState::Invalid;
  return HeaderState::Valid;
}

std::string segment_name(uint64_t id) {
  char name[64];
  std::snprintf(name, sizeof name, "segment-%010llu.dat", static_cast<unsigned long long>(id));
  return name;
}

std::string wal_name(uint64_t id) {
  char name[64];
  std::snprintf(name, sizeof name, "wal-%010llu.log", static_cast<unsigned long long>(id));
  return name;
}

namespace {
bool parse_name(const std::string& name, const char* prefix, const char* suffix, uint64_t* id) {
  const std::size_t np = std::strlen(prefix), ns = std::strlen(suffix);
  if (name.size() <= np + ns || name.compare(0, np, prefix) != 0 ||
      name.compare(name.size() - ns, ns, suffix) != 0)
    return false;
  uint64_t v = 0;
  for (std::size_t i = np; i < name.size() - ns; ++i) {
    if (name[i] < '0' || name[i] > '9' || v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  *id = v;
  return true;
}
}  // namespace

bool parse_segment_name(const std::string& name, uint64_t* id) { return parse_name(name, "segment-", ".dat", id); }
bool parse_wal_name(const std::string& name, uint64_t* id) { return parse_name(name, "wal-", ".log", id); }

}  // namespace howfast
