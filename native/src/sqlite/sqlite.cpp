#include "sqlite/sqlite.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <ctime>
#include <memory>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/random.hpp"
#include "common/system.hpp"

#ifdef HOWFAST_HAVE_SQLITE
#include <sqlite3.h>
#endif

namespace howfast {

namespace {

constexpr int64_t kMaxRows = 100'000'000;      // per-transaction samples stay under 800 MB
constexpr int64_t kMaxRowSize = 16ll << 20;    // 16 MiB of text per row
constexpr uint64_t kPoolSlack = 4096;          // random rows are windows into a pool this much longer than a row
constexpr uint64_t kOffsetStride = 7919;       // odd, so 4096 consecutive ids get 4096 different windows

// Printable ASCII (valid UTF-8, so Python reads it back as str unchanged).
std::string row_pool(uint64_t row_size, RowContent content, uint64_t seed) {
  if (content == RowContent::Repeat) return std::string(row_size, 'x');
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string pool(row_size + kPoolSlack, '\0');
  uint64_t state = seed;
  for (auto& c : pool) c = alphabet[splitmix64(state) & 63];
  return pool;
}

uint64_t row_offset(uint64_t id, RowContent content) {
  return content == RowContent::Repeat ? 0 : (id * kOffsetStride) % kPoolSlack;
}

#ifdef HOWFAST_HAVE_SQLITE  // used by the insert loop and verify only

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

uint64_t file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return 0;
    throw_errno("stat", path);
  }
  return static_cast<uint64_t>(st.st_size);
}

#endif

}  // namespace

Synchronous parse_synchronous(const std::string& name) {
  if (name == "off") return Synchronous::Off;
  if (name == "normal") return Synchronous::Normal;
  if (name == "full") return Synchronous::Full;
  throw std::invalid_argument("synchronous must be 'off', 'normal' or 'full'; got '" + name + "'");
}

RowContent parse_row_content(const std::string& name) {
  if (name == "x") return RowContent::Repeat;
  if (name == "random") return RowContent::Random;
  throw std::invalid_argument("content must be 'x' (sqlite-bench's rows) or 'random'; got '" + name + "'");
}

std::string synchronous_name(Synchronous s) {
  switch (s) {
    case Synchronous::Off: return "off";
    case Synchronous::Normal: return "normal";
    case Synchronous::Full: return "full";
  }
  return "?";
}

std::string sqlite_row_text(int64_t row_size, int64_t id, RowContent content, uint64_t seed) {
  const uint64_t size = require_positive(row_size, "row_size", kMaxRowSize);
  require(id >= 0, "id must not be negative, got " + std::to_string(id));
  const std::string pool = row_pool(size, content, seed);
  return pool.substr(row_offset(static_cast<uint64_t>(id), content), size);
}

SqliteError::SqliteError(int code, int extended_code, const std::string& what)
    : std::runtime_error(what), code_(code), extended_code_(extended_code) {}

#ifdef HOWFAST_HAVE_SQLITE

const char* SqliteError::code_name() const noexcept { return sqlite3_errstr(code_); }

namespace {

struct CloseDb {
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
struct Finalize {
  void operator()(sqlite3_stmt* stmt) const noexcept { sqlite3_finalize(stmt); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Stmt = std::unique_ptr<sqlite3_stmt, Finalize>;

[[noreturn]] void fail(sqlite3* db, int rc, const std::string& what) {
  const int extended = db ? sqlite3_extended_errcode(db) : rc;
  const std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw SqliteError(rc & 0xff, extended, what + ": " + message + " (SQLite code " + std::to_string(rc & 0xff) +
                                             ", " + sqlite3_errstr(rc) + ")");
}

Db open_db(const std::string& path, int flags) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Db db(raw);  // closed on every exit, also when the open failed
  if (rc != SQLITE_OK) fail(raw, rc, "sqlite3_open_v2 '" + path + "'");
  sqlite3_extended_result_codes(raw, 1);
  return db;
}

Stmt prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr);
  Stmt stmt(raw);
  if (rc != SQLITE_OK) fail(db, rc, "prepare '" + sql + "'");
  return stmt;
}

// Runs a statement that returns no rows (BEGIN, COMMIT, INSERT) and resets it.
void step_done(sqlite3* db, sqlite3_stmt* stmt, const char* what) {
  const int rc = sqlite3_step(stmt);
  if (rc != SQLITE_DONE) {
    sqlite3_reset(stmt);
    fail(db, rc, what);
  }
  sqlite3_reset(stmt);
}

// The first column of the first row of a one-row statement (PRAGMAs), as text.
std::string query_text(sqlite3* db, const std::string& sql) {
  Stmt stmt = prepare(db, sql);
  const int rc = sqlite3_step(stmt.get());
  if (rc == SQLITE_DONE) return "";
  if (rc != SQLITE_ROW) fail(db, rc, sql);
  const unsigned char* text = sqlite3_column_text(stmt.get(), 0);
  std::string out = text ? reinterpret_cast<const char*>(text) : "";
  // Drain so that statements like wal_checkpoint finish their work.
  int more;
  while ((more = sqlite3_step(stmt.get())) == SQLITE_ROW) {
  }
  if (more != SQLITE_DONE) fail(db, more, sql);
  return out;
}

void check_journal_mode(const std::string& mode) {
  static const char* known[] = {"delete", "truncate", "persist", "memory", "wal", "off"};
  for (const char* k : known)
    if (mode == k) return;
  throw std::invalid_argument("journal_mode must be one of delete, truncate, persist, memory, wal, off; got '" +
                              mode + "'");
}

}  // namespace

SqliteInsertResult sqlite_inserts(const SqliteInsertConfig& c, Poller& poller) {
  const uint64_t rows = require_positive(c.rows, "rows", kMaxRows);
  const uint64_t batch = require_positive(c.batch_size, "batch_size", kMaxRows);
  const uint64_t row_size = require_positive(c.row_size, "row_size", kMaxRowSize);
  require(batch <= rows, "batch_size (" + std::to_string(batch) + ") must be at most rows (" +
                             std::to_string(rows) + ")");
  require(rows % batch == 0, "rows (" + std::to_string(rows) + ") must be a multiple of batch_size (" +
                                 std::to_string(batch) + ")");
  check_journal_mode(c.journal_mode);
  const std::string dir = parent_directory(c.path);
  require_directory(dir, "path");
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    require(!file_exists(c.path + suffix), "path: '" + c.path + suffix + "' already exists (the benchmark only "
                                           "creates new databases)");
  // Table pages hold a row plus ~30 bytes of record and cell overhead; the WAL holds at
  // most about one autocheckpoint (1000 pages) plus one transaction.
  const uint64_t per_row = row_size + 64;
  require_space(dir, rows * per_row + 2 * batch * per_row + (16ull << 20), "rows * row_size");

  const uint64_t batches = rows / batch;
  const std::string pool = row_pool(row_size, c.content, c.seed);
  SqliteInsertResult r;
  r.transaction_ns.assign(batches, 0);

  // A failed run leaves no database behind (the -wal and -shm files go when the
  // connection closes, or here when it could not).
  // The database file is created here with O_EXCL (an empty file is an empty database),
  // so a file that appeared since the check above is refused, never opened.
  Fd(c.path, O_WRONLY | O_CREAT | O_EXCL, 0644).close();
  UnlinkGuard remove_on_failure(c.path), remove_wal(c.path + "-wal"), remove_shm(c.path + "-shm");
  {
    Db db = open_db(c.path, SQLITE_OPEN_READWRITE);
    sqlite3* h = db.get();
    r.journal_mode = query_text(h, "PRAGMA journal_mode = " + c.journal_mode);
    if (r.journal_mode != c.journal_mode)
      throw SqliteError(SQLITE_ERROR, SQLITE_ERROR,
                        "journal_mode '" + c.journal_mode + "' was not accepted here: SQLite kept '" +
                            r.journal_mode + "'");
    query_text(h, "PRAGMA synchronous = " + synchronous_name(c.synchronous));
    r.synchronous = std::stoi(query_text(h, "PRAGMA synchronous"));
    query_text(h, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");

    const std::string insert_sql = "INSERT INTO t (id, name) VALUES (?, ?)";
    Stmt begin = prepare(h, "BEGIN");
    Stmt commit = prepare(h, "COMMIT");
    Stmt insert = prepare(h, insert_sql);
    const char* base = pool.data();
    const int len = static_cast<int>(row_size);

    uint64_t id = 0;
    const uint64_t cpu_start = thread_cpu_ns();
    const uint64_t start = now_ns();
    for (uint64_t b = 0; b < batches; ++b) {
      const uint64_t t0 = now_ns();
      step_done(h, begin.get(), "BEGIN");
      if (c.prepare_per_batch) insert = prepare(h, insert_sql);
      sqlite3_stmt* s = insert.get();
      for (uint64_t k = 0; k < batch; ++k, ++id) {
        int rc = sqlite3_bind_int64(s, 1, static_cast<sqlite3_int64>(id));
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(s, 2, base + row_offset(id, c.content), len, SQLITE_STATIC);
        if (rc != SQLITE_OK) fail(h, rc, "bind");
        step_done(h, s, "INSERT");
      }
      step_done(h, commit.get(), "COMMIT");
      const uint64_t t1 = now_ns();
      r.transaction_ns[b] = t1 - t0;
      poller.maybe(t1);
    }
    r.elapsed_ns = now_ns() - start;
    r.cpu_ns = thread_cpu_ns() - cpu_start;
    r.rows = id;
    r.transactions = batches;
    sqlite3_clear_bindings(insert.get());  // the pool dies before the statement is finalized

    r.db_bytes = file_size(c.path);
    r.wal_bytes = file_size(c.path + "-wal");
    const uint64_t c0 = now_ns();
    if (c.journal_mode == "wal") query_text(h, "PRAGMA wal_checkpoint(TRUNCATE)");
    r.checkpoint_ns = now_ns() - c0;
    r.checkpointed_bytes = file_size(c.path);
    // Statements are finalized, then the database closed, in reverse order of creation.
  }
  remove_on_failure.release();
  remove_wal.release();
  remove_shm.release();
  return r;
}

SqliteVerifyResult sqlite_verify(const std::string& path, int64_t expected_rows, int64_t row_size,
                                 RowContent content, uint64_t seed) {
  require(expected_rows >= 0, "expected_rows must not be negative, got " + std::to_string(expected_rows));
  const uint64_t size = require_positive(row_size, "row_size", kMaxRowSize);
  require(file_exists(path), "path: database '" + path + "' does not exist");
  const std::string pool = row_pool(size, content, seed);

  // Read-write (never create): a read-only connection to a WAL database leaves -wal and
  // -shm files behind, a read-write one removes them when it closes. Only reads are run.
  Db db = open_db(path, SQLITE_OPEN_READWRITE);
  sqlite3* h = db.get();
  SqliteVerifyResult v;
  v.integrity = query_text(h, "PRAGMA quick_check");
  Stmt stmt = prepare(h, "SELECT id, name FROM t ORDER BY id");
  int rc;
  uint64_t next = 0;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    const int64_t id = sqlite3_column_int64(stmt.get(), 0);
    const bool is_text = sqlite3_column_type(stmt.get(), 1) == SQLITE_TEXT;
    const unsigned char* text = sqlite3_column_text(stmt.get(), 1);
    const auto bytes = static_cast<uint64_t>(sqlite3_column_bytes(stmt.get(), 1));
    const bool ok = is_text && id == static_cast<int64_t>(next) && id < expected_rows && bytes == size &&
                    pool.compare(row_offset(next, content), size, reinterpret_cast<const char*>(text), bytes) == 0;
    if (ok) {
      ++v.matching;
    } else if (v.first_bad_id < 0) {
      v.first_bad_id = id;
    }
    ++v.rows;
    next = static_cast<uint64_t>(id) + 1;
  }
  if (rc != SQLITE_DONE) fail(h, rc, "SELECT id, name FROM t");
  return v;
}

std::string sqlite_runtime_version() { return sqlite3_libversion(); }
std::string sqlite_compiled_version() { return SQLITE_VERSION; }

#else  // built without SQLite

const char* SqliteError::code_name() const noexcept { return "unknown"; }

#endif

}  // namespace howfast
