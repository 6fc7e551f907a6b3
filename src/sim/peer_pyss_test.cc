// schedlab against pyss (https://github.com/dinesh121991/pyss), the public simulator of Tsafrir et al.'s EASY++
// papers: the bundled KTH log (and CTC, when the shared logs are there) as pyss's job model, scheduled by each
// policy the two share, must give the total wait pyss gives. The totals were measured with pyss itself
// (bench/peer/pyss_starts.py, its per-instant mode, pyss at commit 44a2423 under CPython 2.7.18), where every job
// also starts at the same second as in schedlab (bench/peer_pyss.sh; docs/simulator.md, "A peer simulator").
// This test keeps that agreement without pyss.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "schedlab/sim/simulate.h"
#include "schedlab/swf/reader.h"
#include "schedlab/workload/workload.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

// pyss's job model (base/prototype.py, _job_input_to_job): size = allocated processors cut to the machine;
// runtime cut at the estimate; estimate raised to the runtime; a job without a runtime, size or submit time
// runs 1 s on its processors.
std::vector<swf::Record> pyss_jobs(const std::vector<swf::Record>& log, int32_t procs) {
  std::vector<swf::Record> out;
  out.reserve(log.size());
  for (const swf::Record& r : log) {
    swf::Record j;
    j.job_number = r.job_number;
    j.user_id = r.user_id;
    j.status = 1;
    if (r.run_time <= 0 || r.allocated_procs <= 0 || r.submit_time < 0) {
      j.submit_time = std::max<int32_t>(r.submit_time, 1);
      j.run_time = j.requested_time = 1;
      j.requested_procs = std::max<int32_t>(r.allocated_procs, 1);
    } else {
      j.submit_time = r.submit_time;
      j.requested_time = std::max<int32_t>({r.requested_time, r.run_time, 1});
      j.run_time = std::max<int32_t>(std::min(r.requested_time, r.run_time), 1);
      j.requested_procs = std::max<int32_t>(std::min(r.allocated_procs, procs), 1);
    }
    out.push_back(j);
  }
  return out;
}

int64_t total_wait(const Workload& w, const std::string& scheduler, const std::string& predictor) {
  SimOptions so;
  so.check = true;
  const SimResult r = simulate(w, scheduler, predictor, so);
  int64_t total = 0;
  for (size_t k = 0; k < w.jobs.size(); ++k) total += r.jobs[k].start - w.jobs[k].submit;
  return total;
}

const std::string kPyssRule = "user-last2:order=end;propagate=1;min_jobs=2;running=0;correction=tsafrir";

struct Case {
  const char* scheduler;
  std::string predictor;
  int64_t pyss;  // pyss's total wait (s)
};

void expect_pyss_totals(const std::string& path, int32_t procs, size_t jobs, const std::vector<Case>& cases) {
  const swf::Log log = swf::read_log(path);
  WorkloadOptions wo;
  wo.procs = procs;
  const Workload w = build_workload(swf::Header{}, pyss_jobs(log.records, procs), wo);
  ASSERT_EQ(w.jobs.size(), jobs);
  for (const Case& c : cases)
    EXPECT_EQ(total_wait(w, c.scheduler, c.predictor), c.pyss) << path << ": " << c.scheduler << " " << c.predictor;
}

TEST(PeerPyss, TotalWaitsOnKthAreThoseOfPyss) {
  expect_pyss_totals(schedlab::testing::bundled_kth(), 100, 28489,
                     {
                         {"fcfs", "", 10084976858},
                         {"easy", "", 196408986},
                         {"easy-sjbf", "", 168928996},
                         {"conservative", "", 207960535},
                         {"easy", "perfect", 179667713},
                         {"easy-sjbf", "perfect", 153852398},
                         {"conservative", "perfect", 201219023},
                         {"maui:priority=xfactor", "", 144966427},  // pyss's Maui by slowdown, compared exactly
                         {"easy", kPyssRule, 163723336},             // EASY+: pyss's EASY++ in arrival order
                         {"easy-sjbf", kPyssRule, 153171133},        // pyss's EASY++
                     });
}

TEST(PeerPyss, TotalWaitsOnCtcAreThoseOfPyss) {
  SCHEDLAB_NEED_TRACE("CTC-SP2-1996-3.1-cln.swf.gz");
  expect_pyss_totals(schedlab::testing::trace_path("CTC-SP2-1996-3.1-cln.swf.gz"), 512, 77222,
                     {
                         {"fcfs", "", 471121806},
                         {"easy", "", 98140575},
                         {"easy-sjbf", "", 87494513},
                         {"conservative", "", 118424909},
                         {"easy", "perfect", 102579143},
                         {"easy-sjbf", "perfect", 88104704},
                         {"conservative", "perfect", 128687966},
                         {"maui:priority=xfactor", "", 74859473},
                         {"easy", kPyssRule, 74672650},
                         {"easy-sjbf", kPyssRule, 67335254},
                     });
}

}  // namespace
}  // namespace schedlab::sim
