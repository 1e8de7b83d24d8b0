// Hash loops over the maintained libraries (OpenSSL's libcrypto EVP, libxxhash,
// libmurmurhash, ISA-L), the CPU's crc32 instruction, and two hashes written here
// (FNV-1a 64, the Linux kernel's jhash). Each library is optional at build time: an
// algorithm whose library is missing reports why in algorithm_support().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// Every algorithm id, in the chapter's order; the value is "" when this build and CPU
// can run it, else the reason it cannot.
std::map<std::string, std::string> hash_algorithm_support();

// The library's output for `data` (bytes; see _native.pyi for each algorithm's byte order).
std::vector<uint8_t> hash_digest(const std::string& algorithm, const uint8_t* data, size_t size, uint64_t seed);

struct HashLoopResult {
  uint64_t elapsed_ns = 0;
  uint64_t checksum = 0;  // wrapping sum of each hash's first word, so no hash can be skipped
  uint64_t bytes = 0;
  uint64_t iterations = 0;
};

// The most hashes one hash_loop call takes (2**40: about 20 minutes of the fastest hash on
// 16 bytes, far beyond what a plan's calibration asks for).
constexpr int64_t kMaxHashIterations = int64_t(1) << 40;

// Hashes `data` `iterations` times (seed + i on iteration i, for the seeded hashes), timing the loop.
HashLoopResult hash_loop(const std::string& algorithm, const uint8_t* data, size_t size, uint64_t iterations,
                         uint64_t seed, Poller& poller);

// The libraries this module was built with and their versions ("" when absent).
std::map<std::string, std::string> hash_library_versions();


// The checksum word of one digest, as hash_loop sums it.
uint64_t hash_word(const std::string& algorithm, const std::vector<uint8_t>& digest);

// Written here (the chapter says so): FNV-1a 64 and the kernel's jhash (include/linux/jhash.h).
uint64_t fnv1a_64(const uint8_t* data, size_t size, uint64_t seed);
uint32_t jhash(const uint8_t* data, uint32_t size, uint32_t initval);

}  // namespace howfast
