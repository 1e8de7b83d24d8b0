// SQLite inserts as sqlite-bench (benbjohnson/sqlite-bench) does them, through the
// sqlite3 C API: a new database, `PRAGMA journal_mode`, `PRAGMA synchronous`, the table
// `t (id INTEGER PRIMARY KEY, name TEXT)`, then transactions of `batch_size` rows, each
// row one execution of a prepared `INSERT INTO t (id, name) VALUES (?, ?)`. Every
// transaction (BEGIN, its inserts, COMMIT) is timed.
//
// Built only when SQLite was found (HOWFAST_HAVE_SQLITE); the binding reports its
// absence otherwise.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace howfast {

// An error reported by SQLite: its message plus the (extended) result code.
class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, int extended_code, const std::string& what);
  int code() const noexcept { return code_; }
  int extended_code() const noexcept { return extended_code_; }
  const char* code_name() const noexcept;  // sqlite3_errstr of the code

 private:
  int code_;
  int extended_code_;
};

enum class Synchronous { Off, Normal, Full };
// What each row holds: sqlite-bench's row ('x' repeated row_size times, the same for
// every row), or printable pseudo-random text that differs from row to row (a window
// into a seeded pool), so a read-back can tell rows apart.
enum class RowContent { Repeat, Random };

Synchronous parse_synchronous(const std::string& name);
RowContent parse_row_content(const std::string& name);
std::string synchronous_name(Synchronous s);

// The text of row `id`: what the insert loop binds and what verify expects.
std::string sqlite_row_text(int64_t row_size, int64_t id, RowContent content, uint64_t seed);

// Filled by the binding (sqlite/bind.cpp): the defaults Python sees are written there, once.
struct SqliteInsertConfig {
  std::string path;           // the database file; must not exist yet, its directory must
  int64_t rows{};             // total rows; a multiple of batch_size
  int64_t batch_size{};       // rows per transaction
  int64_t row_size{};         // bytes of text per row
  Synchronous synchronous{};
  std::string journal_mode{}; // delete, truncate, persist, memory, wal, off
  RowContent content{};
  uint64_t seed{};
  bool prepare_per_batch{};   // re-prepare the INSERT in every transaction, as sqlite-bench's Go code does
};

struct SqliteInsertResult {
  std::vector<uint64_t> transaction_ns;  // per transaction: BEGIN, batch_size inserts, COMMIT
  uint64_t elapsed_ns = 0;               // the whole insert loop (what sqlite-bench times)
  uint64_t cpu_ns = 0;                   // CPU time the calling thread spent in that loop (user + system)
  uint64_t rows = 0;
  uint64_t transactions = 0;
  uint64_t db_bytes = 0;                 // database file right after the loop
  uint64_t wal_bytes = 0;                // -wal file right after the loop
  uint64_t checkpointed_bytes = 0;       // database file after PRAGMA wal_checkpoint(TRUNCATE), as sqlite-bench reports
  uint64_t checkpoint_ns = 0;            // how long that checkpoint took (not in elapsed_ns)
  std::string journal_mode;              // as SQLite reports it after the PRAGMA
  int synchronous = -1;                  // as SQLite reports it: 0 off, 1 normal, 2 full
};

SqliteInsertResult sqlite_inserts(const SqliteInsertConfig& config, Poller& poller);

struct SqliteVerifyResult {
  uint64_t rows = 0;        // rows in table t
  uint64_t matching = 0;    // rows whose id is in 0..expected-1, in order, with the exact expected text
  int64_t first_bad_id = -1;  // the first row that did not match (-1 when all did)
  std::string integrity;    // PRAGMA quick_check's answer ("ok" when the file is sound)
};

// Opens the database (never creating it; only reads) and checks every row against what
// the loop wrote, after PRAGMA quick_check.
SqliteVerifyResult sqlite_verify(const std::string& path, int64_t expected_rows, int64_t row_size,
                                 RowContent content, uint64_t seed);

// The SQLite library the module runs against (sqlite3_libversion) and was compiled with.
std::string sqlite_runtime_version();
std::string sqlite_compiled_version();

}  // namespace howfast
