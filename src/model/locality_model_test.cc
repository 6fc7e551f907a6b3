// Feitelson's locality model and the scrambled baseline (model/locality_model.h).
#include "schedlab/model/locality_model.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "schedlab/analysis/locality.h"
#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "test_util.h"

namespace schedlab::model {
namespace {
using schedlab::testing::J;

std::vector<swf::Record> two_jobs() {
  return schedlab::testing::records({J{1, 0, 100, 4, 200}, J{2, 1000, 100, 4, 200}});
}

TEST(LocalityModelTest, RepeatsAreStaggeredByTheirRuntimeAndThinkTime) {
  // Both jobs run 100 s; think 10 s: a run started at t has its repeats at t + 110, t + 220 (max 3). Runs start
  // at the log's submit times (0, 1000), then one span (1000 s) later, and so on: multiples of 1000.
  LocalityModelOptions o;
  o.theta = 1.5;
  o.max_repetitions = 3;
  o.jobs = 40;
  o.think = 10;
  o.arrivals = LocalityModelOptions::Arrivals::kLog;
  LocalityModelStats stats;
  const auto out = generate_locality(two_jobs(), o, &stats);
  ASSERT_EQ(out.size(), 40u);
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i].job_number, static_cast<int32_t>(i + 1));
    if (i > 0) {
      EXPECT_GE(out[i].submit_time, out[i - 1].submit_time);
    }
    const int32_t offset = out[i].submit_time % 1000;
    EXPECT_TRUE(offset == 0 || offset == 110 || offset == 220) << out[i].submit_time;
    EXPECT_EQ(out[i].run_time, 100);
    EXPECT_EQ(out[i].requested_time, 200);
    EXPECT_EQ(out[i].requested_procs, 4);
    EXPECT_EQ(out[i].status, 1);
  }
  EXPECT_EQ(stats.pool, 2);
  EXPECT_LE(stats.runs, 40);
  EXPECT_GE(stats.runs, 14);  // at most 3 jobs per run
  // Fields 17-18: a repeat names the job before it in its run (110 s earlier: its runtime and the think time) and the
  // think time; a run's first job names none. Every job but the runs' first ones is a repeat.
  int64_t following = 0;
  for (const swf::Record& r : out) {
    if (r.submit_time % 1000 == 0) {
      EXPECT_EQ(r.preceding_job, -1) << r.job_number;
      EXPECT_EQ(r.think_time, -1);
      continue;
    }
    ++following;
    ASSERT_GE(r.preceding_job, 1);
    ASSERT_LT(r.preceding_job, r.job_number);
    const swf::Record& p = out[static_cast<size_t>(r.preceding_job - 1)];
    EXPECT_EQ(p.submit_time + p.run_time + 10, r.submit_time) << r.job_number;
    EXPECT_EQ(r.think_time, 10);
  }
  EXPECT_EQ(following, stats.following);
  EXPECT_EQ(stats.following + stats.runs, 40);
}

// The tail (repeats after the last run start) recounted from the records alone: a run's first job names no
// preceding job, so the last run start is the latest such submit. cut_tail drops exactly those jobs and changes
// nothing else.
TEST(LocalityModelTest, TheTailIsCountedAndCutTailDropsExactlyIt) {
  const swf::Log kth = swf::read_log(schedlab::testing::bundled_kth());
  LocalityModelOptions o;
  LocalityModelStats full_stats, cut_stats;
  const auto full = generate_locality(kth.records, o, &full_stats);
  int64_t last_start = std::numeric_limits<int64_t>::min(), tail = 0, tail_runs = 0, tail_end = 0;
  for (const swf::Record& r : full)
    if (r.preceding_job == -1) last_start = std::max<int64_t>(last_start, r.submit_time);
  std::vector<std::tuple<int32_t, int32_t, int32_t>> kept;  // submit, runtime, size of the jobs up to it
  for (const swf::Record& r : full) {
    if (r.submit_time <= last_start) {
      kept.emplace_back(r.submit_time, r.run_time, r.requested_procs);
      continue;
    }
    ++tail;
    tail_end = std::max<int64_t>(tail_end, r.submit_time);
    ASSERT_GE(r.preceding_job, 1);  // a repeat
    if (full[static_cast<size_t>(r.preceding_job - 1)].submit_time <= last_start) ++tail_runs;
  }
  ASSERT_GT(tail, 0);  // KTH with seed 1 has one, or this test would show nothing
  EXPECT_EQ(full_stats.last_run_start, last_start);
  EXPECT_EQ(full_stats.tail_jobs, tail);
  EXPECT_EQ(full_stats.tail_runs, tail_runs);
  EXPECT_EQ(full_stats.tail_seconds, tail_end - last_start);

  o.cut_tail = true;
  const auto cut = generate_locality(kth.records, o, &cut_stats);
  EXPECT_EQ(cut_stats.tail_jobs, tail);
  ASSERT_EQ(cut.size(), full.size() - static_cast<size_t>(tail));
  std::vector<std::tuple<int32_t, int32_t, int32_t>> got;
  for (const swf::Record& r : cut) {
    got.emplace_back(r.submit_time, r.run_time, r.requested_procs);
    EXPECT_EQ(r.job_number, static_cast<int32_t>(got.size()));
    if (r.preceding_job == -1) continue;
    const swf::Record& p = cut[static_cast<size_t>(r.preceding_job - 1)];  // still the job before it in its run
    EXPECT_EQ(p.submit_time + p.run_time, r.submit_time) << r.job_number;
  }
  EXPECT_EQ(got, kept);
  const std::string said = locality_tail_text(full_stats, false, "cut_tail", false);
  EXPECT_NE(said.find(fmt::format("{} repeats of {} runs", tail, tail_runs)), std::string::npos) << said;
  EXPECT_NE(locality_tail_text(cut_stats, true, "cut_tail", false).find("dropped"), std::string::npos);
  // On the terminal, thousands grouped as in the line above it ("28,489 jobs"; it said "3935 repeats"); plain in a
  // header's note, as its other counts.
  LocalityModelStats many;
  many.tail_jobs = 3935;
  many.tail_runs = 1;
  many.tail_seconds = 86400;
  EXPECT_EQ(locality_tail_text(many, false, "--cut-tail", true),
            "3,935 repeats of 1 run arrive after the last run starts, over 1.0 more days (whole-log jobs per day and "
            "load count them; --cut-tail drops them)");
  EXPECT_EQ(locality_tail_text(many, true, "cut_tail", false).rfind("3935 repeats of 1 run arrive", 0), 0u);  // header
}

// The mean run length over 1..max against the terms added one by one, past the million terms the model adds (the
// rest is Euler-Maclaurin's), for a heavy and a light tail.
TEST(LocalityModelTest, MeanRunLengthOfALongTableEqualsTheDirectSum) {
  for (const double theta : {1.05, 1.5, 2.0, 3.0}) {
    LocalityModelOptions o;
    o.theta = theta;
    o.max_repetitions = 3'000'000;
    o.jobs = 100;
    LocalityModelStats stats;
    generate_locality(two_jobs(), o, &stats);
    double total = 0, weighted = 0;
    for (int r = 1; r <= o.max_repetitions; ++r) {
      const double p = std::pow(static_cast<double>(r), -theta);
      total += p;
      weighted += r * p;
    }
    EXPECT_NEAR(stats.mean_run_length, weighted / total, 1e-12 * weighted / total) << theta;
  }
}

// --max-repetitions up to 2^31 - 1: the table is at most `jobs` long and the sums are O(1) past a million terms.
// It was a table of max doubles: 16 GB and two billion powers (a minute) for 100 jobs.
TEST(LocalityModelTest, TheLongestRunsAllowedNeedNoTableOfThatSize) {
  LocalityModelOptions o;
  o.max_repetitions = std::numeric_limits<int32_t>::max();
  o.theta = 1.5;
  o.jobs = 100;
  LocalityModelStats stats;
  EXPECT_EQ(generate_locality(two_jobs(), o, &stats).size(), 100u);
  EXPECT_GT(stats.mean_run_length, 1.0);
}

TEST(LocalityModelTest, OneRepetitionIsSamplingFromTheLog) {
  LocalityModelOptions o;
  o.max_repetitions = 1;
  o.jobs = 1000;
  LocalityModelStats stats;
  const auto out = generate_locality(two_jobs(), o, &stats);
  EXPECT_EQ(stats.runs, 1000);
  EXPECT_DOUBLE_EQ(stats.mean_run_length, 1.0);
}

// The records the global distribution cannot use are counted by reason, and said in the header (the CLI said
// "from 200 jobs of" a 260-record log without saying why 60 were missing).
TEST(LocalityModelTest, RecordsLeftOutOfThePoolAreCountedByReason) {
  auto log = schedlab::testing::records({J{1, 0, 100, 4, 200}, J{2, 1000, -1, 4, 200}, J{3, 1100, 100, -1, 200},
                                         J{4, -1, 100, 4, 200}, J{5, 1200, -1, 4, 200}, J{6, 1300, 50, 2, 60}});
  log[2].allocated_procs = -1;  // no size at all
  LocalityModelOptions o;
  o.jobs = 10;
  LocalityModelStats stats;
  (void)generate_locality(log, o, &stats);
  EXPECT_EQ(stats.pool, 2);
  EXPECT_EQ(stats.left_out, (std::map<std::string, int64_t>{
                                {"unknown_runtime", 2}, {"unknown_size", 1}, {"unknown_submit_time", 1}}));
  EXPECT_EQ(left_out_text(stats), "4 records left out: unknown_runtime 2, unknown_size 1, unknown_submit_time 1");
  // Grouped for the terminal, as the counts beside it ("22,423 jobs"; it said "6066 records ... 2699").
  LocalityModelStats many;
  many.left_out = {{"unknown_runtime", 2699}, {"unknown_submit_time", 1499}};
  EXPECT_EQ(left_out_text(many, true), "4,198 records left out: unknown_runtime 2,699, unknown_submit_time 1,499");
  EXPECT_EQ(left_out_text(many), "4198 records left out: unknown_runtime 2699, unknown_submit_time 1499");
  const swf::Header h = locality_header(swf::Header{}, "x.swf", o, stats);
  EXPECT_NE(std::find(h.notes.begin(), h.notes.end(),
                      "source x.swf (2 jobs in the global distribution; 4 records left out: unknown_runtime 2, "
                      "unknown_size 1, unknown_submit_time 1)"),
            h.notes.end());
  (void)generate_locality(two_jobs(), o, &stats);
  EXPECT_TRUE(stats.left_out.empty());
  EXPECT_EQ(left_out_text(stats), "");
}

TEST(LocalityModelTest, SameSeedSameLog) {
  LocalityModelOptions o;
  o.jobs = 500;
  o.seed = 7;
  const auto logs = schedlab::testing::records({J{1, 0, 50, 1, 60}, J{2, 10, 500, 8, 600}, J{3, 30, 5000, 2, 9000}});
  const auto a = generate_locality(logs, o), b = generate_locality(logs, o);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].submit_time, b[i].submit_time);
    EXPECT_EQ(a[i].run_time, b[i].run_time);
  }
  o.seed = 8;
  const auto c = generate_locality(logs, o);
  bool differ = false;
  for (size_t i = 0; i < a.size(); ++i) differ = differ || a[i].submit_time != c[i].submit_time;
  EXPECT_TRUE(differ);
}

TEST(LocalityModelTest, RepeatOnlyTheRuntimeDrawsSizesAfresh) {
  LocalityModelOptions o;
  o.theta = 1.2;  // long runs
  o.jobs = 2000;
  o.repeat = LocalityModelOptions::Repeat::kRuntime;
  const auto logs = schedlab::testing::records({J{1, 0, 50, 1, 60}, J{2, 10, 500, 8, 600}});
  const auto out = generate_locality(logs, o);
  std::map<std::pair<int32_t, int32_t>, int> pairs;
  for (const auto& r : out) ++pairs[{r.run_time, r.requested_procs}];
  EXPECT_EQ(pairs.size(), 4u);  // runtimes and sizes mixed; estimates stay with their runtime
  for (const auto& r : out) EXPECT_EQ(r.requested_time, r.run_time == 50 ? 60 : 600);
}

TEST(LocalityModelTest, BadOptionsAreNamed) {
  LocalityModelOptions o;
  auto message = [&](const std::vector<swf::Record>& log) {
    try {
      generate_locality(log, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  o.theta = 1.0;
  EXPECT_NE(message(two_jobs()).find("--theta"), std::string::npos);
  o.theta = 2.5;
  o.jobs = -1;
  EXPECT_NE(message(two_jobs()).find("--jobs"), std::string::npos);
  o.jobs = 10;
  o.max_repetitions = 0;
  EXPECT_NE(message(two_jobs()).find("--max-repetitions"), std::string::npos);
  o.max_repetitions = 10;
  o.think = -5;
  EXPECT_NE(message(two_jobs()).find("--think"), std::string::npos);
  o.think = 0;
  EXPECT_NE(message({}).find("no job"), std::string::npos);
  EXPECT_NE(message(schedlab::testing::records({J{1, 0, 50, 1, 60}})).find("one instant"), std::string::npos);
}

TEST(LocalityModelTest, ChoiceNamesRoundTrip) {
  using O = LocalityModelOptions;
  EXPECT_EQ(locality_repeat_names(), (std::vector<std::string>{"job", "runtime", "size"}));
  EXPECT_EQ(locality_arrivals_names(), (std::vector<std::string>{"poisson", "log"}));
  for (const O::Repeat r : {O::Repeat::kJob, O::Repeat::kRuntime, O::Repeat::kSize})
    EXPECT_EQ(parse_locality_repeat(locality_repeat_name(r)), r);
  for (const O::Arrivals a : {O::Arrivals::kPoisson, O::Arrivals::kLog})
    EXPECT_EQ(parse_locality_arrivals(locality_arrivals_name(a)), a);
  EXPECT_FALSE(parse_locality_repeat("Job").has_value());
  EXPECT_FALSE(parse_locality_arrivals("").has_value());
}

TEST(ScrambleTest, KeepsArrivalsAndTheMultisetOfJobs) {
  const auto log = schedlab::testing::records({J{1, 0, 50, 1, 60}, J{2, 10, 500, 8, 600}, J{3, 30, 5000, 2, 9000},
                                               J{4, 35, 7, 3, 10}, J{5, 90, 70, 5, 100}});
  const auto out = scramble(log, 3);
  ASSERT_EQ(out.size(), log.size());
  std::vector<std::tuple<int, int, int>> before, after;
  bool moved = false;
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(out[i].submit_time, log[i].submit_time);
    EXPECT_EQ(out[i].job_number, static_cast<int32_t>(i + 1));
    before.emplace_back(log[i].run_time, log[i].requested_procs, log[i].requested_time);
    after.emplace_back(out[i].run_time, out[i].requested_procs, out[i].requested_time);
    moved = moved || out[i].run_time != log[i].run_time;
  }
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  EXPECT_EQ(before, after);
  EXPECT_TRUE(moved);
}

// Feitelson's Fig. 11: 100,000 jobs from KTH; theta 2 -> M'_med about .18, 2.5 -> .078-.098, 4 -> about .038,
// and scrambling KTH brings its M'_med down to the random-sampling baseline.
double m_med(const std::vector<swf::Record>& jobs) {
  std::vector<int64_t> times;
  std::vector<double> values;
  for (const auto& r : jobs) {
    times.push_back(r.submit_time);
    values.push_back(r.run_time);
  }
  analysis::LocalityOptions o;
  o.rounds = 0;
  return analysis::locality(times, values, o).m_med_prime;
}

// A header as a reader of the written log sees it.
swf::Header reread(const swf::Header& h) {
  std::ostringstream text;
  swf::write_log(text, h, {});
  return swf::parse_log(text.str()).header;
}

// Generated times are on the source's axis, so its calendar origin and time zone go with them (sessions and
// cycles need them); the machine size too.
TEST(LocalityModelTest, HeadersKeepTheSourcesTimeOrigin) {
  const swf::Log kth = swf::read_log(schedlab::testing::bundled_kth());
  ASSERT_TRUE(kth.header.unix_start_time.has_value());
  LocalityModelOptions o;
  o.jobs = 100;
  LocalityModelStats stats;
  (void)generate_locality(kth.records, o, &stats);
  for (const swf::Header& h :
       {locality_header(kth.header, "kth", o, stats), scramble_header(kth.header, kth.records, "kth", 1)}) {
    const swf::Header back = reread(h);
    EXPECT_EQ(back.unix_start_time, kth.header.unix_start_time);
    EXPECT_EQ(back.time_zone, kth.header.time_zone);
    EXPECT_EQ(back.time_zone_string, kth.header.time_zone_string);
    EXPECT_EQ(back.max_procs, kth.header.max_procs);
  }
  // A source without them gives none.
  LocalityModelStats plain_stats;
  (void)generate_locality(two_jobs(), o, &plain_stats);
  const swf::Header plain = locality_header(swf::Header{}, "two", o, plain_stats);
  EXPECT_FALSE(reread(plain).unix_start_time.has_value());
}

// The note on fields 17-18 counts the repeats: none, one, many.
TEST(LocalityModelTest, TheHeaderCountsTheRepeatsThatNameTheirJobBefore) {
  const auto note = [](const LocalityModelStats& stats) {
    const swf::Header h = locality_header(swf::Header{}, "x.swf", LocalityModelOptions{}, stats);
    return h.notes.back();
  };
  LocalityModelStats stats;
  EXPECT_EQ(note(stats), "fields 17-18: unused (no run has a repeat)");
  stats.following = 1;
  EXPECT_EQ(note(stats).rfind("fields 17-18: the 1 repeat names the job before it in its run", 0), 0u) << note(stats);
  stats.following = 28320;
  EXPECT_EQ(note(stats).rfind("fields 17-18: each of the 28320 repeats names the job before it", 0), 0u)
      << note(stats);
}

TEST(LocalityModelTest, ThetaSetsTheLocalityOfSamplingAsInFigure11) {
  const std::string file = "KTH-SP2-1996-2.swf.gz";
  SCHEDLAB_NEED_TRACE(file);
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(file));
  LocalityModelOptions o;
  o.jobs = 100000;
  o.theta = 2;
  const double at2 = m_med(generate_locality(log.records, o));
  o.theta = 2.5;
  const double at25 = m_med(generate_locality(log.records, o));
  o.theta = 4;
  const double at4 = m_med(generate_locality(log.records, o));
  o.max_repetitions = 1;
  const double none = m_med(generate_locality(log.records, o));
  EXPECT_NEAR(at2, 0.18, 0.03);
  EXPECT_GE(at25, 0.07);
  EXPECT_LE(at25, 0.105);
  EXPECT_NEAR(at4, 0.038, 0.01);
  EXPECT_LT(none, at4);
  EXPECT_NEAR(none, 0.029, 0.005);  // random sampling's M'_med at this slice size
  // The real log has locality, its scrambled version does not.
  EXPECT_GT(m_med(log.records), 2 * m_med(scramble(log.records, 1)));
}

}  // namespace
}  // namespace schedlab::model
