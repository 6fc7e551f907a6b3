// Every scheduler under a predictor that re-predicts any job at any hook (tests/shuffling_predictor.h): the engine's
// checks (--check: processors never over-committed, promises kept, no job left waiting on an idle machine) and each
// scheduler's own self-check must hold, and no scheduler may fail — what a predictor of a user's own (C++ or
// Python) may do, and what the built-in predictors do only in part.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "shuffling_predictor.h"
#include "sim/sim_test_helpers.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

const std::vector<std::string> kSchedulers{
    "fcfs", "fcfs-fill", "easy", "easy-sjbf", "conservative", "conservative:compress=fixpoint",
    "maui", "maui:depth=3", "maui:priority=xfactor", "maui:backfill=bestfit", "maui:backfill=shortest",
    "maui:reservation=fixed;depth=2", "maui:arrivals=new", "flex", "flex:slack=estimate;cost=bsld",
    "flex:cost=wait;slack_factor=2", "pbas:interval=600", "pbas:interval=300;metric=bsld;runtimes=predicted",
    "wbas:interval=300;maf=300", "lewf", "lewf-fill", "lerwf", "lerwf:resume_delay=30", "lerwf-fill",
    "easy-kill", "easy-preemptive", "easy-preemptive:resume_delay=20"};

// Each workload as logged, with jobs killed at their estimate, and with feedback (a quarter of the jobs submitted their
// think time after an earlier job's simulated end).
TEST(RandomPredictions, EverySchedulerKeepsTheEnginesChecks) {
  std::mt19937 rng(9001);
  for (int round = 0; round < 30; ++round) {
    const std::vector<swf::Record> records = schedlab::testing::records(testing::random_jobs(rng));
    std::vector<swf::Record> linked = records;
    for (size_t k = 1; k < linked.size(); ++k) {
      if (rng() % 4 != 0) continue;
      linked[k].preceding_job = linked[rng() % k].job_number;
      linked[k].think_time = static_cast<int32_t>(rng() % 100);
    }
    for (const int mode : {0, 1, 2}) {
      WorkloadOptions wo;
      wo.procs = 16;
      wo.kill_at_estimate = mode == 1;
      wo.feedback = mode == 2;
      const Workload w = build_workload(swf::Header{}, mode == 2 ? linked : records, wo);
      const char* what = mode == 1 ? ", kill at estimate" : mode == 2 ? ", feedback" : "";
      for (const std::string& s : kSchedulers) {
        SimOptions so;
        so.check = true;
        const schedlab::testing::ShufflingPredictor p(static_cast<uint32_t>(round));
        try {
          const SimResult r = simulate(w, *make_scheduler(s), p, so);
          EXPECT_EQ(r.jobs.size(), w.jobs.size());
        } catch (const std::exception& e) {
          ADD_FAILURE() << s << ", round " << round << what << ": " << e.what();
        }
      }
    }
  }
}

}  // namespace
}  // namespace schedlab::sim
