#include <cstring>
#include <memory>
#include <stdexcept>

#include "codecs/codecs.hpp"
#include "common/errors.hpp"

#if HOWFAST_HAVE_ZSTD
#include <zstd.h>
#endif
#if HOWFAST_HAVE_LZ4
#include <lz4.h>
#include <lz4hc.h>
#endif
#if HOWFAST_HAVE_SNAPPY
#include <snappy-c.h>
#endif
#if HOWFAST_HAVE_ZLIB
#include <zlib.h>
#endif
#if HOWFAST_HAVE_BROTLI
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif

namespace howfast {

namespace {

// One codec with its reusable state (contexts, work memory), made once before a loop.
class Codec {
 public:
  virtual ~Codec() = default;
  virtual size_t bound(size_t n) const = 0;
  // Compresses src into dst (capacity cap); returns the compressed size.
  virtual size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) = 0;
  // Decompresses src into dst (capacity cap); returns the decompressed size.
  virtual size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) = 0;
};

[[noreturn]] void fail(const std::string& codec, const std::string& what) {
  throw std::runtime_error(codec + ": " + what);
}

#if HOWFAST_HAVE_ZSTD
class Zstd : public Codec {
 public:
  explicit Zstd(int level) : level_(level), c_(ZSTD_createCCtx()), d_(ZSTD_createDCtx()) {
    if (!c_ || !d_) fail("zstd", "could not create a context");
  }
  ~Zstd() override {
    ZSTD_freeCCtx(c_);
    ZSTD_freeDCtx(d_);
  }
  Zstd(const Zstd&) = delete;
  Zstd& operator=(const Zstd&) = delete;
  size_t bound(size_t n) const override { return ZSTD_compressBound(n); }
  size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    return check(ZSTD_compressCCtx(c_, dst, cap, src, n, level_), "ZSTD_compressCCtx");
  }
  size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    return check(ZSTD_decompressDCtx(d_, dst, cap, src, n), "ZSTD_decompressDCtx");
  }

 private:
  static size_t check(size_t r, const char* call) {
    if (ZSTD_isError(r)) fail("zstd", std::string(call) + ": " + ZSTD_getErrorName(r));
    return r;
  }
  int level_;
  ZSTD_CCtx* c_;
  ZSTD_DCtx* d_;
};
#endif

#if HOWFAST_HAVE_LZ4
// lz4's fast mode (acceleration 1, what `lz4 -1` runs) or LZ4_HC at a level.
class Lz4 : public Codec {
 public:
  explicit Lz4(int hc_level) : hc_(hc_level), state_(hc_level ? LZ4_sizeofStateHC() : LZ4_sizeofState()) {}
  size_t bound(size_t n) const override { return static_cast<size_t>(LZ4_compressBound(int_size(n))); }
  size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    const char* s = reinterpret_cast<const char*>(src);
    char* d = reinterpret_cast<char*>(dst);
    int r = hc_ ? LZ4_compress_HC_extStateHC(state_.data(), s, d, int_size(n), int_size(cap), hc_)
                : LZ4_compress_fast_extState(state_.data(), s, d, int_size(n), int_size(cap), 1);
    if (r <= 0) fail(hc_ ? "lz4hc" : "lz4", "compression failed (output too small?)");
    return static_cast<size_t>(r);
  }
  size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    int r = LZ4_decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst), int_size(n),
                                int_size(cap));
    if (r < 0) fail("lz4", "LZ4_decompress_safe: corrupt input (" + std::to_string(r) + ")");
    return static_cast<size_t>(r);
  }

 private:
  static int int_size(size_t n) {
    if (n > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) fail("lz4", "a block larger than LZ4_MAX_INPUT_SIZE");
    return static_cast<int>(n);
  }
  int hc_;
  std::vector<char> state_;  // LZ4 keeps its hash table here: no allocation per call
};
#endif

#if HOWFAST_HAVE_SNAPPY
class Snappy : public Codec {
 public:
  size_t bound(size_t n) const override { return snappy_max_compressed_length(n); }
  size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    size_t out = cap;
    if (snappy_compress(reinterpret_cast<const char*>(src), n, reinterpret_cast<char*>(dst), &out) != SNAPPY_OK)
      fail("snappy", "snappy_compress failed");
    return out;
  }
  size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    size_t out = cap;
    if (snappy_uncompress(reinterpret_cast<const char*>(src), n, reinterpret_cast<char*>(dst), &out) != SNAPPY_OK)
      fail("snappy", "snappy_uncompress: corrupt input or output too small");
    return out;
  }
};
#endif

#if HOWFAST_HAVE_ZLIB
// zlib's deflate (the zlib format, as gzip's stream without its header), one deflate and
// one inflate state reset per block rather than set up again (compress2 would allocate).
class Zlib : public Codec {
 public:
  explicit Zlib(int level) {
    if (deflateInit(&def_, level) != Z_OK) fail("zlib", "deflateInit failed");
    if (inflateInit(&inf_) != Z_OK) {
      deflateEnd(&def_);
      fail("zlib", "inflateInit failed");
    }
  }
  ~Zlib() override {
    deflateEnd(&def_);
    inflateEnd(&inf_);
  }
  Zlib(const Zlib&) = delete;
  Zlib& operator=(const Zlib&) = delete;
  size_t bound(size_t n) const override { return compressBound(static_cast<uLong>(n)); }
  size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    if (deflateReset(&def_) != Z_OK) fail("zlib", "deflateReset failed");
    def_.next_in = const_cast<Bytef*>(src);
    def_.avail_in = static_cast<uInt>(n);
    def_.next_out = dst;
    def_.avail_out = static_cast<uInt>(cap);
    if (deflate(&def_, Z_FINISH) != Z_STREAM_END) fail("zlib", std::string("deflate: ") + (def_.msg ? def_.msg : "output too small"));
    return cap - def_.avail_out;
  }
  size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    if (inflateReset(&inf_) != Z_OK) fail("zlib", "inflateReset failed");
    inf_.next_in = const_cast<Bytef*>(src);
    inf_.avail_in = static_cast<uInt>(n);
    inf_.next_out = dst;
    inf_.avail_out = static_cast<uInt>(cap);
    if (inflate(&inf_, Z_FINISH) != Z_STREAM_END) fail("zlib", std::string("inflate: ") + (inf_.msg ? inf_.msg : "corrupt input or output too small"));
    return cap - inf_.avail_out;
  }

 private:
  z_stream def_{};
  z_stream inf_{};
};
#endif

#if HOWFAST_HAVE_BROTLI
// Brotli's one-shot calls (what the `brotli` tool's library offers for a buffer): each
// call sets up its own state, so some allocation happens inside the library.
class Brotli : public Codec {
 public:
  explicit Brotli(int level) : level_(level) {}
  size_t bound(size_t n) const override {
    size_t b = BrotliEncoderMaxCompressedSize(n);
    if (b == 0) fail("brotli", "input too large for BrotliEncoderMaxCompressedSize");
    return b;
  }
  size_t compress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    size_t out = cap;
    if (!BrotliEncoderCompress(level_, BROTLI_DEFAULT_WINDOW, BROTLI_DEFAULT_MODE, n, src, &out, dst))
      fail("brotli", "BrotliEncoderCompress failed");
    return out;
  }
  size_t decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t cap) override {
    size_t out = cap;
    if (BrotliDecoderDecompress(n, src, &out, dst) != BROTLI_DECODER_RESULT_SUCCESS)
      fail("brotli", "BrotliDecoderDecompress: corrupt input or output too small");
    return out;
  }

 private:
  int level_;
};
#endif

const std::vector<std::string>& codec_ids() {
  static const std::vector<std::string> ids = {"zstd", "lz4", "lz4hc", "snappy", "zlib", "brotli"};
  return ids;
}

void check_codec(const std::string& codec) {
  for (const auto& id : codec_ids())
    if (id == codec) return;
  std::string known;
  for (const auto& id : codec_ids()) known += (known.empty() ? "" : ", ") + id;
  throw std::invalid_argument("codec: unknown codec " + codec + "; choose one of " + known);
}

std::unique_ptr<Codec> make_codec(const std::string& codec, int level) {
  auto [lo, hi] = codec_levels(codec);
  require(level >= lo && level <= hi, "level: " + codec + " takes levels " + std::to_string(lo) + " to " +
                                          std::to_string(hi) + ", got " + std::to_string(level));
  std::string reason = codec_support().at(codec);
  if (!reason.empty()) throw std::invalid_argument("codec: " + codec + " cannot run here: " + reason);
#if HOWFAST_HAVE_ZSTD
  if (codec == "zstd") return std::make_unique<Zstd>(level);
#endif
#if HOWFAST_HAVE_LZ4
  if (codec == "lz4") return std::make_unique<Lz4>(0);
  if (codec == "lz4hc") return std::make_unique<Lz4>(level);
#endif
#if HOWFAST_HAVE_SNAPPY
  if (codec == "snappy") return std::make_unique<Snappy>();
#endif
#if HOWFAST_HAVE_ZLIB
  if (codec == "zlib") return std::make_unique<Zlib>(level);
#endif
#if HOWFAST_HAVE_BROTLI
  if (codec == "brotli") return std::make_unique<Brotli>(level);
#endif
  throw std::invalid_argument("codec: " + codec + " cannot run here");
}

size_t block_of(size_t size, size_t block) { return block == 0 || block > size ? size : block; }

// Output space for every block at its worst case, laid out block after block.
size_t packed_capacity(const Codec& c, size_t size, size_t block) {
  size_t total = 0;
  for (size_t at = 0; at < size; at += block) total += c.bound(std::min(block, size - at));
  return total;
}

// One pass: every block compressed into `out`; returns the total compressed size.
size_t compress_pass(Codec& c, const uint8_t* data, size_t size, size_t block, uint8_t* out, size_t cap,
                     size_t* sizes) {
  size_t used = 0, i = 0;
  for (size_t at = 0; at < size; at += block, ++i) {
    sizes[i] = c.compress(data + at, std::min(block, size - at), out + used, cap - used);
    used += sizes[i];
  }
  return used;
}

// One pass back: every block decompressed into `out`, each checked for its size.
size_t decompress_pass(Codec& c, const uint8_t* packed, const size_t* sizes, size_t size, size_t block,
                       uint8_t* out) {
  size_t used = 0, i = 0, total = 0;
  for (size_t at = 0; at < size; at += block, ++i) {
    size_t want = std::min(block, size - at);
    size_t got = c.decompress(packed + used, sizes[i], out + at, want);
    if (got != want) fail("round trip", "a block decompressed to " + std::to_string(got) + " bytes, expected " + std::to_string(want));
    used += sizes[i];
    total += got;
  }
  return total;
}

void check_same(const uint8_t* a, const uint8_t* b, size_t n, const std::string& codec) {
  if (std::memcmp(a, b, n) != 0) fail(codec, "round trip: the decompressed bytes differ from the input");
}

}  // namespace

std::map<std::string, std::string> codec_support() {
  [[maybe_unused]] auto missing = [](const char* lib, const char* package) {
    return std::string("built without ") + lib + " (install " + package + " and rebuild)";
  };
  std::map<std::string, std::string> out;
#if HOWFAST_HAVE_ZSTD
  out["zstd"] = "";
#else
  out["zstd"] = missing("libzstd", "libzstd-dev");
#endif
#if HOWFAST_HAVE_LZ4
  out["lz4"] = out["lz4hc"] = "";
#else
  out["lz4"] = out["lz4hc"] = missing("liblz4", "liblz4-dev");
#endif
#if HOWFAST_HAVE_SNAPPY
  out["snappy"] = "";
#else
  out["snappy"] = missing("libsnappy", "libsnappy-dev");
#endif
#if HOWFAST_HAVE_ZLIB
  out["zlib"] = "";
#else
  out["zlib"] = missing("zlib", "zlib1g-dev");
#endif
#if HOWFAST_HAVE_BROTLI
  out["brotli"] = "";
#else
  out["brotli"] = missing("libbrotli", "libbrotli-dev");
#endif
  return out;
}

std::map<std::string, std::string> codec_libraries() {
  std::map<std::string, std::string> out = {{"libzstd", ""}, {"liblz4", ""}, {"libsnappy", ""}, {"zlib", ""}, {"libbrotli", ""}};
#if HOWFAST_HAVE_ZSTD
  out["libzstd"] = ZSTD_versionString();
#endif
#if HOWFAST_HAVE_LZ4
  out["liblz4"] = LZ4_versionString();
#endif
#if HOWFAST_HAVE_SNAPPY && defined(HOWFAST_SNAPPY_VERSION)
  out["libsnappy"] = HOWFAST_SNAPPY_VERSION;
#endif
#if HOWFAST_HAVE_ZLIB
  out["zlib"] = zlibVersion();
#endif
#if HOWFAST_HAVE_BROTLI
  uint32_t v = BrotliEncoderVersion();
  out["libbrotli"] = std::to_string(v >> 24) + "." + std::to_string((v >> 12) & 0xFFF) + "." + std::to_string(v & 0xFFF);
#endif
  return out;
}

std::pair<int, int> codec_levels(const std::string& codec) {
  check_codec(codec);
  if (codec == "zstd") {
#if HOWFAST_HAVE_ZSTD
    return {1, ZSTD_maxCLevel()};
#else
    return {1, 19};
#endif
  }
  if (codec == "lz4hc") return {1, 12};
  if (codec == "zlib") return {1, 9};
  if (codec == "brotli") return {0, 11};
  return {0, 0};
}

std::vector<uint8_t> compress_blocks(const std::string& codec, int level, const uint8_t* data, size_t size,
                                     size_t block, std::vector<size_t>& sizes) {
  auto c = make_codec(codec, level);
  block = block_of(size, block);
  std::vector<uint8_t> out(packed_capacity(*c, size, block) + 1);
  sizes.assign(size == 0 ? 0 : (size + block - 1) / block, 0);
  out.resize(compress_pass(*c, data, size, block, out.data(), out.size(), sizes.data()));
  return out;
}

// `sizes` must hold one compressed size per block of `size` bytes, adding up to `packed_size`.
void check_sizes(const std::vector<size_t>& sizes, size_t packed_size, size_t size, size_t block) {
  size_t blocks = size == 0 ? 0 : (size + block - 1) / block;
  require(sizes.size() == blocks, "sizes: " + std::to_string(size) + " bytes in blocks of " + std::to_string(block) +
                                      " make " + std::to_string(blocks) + " blocks, got " + std::to_string(sizes.size()));
  size_t total = 0;
  for (size_t s : sizes) total += s;
  require(total == packed_size,
          "sizes: they add up to " + std::to_string(total) + " bytes, packed holds " + std::to_string(packed_size));
}

std::vector<uint8_t> decompress_blocks(const std::string& codec, const uint8_t* packed, size_t packed_size,
                                       const std::vector<size_t>& sizes, size_t size, size_t block) {
  check_codec(codec);
  auto [lo, hi] = codec_levels(codec);
  (void)hi;
  auto c = make_codec(codec, lo);
  block = block_of(size, block);
  check_sizes(sizes, packed_size, size, block);
  std::vector<uint8_t> out(size);
  decompress_pass(*c, packed, sizes.data(), size, block, out.data());
  return out;
}

CodecLoopResult compress_loop(const std::string& codec, int level, const uint8_t* data, size_t size, size_t block,
                              uint64_t iterations, Poller& poller) {
  require(size > 0, "data: must not be empty");
  auto c = make_codec(codec, level);
  block = block_of(size, block);
  std::vector<uint8_t> out(packed_capacity(*c, size, block));
  std::vector<size_t> sizes((size + block - 1) / block);
  CodecLoopResult r;
  // one untimed pass first: the library sets up its tables and the output pages are touched
  compress_pass(*c, data, size, block, out.data(), out.size(), sizes.data());
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations; ++i) {
    r.compressed = compress_pass(*c, data, size, block, out.data(), out.size(), sizes.data());
    r.checksum += r.compressed;
    poller.maybe(now_ns());
  }
  r.elapsed_ns = now_ns() - start;
  r.bytes = iterations * size;
  r.iterations = iterations;
  std::vector<uint8_t> back(size);
  decompress_pass(*c, out.data(), sizes.data(), size, block, back.data());
  check_same(back.data(), data, size, codec);
  r.round_trip = true;
  return r;
}

CodecLoopResult decompress_packed_loop(const std::string& codec, int level, const uint8_t* packed, size_t packed_size,
                                       const std::vector<size_t>& sizes, const uint8_t* data, size_t size,
                                       size_t block, uint64_t iterations, Poller& poller) {
  require(size > 0, "data: must not be empty");
  auto c = make_codec(codec, level);
  block = block_of(size, block);
  check_sizes(sizes, packed_size, size, block);
  CodecLoopResult r;
  r.compressed = packed_size;
  std::vector<uint8_t> back(size);
  // untimed first pass: the output pages are touched, and packed is checked to be data's
  decompress_pass(*c, packed, sizes.data(), size, block, back.data());
  check_same(back.data(), data, size, codec);
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations; ++i) {
    r.checksum += decompress_pass(*c, packed, sizes.data(), size, block, back.data());
    poller.maybe(now_ns());
  }
  r.elapsed_ns = now_ns() - start;
  r.bytes = iterations * size;
  r.iterations = iterations;
  check_same(back.data(), data, size, codec);
  r.round_trip = true;
  return r;
}

CodecLoopResult decompress_loop(const std::string& codec, int level, const uint8_t* data, size_t size, size_t block,
                                uint64_t iterations, Poller& poller) {
  require(size > 0, "data: must not be empty");
  std::vector<size_t> sizes;
  std::vector<uint8_t> packed = compress_blocks(codec, level, data, size, block, sizes);
  return decompress_packed_loop(codec, level, packed.data(), packed.size(), sizes, data, size, block, iterations,
                                poller);
}

}  // namespace howfast
