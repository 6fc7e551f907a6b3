// The profiler's SQLite repository (predict/profiler_db.h): round trips, idempotent and incremental ingestion,
// and clear errors for files that are not profiler databases.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <tuple>
#include <vector>
#include <string>

#include <fmt/core.h>

#include "schedlab/predict/profiler.h"
#include "schedlab/predict/profiler_db.h"
#include "schedlab/predict/registry.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::predict::profiler {
namespace {

using schedlab::testing::TempDir;
using schedlab::testing::write_file;

const char* kHeader = "; UnixStartTime: 1000000\n; Computer: Test\n";

// job i: executable i % 3, user i % 2, size 1 << (i % 4), runtime 100 + 37·i (status 1).
std::string log_text(int first, int last, const char* header = kHeader) {
  std::string s = header;
  for (int i = first; i <= last; ++i) {
    const int procs = 1 << (i % 4);
    s += fmt::format("{} {} 0 {} {} -1 -1 {} 5000 -1 1 {} 1 {} -1 -1 -1 -1\n", i, 10 * i, 100 + 37 * i, procs,
                     procs, i % 2, i % 3);
  }
  return s;
}

Repository repository_of(const std::string& text) {
  Repository repo;
  for (const auto& r : swf::parse_log(text).records) add_record(repo, r);
  return repo;
}

void expect_same_estimates(const Repository& a, const Repository& b) {
  EXPECT_EQ(a.jobs(), b.jobs());
  ASSERT_EQ(a.leaves().size(), b.leaves().size());
  for (int exe = -1; exe < 4; ++exe) {
    for (int user = 0; user < 3; ++user) {
      for (int64_t procs : {1, 2, 3, 8, 64}) {
        for (int64_t attained : {0, 200, 1000}) {
          const Estimate x = a.get_estimate({exe, user, procs, attained}, 0.9);
          const Estimate y = b.get_estimate({exe, user, procs, attained}, 0.9);
          EXPECT_EQ(x.ok, y.ok);
          EXPECT_EQ(x.estimate, y.estimate);  // bit-identical
          EXPECT_EQ(x.half_width, y.half_width);
          EXPECT_EQ(x.level, y.level);
        }
      }
    }
  }
}

TEST(ProfilerDbTest, SaveLoadRoundTrip) {
  TempDir dir;
  Repository repo = repository_of(log_text(1, 60));
  repo.add(-1, 5, 3, 0);  // an unknown executable and a 0 s job
  {
    ProfilerDb db(dir.file("p.db"), ProfilerDb::Mode::kWrite);
    EXPECT_TRUE(db.created());
    db.save(repo);
  }
  const Repository back = load_repository(dir.file("p.db"));
  expect_same_estimates(repo, back);
  for (const auto& [key, cat] : repo.leaves()) {
    const auto it = back.leaves().find(key);
    ASSERT_NE(it, back.leaves().end());
    std::vector<std::tuple<int, int, RunEntry>> x, y;
    cat.for_each([&](int p, int e, const RunEntry& r) { x.emplace_back(p, e, r); });
    it->second.for_each([&](int p, int e, const RunEntry& r) { y.emplace_back(p, e, r); });
    EXPECT_EQ(x, y);
  }
}

TEST(ProfilerDbTest, IngestIsIdempotentAndIncremental) {
  TempDir dir;
  const std::string db_path = dir.file("p.db");
  write_file(dir.file("a.swf"), log_text(1, 40));
  write_file(dir.file("a-longer.swf"), log_text(1, 55));  // the same log with 15 more jobs
  write_file(dir.file("renamed.swf"), log_text(1, 40));   // same header: same log identity
  ProfilerDb db(db_path, ProfilerDb::Mode::kWrite);
  const IngestReport first = db.ingest(dir.file("a.swf"));
  EXPECT_TRUE(first.new_source);
  EXPECT_EQ(first.source, "UnixStartTime=1000000; Computer=Test");
  EXPECT_EQ(first.records, 40);
  EXPECT_EQ(first.added, 40);
  EXPECT_EQ(first.already, 0);
  const Repository after_first = db.load();
  expect_same_estimates(after_first, repository_of(log_text(1, 40)));

  const IngestReport again = db.ingest(dir.file("a.swf"));
  EXPECT_FALSE(again.new_source);
  EXPECT_EQ(again.added, 0);
  EXPECT_EQ(again.already, 40);
  EXPECT_EQ(again.entries_written, 0);
  expect_same_estimates(db.load(), after_first);
  EXPECT_EQ(db.ingest(dir.file("renamed.swf")).added, 0);

  const IngestReport longer = db.ingest(dir.file("a-longer.swf"));
  EXPECT_EQ(longer.added, 15);
  EXPECT_EQ(longer.already, 40);
  expect_same_estimates(db.load(), repository_of(log_text(1, 55)));
  const DbSummary sum = db.summary();
  EXPECT_EQ(sum.jobs, 55);
  ASSERT_EQ(sum.sources.size(), 1u);
  EXPECT_EQ(sum.sources[0].jobs, 55);

  // Logs without UnixStartTime are told apart by file name; --source overrides.
  EXPECT_EQ(log_identity(swf::Header{}, "/some/dir/x.swf.gz"), "file:x");
  write_file(dir.file("b.swf"), log_text(1, 10, ""));
  const IngestReport b = db.ingest(dir.file("b.swf"));
  EXPECT_EQ(b.source, "file:b");
  EXPECT_EQ(b.added, 10);
  EXPECT_EQ(db.ingest(dir.file("b.swf"), {"other-name"}).added, 10);
  EXPECT_EQ(db.summary().jobs, 75);
}

// A log in memory is learnt as its file: the same identity and jobs, so a second ingest of either adds nothing.
// Without UnixStartTime it must be given a source (every in-memory log would otherwise share one identity).
TEST(ProfilerDbTest, ALogInMemoryIsIngestedAsItsFile) {
  TempDir dir;
  write_file(dir.file("a.swf"), log_text(1, 40));
  ProfilerDb from_file(dir.file("f.db"), ProfilerDb::Mode::kWrite);
  ProfilerDb in_memory(dir.file("m.db"), ProfilerDb::Mode::kWrite);
  const IngestReport f = from_file.ingest(dir.file("a.swf"));
  const IngestReport m = in_memory.ingest(swf::parse_log(log_text(1, 40), "DataFrame"));
  EXPECT_EQ(m.source, f.source);
  EXPECT_EQ(m.added, 40);
  EXPECT_EQ(m.trace, "DataFrame");
  expect_same_estimates(in_memory.load(), from_file.load());
  EXPECT_EQ(from_file.ingest(swf::parse_log(log_text(1, 45), "DataFrame")).added, 5);
  const swf::Log bare = swf::parse_log(log_text(1, 10, ""), "DataFrame");
  try {
    (void)in_memory.ingest(bare);
    ADD_FAILURE() << "a log in memory without UnixStartTime got an identity of its own";
  } catch (const ProfilerDbError& e) {
    EXPECT_NE(std::string(e.what()).find("m.db: DataFrame: a log held in memory without UnixStartTime in its header "
                                         "needs a source"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(in_memory.ingest(bare, {"mine"}).added, 10);
}

TEST(ProfilerDbTest, SkippedRecordsAndDuplicateKeys) {
  TempDir dir;
  // Two records with the same job number and submit time are two jobs (occurrence 0 and 1); a partial
  // execution line and a negative runtime are skipped and counted.
  write_file(dir.file("d.swf"),
             "1 0 0 100 1 -1 -1 1 500 -1 1 1 1 2 -1 -1 -1 -1\n"
             "1 0 0 120 1 -1 -1 1 500 -1 1 1 1 2 -1 -1 -1 -1\n"
             "2 5 0 300 1 -1 -1 1 500 -1 2 1 1 2 -1 -1 -1 -1\n"
             "3 6 0 -1 1 -1 -1 1 500 -1 5 1 1 2 -1 -1 -1 -1\n"
             "4 7 0 50 -1 -1 -1 -1 500 -1 1 1 1 2 -1 -1 -1 -1\n");
  ProfilerDb db(dir.file("p.db"), ProfilerDb::Mode::kWrite);
  const IngestReport r = db.ingest(dir.file("d.swf"));
  EXPECT_EQ(r.records, 5);
  EXPECT_EQ(r.added, 2);
  EXPECT_EQ(r.skipped_total, 3);
  EXPECT_EQ(r.skipped.at("partial_execution"), 1);
  EXPECT_EQ(r.skipped.at("negative_runtime"), 1);
  EXPECT_EQ(r.skipped.at("no_size"), 1);
  const Estimate e = db.load().get_estimate({2, 1, 1, 0}, 0.95);
  ASSERT_TRUE(e.ok);
  EXPECT_DOUBLE_EQ(e.estimate, 110);
  EXPECT_EQ(db.ingest(dir.file("d.swf")).added, 0);
}

TEST(ProfilerDbTest, FailedIngestLeavesTheDatabaseUnchanged) {
  TempDir dir;
  write_file(dir.file("good.swf"), log_text(1, 20));
  std::string bad = log_text(21, 30);
  bad += "31 310 0 abc 1 -1 -1 1 5000 -1 1 1 1 1 -1 -1 -1 -1\n";
  write_file(dir.file("bad.swf"), bad);
  ProfilerDb db(dir.file("p.db"), ProfilerDb::Mode::kWrite);
  db.ingest(dir.file("good.swf"));
  try {
    db.ingest(dir.file("bad.swf"));
    FAIL() << "expected a read error";
  } catch (const swf::ReadError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.swf:13: field 4 (run_time)"), std::string::npos) << e.what();
  }
  EXPECT_EQ(db.summary().jobs, 20);
  expect_same_estimates(db.load(), repository_of(log_text(1, 20)));
}

// Expects `f` to throw ProfilerDbError whose message starts with `path` and contains `what`.
template <typename F>
void expect_db_error(F f, const std::string& path, const std::string& what) {
  try {
    f();
    FAIL() << "expected an error for " << path;
  } catch (const ProfilerDbError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

void sql(const std::string& path, const std::string& statements) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

TEST(ProfilerDbTest, ForeignAndCorruptFilesGiveClearErrors) {
  TempDir dir;
  const std::string missing = dir.file("missing.db");
  expect_db_error([&] { load_repository(missing); }, missing, "no such file");
  EXPECT_FALSE(std::filesystem::exists(missing));  // reading never creates

  expect_db_error([&] { load_repository(dir.path()); }, dir.path(), "is a directory");

  // SQLite's temporary ("") and in-memory databases took an ingest and lost it at exit; "-" made a file named "-".
  for (const std::string name : {"", "-", ":memory:"})
    expect_db_error([&] { ProfilerDb(name, ProfilerDb::Mode::kWrite); }, "'" + name + "'",
                    "a profiler database is an SQLite file");

  const std::string random = dir.file("random.db");
  std::string bytes;
  uint32_t x = 12345;
  for (int i = 0; i < 8192; ++i) {
    x = x * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>(x >> 24));
  }
  write_file(random, bytes);
  expect_db_error([&] { load_repository(random); }, random, "not an SQLite database");
  expect_db_error([&] { ProfilerDb(random, ProfilerDb::Mode::kWrite); }, random, "not an SQLite database");

  const std::string text = dir.file("log.swf");
  write_file(text, log_text(1, 5));
  expect_db_error([&] { load_repository(text); }, text, "not an SQLite database");

  const std::string empty = dir.file("empty.db");
  write_file(empty, "");
  expect_db_error([&] { load_repository(empty); }, empty, "empty database");

  const std::string other = dir.file("other.db");
  sql(other, "CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1, 'x');");
  expect_db_error([&] { load_repository(other); }, other, "not a schedlab profiler database");
  expect_db_error([&] { ProfilerDb(other, ProfilerDb::Mode::kWrite); }, other, "with tables customers");

  const std::string app = dir.file("app.db");
  sql(app, "PRAGMA application_id = 1234; CREATE TABLE t(x);");
  expect_db_error([&] { load_repository(app); }, app, "application_id 0x000004d2");

  const std::string good = dir.file("good.db");
  write_file(dir.file("big.swf"), log_text(1, 3000));
  ProfilerDb(good, ProfilerDb::Mode::kWrite).ingest(dir.file("big.swf"));
  EXPECT_EQ(load_repository(good).jobs(), 3000);

  const std::string version = dir.file("version.db");
  std::filesystem::copy_file(good, version);
  sql(version, "PRAGMA user_version = 7;");
  expect_db_error([&] { load_repository(version); }, version, "format version 7");

  const std::string tampered = dir.file("tampered.db");
  std::filesystem::copy_file(good, tampered);
  sql(tampered, "UPDATE entries SET sum_t = sum_t + 100000000 WHERE pbucket = 0;");
  expect_db_error([&] { load_repository(tampered); }, tampered, "corrupt profiler database (entry");

  const std::string text2 = dir.file("text2.db");
  std::filesystem::copy_file(good, text2);
  sql(text2, "UPDATE entries SET sum_t2 = 'lots' WHERE pbucket = 0;");
  expect_db_error([&] { load_repository(text2); }, text2, "sum_t2 'lots'");

  const std::string dropped = dir.file("dropped.db");
  std::filesystem::copy_file(good, dropped);
  sql(dropped, "DROP TABLE jobs;");
  expect_db_error([&] { load_repository(dropped); }, dropped, "table 'jobs' is missing");

  const auto size = std::filesystem::file_size(good);
  ASSERT_GT(size, 8192u);
  for (const auto cut : {size / 2, size - 4096, std::uintmax_t{100}}) {
    const std::string truncated = dir.file(fmt::format("truncated-{}.db", cut));
    std::filesystem::copy_file(good, truncated);
    std::filesystem::resize_file(truncated, cut);
    try {
      load_repository(truncated);
      FAIL() << "no error for a database cut at " << cut << " of " << size << " bytes";
    } catch (const ProfilerDbError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(truncated + ": ", 0), 0u) << e.what();
    }
  }
}

TEST(ProfilerDbTest, PredictorStartsFromADatabase) {
  TempDir dir;
  write_file(dir.file("a.swf"), log_text(1, 60));
  ProfilerDb(dir.file("p.db"), ProfilerDb::Mode::kWrite).ingest(dir.file("a.swf"));
  const Repository repo = repository_of(log_text(1, 60));
  const Estimate e = repo.get_estimate({1, 1, 2, 0}, 0.95);
  ASSERT_TRUE(e.ok);
  Job j;
  j.id = 0;
  j.executable = 1;
  j.user = 1;
  j.procs = 2;
  j.estimate = 5000;
  Updates u;
  auto p = make_predictor("profiler:db=" + dir.file("p.db"));
  EXPECT_EQ(p->on_arrival(0, j, u), static_cast<int64_t>(std::ceil(e.estimate + e.half_width)));
  expect_db_error([&] { make_predictor("profiler:db=" + dir.file("nope.db")); }, dir.file("nope.db"), "no such file");
}

}  // namespace
}  // namespace schedlab::predict::profiler
