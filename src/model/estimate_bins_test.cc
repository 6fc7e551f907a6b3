#include "schedlab/model/estimate_bins.h"

#include <cmath>

#include <gtest/gtest.h>

#include "schedlab/analysis/summary.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::model {
namespace {

TEST(EstimateBins, CountsRanksAndCoverOnASmallLog) {
  std::vector<swf::Record> recs;
  int32_t id = 1;
  for (int i = 0; i < 5; ++i) recs.push_back(testing::record({.job_number = id++, .run_time = 10,
                                                              .requested_procs = 1, .requested_time = 600}));
  for (int i = 0; i < 3; ++i) recs.push_back(testing::record({.job_number = id++, .run_time = 10,
                                                              .requested_procs = 1, .requested_time = 3600}));
  recs.push_back(testing::record({.job_number = id++, .run_time = 10, .requested_procs = 1, .requested_time = 60}));
  recs.push_back(testing::record({.job_number = id++, .run_time = 10, .requested_procs = 1, .requested_time = 7200}));
  recs.push_back(testing::record({.job_number = id++, .run_time = 10,
                                  .requested_procs = 1}));  // no estimate: not counted
  recs.push_back(testing::record({.job_number = id++, .run_time = 10, .requested_procs = 1,
                                  .requested_time = 0}));   // no estimate
  const EstimateBins b = estimate_bins(recs);
  EXPECT_EQ(b.records, 12);
  EXPECT_EQ(b.jobs, 10);
  EXPECT_EQ(b.without_estimate, 2);
  EXPECT_EQ(b.distinct, 4);
  EXPECT_EQ(b.t_max, 7200);
  EXPECT_DOUBLE_EQ(b.t_max_share, 0.1);
  // Ties (60 and 7200, one job each) by ascending value: 60 is rank 3, 7200 rank 4.
  ASSERT_EQ(b.modes.size(), 4u);
  EXPECT_EQ(b.modes[0].value, 600);
  EXPECT_EQ(b.modes[0].time_rank, 2);
  EXPECT_EQ(b.modes[2].value, 60);
  EXPECT_EQ(b.modes[3].value, 7200);
  EXPECT_EQ(b.t_max_popularity_rank, 4);
  EXPECT_EQ(b.modes[3].time_rank, 4);
  // 10% -> 1 bin; 50% -> 1 (5 of 10 >= 50%); 75% -> 2; 90% -> 3 (9 >= 9); 95% and up -> 4.
  EXPECT_EQ(b.cover, (std::vector<int64_t>{1, 1, 2, 3, 4, 4, 4, 4}));
}

// The limit: the largest estimate at least 1 in 2,000 jobs used. 4,000 jobs: 2 jobs (exactly 1 in 2,000) at 10 h
// make it; 1 job at 100 h and 1 at 2^31 - 1 s (a "no limit" sentinel) are above it.
TEST(EstimateBins, TheLimitIsTheLargestEstimateOneJobIn2000Used) {
  std::vector<swf::Record> recs;
  const auto add = [&](int n, int32_t estimate) {
    for (int i = 0; i < n; ++i)
      recs.push_back(testing::record({.job_number = static_cast<int32_t>(recs.size()) + 1, .run_time = 10,
                                      .requested_procs = 1, .requested_time = estimate}));
  };
  add(3996, 3600);
  add(2, 36000);
  add(1, 360000);
  add(1, 2147483647);
  EstimateBins b = estimate_bins(recs);
  EXPECT_EQ(b.t_max, 2147483647);
  EXPECT_EQ(b.limit, 36000);
  EXPECT_DOUBLE_EQ(b.limit_share, 2.0 / 4000);
  EXPECT_EQ(b.limit_popularity_rank, 2);
  EXPECT_EQ(b.above_limit, 2);
  // One job fewer at 10 h: 1 of 3,999 is below 1 in 2,000, so the limit is 1 h and three jobs are above it.
  recs.erase(recs.begin() + 3996);
  b = estimate_bins(recs);
  EXPECT_EQ(b.limit, 3600);
  EXPECT_EQ(b.above_limit, 3);
  // A log's largest estimate is its limit when enough jobs used it (fewer than 2,000 jobs: any job is enough).
  recs.resize(10);
  recs.back().requested_time = 7200;
  b = estimate_bins(recs);
  EXPECT_EQ(b.limit, 7200);
  EXPECT_EQ(b.limit, b.t_max);
  EXPECT_EQ(b.above_limit, 0);
}

TEST(EstimateBins, EmptyLog) {
  const EstimateBins b = estimate_bins({testing::record({.job_number = 1, .run_time = 5, .requested_procs = 1})});
  EXPECT_EQ(b.jobs, 0);
  EXPECT_EQ(b.distinct, 0);
  EXPECT_EQ(b.cover, (std::vector<int64_t>(8, 0)));
}

TEST(EstimateBins, KthReproducesTable2AndAgreesWithStats) {
  const std::string path = testing::trace_path("KTH-SP2-1996-2.swf.gz");
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const swf::Log log = swf::read_log(path);
  const EstimateBins b = estimate_bins(log.records);
  // Paper, Table 2, KTH: 1 8 21 41 60 89 122 and 270 bins for 100% (Table 1 says K = 271).
  EXPECT_EQ(std::vector<int64_t>(b.cover.begin(), b.cover.end() - 1),
            (std::vector<int64_t>{1, 8, 21, 41, 60, 89, 122}));
  EXPECT_GE(b.distinct, 270);
  EXPECT_LE(b.distinct, 271);
  EXPECT_EQ(b.cover.back(), b.distinct);
  EXPECT_EQ(b.t_max, 60 * 3600);
  const auto s = analysis::summarize(log);
  EXPECT_EQ(s.distinct_estimates, b.distinct);
  EXPECT_EQ(s.estimates_for_50, b.cover[1]);
  EXPECT_EQ(s.estimates_for_90, b.cover[3]);
}

TEST(EstimateBins, KthFourHourSubsetReproducesTable5) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  swf::Log log = swf::read_log(testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  std::erase_if(log.records, [](const swf::Record& r) { return r.requested_time > 4 * 3600; });
  const EstimateBins b = estimate_bins(log.records);
  EXPECT_NEAR(static_cast<double>(b.jobs), 23070, 5);  // Table 1: 23,070 jobs
  EXPECT_EQ(b.distinct, 106);                           // Table 1: 106 bins
  // Table 5, KTH4H: 4h 12.5%, 5m 11.5, 10m 9.6, 1m 6.6, 1h 5.8 (values and shares at 0.1% precision).
  const std::vector<std::pair<int32_t, double>> top = {{14400, 12.5}, {300, 11.5}, {600, 9.6}, {60, 6.6}, {3600, 5.8}};
  for (size_t i = 0; i < top.size(); ++i) {
    EXPECT_EQ(b.modes[i].value, top[i].first) << i;
    EXPECT_NEAR(100 * b.modes[i].share, top[i].second, 0.051) << i;
  }
  // Table 2, KTH4H: 1 6 12 21 28 36 43 106.
  EXPECT_EQ(b.cover[0], 1);
  EXPECT_EQ(b.cover[1], 6);
  EXPECT_EQ(b.cover[2], 12);
  EXPECT_EQ(b.cover[3], 21);
  EXPECT_EQ(b.cover[4], 28);
  EXPECT_NEAR(static_cast<double>(b.cover[5]), 36, 1);
  EXPECT_EQ(b.cover[6], 43);
}

TEST(EstimateBins, CtcBesideTable2) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  const EstimateBins b = estimate_bins(swf::read_log(testing::trace_path("CTC-SP2-1996-3.1-cln.swf.gz")).records);
  // Paper (older log version): 1 4 10 22 36 62 89 265. The cleaned 3.1 log differs by about one bin per column.
  const std::vector<int64_t> paper = {1, 4, 10, 22, 36, 62, 89, 265};
  for (size_t i = 0; i < paper.size(); ++i)
    EXPECT_NEAR(static_cast<double>(b.cover[i]), static_cast<double>(paper[i]), 1.5) << i;
  EXPECT_EQ(b.modes[0].value, 18 * 3600);
  EXPECT_NEAR(100 * b.modes[0].share, 23.8, 0.05);  // Table 5: 18h 23.8%
  EXPECT_EQ(b.modes[1].value, 900);
  EXPECT_NEAR(100 * b.modes[1].share, 10.6, 0.05);
}

TEST(CompareEstimates, PairedSquashedAreaDifference) {
  std::vector<swf::Record> real = {testing::record({.job_number = 1, .run_time = 10, .requested_procs = 2,
                                                    .requested_time = 100}), testing::record({.job_number = 2,
                                                    .run_time = 10, .requested_procs = 1, .requested_time = 200}),
                                                    testing::record({.job_number = 3, .run_time = 10,
                                                    .requested_procs = 4})};
  std::vector<swf::Record> mod = {testing::record({.job_number = 1, .run_time = 10, .requested_procs = 2,
                                                   .requested_time = 200}), testing::record({.job_number = 2,
                                                   .run_time = 10, .requested_procs = 1, .requested_time = 400}),
                                                   testing::record({.job_number = 3, .run_time = 10,
                                                   .requested_procs = 4, .requested_time = 50})};
  const auto c = compare_estimates(real, mod);
  EXPECT_TRUE(c.paired);
  EXPECT_EQ(c.real_jobs, 2);  // job 3 has no real estimate
  EXPECT_DOUBLE_EQ(c.sa_real, 400);
  EXPECT_DOUBLE_EQ(c.sa_model, 800);
  EXPECT_DOUBLE_EQ(c.d_sa, 1.0);
  EXPECT_DOUBLE_EQ(c.ks, 0.5);
  mod.pop_back();
  const auto u = compare_estimates(real, mod);
  EXPECT_FALSE(u.paired);
  EXPECT_EQ(u.real_jobs, 2);
  EXPECT_EQ(u.model_jobs, 2);
}

// A side without estimates has nothing to compare: an error naming it, not a KS statistic of 0 ("the same").
TEST(CompareEstimates, ASideWithoutEstimatesIsRefusedByName) {
  const std::vector<swf::Record> with = {testing::record({.job_number = 1, .run_time = 10, .requested_procs = 2,
                                                          .requested_time = 100})};
  const std::vector<swf::Record> without = {testing::record({.job_number = 1, .run_time = 10,
                                                             .requested_procs = 2})};
  const auto message = [](const auto& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { compare_estimates(without, with, "r.swf", "m.swf"); }),
            "r.swf: no job has an estimate (field 9 > 0): nothing to compare");
  // Paired by job number, each with estimates but never on the same job.
  std::vector<swf::Record> a = with, b = without;
  a.push_back(testing::record({.job_number = 2, .run_time = 10}));
  b.push_back(testing::record({.job_number = 2, .run_time = 10, .requested_time = 50}));
  EXPECT_EQ(message([&] { compare_estimates(a, b, "r.swf", "m.swf"); }),
            "r.swf and m.swf: no job has an estimate in both (the logs are paired by job number): nothing to compare");
  EXPECT_EQ(message([&] { compare_estimates(with, {}, "r.swf", "m.swf"); }),
            "m.swf: no job has an estimate (field 9 > 0): nothing to compare");
  // Estimates without sizes: compared, with no squashed-area difference.
  const std::vector<swf::Record> sizeless = {testing::record({.job_number = 1, .run_time = 10,
                                                              .requested_time = 100})};
  const auto c = compare_estimates(sizeless, with);
  EXPECT_DOUBLE_EQ(c.ks, 0.0);
  EXPECT_TRUE(std::isnan(c.d_sa));
}

// Five jobs: 3 at 1 h, 2 at 2 h (and one without an estimate). Cumulative shares 60%, 100%; dropping the
// estimates above 1 h removes the two 2 h jobs only.
TEST(EstimateBins, CumulativeSharesAndDropAbove) {
  std::vector<swf::Record> log;
  for (int i = 0; i < 3; ++i) log.push_back(testing::record({.job_number = i, .run_time = 10, .requested_time = 3600}));
  for (int i = 3; i < 5; ++i) log.push_back(testing::record({.job_number = i, .run_time = 10, .requested_time = 7200}));
  log.push_back(testing::record({.job_number = 5, .run_time = 10}));
  const EstimateBins b = estimate_bins(log);
  ASSERT_EQ(b.modes.size(), 2u);
  EXPECT_DOUBLE_EQ(b.modes[0].cumulative_share, 0.6);
  EXPECT_DOUBLE_EQ(b.modes[1].cumulative_share, 1.0);
  const auto j = to_json(b, 1);
  EXPECT_EQ(j["modes"].size(), 1u);
  EXPECT_DOUBLE_EQ(j["modes"][0]["cumulative_share"].get<double>(), 0.6);
  EXPECT_EQ(drop_estimates_above(log, 3600), 2);
  EXPECT_EQ(log.size(), 4u);
  // Limits outside an SWF field's range are refused and leave the log alone (a limit of 0 or below would have
  // dropped every job with an estimate; one above 2^31 - 1 was cut to 32 bits by the Python binding's cast).
  EXPECT_THROW(drop_estimates_above(log, 0), std::invalid_argument);
  EXPECT_THROW(drop_estimates_above(log, int64_t{1} << 31), std::invalid_argument);
  EXPECT_EQ(log.size(), 4u);
  EXPECT_EQ(drop_estimates_above(log, (int64_t{1} << 31) - 1), 0);
}

}  // namespace
}  // namespace schedlab::model
