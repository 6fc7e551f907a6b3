// A second opinion on EASY: an obvious, slow, per-instant implementation of the conventions of
// docs/conventions.md, written from the records without the engine, the workload builder or shadow.h, must
// give every job of a real log the same start time as `easy` with the `estimate` predictor.
//
// At each instant: terminations, then arrivals (submit, job number, log position), then one scheduling pass:
// start queued jobs in order while the head fits; for the head that does not, the shadow time is the
// earliest expected end T (expected end = max(start + estimate, now)) at which the processors free now plus
// those of every running job expected to end by T cover the head; extra = those processors - the head's.
// Then every later job starts if it fits now and either ends by the shadow time or fits in extra (which it
// then uses). A job with runtime 0 ends at the same instant, which makes another round. For `easy-sjbf` the
// later jobs are visited by estimate, shortest first (ties in queue order), instead of in queue order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "schedlab/sim/simulate.h"
#include "schedlab/workload/workload.h"
#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::sim {
namespace {

struct RefJob {
  size_t record;  // position in the log
  int64_t submit, runtime, procs, estimate;
  int64_t start = -1;
};

// Start time of every simulated record (by position in the log; -1 for excluded records).
std::vector<int64_t> reference_easy_starts(const std::vector<swf::Record>& records, int64_t machine,
                                           bool shortest_first) {
  std::vector<RefJob> jobs;
  for (size_t i = 0; i < records.size(); ++i) {
    const swf::Record& r = records[i];
    const int64_t procs = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
    if (r.run_time < 0 || procs <= 0 || procs > machine || r.submit_time < 0) continue;
    const int64_t estimate = r.requested_time > 0 ? r.requested_time : r.run_time;
    jobs.push_back({i, r.submit_time, r.run_time, procs, estimate});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [&](const RefJob& a, const RefJob& b) {
    if (a.submit != b.submit) return a.submit < b.submit;
    return records[a.record].job_number < records[b.record].job_number;
  });
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  std::list<size_t> queue;    // indices into jobs, in queue order
  std::vector<size_t> running;  // indices into jobs
  size_t next_arrival = 0;
  while (next_arrival < jobs.size() || !running.empty() || !queue.empty()) {
    int64_t now = next_arrival < jobs.size() ? jobs[next_arrival].submit : kNever;
    for (size_t k : running) now = std::min(now, jobs[k].start + jobs[k].runtime);
    if (now == kNever) ADD_FAILURE() << "jobs wait with nothing running and nothing arriving";
    if (now == kNever) break;
    std::erase_if(running, [&](size_t k) { return jobs[k].start + jobs[k].runtime == now; });
    for (; next_arrival < jobs.size() && jobs[next_arrival].submit == now; ++next_arrival) queue.push_back(next_arrival);
    int64_t free = machine;
    for (size_t k : running) free -= jobs[k].procs;
    auto start = [&](std::list<size_t>::iterator it) {
      jobs[*it].start = now;
      free -= jobs[*it].procs;
      running.push_back(*it);
      return queue.erase(it);
    };
    auto it = queue.begin();
    while (it != queue.end() && jobs[*it].procs <= free) it = start(it);
    if (it == queue.end()) continue;
    const RefJob& head = jobs[*it];
    // Processors free at T, for every candidate T = an expected end; the shadow is the first that covers the head.
    std::map<int64_t, int64_t> freed_at;
    for (size_t k : running) freed_at[std::max(jobs[k].start + jobs[k].estimate, now)] += jobs[k].procs;
    int64_t at = free, shadow = -1;
    for (const auto& [t, p] : freed_at) {
      at += p;
      if (at >= head.procs) {
        shadow = t;
        break;
      }
    }
    if (shadow < 0) ADD_FAILURE() << "the head never fits";
    if (shadow < 0) break;
    int64_t extra = at - head.procs;
    std::vector<std::list<size_t>::iterator> later;
    for (++it; it != queue.end(); ++it) later.push_back(it);
    if (shortest_first) {
      std::stable_sort(later.begin(), later.end(), [&](auto a, auto b) { return jobs[*a].estimate < jobs[*b].estimate; });
    }
    for (const auto& k : later) {
      const RefJob& j = jobs[*k];
      const bool by_shadow = now + j.estimate <= shadow;
      if (j.procs <= free && (by_shadow || j.procs <= extra)) {
        if (!by_shadow) extra -= j.procs;
        start(k);
      }
    }
  }
  std::vector<int64_t> starts(records.size(), -1);
  for (const RefJob& j : jobs) starts[j.record] = j.start;
  return starts;
}

// `procs` 0: the header's machine size (the workload builder's choice, which the reference then uses).
void expect_same_starts(const std::string& log_name, int64_t procs, const std::string& scheduler = "easy") {
  SCHEDLAB_NEED_TRACE(log_name);
  const swf::Log log = swf::read_log(schedlab::testing::trace_path(log_name));
  WorkloadOptions wo;
  if (procs > 0) wo.procs = procs;
  const Workload w = build_workload(log.header, log.records, wo);
  const SimResult r = simulate(w, scheduler, "estimate", SimOptions{});
  const std::vector<int64_t> reference = reference_easy_starts(log.records, w.procs, scheduler == "easy-sjbf");
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
