// EASY with runtime predictors: propagation changing a schedule (hand-computed), presets, and the published
// averages of Tsafrir, Etsion & Feitelson 2007 (Tables 2 and 3; docs/reproductions.md).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// Propagation changes a waiting job's prediction and hence the schedule (EASY, 10 processors):
// job 1 (user 1, 5 procs, 50 s) and job 2 (user 2, 5 procs, 1000 s) start at 0; job 3 (user 3, 10 procs)
// waits for both: shadow 1000, extra 0. Job 4 (user 1, 5 procs, estimate 2000, runs 20 s) arrives at 2.
// At 50 job 1 ends: with propagation job 4 is re-predicted 50 s (sbh, same session) and backfills at 50
// (50 + 50 <= 1000); without it, it keeps 2000 s and waits until job 3 is done (1010).
TEST(PredPropagationTest, PropagationChangesTheSchedule) {
  auto rec = [](int n, int submit, int run, int procs, int est, int user) {
    swf::Record r;
    r.job_number = n;
    r.submit_time = submit;
    r.run_time = run;
    r.requested_procs = r.allocated_procs = procs;
    r.requested_time = est;
    r.user_id = user;
    return r;
  };
  const std::vector<swf::Record> recs = {rec(1, 0, 50, 5, 50, 1), rec(2, 0, 1000, 5, 1000, 2),
                                         rec(3, 1, 10, 10, 10, 3), rec(4, 2, 20, 5, 2000, 1)};
  WorkloadOptions wo;
  wo.procs = 10;
  const Workload w = build_workload(swf::Header{}, recs, wo);
  SimOptions so;
  so.check = true;
  const auto with = simulate(w, "easy", "sbh:criteria=*;propagate=1", so);
  const auto without = simulate(w, "easy", "sbh:criteria=*;propagate=0", so);
  EXPECT_EQ(with.jobs[3].start, 50);
  EXPECT_EQ(without.jobs[3].start, 1010);
  EXPECT_EQ(with.jobs[2].start, 1000);
  EXPECT_EQ(without.jobs[2].start, 1000);
  EXPECT_GT(with.accuracy.mean_relative_accuracy, without.accuracy.mean_relative_accuracy);
}

TEST(PredPresetTest, PresetsSetThePredictorAndRejectAnother) {
  ASSERT_NE(find_preset("easy++"), nullptr);
  EXPECT_EQ(find_preset("easy++")->scheduler, "easy-sjbf");
  EXPECT_EQ(find_preset("easy"), nullptr);
  std::vector<swf::Record> recs(1);
  recs[0].job_number = 1;
  recs[0].submit_time = 0;
  recs[0].run_time = 10;
  recs[0].requested_procs = 1;
  recs[0].requested_time = 20;
  recs[0].user_id = 1;
  WorkloadOptions wo;
  wo.procs = 4;
  const Workload w = build_workload(swf::Header{}, recs, wo);
  const SimResult r = simulate(w, "easy++");
  EXPECT_EQ(r.scheduler, "easy++");
  EXPECT_EQ(r.predictor, "user-last2:correction=tsafrir");
  EXPECT_THROW(simulate(w, "easy++", "ruh"), std::invalid_argument);
  EXPECT_THROW(simulate(w, "easy-pcr"), std::invalid_argument);
}

TEST(PredPresetTest, ExtendEstimatesRaisesShortEstimates) {
  std::vector<swf::Record> recs(2);
  for (int i = 0; i < 2; ++i) {
    recs[static_cast<size_t>(i)].job_number = i + 1;
    recs[static_cast<size_t>(i)].submit_time = 0;
    recs[static_cast<size_t>(i)].requested_procs = 1;
    recs[static_cast<size_t>(i)].user_id = 1;
  }
  recs[0].run_time = 100, recs[0].requested_time = 50;   // ran past its estimate
  recs[1].run_time = 10, recs[1].requested_time = 50;
  WorkloadOptions wo;
  wo.procs = 4;
  wo.extend_estimates = true;
  const Workload w = build_workload(swf::Header{}, recs, wo);
  EXPECT_EQ(w.extended, 1);
  EXPECT_EQ(w.jobs[0].estimate, 100);
  EXPECT_EQ(w.jobs[1].estimate, 50);
}

SimResult run_easy_log(const swf::Log& log, const std::string& scheduler, int64_t procs) {
  WorkloadOptions wo;
  wo.procs = procs;
  const Workload w = build_workload(log.header, log.records, wo);
  SimOptions so;
  so.check = true;
  so.warmup_fraction = 0.01;
  return simulate(w, scheduler, "", so);
}

// Wait within 5%; bounded slowdown within 5% or, where the paper rounds to whole numbers, within 0.5.
void expect_published(const SimResult& r, double wait_min, double bsld, bool rounded, const std::string& what) {
  const double wait = r.metrics.wait.mean / 60.0;
  const double b = r.metrics.bounded_slowdown.mean;
  EXPECT_LE(std::abs(wait - wait_min), 0.05 * wait_min) << what << " wait " << wait << " vs " << wait_min;
  const double tol = rounded ? std::max(0.5, 0.05 * bsld) : 0.05 * bsld;
  EXPECT_LE(std::abs(b - bsld), tol) << what << " bsld " << b << " vs " << bsld;
}

TEST(EasyPlusPlusTest, ReproducesTable3OnKth) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const swf::Log log = swf::read_log(schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  expect_published(run_easy_log(log, "easy++", 100), 94, 57, true, "KTH EASY++");
  expect_published(run_easy_log(log, "perfect++", 100), 91, 50, true, "KTH PERFECT++");
  expect_published(run_easy_log(log, "easy-pcor", 100), 114.4, 89.9, false, "KTH EASY-PCOR");
}

TEST(EasyPlusPlusTest, ReproducesTable3OnCtc) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  const swf::Log log = swf::read_log(schedlab::testing::trace_path("CTC-SP2-1996-3.1-cln.swf.gz"));
  expect_published(run_easy_log(log, "easy++", 512), 14, 3, true, "CTC EASY++");
  expect_published(run_easy_log(log, "perfect++", 512), 19, 3, true, "CTC PERFECT++");
  expect_published(run_easy_log(log, "easy-pcor", 512), 21.1, 4.5, false, "CTC EASY-PCOR");
}

}  // namespace
}  // namespace schedlab::sim
