// `schedlab analyze diversity|runs|temporal` and `schedlab sessions` through the built binary.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

TEST(CliAnalyzeDiversity, KthIsFartherFromThePoolThanCtc) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const CliResult r = run_cli({"analyze", "diversity", trace_path("LANL-CM5-1994-4.1-cln.swf.gz"),
                               trace_path("CTC-SP2-1996-3.1-cln.swf.gz"), trace_path("KTH-SP2-1996-2.swf.gz"),
                               "--bootstrap", "20", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["logs"].size(), 3u);
  // The paper's Table 4 ranks KTH (.113) far above CTC (.071) and LANL (.043).
  EXPECT_GT(j["logs"][2]["job_weighted"].get<double>(), j["logs"][1]["job_weighted"].get<double>());
  for (const auto& l : j["logs"])
    EXPECT_GT(l["job_weighted"].get<double>(), 3 * l["baseline_job_weighted"].get<double>());
  EXPECT_EQ(run_cli({"analyze", "diversity", trace_path("KTH-SP2-1996-2.swf.gz")}).exit_code, 2);  // a usage error
}

TEST(CliAnalyzeRuns, CtcExponentIsNearThePapers) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  const CliResult r = run_cli({"analyze", "runs", trace_path("CTC-SP2-1996-3.1-cln.swf.gz"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["theta"]["loglog_slope"].get<double>(), 2.5, 0.3);  // Fig. 9: slope about -2.5
  // KTH has no executable numbers: a clear error, or runs on user and size with --size-only.
  const CliResult kth = run_cli({"analyze", "runs", trace_path("KTH-SP2-1996-2.swf.gz")});
  EXPECT_EQ(kth.exit_code, 1);
  EXPECT_NE(kth.err.find("--size-only"), std::string::npos);
  EXPECT_EQ(run_cli({"analyze", "runs", trace_path("KTH-SP2-1996-2.swf.gz"), "--size-only"}).exit_code, 0);
}

// Runs that admit no fit say why, in the text ("nan" before) and as null in JSON.
TEST(CliAnalyzeRuns, AFitWithoutTwoRunLengthsIsNotANumber) {
  TempDir dir;
  std::string log;  // user 1, executable 1, size 1: one run of 16 jobs, then user 2: one of 17
  for (int i = 0; i < 33; ++i)
    log += std::to_string(i + 1) + " " + std::to_string(60 * i) + " 0 10 1 -1 -1 1 10 -1 1 " + (i < 16 ? "1" : "2") +
           " 1 1 -1 -1 -1 -1\n";
  write_file(dir.file("two.swf"), log);
  const CliResult r = run_cli({"analyze", "runs", dir.file("two.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("log-log histogram slope n/a (run lengths in fewer than two bins)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  write_file(dir.file("one.swf"), "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 -1 -1 -1 -1\n");
  const CliResult one = run_cli({"analyze", "runs", dir.file("one.swf")});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("MLE n/a (fewer than two run lengths)"), std::string::npos) << one.out;
  const auto j = nlohmann::json::parse(run_cli({"analyze", "runs", dir.file("one.swf"), "--json"}).out);
  EXPECT_TRUE(j["theta"]["mle"].is_null());
  EXPECT_TRUE(j["theta"]["loglog_slope"].is_null());
}

TEST(CliAnalyzeTemporal, KthJobsHaveADailyCycleAndLongMemory) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  const CliResult r = run_cli({"analyze", "temporal", trace_path("KTH-SP2-1996-2.swf.gz"), "--json", "--series-csv",
                               dir.file("jobs.csv"), "--bin", "6h", "--csv", dir.file("table.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& jobs = j["series"]["jobs"];
  EXPECT_GT(jobs["daily"]["lag_24h"].get<double>(), jobs["daily"]["lag_12h"].get<double>());
  EXPECT_GT(jobs["hurst"]["average"].get<double>(), 0.55);
  EXPECT_LT(jobs["hurst"]["average"].get<double>(), 1.0);
  EXPECT_EQ(read_file(dir.file("jobs.csv")).rfind("bin,start,value\n", 0), 0u);
  // --csv: one row per series, the JSON's numbers (no test wrote it before).
  const std::string table = read_file(dir.file("table.csv"));
  EXPECT_EQ(table.rfind("series,lag1_15m,lag1_150m,daily_12h,daily_24h,weekly_7d,hurst_variance_time,hurst_rs,"
                        "hurst_periodogram,hurst_average\n",
                        0),
            0u)
      << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 6);
  const size_t row = table.find("\njobs,");
  ASSERT_NE(row, std::string::npos) << table;
  std::vector<double> cells;
  std::string cell;
  for (std::istringstream in(table.substr(row + 6, table.find('\n', row + 1) - row - 6)); std::getline(in, cell, ',');)
    cells.push_back(std::stod(cell));
  ASSERT_EQ(cells.size(), 9u);
  EXPECT_DOUBLE_EQ(cells[3], jobs["daily"]["lag_24h"].get<double>());
  EXPECT_DOUBLE_EQ(cells[8], jobs["hurst"]["average"].get<double>());
}

// The text explains its Hurst columns (H:VT, H:R/S, H:per, H:avg had no word), and only when it prints them.
TEST(CliAnalyzeTemporal, TheTextExplainsItsHurstColumns) {
  const std::string kth = bundled_kth();
  const CliResult r = run_cli({"analyze", "temporal", kth});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("H: the Hurst exponent by variance-time (VT), rescaled range (R/S) and periodogram (per)"),
            std::string::npos)
      << r.out;
  const CliResult without = run_cli({"analyze", "temporal", kth, "--no-hurst"});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(without.out.find("Hurst"), std::string::npos) << without.out;
  // KTH's weekly cpu correlation is -0.004: printed 0.00, not "-0.00".
  EXPECT_EQ(r.out.find("-0.00"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.02    0.00    0.49"), std::string::npos) << r.out;
}

// The jobs left out are said by reason, in the text and the JSON (it said "N jobs" and no more).
TEST(CliAnalyzeTemporal, JobsLeftOutAreSaid) {
  TempDir dir;
  const std::string log = dir.file("gaps.swf");
  std::string text = "; MaxProcs: 4\n";
  for (int i = 1; i <= 20; ++i)
    text += fmt::format("{} {} 0 {} 1 -1 -1 1 100 -1 1 1 1 1 1 -1 -1 -1\n", i, i == 3 ? -1 : i * 60, i == 5 ? -1 : 50);
  write_file(log, text);
  const CliResult r = run_cli({"analyze", "temporal", log, "--no-hurst"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n19 jobs over 0.0 days (1 of 20 records without a submit time left out)\n"
                       "left out of a series, the job's value unknown: runtime 1, cpu 1\n"),
            std::string::npos)
      << r.out;
  const auto j = nlohmann::json::parse(run_cli({"analyze", "temporal", log, "--no-hurst", "--json"}).out);
  EXPECT_EQ(j["records"], 20);
  EXPECT_EQ(j["excluded"]["unknown_submit_time"], 1);
  EXPECT_EQ(j["series"]["cpu"]["excluded_unknown_value"], 1);
  EXPECT_EQ(j["series"]["procs"]["excluded_unknown_value"], 0);
  // A log without gaps says nothing of them.
  const CliResult kth = run_cli({"analyze", "temporal", bundled_kth(), "--no-hurst"});
  EXPECT_EQ(kth.out.find("left out"), std::string::npos) << kth.out;
}

// The jobs an analysis leaves out are said, thousands grouped as the counts beside them: diversity said only the
// jobs it kept; runs and sessions printed "unknown user 1250" and "1250 jobs without user" beside "1,250 jobs".
TEST(CliAnalyzeGaps, TheJobsLeftOutAreSaidAndGrouped) {
  TempDir dir;
  const std::string log = dir.file("gaps.swf");
  std::string text = "; MaxProcs: 93312\n; UnixStartTime: 0\n";
  for (int i = 1; i <= 2500; ++i)
    text += fmt::format("{} {} 0 {} 1 -1 -1 1 {} -1 1 {} 1 1 1 -1 -1 -1\n", i, i * 60, i % 2 ? 50 + i % 7 : -1,
                        100 + i, i % 2 ? 1 + i % 3 : -1);
  write_file(log, text);
  const CliResult d = run_cli({"analyze", "diversity", log, bundled_kth(), "--bootstrap", "0"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("\ngaps.swf: 1,250 of 2,500 records left out: 1,250 of unknown runtime\n"),
            std::string::npos)
      << d.out;
  EXPECT_EQ(d.out.find("KTH-SP2-1996-2.swf.gz: "), std::string::npos) << d.out;  // nothing left out there
  // The first job's missing inter-arrival time is no gap.
  const CliResult ia = run_cli({"analyze", "diversity", bundled_kth(), bundled_kth(), "--bootstrap", "0", "--attr",
                                "interarrival"});
  EXPECT_EQ(ia.out.find("left out"), std::string::npos) << ia.out;
  const CliResult runs = run_cli({"analyze", "runs", log, "--size-only"});
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  EXPECT_NE(runs.out.find("jobs 1,250  (left out: unknown submit 0, unknown user 1,250, no size 0"),
            std::string::npos)
      << runs.out;
  const CliResult sessions = run_cli({"sessions", log});
  ASSERT_EQ(sessions.exit_code, 0) << sessions.err;
  EXPECT_NE(sessions.out.find("(1,250 jobs without user or submit time; machine 93,312 procs)"), std::string::npos)
      << sessions.out;
  EXPECT_NE(runs.out.find("(r <= 1,000)"), std::string::npos) << runs.out;  // the MLE's range, at least 1..1000
  const CliResult est = run_cli({"estimates", "compare", log, log});
  EXPECT_NE(est.out.find("distinct estimates: real 2,500, model 2,500\n"), std::string::npos) << est.out;
}

// A log with no job to analyse is named in the error.
TEST(CliAnalyzeTemporal, ALogWithoutJobsIsNamed) {
  TempDir dir;
  const std::string empty = dir.file("header-only.swf");
  write_file(empty, "; MaxProcs: 4\n");
  const CliResult r = run_cli({"analyze", "temporal", empty});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("header-only.swf: no job has a known submit time"), std::string::npos) << r.err;
  // --bin and --series shape --series-csv only: alone they were ignored (a bad --bin never checked).
  const CliResult b = run_cli({"analyze", "temporal", empty, "--bin", "0"});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("--bin requires --series-csv"), std::string::npos) << b.err;
}

TEST(CliSessions, KthClassesAndCsv) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  // The k-means options without --classify were ignored without a word.
  const CliResult alone = run_cli({"sessions", trace_path("KTH-SP2-1996-2.swf.gz"), "--seed", "3"});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--seed requires --classify"), std::string::npos) << alone.err;
  const CliResult r = run_cli({"sessions", trace_path("KTH-SP2-1996-2.swf.gz"), "--classify", "--online", "--pca",
                               "--json", "-o", dir.file("s.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const int64_t n = j["sessions"].get<int64_t>();
  EXPECT_GT(n, 1000);
  int64_t sum = 0;
  for (const auto& [name, c] : j["session_classes"].items()) sum += c["sessions"].get<int64_t>();
  EXPECT_EQ(sum, n);
  // The interactive workday daytime class is the largest, as in the thesis.
  EXPECT_GT(j["session_classes"]["IWD"]["share"].get<double>(), 0.3);
  const std::string csv = read_file(dir.file("s.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), n + 1);
  const CliResult again = run_cli({"sessions", trace_path("KTH-SP2-1996-2.swf.gz"), "--classify", "--online", "--pca",
                                   "--json"});
  EXPECT_EQ(again.out, r.out);
  EXPECT_EQ(run_cli({"sessions", trace_path("KTH-SP2-1996-2.swf.gz"), "--think-time", "0m"}).exit_code, 1);
}

// The text names each variable of its table (the thesis's J, D, Rm, ... were left to the reader to decode).
TEST(CliSessions, TheTextExplainsItsVariables) {
  const CliResult r = run_cli({"sessions", bundled_kth()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t legend = r.out.find("(over the sessions; per session: J jobs, D duration");
  ASSERT_NE(legend, std::string::npos) << r.out;
  const std::string text = r.out.substr(legend);
  for (const char* explained : {"J jobs", "D duration", "m median", "i 90% interval", "R runtime", "P size",
                                "I inter-arrival", "T think time", "UP, UR distinct", "SD, SW 1 when", "PD, PW"})
    EXPECT_NE(text.find(explained), std::string::npos) << explained;
  // And the classes' names.
  const CliResult c = run_cli({"sessions", bundled_kth(), "--classify"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  for (const char* explained : {"IWD, IWN interactive", "IW interactive at weekends", "BHP batch, high", "BHD batch, long",
                                "LTLU, LTHU long-term", "STWE, STWD short-term", "JW jobs per week", "%BHD share"})
    EXPECT_NE(c.out.find(explained), std::string::npos) << explained;
}

TEST(CliSessions, UsersOutput) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  TempDir dir;
  const std::string kth = trace_path("KTH-SP2-1996-2.swf.gz");
  const CliResult r = run_cli({"sessions", kth, "--classify", "--json", "--users-output", dir.file("u.csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string csv = read_file(dir.file("u.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), j["users"].get<int64_t>() + 1);
  EXPECT_EQ(csv.find("log,user,PD,Pm,Rm,J,PW,Im,JW,pBHD,class\nKTH-SP2-1996-2.swf.gz,"), 0u) << csv.substr(0, 200);
  // To standard output, alone: the same rows, no table.
  const CliResult out = run_cli({"sessions", kth, "--classify", "--users-output", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, csv);
  // The user rows carry the classes: without --classify it is a usage error, not an empty file.
  const CliResult alone = run_cli({"sessions", kth, "--users-output", dir.file("v.csv")});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--users-output requires --classify"), std::string::npos) << alone.err;
  const CliResult both = run_cli({"sessions", kth, "--classify", "-o", "-", "--users-output", "-"});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_NE(both.err.find("cannot both be standard output"), std::string::npos) << both.err;
  const CliResult same =
      run_cli({"sessions", kth, "--classify", "-o", dir.file("x.csv"), "--users-output", dir.file("x.csv")});
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_NE(same.err.find("name one file"), std::string::npos) << same.err;
}

}  // namespace
}  // namespace schedlab::testing
