#include "schedlab/predict/profiler_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include <fmt/core.h>

#include "schedlab/swf/csv.h"
#include "schedlab/swf/reader.h"
#include "schedlab/trace/conventions.h"
#include "schedlab/trace/log_time.h"

namespace schedlab::predict::profiler {

namespace fs = std::filesystem;

namespace {

// What an SQLite error means for the user of a profiler database.
std::string describe(int rc, const char* message) {
  const std::string msg = message ? message : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_NOTADB: return "not an SQLite database, so not a schedlab profiler database (" + msg + ")";
    case SQLITE_CORRUPT: return "corrupt profiler database (" + msg + ")";
    default: return "profiler database error: " + msg;
  }
}

class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& path, const char* sql) : db_(db), path_(path) {
    const int rc = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
    if (rc != SQLITE_OK) fail(rc);
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  // True when a row is available, false when done.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(rc);
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  void bind(int i, int64_t v) { check(sqlite3_bind_int64(stmt_, i, static_cast<sqlite3_int64>(v))); }
  void bind(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  int type(int col) const { return sqlite3_column_type(stmt_, col); }
  int64_t integer(int col) const { return static_cast<int64_t>(sqlite3_column_int64(stmt_, col)); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n)) : std::string();
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail(rc);
  }
  [[noreturn]] void fail(int rc) const { throw ProfilerDbError(path_ + ": " + describe(rc, sqlite3_errmsg(db_))); }
  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE … COMMIT; rolled back when not committed (an exception on the way).
class Transaction {
 public:
  Transaction(sqlite3* db, const std::string& path) : db_(db), path_(path) { run("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    run("COMMIT");
    done_ = true;
  }

 private:
  void run(const char* sql) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
      const std::string msg = describe(rc, err ? err : sqlite3_errmsg(db_));
      sqlite3_free(err);
      throw ProfilerDbError(path_ + ": " + msg);
    }
  }
  sqlite3* db_;
  const std::string& path_;
  bool done_ = false;
};

constexpr const char* kSchema =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO meta VALUES('format', 'schedlab-profiler'), ('version', '1');"
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, path TEXT NOT NULL,"
    " jobs INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE jobs(source INTEGER NOT NULL, job_number INTEGER NOT NULL, submit INTEGER NOT NULL,"
    " occurrence INTEGER NOT NULL, PRIMARY KEY(source, job_number, submit, occurrence)) WITHOUT ROWID;"
    "CREATE TABLE entries(exe INTEGER NOT NULL, user INTEGER NOT NULL, pbucket INTEGER NOT NULL,"
    " ebucket INTEGER NOT NULL, n INTEGER NOT NULL, sum_t INTEGER NOT NULL, sum_t2 TEXT NOT NULL,"
    " sum_p INTEGER NOT NULL, PRIMARY KEY(exe, user, pbucket, ebucket)) WITHOUT ROWID;";

using CellKey = std::tuple<int32_t, int32_t, int, int>;  // exe, user, pbucket, ebucket

// Checks one stored entry against what a repository can hold; the reason it cannot, or empty.
std::string entry_problem(int64_t exe, int64_t user, int64_t pb, int64_t eb, const RunEntry& e) {
  constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min(), kI32Max = std::numeric_limits<int32_t>::max();
  if (exe < -1 || exe > kI32Max) return fmt::format("executable {} out of range", exe);
  if (user < kI32Min || user > kI32Max) return fmt::format("user {} out of range", user);
  if (pb < 0 || pb >= kProcBuckets) return fmt::format("processor bucket {} out of range", pb);
  if (eb < 0 || eb >= kElapsedBuckets) return fmt::format("elapsed bucket {} out of range", eb);
  if (e.n <= 0) return fmt::format("n = {}", e.n);
  // Every job of elapsed bucket k ran [2^(k-1), 2^k - 1] seconds (bucket 0: 0 s); likewise for processors.
  const auto n = static_cast<Uint128>(static_cast<uint64_t>(e.n));
  const Uint128 tlo = eb == 0 ? 0 : Uint128{1} << (eb - 1), thi = eb == 0 ? 0 : (Uint128{1} << eb) - 1;
  const Uint128 plo = pb == 0 ? 1 : (Uint128{1} << (pb - 1)) + 1, phi = Uint128{1} << pb;
  if (e.sum_t < 0 || static_cast<Uint128>(e.sum_t) < n * tlo || static_cast<Uint128>(e.sum_t) > n * thi) {
    return fmt::format("sum_t {} impossible for {} jobs of elapsed bucket {}", e.sum_t, e.n, eb);
  }
  if (e.sum_p < 0 || static_cast<Uint128>(e.sum_p) < n * plo || static_cast<Uint128>(e.sum_p) > n * phi) {
    return fmt::format("sum_p {} impossible for {} jobs of processor bucket {}", e.sum_p, e.n, pb);
  }
  const auto st = static_cast<Uint128>(static_cast<uint64_t>(e.sum_t));
  if (e.sum_t2 < st * st / n || e.sum_t2 > n * thi * thi) {
    return fmt::format("sum_t2 {} inconsistent with n {} and sum_t {}", to_string(e.sum_t2), e.n, e.sum_t);
  }
  return {};
}

// Runs `insert` (an INSERT or REPLACE of one row of `entries`, columns in table order) for one entry.
void write_entry(Stmt& insert, int64_t exe, int64_t user, int64_t pb, int64_t eb, const RunEntry& e) {
  insert.reset();
  insert.bind(1, exe);
  insert.bind(2, user);
  insert.bind(3, pb);
  insert.bind(4, eb);
  insert.bind(5, e.n);
  insert.bind(6, e.sum_t);
  insert.bind(7, to_string(e.sum_t2));
  insert.bind(8, e.sum_p);
  insert.step();
}

}  // namespace

std::string log_identity(const swf::Header& h, const std::string& path) {
  if (h.unix_start_time) {
    std::string s = fmt::format("UnixStartTime={}", *h.unix_start_time);
    if (h.computer) s += "; Computer=" + *h.computer;
    if (h.installation) s += "; Installation=" + *h.installation;
    return s;
  }
  if (path == "-") return "file:<stdin>";
  std::string name = fs::path(path).filename().string();
  for (bool again = true; again;) {
    again = false;
    for (const char* ext : {".gz", ".swf", ".csv"}) {
      const std::string e(ext);
      if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
        name.resize(name.size() - e.size());
        again = true;
      }
    }
  }
  return "file:" + name;
}

ProfilerDb::ProfilerDb(const std::string& path, Mode mode) : path_(path) {
  // SQLite opens "" as a temporary database and ":memory:" in memory: an ingest into either reported success and
  // was gone at exit. "-" is no standard stream here (a file named "-" is never what was meant).
  if (path.empty() || path == "-" || path == ":memory:")
    throw ProfilerDbError(fmt::format("'{}': a profiler database is an SQLite file: give its name (e.g. prof.sqlite)",
                                      path));
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (fs::is_directory(st)) fail("is a directory, not a profiler database");
  if (mode == Mode::kRead && !fs::exists(st)) fail("cannot open profiler database: no such file");
  const int flags = mode == Mode::kRead ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    fail("cannot open profiler database: " + msg);
  }
  sqlite3_busy_timeout(db_, 10000);  // another process ingesting: wait for it rather than fail at once
  try {
    check_format(mode);
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

ProfilerDb::~ProfilerDb() { sqlite3_close(db_); }

void ProfilerDb::fail(const std::string& what) const { throw ProfilerDbError(path_ + ": " + what); }

void ProfilerDb::exec(const char* sql) const {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    const std::string msg = describe(rc, err ? err : sqlite3_errmsg(db_));
    sqlite3_free(err);
    fail(msg);
  }
}

void ProfilerDb::check_format(Mode mode) {
  int64_t app_id = 0, version = 0;
  std::vector<std::string> tables;
  // The header's application id and the tables, seen at one moment: outside a transaction another process could
  // commit its new schema between the two reads ("not a schedlab profiler database ... with tables entries, ...").
  const auto look = [&](bool in_transaction) {
    app_id = 0;
    tables.clear();
    if (!in_transaction) exec("BEGIN");
    {
      Stmt s(db_, path_, "PRAGMA application_id");
      if (s.step()) app_id = s.integer(0);
    }
    {
      Stmt s(db_, path_, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      while (s.step()) tables.push_back(s.text(0));
    }
    if (!in_transaction) exec("COMMIT");
  };
  look(false);
  if (app_id == 0 && tables.empty()) {
    if (mode == Mode::kRead) {
      fail("empty database, not a schedlab profiler database (make one with `schedlab profiler ingest`)");
    }
    Transaction t(db_, path_);
    // Two ingests into a new file: both found it empty, and the other may have made the schema while this one
    // waited for the write lock (it said "table meta already exists"). Look again under the lock.
    look(true);
    if (app_id == 0 && tables.empty()) {
      exec(fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {};", kDbApplicationId, kDbVersion).c_str());
      exec(kSchema);
      t.commit();
      created_ = true;
      return;
    }
    t.commit();  // nothing written: the other process's schema is checked below
  }
  if (app_id != kDbApplicationId) {
    if (app_id != 0) {
      fail(fmt::format("not a schedlab profiler database (SQLite application_id 0x{:08x}, expected 0x{:08x})",
                       static_cast<uint32_t>(app_id), static_cast<uint32_t>(kDbApplicationId)));
    }
    std::string list;
    for (size_t i = 0; i < tables.size() && i < 5; ++i) list += (i ? ", " : "") + tables[i];
    if (tables.size() > 5) list += ", ...";
    fail(fmt::format("not a schedlab profiler database (an SQLite database of something else, with tables {})", list));
  }
  {
    Stmt s(db_, path_, "PRAGMA user_version");
    if (s.step()) version = s.integer(0);
  }
  if (version != kDbVersion) {
    fail(fmt::format("profiler database format version {}, this schedlab reads version {}", version, kDbVersion));
  }
  {
    // A truncated or damaged file can still have a valid first page; quick_check reads every page.
    Stmt s(db_, path_, "PRAGMA quick_check");
    if (s.step()) {
      const std::string r = s.text(0);
      if (r != "ok") fail("corrupt profiler database (" + r + ")");
    }
  }
  for (const char* name : {"entries", "jobs", "meta", "sources"}) {
    if (std::find(tables.begin(), tables.end(), name) == tables.end()) {
      fail(fmt::format("corrupt profiler database (table '{}' is missing)", name));
    }
  }
}

Repository ProfilerDb::load() const {
  Repository repo;
  Stmt s(db_, path_, "SELECT exe, user, pbucket, ebucket, n, sum_t, sum_t2, sum_p FROM entries");
  while (s.step()) {
    for (int c : {0, 1, 2, 3, 4, 5, 7}) {
      if (s.type(c) != SQLITE_INTEGER) fail("corrupt profiler database (an entry has a non-integer field)");
    }
    const int64_t exe = s.integer(0), user = s.integer(1), pb = s.integer(2), eb = s.integer(3);
    RunEntry e;
    e.n = s.integer(4);
    e.sum_t = s.integer(5);
    e.sum_p = s.integer(7);
    const std::string t2 = s.text(6);
    std::string problem;
    if (s.type(6) != SQLITE_TEXT || !parse_uint128(t2, e.sum_t2)) {
      problem = fmt::format("sum_t2 '{}' is not a non-negative integer", t2);
    } else {
      problem = entry_problem(exe, user, pb, eb, e);
    }
    if (!problem.empty()) {
      fail(fmt::format("corrupt profiler database (entry executable {}, user {}, processor bucket {}, elapsed "
                       "bucket {}: {})",
                       exe, user, pb, eb, problem));
    }
    repo.merge(static_cast<int32_t>(exe), static_cast<int32_t>(user), static_cast<int>(pb), static_cast<int>(eb), e);
  }
  return repo;
}

void ProfilerDb::save(const Repository& repo) {
  Transaction t(db_, path_);
  exec("DELETE FROM entries");
  Stmt ins(db_, path_, "INSERT INTO entries VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  for (const auto& [key, cat] : repo.leaves()) {
    // Structured bindings cannot be captured by clang's C++20 lambdas: copy the key out.
    const auto exe = key.first, user = key.second;
    cat.for_each([&](int pb, int eb, const RunEntry& e) { write_entry(ins, exe, user, pb, eb, e); });
  }
  t.commit();
}

namespace {

// A log's records in order, handed out as a Reader hands out a file's.
std::function<bool(swf::Record&)> record_feed(const swf::Log& log) {
  return [&log, next = size_t{0}](swf::Record& r) mutable {
    if (next == log.records.size()) return false;
    r = log.records[next++];
    return true;
  };
}

}  // namespace

IngestReport ProfilerDb::ingest(const std::string& trace, const IngestOptions& options) {
  if (swf::is_csv_name(trace)) {  // read whole; its identity is a file's, as an SWF log's
    const swf::Log log = swf::read_csv(trace);
    IngestReport rep = ingest_records(trace, log.header, options, record_feed(log));
    rep.partial_executions_note = swf::partial_executions_note(log);
    return rep;
  }
  swf::Reader reader(trace);  // streamed: the log is never held whole
  IngestReport rep =
      ingest_records(trace, reader.header(), options, [&reader](swf::Record& r) { return reader.next(r); });
  rep.partial_executions_note = swf::partial_executions_note(trace, reader.report());
  return rep;
}

IngestReport ProfilerDb::ingest(const swf::Log& log, const IngestOptions& options) {
  if (options.source.empty() && !log.header.unix_start_time)
    throw ProfilerDbError(fmt::format("{}: {}: a log held in memory without UnixStartTime in its header needs a "
                                      "source (its identity in the database): two such logs would share one",
                                      path_, log.path));
  return ingest_records(log.path, log.header, options, record_feed(log));
}

IngestReport ProfilerDb::ingest_records(const std::string& trace, const swf::Header& header,
                                        const IngestOptions& options, const std::function<bool(swf::Record&)>& next) {
  IngestReport rep;
  rep.trace = trace;
  rep.source = options.source.empty() ? log_identity(header, trace) : options.source;

  Transaction t(db_, path_);
  int64_t source_id = -1;
  {
    Stmt s(db_, path_, "SELECT id FROM sources WHERE identity = ?");
    s.bind(1, rep.source);
    if (s.step()) source_id = s.integer(0);
  }
  if (source_id < 0) {
    Stmt s(db_, path_, "INSERT INTO sources(identity, path, jobs) VALUES(?, ?, 0)");
    s.bind(1, rep.source);
    s.bind(2, trace);
    s.step();
    source_id = sqlite3_last_insert_rowid(db_);
    rep.new_source = true;
  }

  // New jobs only: INSERT OR IGNORE tells whether the key was there; the new jobs' sums go to `delta` and are
  // merged into the stored entries at the end (only the cells they touch are rewritten).
  Stmt ins(db_, path_, "INSERT OR IGNORE INTO jobs VALUES(?, ?, ?, ?)");
  std::unordered_map<uint64_t, int64_t> occurrences;
  std::map<CellKey, RunEntry> delta;
  swf::Record r;
  while (next(r)) {
    ++rep.records;
    const Skip skip = skip_reason(r);
    if (skip != Skip::kNone) {
      ++rep.skipped[std::string(skip_name(skip))];
      ++rep.skipped_total;
      continue;
    }
    const uint64_t k = (static_cast<uint64_t>(static_cast<uint32_t>(r.job_number)) << 32) |
                       static_cast<uint32_t>(r.submit_time);
    const int64_t occurrence = occurrences[k]++;
    ins.reset();
    ins.bind(1, source_id);
    ins.bind(2, r.job_number);
    ins.bind(3, r.submit_time);
    ins.bind(4, occurrence);
    ins.step();
    if (sqlite3_changes(db_) == 0) {
      ++rep.already;
      continue;
    }
    ++rep.added;
    const int32_t exe = r.executable < 0 ? -1 : r.executable;
    const int64_t procs = trace::job_size(r);
    delta[{exe, r.user_id, proc_bucket(procs), elapsed_bucket(r.run_time)}].add(r.run_time, procs);
  }

  Stmt get(db_, path_, "SELECT n, sum_t, sum_t2, sum_p FROM entries WHERE exe = ? AND user = ? AND pbucket = ? "
                       "AND ebucket = ?");
  Stmt put(db_, path_, "INSERT OR REPLACE INTO entries VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  for (const auto& [key, add] : delta) {
    const auto& [exe, user, pb, eb] = key;
    RunEntry e;
    get.reset();
    get.bind(1, exe);
    get.bind(2, user);
    get.bind(3, pb);
    get.bind(4, eb);
    if (get.step()) {
      e.n = get.integer(0);
      e.sum_t = get.integer(1);
      e.sum_p = get.integer(3);
      const std::string t2 = get.text(2);
      if (!parse_uint128(t2, e.sum_t2) || !entry_problem(exe, user, pb, eb, e).empty()) {
        fail(fmt::format("corrupt profiler database (entry executable {}, user {}, processor bucket {}, elapsed "
                         "bucket {} is inconsistent)",
                         exe, user, pb, eb));
      }
    }
    e.merge(add);
    write_entry(put, exe, user, pb, eb, e);
    ++rep.entries_written;
  }
  {
    Stmt s(db_, path_, "UPDATE sources SET path = ?, jobs = jobs + ? WHERE id = ?");
    s.bind(1, trace);
    s.bind(2, rep.added);
    s.bind(3, source_id);
    s.step();
  }
  t.commit();
  rep.header_warnings = trace::header_warnings(header, trace);  // the header is complete now
  return rep;
}

DbSummary ProfilerDb::summary() const {
  DbSummary out;
  {
    Stmt s(db_, path_, "SELECT count(*) FROM jobs");
    if (s.step()) out.jobs = s.integer(0);
  }
  {
    Stmt s(db_, path_, "SELECT count(*) FROM entries");
    if (s.step()) out.entries = s.integer(0);
  }
  Stmt s(db_, path_, "SELECT identity, path, jobs FROM sources ORDER BY id");
  while (s.step()) out.sources.push_back({s.text(0), s.text(1), s.integer(2)});
  return out;
}

Repository load_repository(const std::string& path) { return ProfilerDb(path, ProfilerDb::Mode::kRead).load(); }

}  // namespace schedlab::predict::profiler
