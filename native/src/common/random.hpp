// The one pseudo-random generator of the benchmarks: SplitMix64 (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", 2014). Fast, seeded, and the same
// sequence on every machine, so a run's offsets and keys can be replayed and checked.
#pragma once

#include <cstdint>

namespace howfast {

// The next number of the sequence whose state is `state` (advanced).
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A uniform integer in [0, bound), without the bias of a modulo (Lemire's multiply-shift).
inline uint64_t below(uint64_t& state, uint64_t bound) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(splitmix64(state)) * bound) >> 64);
}

}  // namespace howfast
