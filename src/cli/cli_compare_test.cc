// The `schedlab compare` command.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab {
namespace {
using schedlab::testing::run_cli;

const char* kCompareLog =
    "; MaxProcs: 10\n"
    "1 0 -1 300 6 -1 -1 6 300 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 1 -1 10 8 -1 -1 8 10 -1 1 2 1 -1 -1 -1 -1 -1\n"
    "3 2 -1 50 2 -1 -1 2 50 -1 1 3 1 -1 -1 -1 -1 -1\n"
    "4 150 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n";

// A period's start is a date in the log's zone when the header says when the log began (it was seconds from the
// log's start, which a reader had to turn into a month), with the time of day for periods under a day (to the
// second under an hour); seconds without UnixStartTime.
TEST(CompareCliTest, PeriodStartsAreDatesWhenTheLogSaysWhenItBegan) {
  schedlab::testing::TempDir dir;
  const std::string dated = dir.file("dated.swf");
  schedlab::testing::write_file(dated, std::string("; UnixStartTime: 843480031\n; TimeZoneString: Europe/Stockholm\n") +
                                           kCompareLog);
  const auto days = run_cli({"compare", dated, "-s", "easy", "--period", "30d"});
  ASSERT_EQ(days.exit_code, 0) << days.err;
  EXPECT_NE(days.out.find("\n0       1996-09-23     "), std::string::npos) << days.out;
  const auto minutes = run_cli({"compare", dated, "-s", "easy", "--period", "100"});
  ASSERT_EQ(minutes.exit_code, 0) << minutes.err;
  EXPECT_NE(minutes.out.find("\n1       1996-09-23 14:02:11 "), std::string::npos) << minutes.out;
  const auto hours = run_cli({"compare", dated, "-s", "easy", "--period", "6h"});
  ASSERT_EQ(hours.exit_code, 0) << hours.err;
  EXPECT_NE(hours.out.find("\n0       1996-09-23 14:00 "), std::string::npos) << hours.out;
  const std::string plain = dir.file("plain.swf");
  schedlab::testing::write_file(plain, kCompareLog);
  const auto seconds = run_cli({"compare", plain, "-s", "easy", "--period", "100"});
  ASSERT_EQ(seconds.exit_code, 0) << seconds.err;
  EXPECT_NE(seconds.out.find("\n1       100         "), std::string::npos) << seconds.out;
}

TEST(CompareCliTest, TextJsonAndCsv) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kCompareLog);
  const auto text = run_cli({"compare", log, "--schedulers", "fcfs,easy", "--period", "100"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("baseline   easy"), std::string::npos) << text.out;
  // The predictor is named (two comparisons under different predictors printed alike), per scheduler when a preset
  // brings its own.
  EXPECT_NE(text.out.find("\npredictor  estimate\n"), std::string::npos) << text.out;
  const auto ruh = run_cli({"compare", log, "-s", "fcfs,easy", "-p", "ruh:jobs=1", "--period", "100", "--json"});
  ASSERT_EQ(ruh.exit_code, 0) << ruh.err;
  EXPECT_EQ(nlohmann::json::parse(ruh.out)["schedulers"][1]["predictor"], "ruh:jobs=1");
  const auto mixed = run_cli({"compare", log, "-s", "easy,easy++", "--period", "100"});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.out.find("\npredictor  easy with estimate; easy++ with user-last2:correction=tsafrir\n"),
            std::string::npos)
      << mixed.out;
  // Gaps are between two schedulers: one has none, and no heading over nothing.
  EXPECT_NE(text.out.find("\nwait gaps between two schedulers"), std::string::npos) << text.out;
  const auto one = run_cli({"compare", log, "-s", "easy", "--period", "100"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out.find("wait gaps"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\nmean wait (s) and bounded slowdown per period\n"), std::string::npos) << one.out;
  EXPECT_NE(text.out.find("fcfs vs easy: fcfs wins 0"), std::string::npos) << text.out;
  // The option repeated is the list (it was refused: "At Most 1 required but received 2"), a spec with brackets too.
  const auto repeated = run_cli({"compare", log, "-s", "fcfs", "--schedulers", "[conservative:check=1]", "--period", "100"});
  ASSERT_EQ(repeated.exit_code, 0) << repeated.err;
  EXPECT_NE(repeated.out.find("fcfs vs conservative:check=1: fcfs wins 0"), std::string::npos) << repeated.out;
  EXPECT_NE(run_cli({"compare", log, "-s", "fcfs,easy", "--period", "2d"}).out.find(", 1 period of 2d\n"),
            std::string::npos);  // it said "1 periods"
  EXPECT_NE(run_cli({"compare", log, "-s", "fcfs,easy", "--period", "100"}).out.find(" periods of 1m40s\n"),
            std::string::npos);
  const std::string csv = dir.file("periods.csv");
  const auto json = run_cli({"compare", log, "-s", "fcfs,[easy]", "--period", "100s", "--json", "--csv", csv,
                             "--baseline", "fcfs"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["baseline"], "fcfs");
  EXPECT_EQ(doc["periods"].size(), 2u);
  EXPECT_DOUBLE_EQ(doc["schedulers"][0]["wait"]["mean"].get<double>(), 189.25);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("period,start,jobs,users,load", 0), 0u) << header;
  EXPECT_NE(header.find("easy:wait_deviation"), std::string::npos);
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 2);
  // The CSV to standard output is the whole output (the text report followed it there), and not with --json.
  const auto out = run_cli({"compare", log, "-s", "fcfs,easy", "--period", "100", "--csv", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out.rfind("period,start,jobs,users,load", 0), 0u) << out.out;
  EXPECT_EQ(out.out.find("baseline"), std::string::npos) << out.out;
  const auto both = run_cli({"compare", log, "-s", "fcfs,easy", "--csv", "-", "--json"});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.err.find("cannot be combined"), std::string::npos) << both.err;
}

// --by-class: each scheduler's classes, the same figures as `simulate --by-class` gives for it alone; a table of
// the classes' mean waits in the text.
TEST(CompareCliTest, MetricsByJobClass) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto c = run_cli({"compare", kth, "-s", "easy,easy-sjbf", "--class-limits", "30m,16", "--warmup-fraction",
                          "0.01", "--json"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_EQ(doc["by_class_limits"]["limits"], "30m,16");
  for (const auto& s : doc["schedulers"]) {
    const auto one = run_cli({"simulate", kth, "-s", s["name"].get<std::string>(), "--class-limits", "30m,16",
                              "--warmup-fraction", "0.01", "--json"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(s["by_class"], nlohmann::json::parse(one.out)["by_class"]["classes"]) << s["name"];
  }
  EXPECT_NE(doc["schedulers"][0]["by_class"], doc["schedulers"][1]["by_class"]);
  const auto text = run_cli({"compare", kth, "-s", "easy,easy-sjbf", "--by-class"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("mean wait (s) and bounded slowdown by job class (short: runtime <= 1h, narrow: <= 8 "
                          "processors; share of the jobs)\nscheduler        short narrow (50%)"),
            std::string::npos)
      << text.out;
  const auto plain = run_cli({"compare", kth, "-s", "easy,easy-sjbf", "--json"});
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("by_class_limits"));
  EXPECT_FALSE(nlohmann::json::parse(plain.out)["schedulers"][0].contains("by_class"));
}

// --extend-estimates and --kill-at-estimate reach every scheduler as they reach `simulate` (compare lacked the
// first): each one's whole-log means are simulate's with the same flag, and the note says how many jobs changed.
TEST(CompareCliTest, TheWorkloadOptionsAreSimulates) {
  const std::string kth = schedlab::testing::bundled_kth();
  for (const std::string flag : {"--extend-estimates", "--kill-at-estimate"}) {
    const auto c = run_cli({"compare", kth, "-s", "easy,conservative", flag, "--json"});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const auto doc = nlohmann::json::parse(c.out);
    const auto plain = nlohmann::json::parse(run_cli({"compare", kth, "-s", "easy,conservative", "--json"}).out);
    for (size_t i = 0; i < 2; ++i) {
      const auto& s = doc["schedulers"][i];
      const auto one = run_cli({"simulate", kth, "-s", s["name"].get<std::string>(), flag, "--json"});
      ASSERT_EQ(one.exit_code, 0) << one.err;
      const auto m = nlohmann::json::parse(one.out)["metrics"];
      EXPECT_EQ(s["wait"]["mean"], m["wait"]["mean"]) << flag << " " << s["name"];
      EXPECT_EQ(s["bounded_slowdown"]["mean"], m["bounded_slowdown"]["mean"]) << flag << " " << s["name"];
      EXPECT_NE(s["wait"]["mean"], plain["schedulers"][i]["wait"]["mean"]) << flag << " " << s["name"];
    }
    const auto simulated = run_cli({"simulate", kth, "-s", "easy", flag, "--json"});
    EXPECT_EQ(doc["notes"], nlohmann::json::parse(simulated.out)["notes"]) << flag;
  }
  const auto text = run_cli({"compare", kth, "-s", "easy", "--extend-estimates"});
  EXPECT_NE(text.out.find("\nnote       475 jobs had their estimate raised to their runtime (--extend-estimates)\n"),
            std::string::npos)
      << text.out;
}

// --warmup-fraction and --bsld-tau are simulate's: the whole-log means equal simulate's under the same flags, the
// text and the JSON say the settings, and the period means keep every job (they do not move with the warm-up).
TEST(CompareCliTest, TheWarmUpAndTheSlowdownThresholdAreSaid) {
  const std::string kth = schedlab::testing::bundled_kth();
  const std::vector<std::string> flags = {"--warmup-fraction", "0.01", "--bsld-tau", "60"};
  std::vector<std::string> args = {"compare", kth, "-s", "easy,fcfs", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  const auto c = run_cli(args);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto doc = nlohmann::json::parse(c.out);
  EXPECT_EQ(doc["warmup_excluded"], 284);  // floor(0.01 x 28,489)
  EXPECT_EQ(doc["warmup_fraction"], 0.01);
  EXPECT_EQ(doc["bsld_tau"], 60);
  args = {"simulate", kth, "-s", "easy", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  const auto sim = nlohmann::json::parse(run_cli(args).out);
  EXPECT_EQ(doc["schedulers"][0]["wait"]["mean"], sim["metrics"]["wait"]["mean"]);
  EXPECT_EQ(doc["schedulers"][0]["bounded_slowdown"]["mean"], sim["metrics"]["bounded_slowdown"]["mean"]);
  const auto plain = nlohmann::json::parse(run_cli({"compare", kth, "-s", "easy,fcfs", "--json"}).out);
  EXPECT_EQ(plain["warmup_excluded"], 0);
  EXPECT_EQ(doc["periods"][0]["schedulers"]["easy"]["wait"], plain["periods"][0]["schedulers"]["easy"]["wait"]);
  EXPECT_NE(doc["schedulers"][0]["wait"]["mean"], plain["schedulers"][0]["wait"]["mean"]);
  args = {"compare", kth, "-s", "easy,fcfs"};
  args.insert(args.end(), flags.begin(), flags.end());
  const auto text = run_cli(args);
  EXPECT_NE(text.out.find("\nwarm-up    the first 284 jobs to end, left out of the whole-log means (the period means "
                          "keep them)\nbsld tau   60 s\n"),
            std::string::npos)
      << text.out;
  const auto plain_text = run_cli({"compare", kth, "-s", "easy,fcfs"});
  EXPECT_EQ(plain_text.out.find("warm-up"), std::string::npos);
  EXPECT_EQ(plain_text.out.find("bsld tau"), std::string::npos);
}

// The JSON's parts, every one (a part dropped by a change fails here): the whole comparison's and each scheduler's;
// an adaptive scheduler's switches and the classes when asked for.
TEST(CompareCliTest, TheJsonHasEveryPart) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto keys = schedlab::testing::json_keys;
  const auto r = run_cli({"compare", kth, "-s", "easy,[pbas:candidates=easy,conservative;interval=7d]", "--by-class",
                          "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(keys(doc), (std::set<std::string>{"arrival_scale", "baseline", "by_class_limits", "excluded", "jobs",
                                              "notes", "offered_load", "period_s", "periods", "procs", "records",
                                              "schedulers", "trace", "wait_gaps", "warnings", "bsld_tau",
                                              "warmup_fraction", "warmup_excluded"}));
  const std::set<std::string> each = {"backfilled_share", "bounded_slowdown", "by_class", "loss_of_capacity", "name",
                                      "predictor", "utilization", "wait"};
  std::set<std::string> easy = each, pbas = each;
  easy.insert("correlations_with_baseline_difference");  // the baseline (pbas, the last listed) has none
  pbas.insert("adaptive");
  EXPECT_EQ(keys(doc["schedulers"][0]), easy);
  EXPECT_EQ(keys(doc["schedulers"][1]), pbas);
}

TEST(CompareCliTest, ExcludedJobsAreCountedByReason) {
  // On 7 processors the 8-processor job is left out: compare said "3 jobs" and nothing of the fourth.
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kCompareLog);
  const auto text = run_cli({"compare", log, "-s", "fcfs,easy", "--procs", "7"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("7 processors, 3 jobs of 4 records"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("note       1 job excluded: larger than the machine (7 processors)"), std::string::npos)
      << text.out;
  const auto json = run_cli({"compare", log, "-s", "fcfs,easy", "--procs", "7", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["records"], 4);
  EXPECT_EQ(doc["jobs"], 3);
  EXPECT_EQ(doc["excluded"]["larger_than_machine"], 1);
  EXPECT_EQ(doc["notes"].size(), 1u);
  // The whole log: no "of N records", no note.
  const auto all = run_cli({"compare", log, "-s", "fcfs,easy"});
  EXPECT_NE(all.out.find("10 processors, 4 jobs, "), std::string::npos) << all.out;
  EXPECT_EQ(all.out.find("note"), std::string::npos) << all.out;
}

TEST(CompareCliTest, AdaptiveSchedulersReportTheirSwitches) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kCompareLog);
  const auto r = run_cli({"compare", log, "-s", "[pbas:candidates=fcfs,easy;interval=100;metric=wait],fcfs", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schedulers"][0]["adaptive"]["switches"], 1);
}

TEST(CompareCliTest, BadInputIsNamed) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kCompareLog);
  auto r = run_cli({"compare", log, "-s", "easy,nosuch"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown scheduler 'nosuch'"), std::string::npos) << r.err;
  r = run_cli({"compare", log, "--period", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--period"), std::string::npos) << r.err;
  r = run_cli({"compare", log, "-s", "easy,fcfs", "--baseline", "flex"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--baseline 'flex'"), std::string::npos) << r.err;
  r = run_cli({"compare", log, "-s", "pbas:interval=-1d"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("interval"), std::string::npos) << r.err;
  r = run_cli({"compare", dir.file("missing.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.swf"), std::string::npos) << r.err;
  const std::string header_only = dir.file("header-only.swf");
  schedlab::testing::write_file(header_only, "; MaxProcs: 4\n");
  r = run_cli({"compare", header_only, "-s", "easy,fcfs"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("header-only.swf: no job to simulate (the log has no job records)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace schedlab
