#include "hashing/hashing.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "common/clock.hpp"
#include "common/errors.hpp"

#if HOWFAST_HAVE_LIBCRYPTO
#include <openssl/evp.h>
#endif
#if HOWFAST_HAVE_LIBXXHASH
#include <xxhash.h>
// libxxhash's runtime-dispatch entry points (xxh_x86dispatch.c: cpuid picks its SSE2, AVX2
// or AVX-512 loop), declared weak: a build of the library without them leaves them null.
extern "C" {
XXH64_hash_t XXH3_64bits_withSeed_dispatch(const void* input, size_t len, XXH64_hash_t seed) __attribute__((weak));
XXH128_hash_t XXH3_128bits_withSeed_dispatch(const void* input, size_t len, XXH64_hash_t seed) __attribute__((weak));
}
#endif
#if HOWFAST_HAVE_LIBMURMURHASH
#include <murmurhash.h>
#endif
#if HOWFAST_HAVE_LIBISAL
#include <isa-l/crc.h>
#endif
#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace howfast {

namespace {

// Algorithm id -> (library it needs, how the checksum word is read from its digest).
enum class Family { Evp, Xxh, Murmur, Isal, Sse42, Written };

struct Algo {
  Family family;
  const char* evp_name;  // OpenSSL's name, for Family::Evp
};

const std::map<std::string, Algo>& algos() {
  static const std::map<std::string, Algo> table = {
      {"sha3-256", {Family::Evp, "SHA3-256"}},   {"sha256", {Family::Evp, "SHA256"}},
      {"sha1", {Family::Evp, "SHA1"}},           {"md5", {Family::Evp, "MD5"}},
      {"blake2b512", {Family::Evp, "BLAKE2B-512"}}, {"xxh64", {Family::Xxh, nullptr}},
      {"xxh3_64", {Family::Xxh, nullptr}},       {"xxh3_128", {Family::Xxh, nullptr}},
      {"xxh3_64_dispatch", {Family::Xxh, nullptr}}, {"xxh3_128_dispatch", {Family::Xxh, nullptr}},
      {"murmur3_x64_128", {Family::Murmur, nullptr}}, {"crc32c_isal", {Family::Isal, nullptr}},
      {"crc32c_sse42", {Family::Sse42, nullptr}}, {"fnv1a_64", {Family::Written, nullptr}},
      {"jhash", {Family::Written, nullptr}},
  };
  return table;
}

const Algo& find(const std::string& algorithm) {
  auto it = algos().find(algorithm);
  if (it == algos().end()) {
    std::string known;
    for (const auto& [name, _] : algos()) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("algorithm: unknown hash " + algorithm + "; choose one of " + known);
  }
  return it->second;
}

bool cpu_has_sse42() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

bool has_dispatch() {
#if HOWFAST_HAVE_LIBXXHASH && defined(__x86_64__)
  return XXH3_64bits_withSeed_dispatch != nullptr && XXH3_128bits_withSeed_dispatch != nullptr;
#else
  return false;
#endif
}

bool is_dispatch(const std::string& algorithm) { return algorithm.size() > 9 && algorithm.compare(algorithm.size() - 9, 9, "_dispatch") == 0; }

std::string why_not(const Algo& a);

std::string why_not(const std::string& algorithm, const Algo& a) {
  std::string reason = why_not(a);
  if (reason.empty() && is_dispatch(algorithm) && !has_dispatch())
    return "this libxxhash has no runtime-dispatch entry points (XXH3_64bits_withSeed_dispatch)";
  return reason;
}

std::string why_not(const Algo& a) {
  switch (a.family) {
    case Family::Evp:
#if HOWFAST_HAVE_LIBCRYPTO
      return "";
#else
      return "built without OpenSSL's libcrypto (install libssl-dev and rebuild)";
#endif
    case Family::Xxh:
#if HOWFAST_HAVE_LIBXXHASH
      return "";
#else
      return "built without libxxhash (install libxxhash-dev and rebuild)";
#endif
    case Family::Murmur:
#if HOWFAST_HAVE_LIBMURMURHASH
      return "";
#else
      return "built without libmurmurhash (install libmurmurhash-dev and rebuild)";
#endif
    case Family::Isal:
#if HOWFAST_HAVE_LIBISAL
      return "";
#else
      return "built without ISA-L (install libisal-dev and rebuild)";
#endif
    case Family::Sse42:
#if defined(__x86_64__)
      return cpu_has_sse42() ? "" : "this CPU has no SSE4.2 crc32 instruction (cpuid)";
#else
      return "the crc32 instruction loop is x86-64 only";
#endif
    case Family::Written:
      return "";
  }
  return "unknown";
}

uint64_t load_le(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

uint64_t load_be(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

std::vector<uint8_t> be_bytes(uint64_t v, size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[n - 1 - i] = uint8_t(v >> (8 * i));
  return out;
}

inline uint32_t rol32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

#if defined(__x86_64__)
// Standard CRC32C (Castagnoli), continuing from `crc`: one crc32 instruction per 8 bytes.
__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(const uint8_t* p, size_t n, uint32_t crc) {
  uint64_t c = ~crc;
  while (n >= 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    c = _mm_crc32_u64(c, v);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  while (n--) c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}
#endif

#if HOWFAST_HAVE_LIBCRYPTO
// One fetched EVP_MD and one reused context: what a careful program does (no implicit
// fetch per call, no allocation in the loop).
struct Evp {
  EVP_MD* md = nullptr;
  EVP_MD_CTX* ctx = nullptr;
  explicit Evp(const char* name) {
    md = EVP_MD_fetch(nullptr, name, nullptr);
    ctx = EVP_MD_CTX_new();
    if (!md || !ctx) {
      release();
      throw std::runtime_error(std::string("OpenSSL could not fetch ") + name);
    }
  }
  ~Evp() { release(); }
  Evp(const Evp&) = delete;
  Evp& operator=(const Evp&) = delete;
  void release() {
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
    ctx = nullptr;
    md = nullptr;
  }
  unsigned digest(const uint8_t* data, size_t size, uint8_t* out) {
    unsigned len = 0;
    if (EVP_DigestInit_ex2(ctx, md, nullptr) != 1 || EVP_DigestUpdate(ctx, data, size) != 1 ||
        EVP_DigestFinal_ex(ctx, out, &len) != 1)
      throw std::runtime_error("OpenSSL digest failed");
    return len;
  }
};
#endif

template <typename F>
HashLoopResult timed(F&& f, size_t size, uint64_t iterations, uint64_t seed, Poller& poller) {
  // Ctrl-C is polled every `chunk` hashes (at most 64 MiB or 65536 hashes apart).
  const uint64_t chunk = std::max<uint64_t>(1, std::min<uint64_t>(65536, (64u << 20) / std::max<size_t>(size, 1)));
  HashLoopResult r;
  uint64_t sum = 0;
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations;) {
    const uint64_t end = std::min(iterations, i + chunk);
    for (; i < end; ++i) sum += f(seed + i);
    if (i < iterations) poller.maybe(now_ns());
  }
  r.elapsed_ns = now_ns() - start;
  r.checksum = sum;
  r.iterations = iterations;
  r.bytes = iterations * size;
  return r;
}

}  // namespace

uint64_t fnv1a_64(const uint8_t* data, size_t size, uint64_t seed) {
  uint64_t h = 0xcbf29ce484222325ull ^ seed;  // the offset basis (seed 0: the published FNV-1a)
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// include/linux/jhash.h (Bob Jenkins' lookup3, as the kernel has it).
uint32_t jhash(const uint8_t* k, uint32_t length, uint32_t initval) {
  uint32_t a, b, c;
  a = b = c = 0xdeadbeef + length + initval;
  auto mix = [&] {
    a -= c; a ^= rol32(c, 4);  c += b;
    b -= a; b ^= rol32(a, 6);  a += c;
    c -= b; c ^= rol32(b, 8);  b += a;
    a -= c; a ^= rol32(c, 16); c += b;
    b -= a; b ^= rol32(a, 19); a += c;
    c -= b; c ^= rol32(b, 4);  b += a;
  };
  auto get32 = [](const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;  // little-endian machines, as the kernel's __get_unaligned_cpu32
  };
  while (length > 12) {
    a += get32(k);
    b += get32(k + 4);
    c += get32(k + 8);
    mix();
    length -= 12;
    k += 12;
  }
  switch (length) {
    case 12: c += uint32_t(k[11]) << 24; [[fallthrough]];
    case 11: c += uint32_t(k[10]) << 16; [[fallthrough]];
    case 10: c += uint32_t(k[9]) << 8; [[fallthrough]];
    case 9: c += k[8]; [[fallthrough]];
    case 8: b += uint32_t(k[7]) << 24; [[fallthrough]];
    case 7: b += uint32_t(k[6]) << 16; [[fallthrough]];
    case 6: b += uint32_t(k[5]) << 8; [[fallthrough]];
    case 5: b += k[4]; [[fallthrough]];
    case 4: a += uint32_t(k[3]) << 24; [[fallthrough]];
    case 3: a += uint32_t(k[2]) << 16; [[fallthrough]];
    case 2: a += uint32_t(k[1]) << 8; [[fallthrough]];
    case 1:
      a += k[0];
      c ^= b; c -= rol32(b, 14);
      a ^= c; a -= rol32(c, 11);
      b ^= a; b -= rol32(a, 25);
      c ^= b; c -= rol32(b, 16);
      a ^= c; a -= rol32(c, 4);
      b ^= a; b -= rol32(a, 14);
      c ^= b; c -= rol32(b, 24);
      break;
    case 0:
      break;
  }
  return c;
}

std::map<std::string, std::string> hash_algorithm_support() {
  std::map<std::string, std::string> out;
  for (const auto& [name, a] : algos()) out[name] = why_not(name, a);
  return out;
}

uint64_t hash_word(const std::string& algorithm, const std::vector<uint8_t>& d) {
  const Algo& a = find(algorithm);
  if (a.family == Family::Evp || a.family == Family::Murmur) return load_le(d.data(), d.size());
  if (algorithm == "xxh3_128" || algorithm == "xxh3_128_dispatch") {
    require(d.size() == 16, "digest: an XXH3-128 digest has 16 bytes");
    return load_be(d.data() + 8, 8);
  }
  return load_be(d.data(), d.size());
}

std::vector<uint8_t> hash_digest(const std::string& algorithm, const uint8_t* data, size_t size, uint64_t seed) {
  const Algo& a = find(algorithm);
  const std::string reason = why_not(algorithm, a);
  if (!reason.empty()) throw std::runtime_error(algorithm + " is unsupported: " + reason);
  require(size <= 0x7fffffffu, "data: at most 2 GiB - 1 bytes (the libraries take an int length)");
  switch (a.family) {
#if HOWFAST_HAVE_LIBCRYPTO
    case Family::Evp: {
      Evp evp(a.evp_name);
      std::vector<uint8_t> out(EVP_MAX_MD_SIZE);
      out.resize(evp.digest(data, size, out.data()));
      return out;
    }
#endif
#if HOWFAST_HAVE_LIBXXHASH
    case Family::Xxh: {
      if (algorithm == "xxh64") return be_bytes(XXH64(data, size, seed), 8);
      if (algorithm == "xxh3_64") return be_bytes(XXH3_64bits_withSeed(data, size, seed), 8);
      if (algorithm == "xxh3_64_dispatch") return be_bytes(XXH3_64bits_withSeed_dispatch(data, size, seed), 8);
      XXH128_hash_t h = algorithm == "xxh3_128" ? XXH3_128bits_withSeed(data, size, seed)
                                                : XXH3_128bits_withSeed_dispatch(data, size, seed);
      std::vector<uint8_t> out = be_bytes(h.high64, 8);
      std::vector<uint8_t> low = be_bytes(h.low64, 8);
      out.insert(out.end(), low.begin(), low.end());
      return out;
    }
#endif
#if HOWFAST_HAVE_LIBMURMURHASH
    case Family::Murmur: {
      uint64_t h[2];
      lmmh_x64_128(data, static_cast<unsigned>(size), static_cast<uint32_t>(seed), h);
      std::vector<uint8_t> out(16);
      std::memcpy(out.data(), h, 16);
      return out;
    }
#endif
#if HOWFAST_HAVE_LIBISAL
    case Family::Isal:
      return be_bytes(~crc32_iscsi(const_cast<uint8_t*>(data), static_cast<int>(size), ~static_cast<uint32_t>(seed)), 4);
#endif
#if defined(__x86_64__)
    case Family::Sse42:
      return be_bytes(crc32c_sse42(data, size, static_cast<uint32_t>(seed)), 4);
#endif
    case Family::Written:
      if (algorithm == "fnv1a_64") return be_bytes(fnv1a_64(data, size, seed), 8);
      return be_bytes(jhash(data, static_cast<uint32_t>(size), static_cast<uint32_t>(seed)), 4);
    default:
      break;
  }
  throw std::runtime_error(algorithm + " is unsupported in this build");
}

HashLoopResult hash_loop(const std::string& algorithm, const uint8_t* data, size_t size, uint64_t iterations,
                         uint64_t seed, Poller& poller) {
  const Algo& a = find(algorithm);
  const std::string reason = why_not(algorithm, a);
  if (!reason.empty()) throw std::runtime_error(algorithm + " is unsupported: " + reason);
  require(size >= 1, "data: must hold at least one byte");
  require(size <= 0x7fffffffu, "data: at most 2 GiB - 1 bytes (the libraries take an int length)");
  require(iterations >= 1, "iterations: must be at least 1");
  const uint8_t* p = data;
  switch (a.family) {
#if HOWFAST_HAVE_LIBCRYPTO
    case Family::Evp: {
      Evp evp(a.evp_name);
      uint8_t out[EVP_MAX_MD_SIZE];
      return timed(
          [&](uint64_t) {
            evp.digest(p, size, out);
            return load_le(out, 8);
          },
          size, iterations, seed, poller);
    }
#endif
#if HOWFAST_HAVE_LIBXXHASH
    case Family::Xxh:
      if (algorithm == "xxh64") return timed([&](uint64_t s) { return uint64_t(XXH64(p, size, s)); }, size, iterations, seed, poller);
      if (algorithm == "xxh3_64")
        return timed([&](uint64_t s) { return uint64_t(XXH3_64bits_withSeed(p, size, s)); }, size, iterations, seed, poller);
      if (algorithm == "xxh3_64_dispatch")
        return timed([&](uint64_t s) { return uint64_t(XXH3_64bits_withSeed_dispatch(p, size, s)); }, size, iterations,
                     seed, poller);
      if (algorithm == "xxh3_128")
        return timed([&](uint64_t s) { return uint64_t(XXH3_128bits_withSeed(p, size, s).low64); }, size, iterations,
                     seed, poller);
      return timed([&](uint64_t s) { return uint64_t(XXH3_128bits_withSeed_dispatch(p, size, s).low64); }, size,
                   iterations, seed, poller);
#endif
#if HOWFAST_HAVE_LIBMURMURHASH
    case Family::Murmur: {
      const unsigned n = static_cast<unsigned>(size);
      return timed(
          [&](uint64_t s) {
            uint64_t h[2];
            lmmh_x64_128(p, n, static_cast<uint32_t>(s), h);
            return h[0];
          },
          size, iterations, seed, poller);
    }
#endif
#if HOWFAST_HAVE_LIBISAL
    case Family::Isal: {
      const int n = static_cast<int>(size);
      auto* q = const_cast<uint8_t*>(p);  // ISA-L's prototype is not const; it only reads
      return timed([&](uint64_t s) { return uint64_t(~crc32_iscsi(q, n, ~static_cast<uint32_t>(s))); }, size, iterations,
                   seed, poller);
    }
#endif
#if defined(__x86_64__)
    case Family::Sse42:
      return timed([&](uint64_t s) { return uint64_t(crc32c_sse42(p, size, static_cast<uint32_t>(s))); }, size,
                   iterations, seed, poller);
#endif
    case Family::Written:
      if (algorithm == "fnv1a_64") return timed([&](uint64_t s) { return fnv1a_64(p, size, s); }, size, iterations, seed, poller);
      return timed([&](uint64_t s) { return uint64_t(jhash(p, static_cast<uint32_t>(size), static_cast<uint32_t>(s))); },
                   size, iterations, seed, poller);
    default:
      break;
  }
  throw std::runtime_error(algorithm + " is unsupported in this build");
}

#ifndef HOWFAST_MURMURHASH_VERSION
#define HOWFAST_MURMURHASH_VERSION ""
#endif
#ifndef HOWFAST_ISAL_VERSION
#define HOWFAST_ISAL_VERSION ""
#endif

std::map<std::string, std::string> hash_library_versions() {
  std::map<std::string, std::string> out = {
      {"libcrypto", ""}, {"libxxhash", ""}, {"libmurmurhash", ""}, {"libisal", ""}};
#if HOWFAST_HAVE_LIBCRYPTO
  out["libcrypto"] = OpenSSL_version(OPENSSL_VERSION);
#endif
#if HOWFAST_HAVE_LIBXXHASH
  const unsigned v = XXH_versionNumber();
  out["libxxhash"] = std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
#endif
#if HOWFAST_HAVE_LIBMURMURHASH
  out["libmurmurhash"] = HOWFAST_MURMURHASH_VERSION;
#endif
#if HOWFAST_HAVE_LIBISAL
  out["libisal"] = HOWFAST_ISAL_VERSION;
#endif
  return out;
}

}  // namespace howfast
