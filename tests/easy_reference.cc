// The reference EASY of easy_reference.h: every instant recomputed from scratch, lists and a map, no shortcut.
#include "easy_reference.h"

#include <algorithm>
#include <limits>
#include <list>
#include <map>
#include <stdexcept>

namespace schedlab::testing {
namespace {

struct RefJob {
  size_t record;  // position in the log
  int64_t submit, runtime, procs, estimate;
  int64_t start = -1;
};

}  // namespace

std::vector<int64_t> reference_easy_starts(const std::vector<swf::Record>& records, int64_t machine,
                                           const EasyReferenceOptions& options) {
  std::vector<RefJob> jobs;
  for (size_t i = 0; i < records.size(); ++i) {
    const swf::Record& r = records[i];
    const int64_t procs = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
    if (r.run_time < 0 || procs <= 0 || procs > machine || r.submit_time < 0) continue;
    int64_t estimate = r.requested_time > 0 ? r.requested_time : r.run_time;
    if (options.extend) estimate = std::max<int64_t>(estimate, r.run_time);
    const int64_t runtime = options.kill ? std::min<int64_t>(r.run_time, estimate) : r.run_time;
    jobs.push_back({i, r.submit_time, runtime, procs, estimate});
  }
  std::stable_sort(jobs.begin(), jobs.end(), [&](const RefJob& a, const RefJob& b) {
    if (a.submit != b.submit) return a.submit < b.submit;
    return records[a.record].job_number < records[b.record].job_number;
  });
  constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
  std::list<size_t> queue;      // indices into jobs, in queue order
  std::vector<size_t> running;  // indices into jobs
  size_t next_arrival = 0;
  while (next_arrival < jobs.size() || !running.empty() || !queue.empty()) {
    int64_t now = next_arrival < jobs.size() ? jobs[next_arrival].submit : kNever;
    for (size_t k : running) now = std::min(now, jobs[k].start + jobs[k].runtime);
    if (now == kNever) throw std::logic_error("reference EASY: jobs wait with nothing running and nothing arriving");
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
    if (shadow < 0) throw std::logic_error("reference EASY: the head never fits");
    int64_t extra = at - head.procs;
    std::vector<std::list<size_t>::iterator> later;
    for (++it; it != queue.end(); ++it) later.push_back(it);
    if (options.shortest_first) {
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

}  // namespace schedlab::testing
