#include "memtable/memtable_index.hpp"

#include <cstring>

#include "memtable/memtable_format.hpp"

namespace howfast {

namespace {
std::size_t pow2_at_least(std::size_t n) {
  std::size_t p = 64;
  while (p < n) p <<= 1;
  return p;
}
}  // namespace

void KeyIndex::reserve(std::size_t keys, std::size_t key_bytes) {
  const std::size_t want = pow2_at_least(keys + keys / 2 + 1);  // load factor <= 2/3
  if (want > slots_.size()) rehash(want);
  keys_.reserve(keys_.size() + key_bytes);
}

void KeyIndex::rehash(std::size_t n) {
  std::vector<Slot> old(n);
  old.swap(slots_);
  mask_ = n - 1;
  for (const Slot& s : old) {
    if (!s.used) continue;
    std::size_t i = s.hash & mask_;
    while (slots_[i].used) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

void KeyIndex::put(const unsigned char* key, uint32_t key_len, const Location& loc) {
  if ((count_ + 1) * 3 > slots_.size() * 2) rehash(slots_.size() * 2);
  const uint64_t h = xxh64(key, key_len, 0x6d656d7461626c65ull);
  std::size_t i = h & mask_;
  while (slots_[i].used) {
    Slot& s = slots_[i];
    if (s.hash == h && s.key_len == key_len && std::memcmp(keys_.data() + s.key_offset, key, key_len) == 0) {
      if (loc.seq >= s.loc.seq) s.loc = loc;
      return;
    }
    i = (i + 1) & mask_;
  }
  Slot& s = slots_[i];
  s.used = true;
  s.hash = h;
  s.key_len = key_len;
  s.key_offset = keys_.size();
  keys_.insert(keys_.end(), key, key + key_len);
  s.loc = loc;
  ++count_;
}

const Location* KeyIndex::find(const unsigned char* key, uint32_t key_len) const {
  const uint64_t h = xxh64(key, key_len, 0x6d656d7461626c65ull);
  std::size_t i = h & mask_;
  while (slots_[i].used) {
    const Slot& s = slots_[i];
    if (s.hash == h && s.key_len == key_len && std::memcmp(keys_.data() + s.key_offset, key, key_len) == 0)
      return &s.loc;
    i = (i + 1) & mask_;
  }
  return nullptr;
}

}  // namespace howfast
