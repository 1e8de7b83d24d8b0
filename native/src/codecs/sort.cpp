#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "codecs/codecs.hpp"
#include "common/errors.hpp"

namespace howfast {

namespace {

// LSD radix sort, 8 passes of one byte each, least significant first. One counting pass
// finds every byte's histogram; a byte that is the same in every value (all its count in
// one bucket) is skipped, so sorted-in-a-narrow-range inputs cost fewer passes.
void radix_lsd(uint64_t* values, size_t n, uint64_t* scratch) {
  std::array<std::array<size_t, 256>, 8> counts{};
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = values[i];
    for (int d = 0; d < 8; ++d) ++counts[d][(v >> (8 * d)) & 0xFF];
  }
  uint64_t* from = values;
  uint64_t* to = scratch;
  for (int d = 0; d < 8; ++d) {
    auto& c = counts[d];
    if (c[(from[0] >> (8 * d)) & 0xFF] == n) continue;  // every value has this byte: nothing to move
    size_t sum = 0;
    for (auto& x : c) {
      size_t k = x;
      x = sum;
      sum += k;
    }
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = from[i];
      to[c[(v >> (8 * d)) & 0xFF]++] = v;
    }
    std::swap(from, to);
  }
  if (from != values) std::memcpy(values, from, n * sizeof(uint64_t));
}

uint64_t wrapping_sum(const uint64_t* v, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) s += v[i];
  return s;
}

}  // namespace

const std::vector<std::string>& sort_algorithms() {
  static const std::vector<std::string> ids = {"std_sort", "std_stable_sort", "radix_lsd"};
  return ids;
}

void sort_u64(const std::string& algorithm, uint64_t* values, size_t n, uint64_t* scratch) {
  if (n < 2) return;
  if (algorithm == "std_sort") {
    std::sort(values, values + n);
  } else if (algorithm == "std_stable_sort") {
    std::stable_sort(values, values + n);
  } else if (algorithm == "radix_lsd") {
    radix_lsd(values, n, scratch);
  } else {
    throw std::invalid_argument("algorithm: unknown sort " + algorithm + "; choose one of std_sort, std_stable_sort, radix_lsd");
  }
}

SortLoopResult sort_loop(const std::string& algorithm, const uint64_t* input, size_t n, uint64_t iterations,
                         Poller& poller) {
  require(n > 0, "values: must not be empty");
  require(std::find(sort_algorithms().begin(), sort_algorithms().end(), algorithm) != sort_algorithms().end(),
          "algorithm: unknown sort " + algorithm + "; choose one of std_sort, std_stable_sort, radix_lsd");
  std::vector<uint64_t> work(n), scratch(n);
  const uint64_t want = wrapping_sum(input, n);
  SortLoopResult r;
  for (uint64_t i = 0; i < iterations; ++i) {
    std::memcpy(work.data(), input, n * sizeof(uint64_t));
    const uint64_t start = now_ns();
    sort_u64(algorithm, work.data(), n, scratch.data());
    r.elapsed_ns += now_ns() - start;
    if (!std::is_sorted(work.begin(), work.end())) throw std::runtime_error(algorithm + ": the output is not sorted");
    r.checksum = wrapping_sum(work.data(), n);
    if (r.checksum != want) throw std::runtime_error(algorithm + ": the output's sum differs from the input's (values lost or changed)");
    poller.maybe(now_ns());
  }
  r.elements = iterations * n;
  r.iterations = iterations;
  return r;
}

}  // namespace howfast
