#include "schedlab/analysis/temporal.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/memory.h"

#include "schedlab/base/random.h"
#include "test_util.h"

namespace schedlab::analysis {
namespace {

TEST(TemporalBins, CountsAndMeansWithAbsentBins) {
  const std::vector<int64_t> t{0, 5, 25, 26, 27};
  const std::vector<double> v{2, 4, 1, 2, 3};
  const Binned c = bin_series(t, v, 0, 10, true);
  EXPECT_EQ(c.value, (std::vector<double>{2, 0, 3}));
  EXPECT_EQ(c.present, (std::vector<uint8_t>{1, 1, 1}));
  const Binned m = bin_series(t, v, 0, 10, false);
  EXPECT_DOUBLE_EQ(m.value[0], 3);
  EXPECT_EQ(m.present[1], 0);
  EXPECT_DOUBLE_EQ(m.value[2], 2);
}

TEST(TemporalAcf, KnownAnswers) {
  Binned alt;
  for (int i = 0; i < 100; ++i) {
    alt.value.push_back(i % 2 ? 1.0 : -1.0);
    alt.present.push_back(1);
  }
  EXPECT_NEAR(binned_autocorrelation(alt, 1), -1.0, 1e-12);
  EXPECT_NEAR(binned_autocorrelation(alt, 2), 1.0, 1e-12);
  // Absent bins are skipped, not treated as zeros: the pairs (t, t+2) that exist are all equal.
  // (the mean moves a little: 0.9998).
  alt.present[3] = 0;
  EXPECT_NEAR(binned_autocorrelation(alt, 2), 1.0, 1e-3);
  Binned flat{{1, 1, 1}, {1, 1, 1}};
  EXPECT_TRUE(std::isnan(binned_autocorrelation(flat, 1)));
}

TEST(Temporal, DailyAndWeeklyCyclesAreFound) {
  // 20 weeks; jobs only in daytime hours (8-16 h) on workdays; runtimes long by day, i.i.d. otherwise.
  base::Rng rng(9);
  std::vector<swf::Record> log;
  for (int day = 0; day < 140; ++day) {
    const bool workday = day % 7 < 5;
    for (int hour = 0; hour < 24; ++hour) {
      const int jobs = (workday && hour >= 8 && hour < 16) ? 20 : 1;
      for (int k = 0; k < jobs; ++k) {
        const auto t = static_cast<int32_t>(day * 86400 + hour * 3600 + static_cast<int>(rng.below(3600)));
        log.push_back(testing::record({.submit_time = t, .run_time = static_cast<int32_t>(100 + rng.below(100)),
                                       .requested_procs = 1 + static_cast<int32_t>(rng.below(8))}));
      }
    }
  }
  std::sort(log.begin(), log.end(), [](const auto& a, const auto& b) { return a.submit_time < b.submit_time; });
  const TemporalResult r = temporal(log, false);
  const TemporalRow& jobs = r.rows[static_cast<size_t>(TemporalSeries::kJobs)];
  EXPECT_GT(jobs.daily_24h, 0.5);  // weekends (flat) weaken the daily correlation
  EXPECT_LT(jobs.daily_12h, 0.0);  // day vs night
  EXPECT_GT(jobs.weekly_7d, 0.7);
  EXPECT_GT(jobs.lag1_15m, 0.5);
  const TemporalRow& procs = r.rows[static_cast<size_t>(TemporalSeries::kProcs)];
  EXPECT_LT(std::abs(procs.weekly_7d), 0.3);  // sizes are i.i.d.
  EXPECT_LT(std::abs(procs.lag1_15m), 0.1);
}

// Every record is accounted for: without a submit time it is in no series; with one but of unknown runtime or
// size it is left out of runtime, procs and cpu (cpu needs both); the first job has no inter-arrival time,
// which is not a job left out.
TEST(Temporal, JobsLeftOutAreCountedByReason) {
  std::vector<swf::Record> log;
  for (int i = 0; i < 10; ++i)
    log.push_back(testing::record({.submit_time = 100 * i, .run_time = 50, .requested_procs = 2}));
  log[2].submit_time = -1;  // in no series
  log[3].run_time = -1;     // runtime and cpu
  log[4].requested_procs = -1;
  log[4].allocated_procs = -1;  // procs and cpu
  log[5].run_time = -1;
  log[5].requested_procs = -1;
  log[5].allocated_procs = -1;  // all three, once each
  const TemporalResult r = temporal(log, false);
  EXPECT_EQ(r.records, 10);
  EXPECT_EQ(r.jobs, 9);
  EXPECT_EQ(r.unknown_submit, 1);
  const auto unknown = [&](TemporalSeries s) { return r.rows[static_cast<size_t>(s)].unknown_value; };
  EXPECT_EQ(unknown(TemporalSeries::kRuntime), 2);
  EXPECT_EQ(unknown(TemporalSeries::kProcs), 2);
  EXPECT_EQ(unknown(TemporalSeries::kCpu), 3);
  EXPECT_EQ(unknown(TemporalSeries::kInterarrival), 0);
  EXPECT_EQ(unknown(TemporalSeries::kJobs), 0);
}

// Progress: one call per step (each series' autocorrelations, then its three Hurst estimators), counting up to
// the total; an exception from the hook ends the computation (how the Python module stops on Ctrl-C).
TEST(Temporal, ProgressCountsEveryStepAndCanStopIt) {
  std::vector<swf::Record> log;
  for (int i = 0; i < 3000; ++i)
    log.push_back(testing::record({.submit_time = i * 97, .run_time = 100 + i % 50, .requested_procs = 1 + i % 8}));
  for (const bool hurst : {false, true}) {
    std::vector<size_t> done;
    size_t total = 0;
    const TemporalResult r = temporal(log, hurst, [&](size_t d, size_t t) {
      done.push_back(d);
      total = t;
    });
    const size_t steps = hurst ? 20 : 5;
    EXPECT_EQ(total, steps);
    ASSERT_EQ(done.size(), steps);
    for (size_t i = 0; i < steps; ++i) EXPECT_EQ(done[i], i + 1);
    EXPECT_EQ(r.jobs, 3000);
  }
  size_t calls = 0;
  EXPECT_THROW(temporal(log, true,
                        [&](size_t, size_t) {
                          if (++calls == 3) throw std::runtime_error("stop");
                        }),
               std::runtime_error);
  EXPECT_EQ(calls, 3u);
}

// The binned series as the autocorrelations see them: counts for "jobs", means for the others, absent bins
// where no job arrived; hand-computed on four jobs in bins of 100 s from the first submit: [50, 150) holds
// the jobs at 50, 120 and 140 (runtimes 10, 30, 50), [350, 450) the one at 390.
TEST(TemporalBins, CountsAndMeansPerBin) {
  const std::vector<swf::Record> log = {testing::record({.submit_time = 50, .run_time = 10, .requested_procs = 1}),
                                        testing::record({.submit_time = 120, .run_time = 30, .requested_procs = 2}),
                                        testing::record({.submit_time = 140, .run_time = 50, .requested_procs = 4}),
                                        testing::record({.submit_time = 390, .run_time = 70, .requested_procs = 8})};
  const TemporalBins jobs = temporal_bins(log, TemporalSeries::kJobs, 100);
  EXPECT_EQ(jobs.origin, 50);
  EXPECT_EQ(jobs.bins.value, (std::vector<double>{3, 0, 0, 1}));
  EXPECT_EQ(jobs.bins.present, (std::vector<uint8_t>{1, 1, 1, 1}));
  const TemporalBins runtime = temporal_bins(log, TemporalSeries::kRuntime, 100);
  ASSERT_EQ(runtime.bins.value.size(), 4u);
  EXPECT_EQ(runtime.bins.present, (std::vector<uint8_t>{1, 0, 0, 1}));
  EXPECT_EQ(runtime.bins.value[0], 30);
  EXPECT_EQ(runtime.bins.value[3], 70);
  EXPECT_THROW(temporal_bins(log, TemporalSeries::kJobs, 0), std::invalid_argument);
  for (int k = 0; k < kTemporalSeries; ++k) {
    const auto s = static_cast<TemporalSeries>(k);
    EXPECT_EQ(parse_temporal_series(temporal_series_name(s)), s);
  }
  EXPECT_FALSE(parse_temporal_series("bogus").has_value());
}

TEST(TemporalBins, BinsBeyondMemoryAreRefusedByName) {
  // 1 s bins over 68 years: 2.1e9 bins, about 86 GB; they were allocated (or the process was killed) before.
  const std::vector<swf::Record> log = {
      testing::record({.submit_time = 0, .run_time = 1, .requested_procs = 1}),
      testing::record({.submit_time = INT32_MAX, .run_time = 1, .requested_procs = 1})};
  if (base::usable_memory_bytes() == 0 || base::usable_memory_bytes() > 80ULL * 1000 * 1000 * 1000)
    GTEST_SKIP() << "this machine's memory is unknown or could hold the bins";
  try {
    temporal_bins(log, TemporalSeries::kJobs, 1);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--bin 1 s over the log's 2147483647 s: 2.15e+09 bins (40 bytes per bin)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(temporal_bins(log, TemporalSeries::kJobs, 86400).bins.value.size(), 24856u);  // daily bins are fine
}

}  // namespace
}  // namespace schedlab::analysis
