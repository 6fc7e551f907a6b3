// The profiler's permanent repository (Gibbons 1997, §4.3.2): a profiler::Repository kept in an SQLite 3
// database file (embedded, no server), filled incrementally and idempotently from SWF logs.
//
// File format (SQLite 3; PRAGMA application_id = 0x53434850 "SCHP", PRAGMA user_version = 1):
//   meta(key TEXT PRIMARY KEY, value TEXT)       format = schedlab-profiler, version = 1
//   sources(id INTEGER PRIMARY KEY, identity TEXT UNIQUE, path TEXT, jobs INTEGER)   one row per log
//   jobs(source, job_number, submit, occurrence) WITHOUT ROWID, all four the primary key: every job learnt
//   entries(exe, user, pbucket, ebucket, n, sum_t, sum_t2 TEXT, sum_p) WITHOUT ROWID, key (exe, user, pbucket,
//       ebucket): the leaves of the repository (Repository::leaves()); Σt² is exact, as decimal text because it
//       can exceed 64 bits. The exe and system levels are rebuilt from the leaves when loading.
//
// Idempotent, incremental ingestion: a job's key is (log identity, SWF job number, submit time, occurrence),
// occurrence = how many earlier records of the same log had the same job number and submit time. A job whose
// key is already in `jobs` is not learnt again, so ingesting the same log twice changes nothing and ingesting a
// longer version of a log (more records at the end, same header) adds only the new jobs.
// Log identity (Decision): IngestOptions::source when given; else, when the header gives UnixStartTime,
// "UnixStartTime=…; Computer=…; Installation=…" (the keys present) — stable across versions of one log and
// across file names; else "file:" + the file name without directories and .gz/.swf/.csv extensions.
// Records are learnt by profiler::add_record: partial-execution lines (status 2–4), runtime < 0 and size <= 0
// are skipped and counted. Each ingest is one transaction: a failure (bad log line, full disk) leaves the
// database as it was.
//
// Errors: ProfilerDbError with a message that starts with the database path: a missing file (read mode), a
// directory, a file that is not SQLite, an SQLite database of another application or with other tables, an
// empty database opened for reading, another format version, a path that names no file ("", "-", ":memory:":
// SQLite's temporary and in-memory databases, whose ingest would be lost without a word), a corrupt file
// (PRAGMA quick_check on open and sanity checks of every entry on load: bucket ranges, n > 0, Σp >= n,
// n·Σt² >= (Σt)²).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "schedlab/predict/profiler.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/reader.h"

struct sqlite3;

namespace schedlab::predict::profiler {

class ProfilerDbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int32_t kDbApplicationId = 0x53434850;  // "SCHP"
inline constexpr int32_t kDbVersion = 1;

struct IngestOptions {
  std::string source;  // log identity; empty = derived from the header or the file name (see above)
};

struct IngestReport {
  std::string trace;
  std::string source;        // the log identity used
  bool new_source = false;   // first time this identity is ingested
  int64_t records = 0;       // records read
  int64_t added = 0;         // jobs learnt now
  int64_t already = 0;       // jobs already in the database (not learnt again)
  std::map<std::string, int64_t> skipped;  // reason (profiler::skip_name) -> count
  int64_t skipped_total = 0;
  int64_t entries_written = 0;  // leaf entries inserted or updated
  // trace::header_warnings of the log: a header value that did not parse (an unreadable UnixStartTime changes
  // the identity to the file name), an unknown time zone.
  std::vector<std::string> header_warnings;
  std::string partial_executions_note;  // swf::partial_executions_note: a preempted job's lines, left out
};

struct DbSummary {
  int64_t jobs = 0;      // rows of `jobs`
  int64_t entries = 0;   // leaf entries
  struct Source {
    std::string identity, path;
    int64_t jobs = 0;
  };
  std::vector<Source> sources;
};

// The identity of a log for ingestion (see above).
std::string log_identity(const swf::Header& header, const std::string& path);

class ProfilerDb {
 public:
  enum class Mode { kRead, kWrite };  // kWrite creates the file (or initialises an empty SQLite file)
  ProfilerDb(const std::string& path, Mode mode);
  ~ProfilerDb();
  ProfilerDb(const ProfilerDb&) = delete;
  ProfilerDb& operator=(const ProfilerDb&) = delete;

  const std::string& path() const { return path_; }
  bool created() const { return created_; }  // the schema was created by this object

  Repository load() const;
  // Replaces the stored entries by the repository's leaves (one transaction). Ingestion keys are kept.
  void save(const Repository& repo);
  // Learns the jobs of one log not seen before (one transaction): SWF, streamed, or CSV by its name
  // (swf::is_csv_name). Throws swf::ReadError on a bad log.
  IngestReport ingest(const std::string& trace, const IngestOptions& options = {});
  // The same for a log in memory (a DataFrame from Python). Its identity comes from its header as for a file;
  // without UnixStartTime there, options.source is required (ProfilerDbError): the path of a log built in
  // memory is no identity.
  IngestReport ingest(const swf::Log& log, const IngestOptions& options = {});
  DbSummary summary() const;

 private:
  IngestReport ingest_records(const std::string& trace, const swf::Header& header, const IngestOptions& options,
                              const std::function<bool(swf::Record&)>& next);
  [[noreturn]] void fail(const std::string& what) const;
  void exec(const char* sql) const;
  void check_format(Mode mode);
  sqlite3* db_ = nullptr;
  std::string path_;
  bool created_ = false;
};

// ProfilerDb(path, kRead).load().
Repository load_repository(const std::string& path);

}  // namespace schedlab::predict::profiler
