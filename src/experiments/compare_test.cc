// The per-period comparison (experiments/compare.h) on a hand-computed two-period scenario.
#include "schedlab/experiments/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include <cmath>
#include <stdexcept>

#include "schedlab/sim/scheduler_registry.h"
#include "fixed_predictor.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {
using schedlab::testing::J;

// 10 processors, periods of 100 s. J1 (6) runs 300 s; J2 (8) waits for it; J3 (2, 50 s) backfills under EASY
// only; J4 (2, 10 s) arrives at 150 (second period): EASY backfills it at once, FCFS queues it behind J2
// and J3 (start 310).
//   fcfs: starts 0, 300, 300, 310 — period means of wait: (0 + 299 + 298) / 3 = 199, 160
//   easy: starts 0, 300, 2, 150   — (0 + 299 + 0) / 3 = 99.67, 0
swf::Log compare_scenario() {
  swf::Log log;
  log.header.max_procs = 10;
  log.records = schedlab::testing::records({J{1, 0, 300, 6, 300}, J{2, 1, 10, 8, 10}, J{3, 2, 50, 2, 50},
                                            J{4, 150, 10, 2, 10}});
  return log;
}

CompareResult compare(const std::string& baseline = "") {
  CompareSpec spec;
  spec.schedulers = {"fcfs", "easy"};
  spec.period = 100;
  spec.baseline = baseline;
  spec.threads = 2;
  return run_compare(spec, compare_scenario());
}

TEST(CompareTest, PeriodMeansWinsAndGaps) {
  const CompareResult r = compare();
  ASSERT_EQ(r.periods.size(), 2u);
  EXPECT_EQ(r.baseline, 1u);  // the last listed
  const auto& wait = r.period_means[0];
  EXPECT_DOUBLE_EQ(wait[0][0], 199.0);
  EXPECT_DOUBLE_EQ(wait[0][1], 160.0);
  EXPECT_NEAR(wait[1][0], 299.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(wait[1][1], 0.0);
  // bounded slowdown of J4 under EASY: response 10, runtime 10 -> 1
  EXPECT_DOUBLE_EQ(r.period_means[1][1][1], 1.0);
  EXPECT_EQ(r.wins(CompareMetric::kWait), (std::vector<int64_t>{0, 2}));
  const auto gaps = r.gaps(0, 1);
  const auto& fcfs_won = gaps.a;
  const auto& easy_won = gaps.b;
  EXPECT_EQ(gaps.tied, 0);
  EXPECT_EQ(fcfs_won.periods, 0);
  EXPECT_EQ(easy_won.periods, 2);
  EXPECT_TRUE(std::isnan(fcfs_won.mean) && std::isnan(fcfs_won.max));  // over no periods
  // The second period's winner waited 0: no relative gap (it was averaged in as 0 until 2026-11).
  EXPECT_EQ(easy_won.gap_periods, 1);
  EXPECT_NEAR(easy_won.max, (199.0 - 299.0 / 3) / (299.0 / 3), 1e-9);
  EXPECT_NEAR(easy_won.mean, easy_won.max, 1e-9);
  // Figure 7's deviations: (199 - 149.33) / 149.33 and its opposite.
  const double avg = (199.0 + 299.0 / 3) / 2;
  EXPECT_NEAR(r.deviations(CompareMetric::kWait)[0][0], (199.0 - avg) / avg, 1e-9);
  EXPECT_NEAR(r.deviations(CompareMetric::kWait)[1][0], (299.0 / 3 - avg) / avg, 1e-9);
}

// With feedback J4 follows J1 (think time 20): it is submitted at 320 under both schedulers and starts at once. It
// stays in the second period (its logged submit, 150), and its wait counts from 320: 0, not FCFS's 160 above.
TEST(CompareTest, FeedbackWaitsCountFromTheSimulatedSubmit) {
  swf::Log log = compare_scenario();
  log.records[3].preceding_job = 1;
  log.records[3].think_time = 20;
  CompareSpec spec;
  spec.schedulers = {"fcfs", "easy"};
  spec.period = 100;
  spec.workload.feedback = true;
  const CompareResult r = run_compare(spec, log);
  ASSERT_EQ(r.periods.size(), 2u);
  EXPECT_EQ(r.periods[1].jobs, 1);
  EXPECT_EQ(r.results[0].submit[3], 320);
  EXPECT_EQ(r.results[0].jobs[3].start, 320);
  EXPECT_DOUBLE_EQ(r.period_means[0][0][1], 0.0);
  EXPECT_DOUBLE_EQ(r.period_means[0][1][1], 0.0);
  EXPECT_DOUBLE_EQ(r.period_means[0][0][0], 199.0);  // the first period as without feedback
}

// A lowest mean two schedulers share is a win of neither: Maui with its defaults is EASY, and a third period
// where J5 runs alone has no wait under any. Given to the first listed (until 2026-11), EASY won every period
// and Maui none, and the quiet period was FCFS's.
TEST(CompareTest, SharedLowestMeansAreNoWins) {
  swf::Log log = compare_scenario();
  log.records.push_back(schedlab::testing::records({J{5, 1000, 10, 2, 10}})[0]);
  CompareSpec spec;
  spec.schedulers = {"fcfs", "easy", "maui"};
  spec.period = 100;
  spec.threads = 2;
  const CompareResult r = run_compare(spec, log);
  ASSERT_EQ(r.periods.size(), 3u);
  for (const auto m : {CompareMetric::kWait, CompareMetric::kBoundedSlowdown}) {
    EXPECT_EQ(r.wins(m), (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(r.shared_wins(m), (std::vector<int64_t>{1, 3, 3}));
  }
  const auto fcfs_easy = r.gaps(0, 1);
  EXPECT_EQ(fcfs_easy.a.periods, 0);
  EXPECT_EQ(fcfs_easy.b.periods, 2);
  EXPECT_EQ(fcfs_easy.tied, 1);
  EXPECT_NEAR(fcfs_easy.b.mean, (199.0 - 299.0 / 3) / (299.0 / 3), 1e-9);
  const auto easy_maui = r.gaps(1, 2);
  EXPECT_EQ(easy_maui.a.periods + easy_maui.b.periods, 0);
  EXPECT_EQ(easy_maui.tied, 3);
  const auto j = to_json(r);
  EXPECT_EQ(j["schedulers"][2]["wait"]["periods_won"], 0);
  EXPECT_EQ(j["schedulers"][2]["wait"]["periods_shared_best"], 3);
  EXPECT_EQ(j["wait_gaps"][2]["tied"], 3);
}

// A predictor object (a Python one, say) serves every scheduler as the registered predictor with its rule does:
// the same schedules and means, and each result names it with its correction (that the object changes a
// schedule at all: Simulation.APredictorObjectRunsAsTheRegisteredOneWithTheSameRule, on KTH).
TEST(CompareTest, APredictorObjectServesEveryScheduler) {
  const auto run = [](const std::string& predictor, std::shared_ptr<const predict::Predictor> object) {
    CompareSpec spec;
    spec.schedulers = {"fcfs", "easy", "conservative"};
    spec.period = 100;
    spec.threads = 2;
    spec.predictor = predictor;
    spec.predictor_object = std::move(object);
    spec.correction = "tsafrir";
    return run_compare(spec, compare_scenario());
  };
  const CompareResult mine = run("", std::make_shared<const schedlab::testing::FixedPredictor>(5));
  const CompareResult registered = run("constant:value=5", nullptr);
  ASSERT_EQ(mine.results.size(), 3u);
  for (size_t s = 0; s < mine.results.size(); ++s) {
    EXPECT_EQ(mine.results[s].predictor, "fixed:correction=tsafrir");
    for (size_t j = 0; j < mine.results[s].jobs.size(); ++j) {
      EXPECT_EQ(mine.results[s].jobs[j].start, registered.results[s].jobs[j].start) << s << " " << j;
    }
  }
  EXPECT_EQ(mine.period_means, registered.period_means);
}

// Scheduler objects take their places among the named schedulers, in order, named as given or by name().
TEST(CompareTest, SchedulerObjectsTakeTheirPlaces) {
  CompareSpec spec;
  spec.schedulers = {"", "easy"};
  spec.scheduler_objects = {sim::make_scheduler("fcfs"), nullptr};
  spec.period = 100;
  spec.threads = 2;
  const CompareResult mine = run_compare(spec, compare_scenario());
  const CompareResult named = compare();  // fcfs, easy by name
  EXPECT_EQ(mine.names, (std::vector<std::string>{"fcfs", "easy"}));
  EXPECT_EQ(mine.period_means, named.period_means);
  spec.schedulers = {"first", "easy"};
  EXPECT_EQ(run_compare(spec, compare_scenario()).names, (std::vector<std::string>{"first", "easy"}));
  spec.schedulers = {"", "fcfs"};
  EXPECT_THROW(run_compare(spec, compare_scenario()), std::invalid_argument);  // fcfs twice
  spec.scheduler_objects = {nullptr};
  try {
    run_compare(spec, compare_scenario());
    ADD_FAILURE() << "one object for two schedulers";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "compare: 1 scheduler objects for 2 schedulers (none, or one per entry)");
  }
}

TEST(CompareTest, CsvHasOneRowPerPeriodAndQuotesSpecsWithCommas) {
  CompareSpec spec;
  spec.schedulers = {"fcfs", "pbas:candidates=fcfs,easy;interval=100"};
  spec.period = 100;
  const CompareResult r = run_compare(spec, compare_scenario());
  const std::string csv = compare_csv(r);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("period,start,", 0), 0u) << header;
  EXPECT_NE(header.find(",fcfs:wait,fcfs:bounded_slowdown,fcfs:wait_deviation,fcfs:bounded_slowdown_deviation,"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find(",\"pbas:candidates=fcfs,easy;interval=100:wait\","), std::string::npos) << header;
  // Period 0: fcfs's mean wait 199 (PeriodMeansWinsAndGaps), its cells after the attributes.
  const std::string row0 = csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_EQ(row0.rfind("0,0,", 0), 0u) << row0;
  EXPECT_NE(row0.find(",199,"), std::string::npos) << row0;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);  // header + 2 periods
}

TEST(CompareTest, ProgressSumsTheRunsJobs) {
  CompareSpec spec;
  spec.schedulers = {"fcfs", "easy", "conservative"};
  spec.period = 100;
  spec.threads = 3;
  size_t last = 0, total = 0, calls = 0;
  spec.sim.progress = [&](size_t done, size_t all) {  // serialised by run_compare
    EXPECT_GE(done, last);
    last = done;
    total = all;
    ++calls;
  };
  const CompareResult r = run_compare(spec, compare_scenario());
  EXPECT_GE(calls, 3u);  // each run's last call at least
  EXPECT_EQ(total, 3 * r.jobs);
  EXPECT_EQ(last, 3 * r.jobs);
}

TEST(CompareTest, GainsAgainstTheBaseline) {
  const CompareResult r = compare();
  // whole-log mean waits: fcfs (0 + 299 + 298 + 160) / 4 = 189.25, easy 299 / 4 = 74.75
  EXPECT_DOUBLE_EQ(r.whole(CompareMetric::kWait, 0), 189.25);
  EXPECT_NEAR(r.performance_gain(CompareMetric::kWait, 0), (74.75 - 189.25) / 74.75, 1e-12);
  EXPECT_DOUBLE_EQ(r.performance_gain(CompareMetric::kWait, 1), 0.0);
  // population sd of the period means: fcfs |199 - 160| / 2 = 19.5, easy 99.67 / 2
  EXPECT_NEAR(r.stability_gain(CompareMetric::kWait, 0), (299.0 / 6 - 19.5) / (299.0 / 6), 1e-12);
  // Against fcfs as the baseline, easy gains.
  EXPECT_GT(compare("fcfs").performance_gain(CompareMetric::kWait, 1), 0.0);
  // One period: no spread for the baseline, so no stability gain (it said 0%); the baseline's own gains are 0.
  CompareSpec one;
  one.schedulers = {"fcfs", "easy"};
  one.period = 1'000'000;
  one.baseline = "easy";
  const CompareResult single = run_compare(one, compare_scenario());
  ASSERT_EQ(single.periods.size(), 1u);
  EXPECT_TRUE(std::isnan(single.stability_gain(CompareMetric::kWait, 0)));
  EXPECT_EQ(single.stability_gain(CompareMetric::kWait, 1), 0.0);
  EXPECT_NEAR(single.performance_gain(CompareMetric::kWait, 0), (74.75 - 189.25) / 74.75, 1e-12);
  EXPECT_TRUE(to_json(single)["schedulers"][0]["wait"]["stability_gain"].is_null());
}

TEST(CompareTest, PeriodAttributes) {
  const CompareResult r = compare();
  const PeriodAttributes& a = r.periods[0];
  EXPECT_EQ(a.jobs, 3);
  EXPECT_DOUBLE_EQ(a.load, (6 * 300 + 8 * 10 + 2 * 50) / 1000.0);
  EXPECT_DOUBLE_EQ(a.procs_median, 6.0);
  EXPECT_DOUBLE_EQ(a.procs_iqr, 3.0);  // type-7 quartiles of {2, 6, 8}: 4 and 7
  EXPECT_DOUBLE_EQ(a.interarrival_median, 1.0);
  // The easy baseline waited 0 in the second period: no relative difference there, one period left: undefined.
  for (const auto& [abs, rel] : r.correlations(0)) {
    EXPECT_TRUE(std::isnan(abs));
    EXPECT_TRUE(std::isnan(rel));
  }
}

TEST(CompareTest, BadSpecsFailBeforeSimulating) {
  CompareSpec spec;
  spec.schedulers = {"easy", "nosuch"};
  EXPECT_THROW(run_compare(spec, compare_scenario()), std::invalid_argument);
  spec.schedulers = {"easy", "easy"};
  EXPECT_THROW(run_compare(spec, compare_scenario()), std::invalid_argument);
  spec.schedulers = {"easy", "fcfs"};
  spec.baseline = "maui";
  EXPECT_THROW(run_compare(spec, compare_scenario()), std::invalid_argument);
  spec.baseline = "fcsf";  // names the schedulers there are, and the one meant
  try {
    run_compare(spec, compare_scenario());
    ADD_FAILURE() << "an unknown baseline was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "compare: --baseline 'fcsf' is not one of the schedulers (easy, fcfs); did you mean 'fcfs'?");
  }
  spec.baseline = "";
  spec.period = 0;
  EXPECT_THROW(run_compare(spec, compare_scenario()), std::invalid_argument);
}

TEST(CompareTest, JsonCarriesEveryTable) {
  const auto j = to_json(compare());
  EXPECT_EQ(j["baseline"], "easy");
  ASSERT_EQ(j["schedulers"].size(), 2u);
  EXPECT_EQ(j["schedulers"][1]["wait"]["periods_won"], 2);
  EXPECT_EQ(j["schedulers"][0]["backfilled_share"], 0.0);   // fcfs
  EXPECT_EQ(j["schedulers"][1]["backfilled_share"], 0.5);  // easy: J3 and J4 pass J2 (starts 2 and 150 < 300)
  EXPECT_TRUE(j["schedulers"][0].contains("correlations_with_baseline_difference"));
  EXPECT_TRUE(j["schedulers"][0]["correlations_with_baseline_difference"]["procs_median"]["absolute"].is_null());
  EXPECT_EQ(j["wait_gaps"].size(), 1u);
  EXPECT_TRUE(j["wait_gaps"][0]["won_by_a"]["mean_gap"].is_null());  // fcfs won no period
  EXPECT_EQ(j["wait_gaps"][0]["won_by_b"]["periods_with_gap"], 1);
  EXPECT_EQ(j["periods"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["periods"][0]["schedulers"]["fcfs"]["wait"].get<double>(), 199.0);
}

}  // namespace
}  // namespace schedlab::experiments
