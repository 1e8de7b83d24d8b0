// Compression through the maintained libraries (libzstd, liblz4, libsnappy, zlib,
// libbrotli) and sorting of 64-bit integers (std::sort, std::stable_sort and an LSD radix
// sort written here). Each compression library is optional at build time: a codec whose
// library is missing reports why in codec_support().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// Every codec id ("zstd", "lz4", "lz4hc", "snappy", "zlib", "brotli") mapped to "" when
// this build can run it, else the reason it cannot.
std::map<std::string, std::string> codec_support();
// The compression libraries this module was built with and their versions ("" when absent).
std::map<std::string, std::string> codec_libraries();
// The levels a codec accepts: {lowest, highest}; lz4 and snappy take level 0 only (their default).
std::pair<int, int> codec_levels(const std::string& codec);

// One buffer compressed in independent blocks of `block` bytes (0: one block), each block
// a complete stream of the codec; `sizes` holds each block's compressed size.
std::vector<uint8_t> compress_blocks(const std::string& codec, int level, const uint8_t* data, size_t size,
                                     size_t block, std::vector<size_t>& sizes);
// The inverse: `size` bytes back from blocks of `block` bytes (the last may be shorter).
std::vector<uint8_t> decompress_blocks(const std::string& codec, const uint8_t* packed, size_t packed_size,
                                       const std::vector<size_t>& sizes, size_t size, size_t block);

struct CodecLoopResult {
  uint64_t elapsed_ns = 0;
  uint64_t bytes = 0;        // input bytes processed (iterations × size)
  uint64_t compressed = 0;   // compressed size of one pass
  uint64_t checksum = 0;     // sum of every pass's output size, so no pass can be skipped
  uint64_t iterations = 0;
  bool round_trip = false;   // the last pass's output decompressed (or was) byte for byte the input
};

// Compresses `data` in blocks `iterations` times, timed; then decompresses the last pass
// (untimed) and compares it with `data` byte for byte (a mismatch throws).
CodecLoopResult compress_loop(const std::string& codec, int level, const uint8_t* data, size_t size, size_t block,
                              uint64_t iterations, Poller& poller);
// Compresses `data` once (untimed), then decompresses it `iterations` times, timed; every
// block's size is checked in the loop and the last pass compared with `data` byte for byte.
CodecLoopResult decompress_loop(const std::string& codec, int level, const uint8_t* data, size_t size, size_t block,
                                uint64_t iterations, Poller& poller);
// Decompresses `packed` (``compress_blocks`` of `data` with `sizes`) `iterations` times,
// timed, after one untimed pass compared with `data`; the last pass compared again. A slow
// level is compressed once for all of a measurement's calls, not once per call.
CodecLoopResult decompress_packed_loop(const std::string& codec, int level, const uint8_t* packed, size_t packed_size,
                                       const std::vector<size_t>& sizes, const uint8_t* data, size_t size,
                                       size_t block, uint64_t iterations, Poller& poller);

// ---- sorting ----

// "std_sort", "std_stable_sort", "radix_lsd".
const std::vector<std::string>& sort_algorithms();
// Sorts `values` in place (`scratch`: n more words, used by the radix sort).
void sort_u64(const std::string& algorithm, uint64_t* values, size_t n, uint64_t* scratch);

struct SortLoopResult {
  uint64_t elapsed_ns = 0;   // the sorts alone (copying the input back in is not timed)
  uint64_t elements = 0;     // iterations × n
  uint64_t iterations = 0;
  uint64_t checksum = 0;     // wrapping sum of the sorted output, equal to the input's
};

// Copies `input` into a work buffer and sorts it, `iterations` times; after each sort the
// order and the sum are checked (a failure throws).
SortLoopResult sort_loop(const std::string& algorithm, const uint64_t* input, size_t n, uint64_t iterations,
                         Poller& poller);

}  // namespace howfast
