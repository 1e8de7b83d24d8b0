#include "serial/serial.hpp"

#include <cstring>
#include <stdexcept>

#include "common/errors.hpp"

#if HOWFAST_HAVE_SIMDJSON
#include <simdjson.h>
#endif
#if HOWFAST_HAVE_RAPIDJSON
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#endif

namespace howfast {

bool RecordSums::operator==(const RecordSums& o) const {
  return records == o.records && ids == o.ids && statuses == o.statuses && bytes == o.bytes && ts == o.ts &&
         ms == o.ms && string_bytes == o.string_bytes && string_sum == o.string_sum;
}

namespace {

void add_string(RecordSums& s, std::string_view v) {
  s.string_bytes += v.size();
  for (unsigned char c : v) s.string_sum += c;
}

// One field of a record, by its key, into the sums (unknown keys are skipped).
template <typename Int, typename Dbl, typename Str>
void add_field(RecordSums& s, std::string_view key, Int as_int, Dbl as_double, Str as_string) {
  if (key == "id") s.ids += as_int();
  else if (key == "status") s.statuses += as_int();
  else if (key == "bytes") s.bytes += as_int();
  else if (key == "ts") s.ts += as_double();
  else if (key == "ms") s.ms += as_double();
  else if (key == "user" || key == "path") add_string(s, as_string());
}

#if HOWFAST_HAVE_SIMDJSON
RecordSums simdjson_sums(simdjson::ondemand::parser& parser, simdjson::padded_string& text) {
  RecordSums s;
  try {
    simdjson::ondemand::document doc = parser.iterate(text);
    for (simdjson::ondemand::object record : doc.get_array()) {
      for (auto field : record) {
        std::string_view key = field.unescaped_key();
        simdjson::ondemand::value v = field.value();
        add_field(s, key, [&] { return int64_t(v.get_int64()); }, [&] { return double(v.get_double()); },
                  [&] { return std::string_view(v.get_string()); });
      }
      ++s.records;
    }
  } catch (const simdjson::simdjson_error& e) {
    throw std::runtime_error(std::string("simdjson: ") + e.what());
  }
  return s;
}
#endif

#if HOWFAST_HAVE_RAPIDJSON
RecordSums rapidjson_sums(rapidjson::Document& doc, const std::string& text) {
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError())
    throw std::runtime_error("rapidjson: parse error " + std::to_string(doc.GetParseError()) + " at offset " +
                             std::to_string(doc.GetErrorOffset()));
  if (!doc.IsArray()) throw std::runtime_error("rapidjson: the text is not a JSON array of records");
  RecordSums s;
  for (const auto& record : doc.GetArray()) {
    if (!record.IsObject()) throw std::runtime_error("rapidjson: a record is not an object");
    for (const auto& m : record.GetObject()) {
      const auto& v = m.value;
      std::string_view key(m.name.GetString(), m.name.GetStringLength());
      auto need = [&](bool ok) {
        if (!ok) throw std::runtime_error("rapidjson: field " + std::string(key) + " has the wrong type");
      };
      add_field(s, key, [&] { need(v.IsInt64()); return v.GetInt64(); },
                [&] { need(v.IsNumber()); return v.GetDouble(); },
                [&] { need(v.IsString()); return std::string_view(v.GetString(), v.GetStringLength()); });
    }
    ++s.records;
  }
  return s;
}

void write_rapidjson(rapidjson::Writer<rapidjson::StringBuffer>& w, const std::vector<Record>& records) {
  w.StartArray();
  for (const Record& r : records) {
    w.StartObject();
    w.Key("id"); w.Int64(r.id);
    w.Key("ts"); w.Double(r.ts);
    w.Key("status"); w.Int64(r.status);
    w.Key("ms"); w.Double(r.ms);
    w.Key("bytes"); w.Int64(r.bytes);
    w.Key("user"); w.String(r.user.data(), static_cast<rapidjson::SizeType>(r.user.size()));
    w.Key("path"); w.String(r.path.data(), static_cast<rapidjson::SizeType>(r.path.size()));
    w.EndObject();
  }
  w.EndArray();
}
#endif

// ---- the binary dump: u64 count, then per record five 8-byte fields and two strings, each
// a u32 length and its bytes (native byte order: a dump for this machine, not a wire format).

size_t binary_size(const std::vector<Record>& records) {
  size_t n = 8;
  for (const Record& r : records) n += 5 * 8 + 4 + r.user.size() + 4 + r.path.size();
  return n;
}

char* put(char* p, const void* v, size_t n) {
  std::memcpy(p, v, n);
  return p + n;
}

char* put_string(char* p, const std::string& s) {
  uint32_t n = static_cast<uint32_t>(s.size());
  return put(put(p, &n, 4), s.data(), s.size());
}

size_t dump_into(const std::vector<Record>& records, char* out) {
  char* p = out;
  uint64_t count = records.size();
  p = put(p, &count, 8);
  for (const Record& r : records) {
    p = put(p, &r.id, 8);
    p = put(p, &r.ts, 8);
    p = put(p, &r.status, 8);
    p = put(p, &r.ms, 8);
    p = put(p, &r.bytes, 8);
    p = put_string(p, r.user);
    p = put_string(p, r.path);
  }
  return static_cast<size_t>(p - out);
}

struct Reader {
  const char* p;
  const char* end;
  template <typename T>
  T take() {
    if (static_cast<size_t>(end - p) < sizeof(T)) throw std::runtime_error("binary: the dump ends inside a record");
    T v;
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
    return v;
  }
  std::string_view view() {
    uint32_t n = take<uint32_t>();
    if (static_cast<size_t>(end - p) < n) throw std::runtime_error("binary: a string runs past the dump's end");
    std::string_view s(p, n);
    p += n;
    return s;
  }
};

RecordSums read_dump(const char* data, size_t size) {
  Reader in{data, data + size};
  RecordSums s;
  uint64_t count = in.take<uint64_t>();
  for (uint64_t i = 0; i < count; ++i) {
    s.ids += in.take<int64_t>();
    s.ts += in.take<double>();
    s.statuses += in.take<int64_t>();
    s.ms += in.take<double>();
    s.bytes += in.take<int64_t>();
    add_string(s, in.view());
    add_string(s, in.view());
    ++s.records;
  }
  if (in.p != in.end) throw std::runtime_error("binary: bytes left after the last record");
  return s;
}

void check_library(const std::string& library, bool writing) {
  auto support = serial_support();
  auto it = support.find(library);
  bool ok = it != support.end() && (writing ? library != "simdjson" : library != "binary");
  require(ok, std::string("library: ") + (writing ? "writes with rapidjson or binary" : "parses with simdjson or rapidjson") +
                  ", got " + library);
  if (!it->second.empty()) throw std::invalid_argument("library: " + library + " cannot run here: " + it->second);
}

}  // namespace

RecordSums sums_of(const std::vector<Record>& records) {
  RecordSums s;
  for (const Record& r : records) {
    s.ids += r.id;
    s.ts += r.ts;
    s.statuses += r.status;
    s.ms += r.ms;
    s.bytes += r.bytes;
    add_string(s, r.user);
    add_string(s, r.path);
    ++s.records;
  }
  return s;
}

std::map<std::string, std::string> serial_support() {
  std::map<std::string, std::string> out = {{"binary", ""}};
#if HOWFAST_HAVE_SIMDJSON
  out["simdjson"] = "";
#else
  out["simdjson"] = "built without simdjson (install libsimdjson-dev and rebuild)";
#endif
#if HOWFAST_HAVE_RAPIDJSON
  out["rapidjson"] = "";
#else
  out["rapidjson"] = "built without RapidJSON (install rapidjson-dev and rebuild)";
#endif
  return out;
}

std::map<std::string, std::string> serial_libraries() {
  std::map<std::string, std::string> out = {{"simdjson", ""}, {"rapidjson", ""}};
#if HOWFAST_HAVE_SIMDJSON && defined(HOWFAST_SIMDJSON_VERSION)
  out["simdjson"] = HOWFAST_SIMDJSON_VERSION;
#endif
#if HOWFAST_HAVE_RAPIDJSON
  out["rapidjson"] = RAPIDJSON_VERSION_STRING;
#endif
  return out;
}

SerialLoopResult parse_loop(const std::string& library, const std::string& text, uint64_t iterations, Poller& poller) {
  check_library(library, false);
  (void)poller;
  SerialLoopResult r;
  r.bytes = text.size();
  r.iterations = iterations;
#if HOWFAST_HAVE_SIMDJSON
  if (library == "simdjson") {
    simdjson::padded_string padded(text);  // the padding simdjson reads past the end, made once
    simdjson::ondemand::parser parser;
    simdjson_sums(parser, padded);  // untimed: the parser sizes its buffers on its first document
    const uint64_t start = now_ns();
    for (uint64_t i = 0; i < iterations; ++i) {
      r.sums = simdjson_sums(parser, padded);
      poller.maybe(now_ns());
    }
    r.elapsed_ns = now_ns() - start;
    return r;
  }
#endif
#if HOWFAST_HAVE_RAPIDJSON
  rapidjson::Document doc;
  rapidjson_sums(doc, text);  // untimed, as for simdjson
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations; ++i) {
    r.sums = rapidjson_sums(doc, text);
    poller.maybe(now_ns());
  }
  r.elapsed_ns = now_ns() - start;
#endif
  return r;
}

SerialLoopResult write_loop(const std::string& library, const std::vector<Record>& records, uint64_t iterations,
                            Poller& poller) {
  check_library(library, true);
  SerialLoopResult r;
  r.iterations = iterations;
  const RecordSums want = sums_of(records);
  if (library == "binary") {
    std::vector<char> out(binary_size(records));
    dump_into(records, out.data());  // untimed, as for the others
    const uint64_t start = now_ns();
    for (uint64_t i = 0; i < iterations; ++i) {
      r.bytes = dump_into(records, out.data());
      poller.maybe(now_ns());
    }
    r.elapsed_ns = now_ns() - start;
    r.sums = read_dump(out.data(), r.bytes);
  }
#if HOWFAST_HAVE_RAPIDJSON
  if (library == "rapidjson") {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    write_rapidjson(writer, records);  // grows the buffer to its size once, before timing
    const uint64_t start = now_ns();
    for (uint64_t i = 0; i < iterations; ++i) {
      buffer.Clear();
      writer.Reset(buffer);
      write_rapidjson(writer, records);
      poller.maybe(now_ns());
    }
    r.elapsed_ns = now_ns() - start;
    r.bytes = buffer.GetSize();
    rapidjson::Document doc;
    r.sums = rapidjson_sums(doc, std::string(buffer.GetString(), buffer.GetSize()));
  }
#endif
  if (!(r.sums == want)) throw std::runtime_error(library + ": the written records read back differently");
  return r;
}

SerialLoopResult read_binary_loop(const std::vector<Record>& records, uint64_t iterations, Poller& poller) {
  std::vector<char> dump(binary_size(records));
  SerialLoopResult r;
  r.bytes = dump_into(records, dump.data());
  r.iterations = iterations;
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations; ++i) {
    r.sums = read_dump(dump.data(), r.bytes);
    poller.maybe(now_ns());
  }
  r.elapsed_ns = now_ns() - start;
  if (!(r.sums == sums_of(records))) throw std::runtime_error("binary: the dump read back differently");
  return r;
}

std::string write_json(const std::vector<Record>& records) {
#if HOWFAST_HAVE_RAPIDJSON
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  write_rapidjson(writer, records);
  return std::string(buffer.GetString(), buffer.GetSize());
#else
  (void)records;
  throw std::invalid_argument("library: rapidjson cannot run here: " + serial_support().at("rapidjson"));
#endif
}

std::string write_binary(const std::vector<Record>& records) {
  std::string out(binary_size(records), '\0');
  dump_into(records, out.data());
  return out;
}

RecordSums parse_sums(const std::string& library, const std::string& text) {
  Poller none(nullptr);
  return parse_loop(library, text, 1, none).sums;
}

RecordSums binary_sums(const std::string& dump) { return read_dump(dump.data(), dump.size()); }

}  // namespace howfast
