#include "schedlab/trace/sessions.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace schedlab::trace {

int64_t recorded_end(const swf::Record& r) {
  return int64_t{r.submit_time} + std::max<int64_t>(r.wait_time, 0) + std::max<int64_t>(r.run_time, 0);
}

Sessions build_sessions(const std::vector<swf::Record>& records, int64_t threshold) {
  if (threshold <= 0) throw std::invalid_argument("the think-time threshold must be positive");
  Sessions out;
  std::vector<size_t> order;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].submit_time < 0 || records[i].user_id < 0) ++out.unattributed;
    else order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (records[a].user_id != records[b].user_id) return records[a].user_id < records[b].user_id;
    return records[a].submit_time < records[b].submit_time;
  });
  for (size_t k = 0; k < order.size(); ++k) {
    const swf::Record& r = records[order[k]];
    const bool fresh = k == 0 || records[order[k - 1]].user_id != r.user_id ||
                       starts_new_session(recorded_end(records[order[k - 1]]), r.submit_time, threshold);
    if (fresh) {
      Session s;
      s.user = r.user_id;
      s.start = r.submit_time;
      s.end = recorded_end(r);
      out.sessions.push_back(std::move(s));
    }
    Session& s = out.sessions.back();
    s.jobs.push_back(order[k]);
    s.end = std::max(s.end, recorded_end(r));
  }
  std::stable_sort(out.sessions.begin(), out.sessions.end(), [](const Session& a, const Session& b) {
    return a.start != b.start ? a.start < b.start : a.user < b.user;
  });
  return out;
}

}  // namespace schedlab::trace
