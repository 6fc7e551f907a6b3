// The `schedlab simulate` command.
#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab {
namespace {
using schedlab::testing::run_cli;

const char* kSimulateLog =
    "; MaxProcs: 10\n"
    "1 0 -1 100 6 -1 -1 6 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 1 -1 50 8 -1 -1 8 50 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "3 2 -1 200 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "4 3 -1 500 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "5 4 -1 90 2 -1 -1 2 90 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "6 5 -1 90 20 -1 -1 20 90 -1 1 1 1 -1 -1 -1 -1 -1\n";

TEST(SimCliTest, ListsSchedulersAndPredictors) {
  const auto r = run_cli({"simulate", "--list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"fcfs", "fcfs-fill", "easy", "easy-sjbf", "lewf", "lewf-fill", "estimate", "perfect"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  }
  EXPECT_EQ(run_cli({"simulate", "--list-schedulers"}).out, r.out);
}

TEST(SimCliTest, JsonReportAndExclusions) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kSimulateLog);
  const auto r = run_cli({"simulate", log, "--scheduler", "easy", "--json", "--check"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["scheduler"], "easy");
  EXPECT_EQ(doc["predictor"], "estimate");
  EXPECT_EQ(doc["procs"], 10);
  EXPECT_EQ(doc["jobs"]["simulated"], 5);
  EXPECT_EQ(doc["jobs"]["excluded"]["larger_than_machine"], 1);
  EXPECT_EQ(doc["jobs"]["without_estimate"], 1);
  EXPECT_EQ(doc["jobs"]["killed"], 0);
  EXPECT_EQ(doc["jobs"]["warmup_excluded"], 0);
  for (const char* m : {"wait", "response", "slowdown", "bounded_slowdown"}) {
    for (const char* s : {"mean", "median", "p90", "max"}) EXPECT_TRUE(doc["metrics"][m].contains(s)) << m << s;
  }
  // starts 0, 100, 150, 3, 4 (see EasyTest.RefusesABackfillThatWouldDelayTheHead)
  EXPECT_DOUBLE_EQ(doc["metrics"]["wait"]["mean"].get<double>(), (0 + 99 + 148 + 0 + 0) / 5.0);
  EXPECT_EQ(doc["metrics"]["makespan"], 503);
  EXPECT_TRUE(doc.contains("wall_time_s"));
  EXPECT_NE(doc["notes"].dump().find("larger than the machine"), std::string::npos);
}

// A log of one job reads "1 job", "1 record": the counts printed "1 jobs" and "1 records" before.
TEST(SimCliTest, OneJobIsCountedInTheSingular) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("one.swf");
  schedlab::testing::write_file(log, "1 0 5 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n");
  const auto r = run_cli({"simulate", log, "--scheduler", "easy"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {"jobs         1 simulated of 1 record, 0 excluded, 0 without estimate, 0 killed\n",
                           "averages     over 1 job (0 warm-up jobs excluded)\n",
                           "(0 jobs started while an earlier one waited)\n",
                           "prediction accuracy (time-weighted over each job's life, 1 job)\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  const auto p = run_cli({"predict", log});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.out.find("jobs         1 replayed of 1 record,"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("accuracy over 1 job (time-weighted over each job's life; 0 warm-up jobs excluded)"),
            std::string::npos) << p.out;
  const auto c = run_cli({"compare", log, "--schedulers", "easy,fcfs"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("machine    1 processor, 1 job, 1 period of 30d\n"), std::string::npos) << c.out;
}

TEST(SimCliTest, TextReport) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kSimulateLog);
  const auto r = run_cli({"simulate", log, "--scheduler", "fcfs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wait (min)"), std::string::npos);
  EXPECT_NE(r.out.find("bounded slowdown"), std::string::npos);
  EXPECT_NE(r.out.find("1 job excluded: larger than the machine"), std::string::npos);
}

// --feedback: job 2 follows job 1 (think time 30), job 4 follows job 2 (think time from the logged gap, 440). The
// text says so, the JSON counts it, and the schedule written as SWF has the simulated submit times in field 2.
TEST(SimCliTest, FeedbackSubmitsFollowersAfterTheirPrecedingJob) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("chain.swf");
  schedlab::testing::write_file(log, "; MaxProcs: 4\n"
                                     "1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                     "2 10 -1 50 2 -1 -1 2 50 -1 1 2 -1 -1 -1 -1 1 30\n"
                                     "3 20 -1 50 2 -1 -1 2 50 -1 1 3 -1 -1 -1 -1 -1 -1\n"
                                     "4 500 -1 10 1 -1 -1 1 10 -1 1 2 -1 -1 -1 -1 2 -1\n");
  const auto plain = run_cli({"simulate", log, "-s", "fcfs"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("2 jobs name a preceding job (SWF fields 17-18): they arrive at their logged submit times "
                           "(--feedback submits a job its think time after its preceding job ends)"),
            std::string::npos)
      << plain.out;
  const auto text = run_cli({"simulate", log, "-s", "fcfs", "--feedback"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("feedback: 2 jobs submitted their think time after their preceding job ends (1 think time "
                          "taken from the logged gap)"),
            std::string::npos)
      << text.out;
  const auto json = run_cli({"simulate", log, "-s", "fcfs", "--feedback", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["feedback"], true);
  EXPECT_EQ(doc["jobs"]["following"], 2);
  EXPECT_EQ(doc["jobs"]["think_from_log"], 1);
  EXPECT_EQ(doc["metrics"]["makespan"], 630);
  EXPECT_DOUBLE_EQ(doc["metrics"]["wait"]["mean"].get<double>(), 20.0);
  const std::string out = dir.file("schedule.swf");
  ASSERT_EQ(run_cli({"simulate", log, "-s", "fcfs", "--feedback", "--jobs-out", out}).exit_code, 0);
  const std::string swf = schedlab::testing::read_file(out);
  EXPECT_NE(swf.find("field 2 of the 2 jobs that follow a preceding job (field 17) is the simulated submit"),
            std::string::npos)
      << swf;
  EXPECT_NE(swf.find("\n2 130 0 50 2 "), std::string::npos) << swf;
  EXPECT_NE(swf.find("\n4 620 0 10 1 "), std::string::npos) << swf;
}

// A history predictor without a correction is warned of on standard error (EASY with ruh on KTH: 13,513 jobs left
// overdue, a mean wait of 54,008 s against 5,899 s with the correction); the report itself is unchanged.
TEST(SimCliTest, AnUncorrectedPredictorIsWarnedOf) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto r = run_cli({"simulate", kth, "-s", "easy", "-p", "ruh"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("schedlab: warning: a job ran past its predicted end and the predictor (ruh) gave it no "
                       "longer prediction (13513 times)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("warning"), std::string::npos);
  const auto corrected = run_cli({"simulate", kth, "-s", "easy", "-p", "ruh", "--correction", "tsafrir"});
  ASSERT_EQ(corrected.exit_code, 0) << corrected.err;
  EXPECT_EQ(corrected.err.find("warning"), std::string::npos) << corrected.err;
  EXPECT_EQ(run_cli({"simulate", kth, "-s", "easy"}).err.find("warning"), std::string::npos);
}

// A no-estimate SBH capped below a job's runtime predicts it one second at a time past the cap: warned of, with the
// jobs counted (KTH's longest job runs 226,709 s, 10,709 s past a cap of 216,000; without a cap, nothing).
TEST(SimCliTest, APredictionRaisedSecondBySecondIsWarnedOf) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto r = run_cli({"simulate", kth, "-s", "easy", "-p", "sbh:noest=1;criteria=P,*;cap=216000", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["second_by_second_jobs"], 1);
  ASSERT_EQ(doc["warnings"].size(), 1u);
  EXPECT_NE(doc["warnings"][0].get<std::string>().find("raised their predictions by one second at a time, for a "
                                                       "minute or more (1 job)"),
            std::string::npos);
  EXPECT_NE(r.err.find("schedlab: warning: " + doc["warnings"][0].get<std::string>()), std::string::npos) << r.err;
  const auto uncapped = run_cli({"simulate", kth, "-s", "easy", "-p", "sbh:noest=1;criteria=P,*", "--json"});
  ASSERT_EQ(uncapped.exit_code, 0) << uncapped.err;
  EXPECT_EQ(nlohmann::json::parse(uncapped.out)["second_by_second_jobs"], 0);
  EXPECT_EQ(uncapped.err.find("warning"), std::string::npos) << uncapped.err;
  // compare: per predictor, each scheduler's count.
  const auto c = run_cli({"compare", kth, "-s", "easy,fcfs", "-p", "sbh:noest=1;criteria=P,*;cap=216000"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.err.find("for a minute or more (1 job with easy, 1 with fcfs)"), std::string::npos) << c.err;
}

// One processor is "1 processor" (simulate and compare said "1 processors").
TEST(SimCliTest, OneProcessorIsSingular) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("one.swf");
  schedlab::testing::write_file(log, "; MaxProcs: 1\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                     "2 5 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  const auto s = run_cli({"simulate", log, "-s", "fcfs"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("machine      1 processor (MaxProcs)\n"), std::string::npos) << s.out;
  const auto c = run_cli({"compare", log, "-s", "fcfs,easy"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("machine    1 processor, 2 jobs, 1 period of 30d\n"), std::string::npos) << c.out;
}

// An adaptive scheduler's switches are in the text and the JSON (the JSON lost them once without a test failing).
TEST(SimCliTest, AnAdaptiveSchedulersSwitchesAreReported) {
  const std::string kth = schedlab::testing::bundled_kth();
  const std::string pbas = "pbas:candidates=easy,conservative;interval=7d";
  const auto j = run_cli({"simulate", kth, "-s", pbas, "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  ASSERT_TRUE(doc.contains("adaptive")) << j.out.substr(0, 2000);
  EXPECT_GT(doc["adaptive"]["switch_points"].get<int64_t>(), 40);  // a week apart over 11 months
  EXPECT_EQ(doc["adaptive"]["candidates"].size(), 2u);
  const auto text = run_cli({"simulate", kth, "-s", pbas});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(fmt::format("switch points {}", doc["adaptive"]["switch_points"].get<int64_t>())),
            std::string::npos)
      << text.out;
  EXPECT_FALSE(nlohmann::json::parse(run_cli({"simulate", kth, "-s", "easy", "--json"}).out).contains("adaptive"));
}

// The JSON's parts, every one: a part dropped by a change (the adaptive switches once were) fails here. The optional
// parts are there when asked for (an adaptive scheduler, --by-class, --event-cost), absent otherwise.
TEST(SimCliTest, TheJsonHasEveryPart) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto keys = schedlab::testing::json_keys;
  const std::set<std::string> always = {
      "accuracy",      "arrival_scale", "bsld_tau",  "checked",  "deadline_misses", "extend_estimates",
      "feedback",      "jobs",          "kill_at_estimate", "metrics", "notes",   "offered_load",    "overdue_misses",
      "predictor",     "procs",         "procs_source", "scheduler", "second_by_second_jobs", "trace",
      "wall_time_s",   "warmup_fraction", "warnings"};
  const auto plain = run_cli({"simulate", kth, "-s", "easy", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const auto p = nlohmann::json::parse(plain.out);
  EXPECT_EQ(keys(p), always);
  EXPECT_EQ(keys(p["metrics"]), (std::set<std::string>{"backfilled", "backfilled_share", "bounded_slowdown", "kills",
                                                       "loss_of_capacity", "makespan", "response", "slowdown",
                                                       "suspensions", "utilization", "wait"}));
  EXPECT_EQ(keys(p["jobs"]), (std::set<std::string>{"dependent", "excluded", "excluded_total", "extended",
                                                    "feedback_dropped", "following", "killed", "records", "simulated",
                                                    "think_from_log", "warmup_excluded", "without_estimate"}));
  const auto all = run_cli({"simulate", kth, "-s", "pbas:candidates=easy,conservative;interval=7d", "--by-class",
                            "--event-cost", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  std::set<std::string> want = always;
  want.insert({"adaptive", "by_class", "event_cost"});
  EXPECT_EQ(keys(nlohmann::json::parse(all.out)), want);
}

// --by-class: the four classes' metrics after the whole run's, in the text and the JSON; --class-limits sets the
// limits (and implies --by-class); a bad one is an error naming the option. Without them the output is unchanged.
TEST(SimCliTest, MetricsByJobClass) {
  const std::string kth = schedlab::testing::bundled_kth();
  const auto text = run_cli({"simulate", kth, "-s", "easy", "--by-class"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("by job class (short: runtime <= 1h, narrow: <= 8 processors; --class-limits)\n"),
            std::string::npos)
      << text.out;
  for (const char* c : {"\nshort narrow ", "\nshort wide ", "\nlong narrow ", "\nlong wide "})
    EXPECT_NE(text.out.find(c), std::string::npos) << c;
  const auto j = run_cli({"simulate", kth, "-s", "easy", "--class-limits", "30m,16", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["by_class"]["limits"], "30m,16");
  EXPECT_EQ(doc["by_class"]["short_runtime"], 1800);
  EXPECT_EQ(doc["by_class"]["narrow_procs"], 16);
  ASSERT_EQ(doc["by_class"]["classes"].size(), 4u);
  int64_t jobs = 0, backfilled = 0;
  for (const auto& c : doc["by_class"]["classes"]) {
    jobs += c["jobs"].get<int64_t>();
    backfilled += c["backfilled"].get<int64_t>();
  }
  EXPECT_EQ(jobs, doc["jobs"]["simulated"].get<int64_t>() - doc["jobs"]["warmup_excluded"].get<int64_t>());
  EXPECT_EQ(backfilled, doc["metrics"]["backfilled"].get<int64_t>());
  const auto plain = run_cli({"simulate", kth, "-s", "easy", "--json"});
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("by_class"));
  EXPECT_EQ(run_cli({"simulate", kth, "-s", "easy"}).out.find("by job class"), std::string::npos);
  const auto bad = run_cli({"simulate", kth, "-s", "easy", "--class-limits", "1h"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--class-limits: job class limits '1h': a runtime and a size separated by a comma are "
                         "needed"),
            std::string::npos)
      << bad.err;
}

// --event-cost times the policy without changing its schedule, and reports the cost by queue length.
TEST(SimCliTest, EventCost) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kSimulateLog);
  const auto plain = run_cli({"simulate", log, "--scheduler", "conservative", "--json", "--check"});
  const auto timed = run_cli({"simulate", log, "--scheduler", "conservative", "--json", "--check", "--event-cost"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  const auto a = nlohmann::json::parse(plain.out);
  const auto b = nlohmann::json::parse(timed.out);
  EXPECT_FALSE(a.contains("event_cost"));
  EXPECT_EQ(a["metrics"], b["metrics"]);
  const auto& cost = b["event_cost"];
  const int64_t events = cost["events"].get<int64_t>();
  EXPECT_GT(events, 4);  // at least one call per distinct arrival time
  int64_t in_buckets = 0;
  for (const auto& bucket : cost["buckets"]) {
    in_buckets += bucket["events"].get<int64_t>();
    EXPECT_LE(bucket["queue_to"].get<int64_t>(), 8);  // never more than 5 jobs wait
    EXPECT_FALSE(bucket["fitted"].get<bool>());
  }
  EXPECT_EQ(in_buckets, events);
  EXPECT_TRUE(cost["exponent"].is_null());  // far too few events to fit a slope
  const auto text = run_cli({"simulate", log, "--scheduler", "easy", "--event-cost"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("scheduler cost per event by queue length"), std::string::npos);
  EXPECT_NE(text.out.find("growth exponent: not fitted"), std::string::npos);
}

TEST(SimCliTest, PerJobCsvAndSwf) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kSimulateLog);
  ASSERT_EQ(run_cli({"simulate", log, "--scheduler", "easy", "--jobs-out", dir.file("jobs.csv")}).exit_code, 0);
  const std::string csv = schedlab::testing::read_file(dir.file("jobs.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "job_id,submit,start,end,procs,runtime,estimate,killed,wait,prediction");
  EXPECT_NE(csv.find("\n3,2,150,350,4,200,200,0,148,200\n"), std::string::npos) << csv;

  const auto r = run_cli({"simulate", log, "--scheduler", "easy", "--jobs-out", dir.file("jobs.swf.gz")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto conv = run_cli({"simulate", dir.file("jobs.swf.gz"), "--scheduler", "fcfs", "--json"});
  ASSERT_EQ(conv.exit_code, 0) << conv.err;  // readable back as a log
  EXPECT_EQ(nlohmann::json::parse(conv.out)["jobs"]["simulated"], 5);
  // A name it cannot write is refused before the log is read (it was refused after the whole simulation), and "-"
  // is the CSV on standard output instead of the report, as in predict (it was refused as a name).
  const auto txt = run_cli({"simulate", dir.file("no-such-log.swf"), "-s", "easy", "--jobs-out", dir.file("jobs.txt")});
  EXPECT_EQ(txt.exit_code, 1);
  EXPECT_NE(txt.err.find("--jobs-out " + dir.file("jobs.txt") + ": the file name must end in .csv"), std::string::npos)
      << txt.err;
  const auto dash = run_cli({"simulate", log, "--scheduler", "easy", "--jobs-out", "-"});
  ASSERT_EQ(dash.exit_code, 0) << dash.err;
  EXPECT_EQ(dash.out, csv);
  EXPECT_EQ(run_cli({"simulate", log, "-s", "easy", "--jobs-out", "-", "--json"}).exit_code, 1);
  // The header says which records are missing (job 6 is wider than the machine) and, with --procs, that MaxProcs
  // is not the machine simulated.
  const swf::Log out = swf::read_log(dir.file("jobs.swf.gz"));
  EXPECT_EQ(out.header.notes.back(),
            "1 of 6 records were excluded from the simulation and are not in this log (larger_than_machine 1)");
  ASSERT_EQ(run_cli({"simulate", log, "--scheduler", "easy", "--procs", "8", "--jobs-out", dir.file("p.swf")}).exit_code, 0);
  const swf::Log p8 = swf::read_log(dir.file("p.swf"));
  ASSERT_GE(p8.header.notes.size(), 2u);
  EXPECT_EQ(p8.header.notes[p8.header.notes.size() - 2],
            "simulated by schedlab: scheduler easy, predictor estimate, 8 processors (not MaxProcs' 10); fields 3 and 4 "
            "are the simulated wait and runtime");
  // Scaled arrivals rewrite field 2: the note gives the factor and both loads, and the submit times are the scaled
  // ones (the note was silent, and the log read as the original with other waits).
  ASSERT_EQ(run_cli({"simulate", log, "-s", "easy", "--arrival-scale", "2", "--jobs-out", dir.file("a.swf")}).exit_code, 0);
  const swf::Log a2 = swf::read_log(dir.file("a.swf"));
  const swf::Log in = swf::read_log(log);
  const std::string note = a2.header.notes[a2.header.notes.size() - 2];
  EXPECT_NE(note.find("; field 2 is the submit time with inter-arrival times x 2 (offered load "), std::string::npos) << note;
  ASSERT_GE(a2.records.size(), 3u);
  for (size_t i = 1; i < 3; ++i)
    EXPECT_EQ(a2.records[i].submit_time - a2.records[0].submit_time,
              2 * (in.records[i].submit_time - in.records[0].submit_time));
}

// Times the simulation reaches past the SWF's 32-bit fields: a clear error and no file (the submit time wrapped
// to -2147483648 in the written log); the CSV, which has no such limit, holds them.
TEST(SimCliTest, PerJobSwfRefusesTimesPastThirtyTwoBits) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("late.swf");
  schedlab::testing::write_file(log, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"
                                     "2 2147483000 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n");
  const auto r = run_cli({"simulate", log, "-s", "easy", "--arrival-scale", "2", "--jobs-out", dir.file("j.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("job 2: its simulated submit time (4294966000 s) does not fit the SWF's 32-bit field 2: write "
                       "the per-job results as .csv instead"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("j.swf")));
  ASSERT_EQ(run_cli({"simulate", log, "-s", "easy", "--arrival-scale", "2", "--jobs-out", dir.file("j.csv")}).exit_code,
            0);
  EXPECT_NE(schedlab::testing::read_file(dir.file("j.csv")).find("\n2,4294966000,4294966000,4294966010,"),
            std::string::npos);
  ASSERT_EQ(run_cli({"simulate", log, "-s", "easy", "--jobs-out", dir.file("ok.swf")}).exit_code, 0);
}

TEST(SimCliTest, ClearErrors) {
  schedlab::testing::TempDir dir;
  const std::string log = dir.file("small.swf");
  schedlab::testing::write_file(log, kSimulateLog);
  auto r = run_cli({"simulate", log, "--scheduler", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("schedlab: error: unknown scheduler 'nope' (known: fcfs, fcfs-fill, easy"), std::string::npos)
      << r.err;
  r = run_cli({"simulate", log, "--scheduler", "easy", "--procs", "0"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("machine size must be positive"), std::string::npos) << r.err;
  r = run_cli({"simulate", log});  // a usage error (2), as every other missing required option
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--scheduler is required (see --list)"), std::string::npos) << r.err;
  r = run_cli({"simulate", "--scheduler", "easy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("TRACE is required (or --list)"), std::string::npos) << r.err;

  const std::string no_estimates = dir.file("none.swf");
  schedlab::testing::write_file(no_estimates, "1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n");
  r = run_cli({"simulate", no_estimates, "--scheduler", "easy", "--kill-at-estimate"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--kill-at-estimate needs user estimates"), std::string::npos) << r.err;

  // Nothing to simulate is an error naming the log and why, not a report of zero averages.
  const std::string header_only = dir.file("header-only.swf");
  schedlab::testing::write_file(header_only, "; MaxProcs: 4\n");
  r = run_cli({"simulate", header_only, "--scheduler", "easy"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("header-only.swf: no job to simulate (the log has no job records)"), std::string::npos)
      << r.err;
  r = run_cli({"simulate", log, "--scheduler", "easy", "--procs", "1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("small.swf: no job to simulate (all "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("records were excluded: larger_than_machine "), std::string::npos) << r.err;

  // A negative seed is refused by every command (CLI11 alone would read -1 as 2^64 - 1).
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"simulate", log, "--scheduler", "easy", "--seed", "-1"},
        std::vector<std::string>{"generate", "scramble", "--from", log, "-o", dir.file("x.swf"), "--seed", "-7"},
        std::vector<std::string>{"sessions", log, "--seed", "-1"}}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.err.find("--seed: a seed is a whole number >= 0"), std::string::npos) << r.err;
  }
  // So is a negative thread count, with one message (compare said "Value -1 not in range 0.000000 to 1797...",
  // analyze locality and report took it as "every core").
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", log, "--schedulers", "easy,fcfs", "--threads", "-1"},
        std::vector<std::string>{"analyze", "locality", log, "--threads", "-1"},
        std::vector<std::string>{"report", log, "-o", dir.file("r.html"), "--threads", "-2"},
        std::vector<std::string>{"generate", "talby", "-o", dir.file("t.swf"), "--threads", "-1"}}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.err.find("--threads: a number of threads >= 0 (0 = every core)"), std::string::npos) << r.err;
  }
  // A report that cannot be written to standard output (a full disk) is an error, not exit 0 with nothing.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"simulate", log, "--scheduler", "easy", "--json"},
        std::vector<std::string>{"stats", log}}) {
    r = run_cli(args, "", "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_NE(r.err.find("schedlab: error: standard output: write error: No space left on device"), std::string::npos)
        << r.err;
  }
}

TEST(SimCliTest, LoadScalingAndWarmup) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const auto r = run_cli({"simulate", schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz"), "--scheduler", "easy",
                          "--load", "0.8", "--warmup-fraction", "0.01", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_NEAR(doc["offered_load"].get<double>(), 0.8, 0.001);
  EXPECT_EQ(doc["jobs"]["warmup_excluded"], 284);
  // Every arrival in one instant has no offered load: n/a and null, where 0.0000 was printed.
  const std::string kth = schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz");
  const auto burst = run_cli({"simulate", kth, "-s", "fcfs", "--arrival-scale", "1e-12"});
  ASSERT_EQ(burst.exit_code, 0) << burst.err;
  EXPECT_NE(burst.out.find("offered load n/a: every job submitted at one instant"), std::string::npos) << burst.out;
  const auto burst_json = run_cli({"simulate", kth, "-s", "fcfs", "--arrival-scale", "1e-12", "--json"});
  EXPECT_TRUE(nlohmann::json::parse(burst_json.out)["offered_load"].is_null());
  // A target no whole-second arrivals can reach, and a factor beyond 64-bit times: errors, not 0.0000 or
  // 'workload job 7376 is invalid or out of order'.
  const auto high = run_cli({"simulate", kth, "-s", "fcfs", "--load", "1e8"});
  EXPECT_EQ(high.exit_code, 1);
  EXPECT_NE(high.err.find("target load 1e+08: every arrival falls in one second"), std::string::npos) << high.err;
  const auto far = run_cli({"simulate", kth, "-s", "fcfs", "--arrival-scale", "1e12"});
  EXPECT_EQ(far.exit_code, 1);
  EXPECT_NE(far.err.find("beyond the 1e+15 s a simulation can hold"), std::string::npos) << far.err;
}

}  // namespace
}  // namespace schedlab

namespace {
using schedlab::testing::run_cli;

// docs/parameters.md is what the declarations say: regenerate it with `schedlab simulate --list --markdown`.
TEST(SimCliTest, ParameterDocsMatchTheDeclarations) {
  const auto r = run_cli({"simulate", "--list", "--markdown"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, schedlab::testing::read_file(std::string(SCHEDLAB_SOURCE_DIR) + "/docs/parameters.md"))
      << "docs/parameters.md is stale: build/schedlab simulate --list --markdown > docs/parameters.md";
  EXPECT_NE(r.out.find("| `compress` | choice | `once` | one of once, fixpoint |"), std::string::npos);
}

// A bad plug-in parameter is an error naming the plug-in, the parameter and what it accepts.
TEST(SimCliTest, BadPluginParametersAreNamed) {
  const auto kth = schedlab::testing::bundled_kth();
  auto r = run_cli({"simulate", kth, "--scheduler", "conservative:check=maybe"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("scheduler conservative: parameter check must be 0 or 1"), std::string::npos) << r.err;
  r = run_cli({"simulate", kth, "--scheduler", "easy", "--predictor", "sbh:depth=-1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("predictor sbh: parameter depth must be a whole number from 0 to"), std::string::npos) << r.err;
  r = run_cli({"simulate", kth, "--scheduler", "easy", "--predictor", "ruh:colour=red"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("predictor ruh has no parameter 'colour' (its parameters: jobs, propagate)"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;  // nothing near 'colour'
  // A slip of the keyboard gets the nearest name: scheduler, predictor, parameter, choice, correction.
  const std::vector<std::pair<std::vector<std::string>, std::string>> slips = {
      {{"--scheduler", "easyy"}, "unknown scheduler 'easyy'"},
      {{"--scheduler", "EASY"}, "; did you mean 'easy'?"},
      {{"--scheduler", "easy", "--predictor", "user-lst2"}, "; did you mean 'user-last2'?"},
      {{"--scheduler", "conservative:chek=1"}, "(its parameters: compress, check); did you mean 'check'?"},
      {{"--scheduler", "maui:priority=xfacter"}, "got 'xfacter'; did you mean 'xfactor'?"},
      {{"--scheduler", "easy", "--correction", "tsafirr"}, "; did you mean 'tsafrir'?"}};
  for (const auto& [args, text] : slips) {
    std::vector<std::string> argv = {"simulate", kth};
    argv.insert(argv.end(), args.begin(), args.end());
    r = run_cli(argv);
    EXPECT_EQ(r.exit_code, 1) << args[1];
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  }
}

}  // namespace
