// `schedlab profiler ingest/query/compare` and `simulate --predictor profiler`.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab {
namespace {

using schedlab::testing::bundled_kth;
using schedlab::testing::run_cli;
using schedlab::testing::TempDir;
using schedlab::testing::write_file;

TEST(ProfilerCliTest, IngestTwiceChangesNothing) {
  TempDir dir;
  const std::string db = dir.file("kth.db");
  const auto first = run_cli({"profiler", "ingest", bundled_kth(), "--db", db, "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto a = nlohmann::json::parse(first.out);
  EXPECT_TRUE(a["created"].get<bool>());
  // KTH-SP2-1996-2: 28,489 records, none with a negative runtime or no size (schedlab stats).
  EXPECT_EQ(a["logs"][0]["records"], 28489);
  EXPECT_EQ(a["logs"][0]["added"], 28489);
  EXPECT_EQ(a["logs"][0]["skipped_total"], 0);
  EXPECT_EQ(a["database"]["jobs"], 28489);
  EXPECT_EQ(a["logs"][0]["source"],
            "UnixStartTime=843480031; Computer=IBM SP2; Installation=Swedish Royal Institute of Technology (KTH)");
  const std::string before = schedlab::testing::read_file(db);

  const auto second = run_cli({"profiler", "ingest", bundled_kth(), "--db", db, "--json"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const auto b = nlohmann::json::parse(second.out);
  EXPECT_FALSE(b["created"].get<bool>());
  EXPECT_EQ(b["logs"][0]["added"], 0);
  EXPECT_EQ(b["logs"][0]["already_present"], 28489);
  EXPECT_EQ(b["logs"][0]["entries_written"], 0);
  EXPECT_EQ(b["database"]["jobs"], 28489);
  EXPECT_EQ(b["database"]["entries"], a["database"]["entries"]);

  // The text output says the same.
  const auto text = run_cli({"profiler", "ingest", bundled_kth(), "--db", db});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("28489 read: 0 added, 28489 already in the database, 0 skipped"), std::string::npos)
      << text.out;

  // Queries: KTH has no executable numbers, so every job is answered at the system level; with no attained
  // time every job counts, with --elapsed 100000 only those that ran >= 65536 s (the bucket of 100000 is
  // [65536, 131072)), counted here from the log itself.
  const auto q = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "56", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const auto qj = nlohmann::json::parse(q.out);
  EXPECT_TRUE(qj["ok"].get<bool>());
  EXPECT_EQ(qj["level"], "system");
  EXPECT_EQ(qj["method"], "fit");
  EXPECT_EQ(qj["samples"], 28489);
  EXPECT_GT(qj["estimate"].get<double>(), 0);
  EXPECT_NEAR(qj["upper"].get<double>(), qj["estimate"].get<double>() + qj["half_width"].get<double>(), 1e-6);
  int64_t long_jobs = 0;
  for (const auto& r : swf::read_log(bundled_kth()).records) long_jobs += r.run_time >= 65536 ? 1 : 0;
  ASSERT_GT(long_jobs, 0);
  const auto ql = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "56", "--elapsed", "100000",
                           "--json"});
  ASSERT_EQ(ql.exit_code, 0) << ql.err;
  const auto qlj = nlohmann::json::parse(ql.out);
  ASSERT_TRUE(qlj["ok"].get<bool>());
  EXPECT_EQ(qlj["samples"].get<int64_t>(), long_jobs);
  EXPECT_GT(qlj["estimate"].get<double>(), 65536);
  const auto qt = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "56"});
  ASSERT_EQ(qt.exit_code, 0) << qt.err;
  EXPECT_NE(qt.out.find("level        system (the whole system: no executable given"), std::string::npos) << qt.out;
  EXPECT_NE(qt.out.find("samples      28489 jobs"), std::string::npos) << qt.out;
}

// An UnixStartTime that does not parse makes the identity the file name: warned about, with the other header
// problems, on standard error and in the JSON (ingest read the header silently).
TEST(ProfilerCliTest, IngestWarnsAboutTheHeader) {
  TempDir dir;
  write_file(dir.file("h.swf"), "; UnixStartTime: soon\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n");
  const auto r = run_cli({"profiler", "ingest", dir.file("h.swf"), "--db", dir.file("h.db"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string warning =
      dir.file("h.swf") + ": header line 1: UnixStartTime: cannot parse 'soon' as an integer (ignored)";
  EXPECT_NE(r.err.find("schedlab: warning: " + warning + "\n"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["logs"][0]["header_warnings"], nlohmann::json::array({warning}));
  EXPECT_EQ(j["logs"][0]["source"], "file:h");
}

// A preempted job's partial-execution lines are not jobs to learn from: left out, and said (SWF and CSV alike).
TEST(ProfilerCliTest, IngestLeavesOutPartialExecutionLines) {
  TempDir dir;
  write_file(dir.file("p.swf"), "; UnixStartTime: 0\n1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 1 -1 -1\n"
                                "1 -1 0 40 1 -1 -1 1 200 -1 2 1 1 1 1 1 -1 -1\n"
                                "1 -1 0 60 1 -1 -1 1 200 -1 3 1 1 1 1 1 -1 -1\n");
  ASSERT_EQ(run_cli({"convert", dir.file("p.swf"), dir.file("p.csv")}).exit_code, 0);
  for (const std::string name : {"p.swf", "p.csv"}) {
    const auto r = run_cli({"profiler", "ingest", dir.file(name), "--db", dir.file(name + ".db"), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("schedlab: note: " + dir.file(name) + ": 2 partial-execution lines"), std::string::npos)
        << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["logs"][0]["records"], 1) << r.out;
  }
}

TEST(ProfilerCliTest, QueryAndCompareOnASmallLog) {
  TempDir dir;
  const std::string log = dir.file("small.swf");
  // exe 1 / user 1 / 2 processors: 100..500 s (mean 300, s² = 25000); exe 2 / user 1 / 2 processors: 90, 100,
  // 110 (mean 100, s² = 100).
  write_file(log,
             "1 0 0 100 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
             "2 1 0 200 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
             "3 2 0 300 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
             "4 3 0 400 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
             "5 4 0 500 2 -1 -1 2 1000 -1 1 1 1 1 -1 -1 -1 -1\n"
             "6 5 0 90 2 -1 -1 2 1000 -1 1 1 1 2 -1 -1 -1 -1\n"
             "7 6 0 100 2 -1 -1 2 1000 -1 1 1 1 2 -1 -1 -1 -1\n"
             "8 7 0 110 2 -1 -1 2 1000 -1 1 1 1 2 -1 -1 -1 -1\n");
  const std::string db = dir.file("p.db");
  ASSERT_EQ(run_cli({"profiler", "ingest", log, "--db", db}).exit_code, 0);
  const auto q = run_cli({"profiler", "query", "--db", db, "--user", "1", "--exe", "1", "--procs", "2", "--json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const auto qj = nlohmann::json::parse(q.out);
  EXPECT_EQ(qj["level"], "exe_user");
  EXPECT_EQ(qj["method"], "bucket_mean");
  EXPECT_DOUBLE_EQ(qj["estimate"].get<double>(), 300);
  EXPECT_EQ(qj["samples"], 5);
  // t(4, 0.975) · √(25000/5) = 2.7764451 · 70.7107 (t by mpmath).
  EXPECT_NEAR(qj["half_width"].get<double>(), 2.77644510519779349 * std::sqrt(5000.0), 1e-6);
  // Another user of exe 1: the executable level.
  const auto q2 = run_cli({"profiler", "query", "--db", db, "--user", "9", "--exe", "1", "--procs", "2", "--json"});
  EXPECT_EQ(nlohmann::json::parse(q2.out)["level"], "exe");
  // The text says why each level answered (a system-level answer looked as if user and executable were ignored).
  for (const auto& [user, exe, why] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"1", "1", "level        exe_user (executable 1 of user 1)\n"},
           {"9", "1", "level        exe (all users' jobs of executable 1: user 9's could not answer)\n"},
           {"9", "7", "level        system (the whole system: executable 7's jobs could not answer)\n"},
           {"9", "", "level        system (the whole system: no executable given, so no executable category)\n"}}) {
    std::vector<std::string> query = {"profiler", "query", "--db", db, "--user", user, "--procs", "2"};
    if (!exe.empty()) query.insert(query.end(), {"--exe", exe});
    const auto t = run_cli(query);
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find(why), std::string::npos) << t.out;
  }

  // Welch: t = 200/√(5000 + 100/3) = 2.8190, ν = 4.0532, critical t(ν, 0.95) = 2.1238 → accepted;
  // with D = 50: t = 2.1143 → not supported.
  const std::vector<std::string> ab = {"--user-a", "1", "--exe-a", "1", "--procs-a", "2",
                                       "--user-b", "1", "--exe-b", "2", "--procs-b", "2"};
  auto args = std::vector<std::string>{"profiler", "compare", "--db", db, "--json"};
  args.insert(args.end(), ab.begin(), ab.end());
  const auto c = run_cli(args);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  EXPECT_NEAR(cj["t"].get<double>(), 2.81904591440963744, 1e-9);
  EXPECT_NEAR(cj["dof"].get<double>(), 4.05315083103724113, 1e-9);
  EXPECT_NEAR(cj["critical"].get<double>(), 2.12383978085776349, 1e-8);
  EXPECT_TRUE(cj["accepted"].get<bool>());
  args = {"profiler", "compare", "--db", db, "--difference", "50"};
  args.insert(args.end(), ab.begin(), ab.end());
  const auto c50 = run_cli(args);
  ASSERT_EQ(c50.exit_code, 0) << c50.err;
  EXPECT_NE(c50.out.find("verdict      not supported"), std::string::npos) << c50.out;
  EXPECT_NE(c50.out.find("t            2.1143"), std::string::npos) << c50.out;

  // No data for job B (it has run longer than any job): a clear error.
  args = {"profiler", "compare", "--db", db, "--user-a", "1", "--exe-a", "1", "--procs-a", "2", "--user-b", "1",
          "--exe-b", "2", "--procs-b", "2", "--elapsed-b", "100000"};
  const auto none = run_cli(args);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("cannot compare: no estimate for job B"), std::string::npos) << none.err;
  // No answer although there is data (every job ran on 2 processors: no fit, and none on 3-4): the text said "no
  // category has data", which is not why.
  const auto size = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "4"});
  ASSERT_EQ(size.exit_code, 0) << size.err;
  EXPECT_NE(size.out.find("estimate     none: the whole system's 8 jobs cannot answer at 4 processors: its fit is not "
                          "positive there and fewer than 2 of its jobs ran on 3-4 processors\n"),
            std::string::npos)
      << size.out;
  const auto size_json = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "4", "--json"});
  EXPECT_EQ(nlohmann::json::parse(size_json.out)["held"], 8);
  const auto longer = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "2", "--elapsed", "100000"});
  EXPECT_NE(longer.out.find("estimate     none: no category of this job (exe+user, exe, system) has jobs that ran "
                            "that long\n"),
            std::string::npos)
      << longer.out;
  const auto bad = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", "2", "--confidence", "95"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--confidence must be between 0 and 1"), std::string::npos) << bad.err;
  // A size beyond 32 bits is named by its option, as a size below 1 is (the library's message named no option).
  for (const char* procs : {"0", "3000000000"}) {
    const auto wide = run_cli({"profiler", "query", "--db", db, "--user", "1", "--procs", procs});
    EXPECT_EQ(wide.exit_code, 1);
    EXPECT_NE(wide.err.find(fmt::format("--procs must be 1 to 2^31 - 1, got {}", procs)), std::string::npos)
        << wide.err;
  }
}

// Several ingests into one new database at once: each found the file empty, and the later ones said "table meta
// already exists" or, reading the header before the other's commit and the tables after it, "not a schedlab
// profiler database" (13 of 20 rounds of four processes failed). The schema is made, or found, under the lock.
TEST(ProfilerCliTest, ConcurrentIngestsIntoANewDatabase) {
  TempDir dir;
  const std::string log = dir.file("tiny.swf");
  write_file(log, "; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n"
                  "2 60 5 100 4 -1 -1 4 200 -1 1 7 1 3 -1 -1 -1 -1\n");
  for (int round = 0; round < 20; ++round) {
    std::string name = std::to_string(round);
    name += ".db";
    const std::string db = dir.file(name);
    std::vector<testing::CliResult> results(4);
    std::vector<std::thread> ingests;
    for (auto& r : results) ingests.emplace_back([&] { r = run_cli({"profiler", "ingest", "--db", db, log}); });
    for (auto& t : ingests) t.join();
    for (const testing::CliResult& r : results) ASSERT_EQ(r.exit_code, 0) << "round " << round << ": " << r.err;
    const testing::CliResult again = run_cli({"profiler", "ingest", "--db", db, log, "--json"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)["database"]["jobs"], 2) << again.out;
  }
}

TEST(ProfilerCliTest, CorruptOrForeignDatabaseIsAClearError) {
  TempDir dir;
  const std::string junk = dir.file("junk.db");
  std::string bytes(4096, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919 + 13) % 251);
  write_file(junk, bytes);
  const auto q = run_cli({"profiler", "query", "--db", junk, "--user", "1", "--procs", "4"});
  EXPECT_EQ(q.exit_code, 1);
  EXPECT_NE(q.err.find("schedlab: error: " + junk + ": not an SQLite database"), std::string::npos) << q.err;
  const auto i = run_cli({"profiler", "ingest", bundled_kth(), "--db", junk});
  EXPECT_EQ(i.exit_code, 1);
  EXPECT_NE(i.err.find(junk + ": not an SQLite database"), std::string::npos) << i.err;
  EXPECT_EQ(schedlab::testing::read_file(junk), bytes);  // left alone
  const auto missing = run_cli({"profiler", "query", "--db", dir.file("none.db"), "--user", "1", "--procs", "4"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find(dir.file("none.db") + ": cannot open profiler database"), std::string::npos)
      << missing.err;
  const auto sim = run_cli({"simulate", bundled_kth(), "-s", "easy", "-p", "profiler:db=" + junk});
  EXPECT_EQ(sim.exit_code, 1);
  EXPECT_NE(sim.err.find(junk + ": not an SQLite database"), std::string::npos) << sim.err;
}

TEST(ProfilerCliTest, SimulateWithTheProfilerPassesTheChecks) {
  const auto r = run_cli({"simulate", bundled_kth(), "--scheduler", "easy", "--predictor",
                          "profiler:confidence=0.95;bound=upper", "--check", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["predictor"], "profiler");
  EXPECT_EQ(doc["jobs"]["simulated"], 28489);
  EXPECT_TRUE(doc["checked"].get<bool>());
  EXPECT_GT(doc["deadline_misses"].get<int64_t>(), 0);
  const auto again = run_cli({"simulate", bundled_kth(), "--scheduler", "easy", "--predictor", "profiler", "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto a = nlohmann::json::parse(again.out), b = doc;
  a.erase("wall_time_s");
  b.erase("wall_time_s");
  b["checked"] = false;
  EXPECT_EQ(a, b);  // deterministic, and the defaults are confidence=0.95;bound=upper
}

}  // namespace
}  // namespace schedlab
