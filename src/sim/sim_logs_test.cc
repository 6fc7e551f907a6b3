// Whole real logs: every scheduler keeps the simulator's invariants (--check), and EASY reproduces the
// published averages of Tsafrir, Etsion & Feitelson 2007 (docs/reproductions.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

SimResult run_real_log(const swf::Log& log, const std::string& scheduler, int64_t procs, const std::string& predictor,
                  bool kill = false) {
  WorkloadOptions wo;
  wo.procs = procs;
  wo.kill_at_estimate = kill;
  const Workload w = build_workload(log.header, log.records, wo);
  SimOptions so;
  so.check = true;
  so.warmup_fraction = 0.01;
  return simulate(w, scheduler, predictor, so);
}

double wait_minutes(const SimResult& r) { return r.metrics.wait.mean / 60.0; }

void expect_within(double actual, double published, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - published), tolerance * published)
      << what << ": " << actual << " vs published " << published;
}

// One test per log (so they run in parallel under ctest): every registered scheduler with --check.
class SimRealLogTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SimRealLogTest, EverySchedulerKeepsTheInvariants) {
  const std::string name = GetParam();
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(name));
  bool any_estimate = false;
  for (const auto& r : log.records) any_estimate = any_estimate || r.requested_time > 0;
  // Without estimates the runtime stands in for them (conventions); only the kill-at-estimate part needs them.
  const Workload w = build_workload(log.header, log.records);
  SimOptions so;
  so.check = true;
  // The preemptive schedulers re-order every job at every event (O((Q + R) log(Q + R)), their definition),
  // which on the largest logs takes minutes: they run on the first 3,000 jobs of each log.
  std::vector<swf::Record> head(log.records.begin(), log.records.begin() + std::min<std::ptrdiff_t>(3000, std::ssize(log.records)));
  const Workload prefix = build_workload(log.header, head);
  for (const auto& entry : schedulers()) {
    SCOPED_TRACE(name + " " + std::string(entry.name));
    const Workload& on = make_scheduler(entry.name)->needs_processors() ? prefix : w;
    SimResult r;
    ASSERT_NO_THROW(r = simulate(on, entry.name, "estimate", so));
    EXPECT_EQ(r.termination_order.size(), on.jobs.size());
    EXPECT_GT(r.metrics.utilization, 0.0);
    EXPECT_LE(r.metrics.utilization, 1.0 + 1e-9);
    // FCFS starts jobs in arrival order: none passes another. The count is of the averaged jobs only.
    if (entry.name == "fcfs") {
      EXPECT_EQ(r.backfilled, 0);
    }
    EXPECT_LE(r.backfilled, r.metrics.jobs);
    // The processors idle while jobs waited are some of those idle at all: 0 <= loss <= 1 - utilization.
    EXPECT_GE(r.loss_of_capacity(), 0.0);
    EXPECT_LE(r.loss_of_capacity(), 1.0 - r.metrics.utilization + 1e-9);
  }
  if (!any_estimate) return;
  // Reservations fully checkable: predictions never below the runtime.
  WorkloadOptions kill;
  kill.kill_at_estimate = true;
  const Workload killed = build_workload(log.header, log.records, kill);
  for (const char* s : {"easy", "easy-sjbf"}) {
    SCOPED_TRACE(name + " " + s + " perfect / kill-at-estimate");
    SimResult r;
    ASSERT_NO_THROW(r = simulate(killed, s, "estimate", so));
    EXPECT_GT(r.reservations_checked, 0);
    ASSERT_NO_THROW(r = simulate(w, s, "perfect", so));
    EXPECT_GT(r.reservations_checked, 0);
  }
}

std::string log_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string out;
  for (char c : info.param.substr(0, info.param.find(".swf"))) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(SimLogs, SimRealLogTest, ::testing::ValuesIn(schedlab::testing::all_traces()), log_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SimRealLogTest);

TEST(SimRealLogsTest, EasyReproducesThePublishedKthAverages) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const swf::Log log = swf::read_log(schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  const SimResult easy = run_real_log(log, "easy", 100, "estimate");
  expect_within(wait_minutes(easy), 114.2, 0.03, "KTH EASY wait (min)");
  expect_within(easy.metrics.bounded_slowdown.mean, 89.9, 0.03, "KTH EASY bounded slowdown");
  EXPECT_GT(easy.reservations_checked, 0);
  // Table 3 (published rounded to integers): EASY-SJBF 102 / 73.
  const SimResult sjbf = run_real_log(log, "easy-sjbf", 100, "estimate");
  expect_within(wait_minutes(sjbf), 102, 0.03, "KTH EASY-SJBF wait (min)");
  expect_within(sjbf.metrics.bounded_slowdown.mean, 73, 0.03, "KTH EASY-SJBF bounded slowdown");
}

TEST(SimRealLogsTest, EasyReproducesThePublishedCtcAverages) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  const swf::Log log = swf::read_log(schedlab::testing::trace_path("CTC-SP2-1996-3.1-cln.swf.gz"));
  const SimResult easy = run_real_log(log, "easy", 512, "estimate");
  expect_within(wait_minutes(easy), 21.3, 0.03, "CTC EASY wait (min)");
  expect_within(easy.metrics.bounded_slowdown.mean, 4.6, 0.03, "CTC EASY bounded slowdown");
  EXPECT_EQ(easy.metrics.warmup_excluded, 772);
}

TEST(SimRealLogsTest, SimulationIsDeterministic) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const swf::Log log = swf::read_log(schedlab::testing::trace_path("KTH-SP2-1996-2.swf.gz"));
  const SimResult a = run_real_log(log, "easy-sjbf", 100, "estimate");
  const SimResult b = run_real_log(log, "easy-sjbf", 100, "estimate");
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (size_t i = 0; i < a.jobs.size(); ++i) ASSERT_EQ(a.jobs[i].start, b.jobs[i].start);
}

}  // namespace
}  // namespace schedlab::sim
