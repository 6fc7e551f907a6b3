// The report's data (experiments/report.h) on hand-computed scenarios, the sweep page's aggregation, the page's
// escaping, and the errors on bad input.
#include "schedlab/experiments/report.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "schedlab/base/version.h"
#include "schedlab/experiments/sweep.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {
using schedlab::testing::J;

// 2 processors. J1 (2 procs, 2 h) and J2 (1 proc, 1 h) both arrive at 0; under FCFS J2 waits for J1: it starts at
// 7200 and ends at 10800. Time bins of 1 h from 0:
//   queue (J2 waiting over [0, 7200)): 1, 1, 0, 0
//   utilization (2 procs to 7200, 1 to 10800): 1, 1, 0.5, 0
//   offered load of the one submission bin: (7200 x 2 + 3600 x 1) / (2 x 3600) = 2.5
swf::Log report_scenario() {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 2, 7200}, J{2, 0, 3600, 1, 3600}});
  return log;
}

ReportOptions fcfs() {
  ReportOptions o;
  o.title = "scenario";
  o.schedulers = {"fcfs"};
  o.threads = 1;
  return o;
}

// On 2 processors J2 (2 procs) waits for J1 (1 proc, 2 h); J3 (1 proc, 1 h) ends before J2's shadow time and
// backfills under EASY at 0; FCFS keeps it behind J2. The page of FCFS and EASY.
nlohmann::json backfill_scenario() {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 1, 7200}, J{2, 0, 3600, 2, 3600}, J{3, 0, 3600, 1, 3600}});
  ReportOptions o = fcfs();
  o.schedulers = {"fcfs", "easy"};
  return report_data(log, o);
}

// The summary table's backfilled share: J3 under EASY, 1 job of 3.
TEST(ReportTest, SummaryHasTheBackfilledShare) {
  const nlohmann::json d = backfill_scenario();
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["backfilled_share"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][1]["backfilled_share"].get<double>(), 1.0 / 3);
}

// The job classes' charts: J1 (2 h) is long narrow, J2 and J3 (1 h, at most 8 processors) short narrow. FCFS waits
// J2 7200 s and J3 10800 s; EASY backfills J3 at 0: 3600 s mean for the short narrow jobs.
TEST(ReportTest, JobClassesOfEachScheduler) {
  const nlohmann::json d = backfill_scenario();
  const nlohmann::json& c = d["scheduling"]["by_class"];
  ASSERT_EQ(c.size(), 8u);  // 2 schedulers x 4 classes
  EXPECT_EQ(d["scheduling"]["by_class_limits"]["limits"], "1h,8");
  EXPECT_EQ(c[0]["scheduler"], "fcfs");
  EXPECT_EQ(c[0]["class"], "short narrow");
  EXPECT_EQ(c[0]["jobs"], 2);
  EXPECT_DOUBLE_EQ(c[0]["wait_mean"].get<double>(), 9000);
  EXPECT_DOUBLE_EQ(c[0]["share"].get<double>(), 2.0 / 3);
  EXPECT_EQ(c[1]["jobs"], 0);
  EXPECT_EQ(c[2]["class"], "long narrow");
  EXPECT_DOUBLE_EQ(c[2]["wait_mean"].get<double>(), 0);
  EXPECT_EQ(c[4]["scheduler"], "easy");
  EXPECT_DOUBLE_EQ(c[4]["wait_mean"].get<double>(), 3600);
  EXPECT_DOUBLE_EQ(c[4]["bounded_slowdown_mean"].get<double>(), 2);  // J2: 10800 / 3600 = 3, J3: 1
}

// The jobs the schedules did not hold as the log has them are said, as simulate says them: on 2 processors J3 (4
// processors) is left out, J2 has no estimate, J1 names a preceding job.
TEST(ReportTest, TheScheduleNotesSayWhatWasLeftOutOrStoodIn) {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 2, 7200}, J{2, 7200, 3600, 2, -1}, J{3, 7300, 60, 4, 60}});
  log.records[0].preceding_job = 7;
  const nlohmann::json s = report_data(log, fcfs())["scheduling"];
  EXPECT_EQ(s["jobs"], 2);
  EXPECT_EQ(s["records"], 3);
  ASSERT_EQ(s["notes"].size(), 3u);
  EXPECT_EQ(s["notes"][0], "1 job excluded: larger than the machine (2 processors)");
  EXPECT_EQ(s["notes"][1], "1 job without an estimate uses its runtime as the estimate");
  EXPECT_NE(s["notes"][2].get<std::string>().find("1 job names a preceding job"), std::string::npos);
  log.records[0].preceding_job = -1;
  log.records[1].requested_time = 3600;
  log.records.pop_back();
  EXPECT_TRUE(report_data(log, fcfs())["scheduling"]["notes"].empty());
}

// A log converted from sacct names its users in its header: the users' chart says the names too.
TEST(ReportTest, TheUsersChartNamesTheUsersALogFromSacctNames) {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 60, 1, 60}, J{2, 10, 60, 1, 60}, J{3, 20, 60, 1, 60}});
  log.records[1].user_id = 2;
  for (auto& r : {0, 2}) log.records[static_cast<size_t>(r)].user_id = 1;
  EXPECT_EQ(report_data(log, fcfs())["workload"]["users"][0]["user"], "user 1");
  log.header.add_note("users: 1=alice, 2=bob");
  const nlohmann::json users = report_data(log, fcfs())["workload"]["users"];
  EXPECT_EQ(users[0]["user"], "user 1 (alice)");
  EXPECT_EQ(users[0]["jobs"], 2);
  EXPECT_EQ(users[1]["user"], "user 2 (bob)");
}

// The users' chart shows the 20 busiest users and one bar for the rest: "1 other" for a single one ("1 others"
// until 2026-12), "2 others".
TEST(ReportTest, TheUsersChartCountsTheRestInTheSingularForOne) {
  for (const int32_t users : {21, 22}) {
    swf::Log log;
    log.header.max_procs = 2;
    std::vector<J> jobs;
    for (int32_t u = 0; u < users; ++u) jobs.push_back(J{u + 1, u * 100, 60, 1, 60});
    log.records = schedlab::testing::records(jobs);
    for (int32_t u = 0; u < users; ++u) log.records[static_cast<size_t>(u)].user_id = u + 1;
    const nlohmann::json chart = report_data(log, fcfs())["workload"]["users"];
    ASSERT_EQ(chart.size(), 21u);
    EXPECT_EQ(chart[20]["user"], users == 21 ? "1 other" : "2 others");
    EXPECT_EQ(chart[20]["jobs"], users - 20);
  }
}

// The schedules at another load (report --load / --arrival-scale). On 2 processors J1 (2 procs, 2 h) at 0 and J2
// (2 procs, 1 h) at 7200: J2 does not wait. Inter-arrival times x 0.5 bring J2 to 3600, to wait 3600 s (mean 1800);
// the log's offered load (7200 x 2 + 3600 x 2) / (2 x 7200) = 1.5 becomes 3, which is the same as --load 3.
TEST(ReportTest, SchedulesAtAnotherLoad) {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 2, 7200}, J{2, 7200, 3600, 2, 3600}});
  ReportOptions o = fcfs();
  nlohmann::json d = report_data(log, o);
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["wait_mean"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(d["scheduling"]["arrival_scale"].get<double>(), 1);
  o.workload.arrival_scale = 0.5;
  d = report_data(log, o);
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["wait_mean"].get<double>(), 1800);
  EXPECT_DOUBLE_EQ(d["scheduling"]["arrival_scale"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(d["scheduling"]["offered_load_before"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(d["scheduling"]["offered_load"].get<double>(), 3);
  o.workload.arrival_scale = 1;
  o.workload.load = 3;
  const nlohmann::json by_load = report_data(log, o);
  EXPECT_EQ(by_load["scheduling"]["summary"], d["scheduling"]["summary"]);
  EXPECT_DOUBLE_EQ(by_load["scheduling"]["arrival_scale"].get<double>(), 0.5);
  o.workload.arrival_scale = 0.5;  // both: refused, as by simulate
  EXPECT_THROW(report_data(log, o), std::invalid_argument);
}

// The schedules with simulate's --extend-estimates and --kill-at-estimate (the workload's sections keep the log).
// On 2 processors, all at 0: J1 (1 proc, runs 2 h, estimate 1 h), J2 (2 procs, 1 h), J3 (1 proc, 1.5 h).
// - Estimate extended to 2 h: J2's shadow time is 7200; J3 ends at 5400 before it and backfills at 0 under EASY;
//   J2 starts at 7200. Waits 0, 7200, 0: mean 2400.
// - Neither: J3 is not backfilled at 0 (as below); J1 overruns to 7200, J2 runs to 10800, J3 starts then.
// - J1 cut at its estimate: J2's shadow is 3600, J3 (to 5400) does not fit before it on the one free processor;
//   J1 ends at 3600, J2 runs to 7200, J3 starts then. Waits 0, 3600, 7200: mean 3600.
TEST(ReportTest, SchedulesWithEstimatesExtendedOrJobsCut) {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 1, 3600}, J{2, 0, 3600, 2, 3600}, J{3, 0, 5400, 1, 5400}});
  ReportOptions o = fcfs();
  o.schedulers = {"easy"};
  o.workload.extend_estimates = true;
  nlohmann::json d = report_data(log, o);
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["wait_mean"].get<double>(), 2400);
  EXPECT_EQ(d["scheduling"]["notes"], nlohmann::json::array({"1 job had its estimate raised to its runtime "
                                                             "(--extend-estimates)"}));
  o.workload.extend_estimates = false;
  o.workload.kill_at_estimate = true;
  d = report_data(log, o);
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["wait_mean"].get<double>(), 3600);
  EXPECT_EQ(d["scheduling"]["notes"], nlohmann::json::array({"1 job cut at its estimate (--kill-at-estimate)"}));
  o.workload.kill_at_estimate = false;
  d = report_data(log, o);  // neither: J1 overruns to 7200, J2 runs to 10800, J3 starts then: mean 6000
  EXPECT_DOUBLE_EQ(d["scheduling"]["summary"][0]["wait_mean"].get<double>(), 6000);
  EXPECT_TRUE(d["scheduling"]["notes"].empty());
}

// The warm-up and the bounded-slowdown threshold, as simulate's. FCFS on backfill_scenario's jobs: J1 ends at 7200
// (wait 0), J2 at 10800 (wait 7200, response 10800), J3 at 14400 (wait 10800, response 14400). A warm-up of 0.34
// leaves out floor(1.02) = 1 job in termination order, J1: the table, the CDF and the classes average J2 and J3; the
// timeline and compare's per-month means keep all three. With tau 7200 the bounded slowdowns are 1, 1.5 and 2.
TEST(ReportTest, TheWarmUpAndTheSlowdownThresholdAreSimulates) {
  swf::Log log;
  log.header.max_procs = 2;
  log.records = schedlab::testing::records({J{1, 0, 7200, 1, 7200}, J{2, 0, 3600, 2, 3600}, J{3, 0, 3600, 1, 3600}});
  ReportOptions o = fcfs();
  const nlohmann::json all = report_data(log, o)["scheduling"];
  o.sim.warmup_fraction = 0.34;
  o.sim.bsld_tau = 7200;
  const nlohmann::json s = report_data(log, o)["scheduling"];
  EXPECT_EQ(s["summary"][0]["jobs"], 2);
  EXPECT_DOUBLE_EQ(s["summary"][0]["wait_mean"].get<double>(), 9000);
  EXPECT_DOUBLE_EQ(s["summary"][0]["bounded_slowdown_mean"].get<double>(), 1.75);
  EXPECT_DOUBLE_EQ(all["summary"][0]["bounded_slowdown_mean"].get<double>(), (1 + 3 + 4) / 3.0);
  ASSERT_EQ(s["wait_cdf"].size(), 101u);
  EXPECT_DOUBLE_EQ(s["wait_cdf"][0]["wait"].get<double>(), 7200);
  EXPECT_DOUBLE_EQ(s["wait_cdf"][100]["wait"].get<double>(), 10800);
  EXPECT_DOUBLE_EQ(all["wait_cdf"][0]["wait"].get<double>(), 0);
  EXPECT_EQ(s["timeline"], all["timeline"]);
  ASSERT_EQ(s["monthly"].size(), 1u);
  EXPECT_DOUBLE_EQ(s["monthly"][0]["wait"].get<double>(), 6000);
  EXPECT_DOUBLE_EQ(s["monthly"][0]["bsld"].get<double>(), 1.5);
  for (const auto& c : s["by_class"]) {
    if (c["class"] == "short narrow") {
      EXPECT_EQ(c["jobs"], 2);
      EXPECT_DOUBLE_EQ(c["wait_mean"].get<double>(), 9000);
    } else {
      EXPECT_EQ(c["jobs"], 0) << c["class"];
    }
  }
  o.sim.warmup_fraction = 1;  // simulate's error, naming the value
  EXPECT_THROW(report_data(log, o), std::invalid_argument);
}

TEST(ReportTest, HandComputedSeriesOfAScenario) {
  const nlohmann::json d = report_data(report_scenario(), fcfs());
  const auto& w = d["workload"];
  EXPECT_EQ(w["bin_hours"], 1);
  ASSERT_EQ(w["over_time"].size(), 1u);
  EXPECT_EQ(w["over_time"][0]["jobs"], 2);
  EXPECT_DOUBLE_EQ(w["over_time"][0]["load"].get<double>(), 2.5);
  // No UnixStartTime: UTC from the epoch, a Thursday, hour 0.
  EXPECT_EQ(w["hour_of_day"][0]["jobs"], 2);
  EXPECT_EQ(w["day_of_week"][3]["day"], "Thu");
  EXPECT_EQ(w["day_of_week"][3]["jobs"], 2);
  EXPECT_TRUE(w["classes"].is_null());
  const auto& s = d["scheduling"];
  ASSERT_EQ(s["timeline"].size(), 4u);
  const double queue[] = {1, 1, 0, 0}, util[] = {1, 1, 0.5, 0};
  for (size_t b = 0; b < 4; ++b) {
    EXPECT_DOUBLE_EQ(s["timeline"][b]["queue"].get<double>(), queue[b]) << b;
    EXPECT_DOUBLE_EQ(s["timeline"][b]["utilization"].get<double>(), util[b]) << b;
  }
  EXPECT_DOUBLE_EQ(s["summary"][0]["wait_mean"].get<double>(), 3600.0);
  EXPECT_EQ(s["wait_cdf"].front()["wait"], 0.0);
  EXPECT_EQ(s["wait_cdf"].back()["wait"], 7200.0);
  EXPECT_EQ(s["wait_cdf"].back()["fraction"], 1.0);
  EXPECT_TRUE(s["accuracy"].empty());  // no predictor asked for
}

// Two jobs submitted a second apart that run 30 years one after the other: the timeline's bins are sized for the
// span to the last end (at most about 600), not for the 1 s of submissions (a bin per hour: 526,000 rows per
// scheduler, 190 MB of page for 5 such jobs).
TEST(ReportTest, TimelineBinsCoverTheDrainAfterTheLastSubmit) {
  swf::Log log;
  log.header.max_procs = 2;
  const int32_t years15 = 15 * 365 * 86400;
  log.records = schedlab::testing::records({J{1, 0, years15, 2, years15}, J{2, 1, years15, 2, years15}});
  const nlohmann::json d = report_data(log, fcfs());
  const auto& s = d["scheduling"];
  const int64_t width = s["bin_hours"].get<int64_t>() * 3600;
  EXPECT_LE(s["timeline"].size(), 601u);
  const double last_day = s["timeline"].back()["day"].get<double>();
  EXPECT_GE(last_day * 86400 + static_cast<double>(width), 2.0 * years15);  // the last end, 1 + 2 x 15 years
  EXPECT_DOUBLE_EQ(s["timeline"][0]["utilization"].get<double>(), 1.0);
}

// A zone the system does not know: the cycles are drawn in UTC, and the page says so (an error would cost the
// whole report for one header line; silence would pass UTC off as local time).
TEST(ReportTest, AnUnknownTimeZoneIsNamedOnThePage) {
  swf::Log log = report_scenario();
  log.header.unix_start_time = 0;
  log.header.time_zone_string = "Nowhere/City";
  const nlohmann::json d = report_data(log, fcfs());
  EXPECT_EQ(d["workload"]["local_time"], "UTC (TimeZoneString 'Nowhere/City' is not in the time zone database)");
  EXPECT_EQ(d["workload"]["hour_of_day"][0]["jobs"], 2);  // both jobs at 00:00 UTC
  log.header.time_zone_string = "Europe/Stockholm";
  const nlohmann::json known = report_data(log, fcfs());
  EXPECT_EQ(known["workload"]["local_time"], "Europe/Stockholm");
  EXPECT_EQ(known["workload"]["hour_of_day"][1]["jobs"], 2);  // 1970-01-01 01:00 CET
}

TEST(ReportTest, BadInputIsAnError) {
  swf::Log empty;
  empty.header.max_procs = 2;
  EXPECT_THROW(report_data(empty, fcfs()), std::invalid_argument);
  swf::Log excluded = report_scenario();
  for (auto& r : excluded.records) r.run_time = -1;  // no runtime: nothing to simulate
  EXPECT_THROW(report_data(excluded, fcfs()), std::invalid_argument);
  ReportOptions unknown = fcfs();
  unknown.schedulers = {"fcfs", "no-such-scheduler"};
  EXPECT_THROW(report_data(report_scenario(), unknown), std::invalid_argument);
}

std::string sweep_row(const std::string& scheduler, const std::string& load, const std::string& seed,
                      const std::string& status, const std::string& wait) {
  // Every column empty but the ones named.
  std::string line;
  const auto& cols = sweep_columns();
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i > 0) line += ',';
    if (cols[i] == "scheduler") line += scheduler;
    if (cols[i] == "load") line += load;
    if (cols[i] == "seed") line += seed;
    if (cols[i] == "status") line += status;
    if (cols[i] == "wait_mean") line += wait;
    if (cols[i] == "log") line += "kth.swf";
  }
  return line + "\n";
}

TEST(ReportTest, SweepPointsAreMeansOverSeedsPerScheduler) {
  const std::string csv = sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "100") +
                          sweep_row("easy", "0.7", "2", "ok", "300") + sweep_row("easy", "0.8", "1", "ok", "500") +
                          sweep_row("fcfs", "0.7", "1", "ok", "1000") +
                          sweep_row("fcfs", "0.8", "1", "error: x", "") + sweep_row("fcfs", "0.8", "2", "ok", "7");
  const nlohmann::json d = sweep_report_data(csv, "r.csv", "wait_mean", "");
  EXPECT_EQ(d["x"], "load");  // the first parameter that varies
  EXPECT_EQ(d["series_name"], "scheduler");
  EXPECT_EQ(d["failed_runs"], 1);
  EXPECT_TRUE(d["x_numeric"].get<bool>());
  ASSERT_EQ(d["points"].size(), 4u);
  const auto& p0 = d["points"][0];  // (easy, 0.7): seeds 1 and 2
  EXPECT_EQ(p0["series"], "easy");
  EXPECT_DOUBLE_EQ(p0["x"].get<double>(), 0.7);
  EXPECT_DOUBLE_EQ(p0["value"].get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(p0["min"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(p0["max"].get<double>(), 300.0);
  EXPECT_EQ(p0["runs"], 2);
  EXPECT_DOUBLE_EQ(d["points"][3]["value"].get<double>(), 7.0);  // (fcfs, 0.8): the failed run left out
}

// A run without a load (the log's own, as the example spec's [[include]] gives) is a named point on the axis; it
// was an unlabelled tick.
TEST(ReportTest, SweepRunsWithoutALoadAreTheLogsOwn) {
  const std::string csv = sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "100") +
                          sweep_row("easy", "", "1", "ok", "50");
  const nlohmann::json d = sweep_report_data(csv, "r.csv", "wait_mean", "");
  EXPECT_EQ(d["x"], "load");
  EXPECT_FALSE(d["x_numeric"].get<bool>());
  ASSERT_EQ(d["points"].size(), 2u);
  EXPECT_EQ(d["points"][0]["x"], "0.7");
  EXPECT_EQ(d["points"][1]["x"], "log's own");
  EXPECT_DOUBLE_EQ(d["points"][1]["value"].get<double>(), 50.0);
}

TEST(ReportTest, SweepErrorsNameTheProblem) {
  const auto message = [](const std::string& csv, const std::string& metric) {
    try {
      sweep_report_data(csv, "r.csv", metric, "");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("a,b\n1,2\n", "wait_mean").find("not the CSV of schedlab sweep"), std::string::npos);
  EXPECT_NE(message(sweep_csv_header(), "wait_mean").find("no result row"), std::string::npos);
  const std::string one = sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "1");
  EXPECT_NE(message(one, "no_such").find("no column 'no_such'"), std::string::npos);
  EXPECT_EQ(message(one, "wait_meen"), "r.csv: no column 'wait_meen' in a sweep's results; did you mean 'wait_mean'?");
  EXPECT_NE(message(one, "load").find("is a parameter"), std::string::npos);
  EXPECT_NE(message(sweep_csv_header() + "1,2\n", "wait_mean").find("r.csv:2:"), std::string::npos);
  // A cell that only starts with a number is not one (std::stod read "100abc" as 100 and "0x1p4" as 16), and
  // the line is counted across empty lines and CRLF endings.
  EXPECT_EQ(message(sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "100abc"), "wait_mean"),
            "r.csv:2: '100abc' is not a number in column wait_mean");
  std::string crlf = sweep_row("easy", "0.8", "1", "ok", "0x1p4");
  crlf.insert(crlf.size() - 1, "\r");
  EXPECT_EQ(message(sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "1") + "\n" + crlf, "wait_mean"),
            "r.csv:4: '0x1p4' is not a number in column wait_mean");
}

// The x axis is a parameter: a metric there plotted one column against another without a word; and a parameter of
// one value is drawn as one point per line, said in the warnings with what does vary.
TEST(ReportTest, SweepXAxisIsAParameterThatVaries) {
  const std::string csv = sweep_csv_header() + sweep_row("easy", "0.7", "1", "ok", "100") +
                          sweep_row("fcfs", "0.7", "1", "ok", "300") + sweep_row("fcfs", "0.7", "2", "ok", "500");
  const auto message = [&](const std::string& x) {
    try {
      sweep_report_data(csv, "r.csv", "wait_mean", x);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("wait_median").rfind("r.csv: 'wait_median' is not a parameter of the runs: the x axis is one of "
                                         "load, arrival_scale, procs,", 0),
            0u)
      << message("wait_median");
  EXPECT_NE(message("status").find("is not a parameter"), std::string::npos);
  EXPECT_NE(message("run").find("is not a parameter"), std::string::npos);
  EXPECT_EQ(message("schedulr"), "r.csv: no column 'schedulr' in a sweep's results; did you mean 'scheduler'?");
  const nlohmann::json by_load = sweep_report_data(csv, "r.csv", "wait_mean", "load");
  ASSERT_EQ(by_load["warnings"].size(), 1u);
  EXPECT_EQ(by_load["warnings"][0], "every run of r.csv has the same load (0.7): the plot is one point per line; the "
                                    "parameters that vary: scheduler, seed");
  EXPECT_EQ(by_load["points"].size(), 2u);  // drawn all the same: easy and fcfs at 0.7
  const nlohmann::json by_procs = sweep_report_data(csv, "r.csv", "wait_mean", "procs");
  EXPECT_NE(by_procs["warnings"][0].get<std::string>().find("the same procs (the log's own)"), std::string::npos);
  // The default x, and an x that varies, warn of nothing.
  EXPECT_TRUE(sweep_report_data(csv, "r.csv", "wait_mean", "")["warnings"].empty());
  EXPECT_TRUE(sweep_report_data(csv, "r.csv", "wait_mean", "seed")["warnings"].empty());
}

TEST(ReportTest, PageCarriesTheDataSafely) {
  // A title with markup and a "</script>" in the data or the libraries must not end the script elements early.
  const nlohmann::json data = {{"kind", "sweep"}, {"title", "</script><script>alert(1)</script>"}};
  const std::string page = render_report(data, "var s = '</script>';");
  EXPECT_EQ(page.find("</script><script>alert"), std::string::npos);
  EXPECT_NE(page.find("<\\/script><script>alert(1)<\\/script>"), std::string::npos);
  EXPECT_NE(page.find("var s = '<\\/script>';"), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);  // nothing to fetch from the page itself
  EXPECT_EQ(page.find("src="), std::string::npos);
  // The page names the schedlab that drew it.
  EXPECT_NE(page.find("\"schedlab_version\":\"" + std::string(base::kVersion) + "\""), std::string::npos);
  EXPECT_NE(page.find("(schedlab <span id=\"version\"></span>)"), std::string::npos);
}

}  // namespace
}  // namespace schedlab::experiments
