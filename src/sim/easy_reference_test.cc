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

}  // namespace
}  // namespace schedlab::sim
