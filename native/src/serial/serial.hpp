// Serialization of one set of records: JSON parsed with simdjson (on demand) and RapidJSON
// (DOM), JSON written with RapidJSON, and a plain length-prefixed binary dump of the same
// records ("fast" serialization: fixed-size fields copied, strings prefixed with their
// length, read back as views into the buffer). Each JSON library is optional at build time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// One record, as the JSON log lines of the compression inputs hold it.
struct Record {
  int64_t id = 0;
  double ts = 0;
  int64_t status = 0;
  double ms = 0;
  int64_t bytes = 0;
  std::string user;
  std::string path;
};

// What every loop hands back about the records it read or wrote, so that no record can
// be skipped and a wrong value shows: their count and sums of every field (strings by length
// and by their bytes' sum).
struct RecordSums {
  uint64_t records = 0;
  int64_t ids = 0;
  int64_t statuses = 0;
  int64_t bytes = 0;
  double ts = 0;
  double ms = 0;
  uint64_t string_bytes = 0;
  uint64_t string_sum = 0;
  bool operator==(const RecordSums& o) const;
};

RecordSums sums_of(const std::vector<Record>& records);

// Every library id ("simdjson", "rapidjson", "binary") mapped to "" or the reason it cannot run.
std::map<std::string, std::string> serial_support();
std::map<std::string, std::string> serial_libraries();

struct SerialLoopResult {
  uint64_t elapsed_ns = 0;
  uint64_t bytes = 0;  // bytes read or written per pass
  uint64_t iterations = 0;
  RecordSums sums;     // of the last pass's records
};

// Parses `text` (a JSON array of records) `iterations` times with `library` (simdjson or
// rapidjson), summing every record's fields.
SerialLoopResult parse_loop(const std::string& library, const std::string& text, uint64_t iterations, Poller& poller);
// Writes `records` as a JSON array `iterations` times with `library` (rapidjson) or as the
// binary dump (binary); the last output is read back (untimed) and its sums compared.
SerialLoopResult write_loop(const std::string& library, const std::vector<Record>& records, uint64_t iterations,
                            Poller& poller);
// Reads the binary dump of `records` `iterations` times (views into the buffer, no copy).
SerialLoopResult read_binary_loop(const std::vector<Record>& records, uint64_t iterations, Poller& poller);

// One pass, for tests: the JSON text RapidJSON writes, and the binary dump.
std::string write_json(const std::vector<Record>& records);
std::string write_binary(const std::vector<Record>& records);
RecordSums parse_sums(const std::string& library, const std::string& text);
RecordSums binary_sums(const std::string& dump);

}  // namespace howfast
