#include "schedlab/trace/flurries.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/count_text.h"

namespace schedlab::trace {

int64_t unattributed_jobs(const std::vector<swf::Record>& records) {
  int64_t n = 0;
  for (const auto& r : records) n += r.submit_time < 0 || r.user_id < 0;
  return n;
}

int64_t first_submit_time(const std::vector<swf::Record>& records) {
  int64_t first = -1;
  for (const auto& r : records)
    if (r.submit_time >= 0 && (first < 0 || r.submit_time < first)) first = r.submit_time;
  return first;
}

void check_flurry_options(const FlurryOptions& options) {
  if (!(options.factor >= 1))
    throw std::invalid_argument(fmt::format("the flurry factor must be >= 1 (got {})", options.factor));
  if (options.week_seconds <= 0) throw std::invalid_argument("the week length must be positive");
  if (options.min_jobs < 0) throw std::invalid_argument("the minimum number of jobs must be >= 0");
}

std::vector<Flurry> find_flurries(const std::vector<swf::Record>& records, const FlurryOptions& options) {
  check_flurry_options(options);
  const int64_t first = first_submit_time(records);
  std::map<int64_t, std::map<int32_t, int64_t>> weeks;  // week -> user -> jobs
  for (const auto& r : records)
    if (r.submit_time >= 0 && r.user_id >= 0) ++weeks[(r.submit_time - first) / options.week_seconds][r.user_id];
  std::vector<Flurry> out;
  for (const auto& [week, users] : weeks) {
    // The two largest counts of the week.
    int32_t top = -1, second = -1;
    for (const auto& [user, n] : users) {
      if (top < 0 || n > users.at(top)) {
        second = top;
        top = user;
      } else if (second < 0 || n > users.at(second)) {
        second = user;
      }
    }
    const int64_t n = users.at(top);
    const int64_t other = second >= 0 ? users.at(second) : 0;
    if (static_cast<double>(n) > options.factor * static_cast<double>(other) && n > options.min_jobs) {
      Flurry f;
      f.user = top;
      f.week = week;
      f.week_start = first + week * options.week_seconds;
      f.jobs = n;
      f.runner_up = second;
      f.runner_up_jobs = other;
      f.ratio = static_cast<double>(n) / static_cast<double>(std::max<int64_t>(other, 1));
      out.push_back(f);
    }
  }
  return out;  // map order: by week; at most one flurry per week (factor >= 1)
}

std::vector<swf::Record> drop_flurries(const std::vector<swf::Record>& records, const std::vector<Flurry>& flurries,
                                       int64_t first_submit, int64_t week_seconds) {
  std::set<std::pair<int64_t, int32_t>> marked;
  for (const auto& f : flurries) marked.insert({f.week, f.user});
  std::vector<swf::Record> kept;
  kept.reserve(records.size());
  for (const auto& r : records) {
    if (r.submit_time >= 0 && r.user_id >= 0 && first_submit >= 0 && r.submit_time >= first_submit &&
        marked.contains({(r.submit_time - first_submit) / week_seconds, r.user_id}))
      continue;
    kept.push_back(r);
  }
  return kept;
}

std::vector<std::string> flurry_notes(const std::vector<Flurry>& flurries, const FlurryOptions& options,
                                      int64_t removed) {
  std::vector<std::string> notes;
  notes.push_back(fmt::format(
      "filter: dropped {} of {} (a user's jobs in a week, counted from the first submit, when "
      "> {} x any other user's that week and > {} jobs)",
      base::counted(removed, "record"), base::counted(static_cast<int64_t>(flurries.size()), "flurry", "flurries"),
      options.factor, options.min_jobs));
  for (const auto& f : flurries)
    notes.push_back(fmt::format("filter: flurry user {} week {} (from {} s): {}, {:.1f} x the next user", f.user,
                                f.week, f.week_start, base::counted(f.jobs, "job"), f.ratio));
  return notes;
}

}  // namespace schedlab::trace
