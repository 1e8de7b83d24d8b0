// The memtable's key index: each key's latest location (segment file and offset, or a
// memtable buffer that still holds it). Open addressing with linear probing; keys are
// copied into one arena. reserve() sizes both up front so the benchmark's timed loop
// inserts without allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace howfast {

struct Location {
  uint64_t seq = 0;      // the record's sequence number: the newest one wins
  uint64_t segment = 0;  // segment file id
  uint64_t offset = 0;   // byte offset of the record in that file
  uint32_t length = 0;   // framed record length
};

class KeyIndex {
 public:
  KeyIndex() { rehash(64); }
  void reserve(std::size_t keys, std::size_t key_bytes);
  // Maps key -> loc unless the key already maps to a record with a larger seq.
  void put(const unsigned char* key, uint32_t key_len, const Location& loc);
  const Location* find(const unsigned char* key, uint32_t key_len) const;
  std::size_t size() const noexcept { return count_; }

  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.used) f(keys_.data() + s.key_offset, s.key_len, s.loc);
  }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint64_t key_offset = 0;
    uint32_t key_len = 0;
    bool used = false;
    Location loc;
  };
  void rehash(std::size_t slots);
  std::vector<Slot> slots_;
  std::vector<unsigned char> keys_;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace howfast
