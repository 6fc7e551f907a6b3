// A second opinion on EASY: the obvious, slow, per-instant implementation of tests/easy_reference.h, written
// from the records without the engine, must give every job of a real log the same start time as `easy` with
// the `estimate` predictor (and `easy-sjbf` the same as its shortest-first walk). fuzz/simulate_fuzz.cc
// compares the two on small adversarial workloads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "easy_reference.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// `procs` 0: the header's machine size (the workload builder's choice, which the reference then uses).
void expect_same_starts(const std::string& log_name, int64_t procs, const std::string& scheduler = "easy") {
  SCHEDLAB_NEED_TRACE(log_name);
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(log_name));
  WorkloadOptions wo;
  if (procs > 0) wo.procs = procs;
  const Workload w = build_workload(log.header, log.records, wo);
  const SimResult r = simulate(w, scheduler, "estimate", SimOptions{});
  const std::vector<int64_t> reference =
      schedlab::testing::reference_easy_starts(log.records, w.procs, {.shortest_first = scheduler == "easy-sjbf"});
  int64_t compared = 0, differing = 0;
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const size_t rec = w.record_index[i];
    ++compared;
    if (reference[rec] != r.jobs[i].start) {
      if (++differing <= 5)
        ADD_FAILURE() << log_name << " job " << log.records[rec].job_number << ": " << scheduler << " starts it at "
                      << r.jobs[i].start << ", the reference at " << reference[rec];
    }
  }
  EXPECT_EQ(differing, 0) << "of " << compared << " jobs";
  EXPECT_EQ(compared, static_cast<int64_t>(std::count_if(reference.begin(), reference.end(), [](int64_t s) { return s >= 0; })));
}

TEST(EasyReference, KthSameStartTimes) { expect_same_starts("KTH-SP2-1996-2.swf.gz", 100); }

TEST(EasyReference, CtcOn512SameStartTimes) { expect_same_starts("CTC-SP2-1996-3.1-cln.swf.gz", 512); }

// Two saturated logs, where one different backfill changes every later decision.
TEST(EasyReference, SdscDsSameStartTimes) { expect_same_starts("SDSC-DS-2004-2.1-cln.swf.gz", 0); }

TEST(EasyReference, LanlCm5SameStartTimes) { expect_same_starts("LANL-CM5-1994-4.1-cln.swf.gz", 0); }

// easy-sjbf against the same reference visiting the later jobs shortest first: its candidates are found through
// WaitQueue::next_backfill and taken in the order of a stable sort, which this walk over every waiting job checks.
TEST(EasyReference, SjbfKthSameStartTimes) { expect_same_starts("KTH-SP2-1996-2.swf.gz", 100, "easy-sjbf"); }

TEST(EasyReference, SjbfSdscDsSameStartTimes) { expect_same_starts("SDSC-DS-2004-2.1-cln.swf.gz", 0, "easy-sjbf"); }

// Bursts: thousands of jobs submitted in a few instants, so that hundreds to thousands wait at every event and most
// of them could backfill; easy-sjbf then finds them in its index by prediction (src/sim/shortest_first_index.h)
// instead of sorting them at every call, and drops the index when the queue empties. Every start against the
// reference's walk over every waiting job, on workloads of several shapes: ties of estimates (a few popular values),
// runtimes of 0, estimates below the runtime (extended, or killed), small and large machines.
TEST(EasyReference, SjbfBurstsSameStartTimes) {
  uint64_t x = 88172645463325252ull;  // xorshift64: the same jobs on every platform
  const auto next = [&x](uint64_t n) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return static_cast<int32_t>(x % n);
  };
  for (int round = 0; round < 12; ++round) {
    const int32_t machine = round % 3 == 0 ? 16 : round % 3 == 1 ? 256 : 4096;
    const int32_t jobs = 600 + next(2400);
    const bool popular = round % 2 == 1;  // estimates from a few values: many equal predictions
    schedlab::testing::EasyReferenceOptions ro{.shortest_first = true, .extend = round % 4 == 2, .kill = round % 4 == 3};
    std::vector<swf::Record> records;
    for (int32_t i = 1; i <= jobs; ++i) {
      swf::Record r;
      r.job_number = i;
      r.submit_time = 3600 * next(4);  // four bursts
      r.run_time = next(10) == 0 ? 0 : 1 + next(20000);
      int32_t width = 1;
      while (width * 2 <= machine && next(3) != 0) width *= 2;
      r.allocated_procs = r.requested_procs = width;
      r.requested_time = popular ? 900 * (1 + next(8)) : r.run_time * (1 + next(4)) + next(100) - 50;
      if (r.requested_time <= 0) r.requested_time = 1;
      r.status = 1;
      records.push_back(r);
    }
    std::stable_sort(records.begin(), records.end(),
                     [](const swf::Record& a, const swf::Record& b) { return a.submit_time < b.submit_time; });
    WorkloadOptions wo;
    wo.procs = machine;
    wo.extend_estimates = ro.extend;
    wo.kill_at_estimate = ro.kill;
    const Workload w = build_workload(swf::Header{}, records, wo);
    SimOptions so;
    so.check = true;
    const SimResult r = simulate(w, "easy-sjbf", "estimate", so);
    const std::vector<int64_t> reference = schedlab::testing::reference_easy_starts(records, machine, ro);
    int64_t differing = 0;
    for (size_t i = 0; i < w.jobs.size(); ++i)
      if (reference[w.record_index[i]] != r.jobs[i].start && ++differing <= 3)
        ADD_FAILURE() << "round " << round << " job " << w.jobs[i].id << ": " << r.jobs[i].start << ", the reference "
                      << reference[w.record_index[i]];
    EXPECT_EQ(differing, 0) << "round " << round << ", " << jobs << " jobs on " << machine;
    EXPECT_EQ(w.jobs.size(), static_cast<size_t>(jobs));
  }
}

}  // namespace
}  // namespace schedlab::sim
