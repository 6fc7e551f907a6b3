// `schedlab stats` through the built binary.
#include <algorithm>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

const char* kStatsLog =
    "; MaxProcs: 8\n"
    "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 50 0 300 2 -1 -1 2 100 -1 1 2 1 -1 -1 -1 -1 -1\n"
    "3 80 -1 20 16 -1 -1 16 100 -1 1 2 1 -1 -1 -1 -1 -1\n"
    "4 200 5 -1 1 -1 -1 1 -1 -1 0 3 1 -1 -1 -1 -1 -1\n";

TEST(CliStats, JsonOnKthMatchesIndependentFigures) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const CliResult r = run_cli({"stats", trace_path("KTH-SP2-1996-2.swf.gz"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 28489);
  EXPECT_EQ(j["machine"]["procs"], 100);
  EXPECT_EQ(j["machine"]["source"], "MaxProcs");

  const swf::Log log = swf::read_log(trace_path("KTH-SP2-1996-2.swf.gz"));
  std::vector<int32_t> runtimes, sizes;
  std::set<int32_t> users;
  for (const auto& rec : log.records) {
    runtimes.push_back(rec.run_time);
    sizes.push_back(rec.requested_procs > 0 ? rec.requested_procs : rec.allocated_procs);
    if (rec.user_id != -1) users.insert(rec.user_id);
  }
  std::sort(runtimes.begin(), runtimes.end());
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(j["distributions"]["runtime"]["median"].get<double>(), runtimes[runtimes.size() / 2]);
  EXPECT_EQ(j["distributions"]["size"]["median"].get<double>(), sizes[sizes.size() / 2]);
  EXPECT_EQ(j["distributions"]["size"]["max"].get<double>(), sizes.back());
  EXPECT_EQ(j["distinct"]["users"], users.size());
  EXPECT_EQ(j["valid_jobs"], 28489);
  EXPECT_EQ(j["read"]["warnings"]["estimate_below_runtime"]["count"],
            log.report.warning(swf::Warning::kEstimateBelowRuntime).count);
}

TEST(CliStats, TextReportOnKth) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const CliResult r = run_cli({"stats", trace_path("KTH-SP2-1996-2.swf.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("records                             28,489\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("100 processors (from MaxProcs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(1996-09-23 14:00:31 CEST)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  median"), std::string::npos) << r.out;
}

TEST(CliStats, SmallLogExclusionsAndProcsOption) {
  TempDir dir;
  write_file(dir.file("small.swf"), kStatsLog);
  CliResult r = run_cli({"stats", dir.file("small.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 4);
  EXPECT_EQ(j["machine"]["procs"], 8);
  EXPECT_EQ(j["valid_jobs"], 2);
  EXPECT_EQ(j["excluded"]["larger_than_machine"], 1);
  EXPECT_EQ(j["excluded"]["negative_runtime"], 1);
  EXPECT_EQ(j["without_estimate"], 1);
  EXPECT_EQ(j["distinct"]["users"], 3);
  EXPECT_EQ(j["distributions"]["wait"]["count"], 3);
  EXPECT_EQ(j["distributions"]["wait"]["median"], 5);
  // Offered load over the valid jobs' submit span 0..50 (jobs 3 and 4, excluded, arrive later and add no
  // work): (4*100 + 2*300) / (8 * 50), the simulator's figure for the same log (0.625 over the log's span
  // 0..200 before, when the two disagreed).
  EXPECT_DOUBLE_EQ(j["offered_load"].get<double>(), 1000.0 / 400.0);
  CliResult sim = run_cli({"simulate", dir.file("small.swf"), "--scheduler", "fcfs", "--json"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(sim.out)["offered_load"].get<double>(), 1000.0 / 400.0);

  r = run_cli({"stats", dir.file("small.swf"), "--json", "--procs", "32"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["machine"]["procs"], 32);
  EXPECT_EQ(j["machine"]["source"], "option");
  EXPECT_EQ(j["valid_jobs"], 3);
}

TEST(CliStats, SkipInvalidPassesThroughToTheReader) {
  TempDir dir;
  write_file(dir.file("bad.swf"), std::string(kStatsLog) + "5 1 2 3\n");
  CliResult r = run_cli({"stats", dir.file("bad.swf"), "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("schedlab: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.swf:6"), std::string::npos) << r.err;
  r = run_cli({"stats", dir.file("bad.swf"), "--json", "--skip-invalid"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 4);
  int64_t skipped = 0;
  for (const auto& [reason, n] : j["read"]["skipped"].items()) skipped += n.get<int64_t>();
  EXPECT_EQ(skipped, 1);
}

// A header value that does not parse is ignored — the machine size then comes from the largest job — and said:
// a warning from every command that reads the log, and a list in stats (both were silent).
TEST(CliStats, HeaderValuesThatDoNotParseAreWarnedAbout) {
  TempDir dir;
  write_file(dir.file("h.swf"), "; MaxProcs: abc\n; UnixStartTime: -100\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  const std::string warning =
      "schedlab: warning: " + dir.file("h.swf") + ": header line 1: MaxProcs: cannot parse 'abc' as a non-negative "
      "integer (ignored)\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"stats", dir.file("h.swf")}, {"simulate", dir.file("h.swf"), "--scheduler", "easy"},
        {"analyze", "runs", dir.file("h.swf"), "--size-only"}, {"convert", dir.file("h.swf"), dir.file("h.csv")}}) {
    const CliResult r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err.substr(0, warning.size()), warning) << args[0];  // (convert reports on standard error next)
    EXPECT_EQ(r.err.find("UnixStartTime"), std::string::npos) << args[0];  // it alone may be negative
  }
  const CliResult csv = run_cli({"convert", dir.file("h.csv"), dir.file("back.swf")});
  EXPECT_EQ(csv.err.rfind("schedlab: warning: " + dir.file("h.csv") + ": header line 1: MaxProcs: cannot parse 'abc' "
                          "as a non-negative integer (ignored)\n", 0), 0u) << csv.err;
  const CliResult text = run_cli({"stats", dir.file("h.swf")});
  EXPECT_NE(text.out.find("header problems                     1\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(from largest job)"), std::string::npos) << text.out;
  const auto j = nlohmann::json::parse(run_cli({"stats", dir.file("h.swf"), "--json"}).out);
  EXPECT_EQ(j["read"]["header_problems"],
            nlohmann::json::array({"line 1: MaxProcs: cannot parse 'abc' as a non-negative integer"}));
}

// A zone the time zone database does not know: no dates, and a warning saying why (stats printed seconds only).
TEST(CliStats, AnUnknownTimeZoneIsWarnedAbout) {
  TempDir dir;
  write_file(dir.file("tz.swf"), "; UnixStartTime: 842565631\n; TimeZoneString: Nowhere/City\n"
                                 "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  const CliResult r = run_cli({"stats", dir.file("tz.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "schedlab: warning: " + dir.file("tz.swf") + ": the header's TimeZoneString 'Nowhere/City' is not "
                   "in the time zone database: no dates or local times (what needs them says so)\n");
  write_file(dir.file("known.swf"), "; UnixStartTime: 842565631\n; TimeZoneString: Europe/Stockholm\n"
                                    "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n");
  const CliResult known = run_cli({"stats", dir.file("known.swf")});
  EXPECT_EQ(known.err, "");
  EXPECT_NE(known.out.find("1996-09-13 00:00:31 CEST"), std::string::npos) << known.out;
}

TEST(CliStats, MissingFileIsAnError) {
  const CliResult r = run_cli({"stats", "/nonexistent/log.swf"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("schedlab: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/log.swf"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliStats, BadProcsValueIsAnError) {
  TempDir dir;
  write_file(dir.file("small.swf"), kStatsLog);
  for (const char* bad : {"abc", "0", "-4", "12x"}) {
    const CliResult r = run_cli({"stats", dir.file("small.swf"), "--procs", bad});
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_NE(r.err.find("--procs"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace schedlab::testing
