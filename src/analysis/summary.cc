#include "schedlab/analysis/summary.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace schedlab::analysis {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double share(int64_t part, int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : kNaN;
}

int64_t distinct_known(const std::vector<swf::Record>& records, int32_t swf::Record::*field) {
  std::unordered_set<int32_t> seen;
  for (const auto& r : records)
    if (r.*field >= 0) seen.insert(r.*field);
  return static_cast<int64_t>(seen.size());
}

// Summary::dependent, preceding_earlier and think_given; the order pass only for a log that names preceding jobs
// (none of the archive's logs does).
void count_dependencies(const std::vector<swf::Record>& records, Summary& s) {
  for (const auto& r : records) {
    if (r.preceding_job < 0) continue;
    ++s.dependent;
    if (r.think_time >= 0) ++s.think_given;
  }
  if (s.dependent == 0) return;
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto& ra = records[a];
    const auto& rb = records[b];
    return ra.submit_time != rb.submit_time ? ra.submit_time < rb.submit_time : ra.job_number < rb.job_number;
  });
  std::unordered_set<int32_t> seen;
  seen.reserve(records.size());
  for (size_t i : order) {
    const auto& r = records[i];
    if (r.preceding_job >= 0 && seen.contains(r.preceding_job)) ++s.preceding_earlier;
    seen.insert(r.job_number);
  }
}

}  // namespace

Summary summarize(const swf::Header& header, const std::vector<swf::Record>& records,
                  std::optional<int64_t> procs) {
  Summary s;
  s.records = static_cast<int64_t>(records.size());
  s.machine = trace::machine_size(header, records, procs);

  s.users = distinct_known(records, &swf::Record::user_id);
  s.groups = distinct_known(records, &swf::Record::group_id);
  s.executables = distinct_known(records, &swf::Record::executable);
  s.queues = distinct_known(records, &swf::Record::queue);
  s.partitions = distinct_known(records, &swf::Record::partition);

  // Counts in one pass; then each distribution in a pass of its own, so that one vector of values (8 bytes a
  // record, reserved exactly) is alive at a time beside the records: stats on 10M records stays under 1 GB.
  std::unordered_map<int32_t, int64_t> estimate_counts;
  int64_t over_estimate = 0, power_of_two = 0, with_size = 0, with_accuracy = 0;
  double area = 0;  // sum of size x runtime over valid jobs, processor-seconds
  int64_t valid_first = std::numeric_limits<int64_t>::max(), valid_last = std::numeric_limits<int64_t>::min();
  for (const auto& r : records) {
    const trace::Exclusion e = trace::simulation_exclusion(r, s.machine.procs);
    ++s.excluded[static_cast<int>(e)];
    const int32_t size = trace::job_size(r);
    if (e == trace::Exclusion::kNone) {
      area += static_cast<double>(size) * static_cast<double>(r.run_time);
      valid_first = std::min<int64_t>(valid_first, r.submit_time);
      valid_last = std::max<int64_t>(valid_last, r.submit_time);
    }
    if (!trace::has_estimate(r)) ++s.without_estimate;
    if (size > 0) {
      ++with_size;
      if (std::has_single_bit(static_cast<uint32_t>(size))) ++power_of_two;
    }
    if (trace::has_estimate(r)) {
      ++estimate_counts[r.requested_time];
      if (r.run_time >= 0) {
        ++with_accuracy;
        if (r.run_time > r.requested_time) ++over_estimate;
      }
    }
  }
  s.valid_jobs = s.excluded[static_cast<int>(trace::Exclusion::kNone)];

  s.runtime_over_estimate_share = share(over_estimate, with_accuracy);
  s.power_of_two_share = share(power_of_two, with_size);

  std::vector<int64_t> counts;
  counts.reserve(estimate_counts.size());
  std::vector<std::pair<int32_t, int64_t>> value_counts(estimate_counts.begin(), estimate_counts.end());
  int64_t with_estimate = 0;
  for (const auto& [value, count] : estimate_counts) {
    counts.push_back(count);
    with_estimate += count;
    s.largest_estimate = std::max(s.largest_estimate, value);
  }
  s.estimate_limit = estimate_limit(value_counts);
  std::sort(counts.begin(), counts.end(), std::greater<>());
  s.distinct_estimates = static_cast<int64_t>(counts.size());
  s.estimates_for_50 = popular_cover(counts, with_estimate, 0.5);
  s.estimates_for_90 = popular_cover(counts, with_estimate, 0.9);

  // The values of one attribute, in record order (the order describe() has always seen).
  const auto values = [&](auto&& take) {
    std::vector<double> v;
    v.reserve(records.size());
    for (const auto& r : records) take(r, v);
    return v;
  };
  std::vector<double> submits = values([](const swf::Record& r, std::vector<double>& v) {
    if (r.submit_time >= 0) v.push_back(r.submit_time);
  });
  std::sort(submits.begin(), submits.end());
  s.submit_known = static_cast<int64_t>(submits.size());
  if (!submits.empty()) {
    s.first_submit = static_cast<int64_t>(submits.front());
    s.last_submit = static_cast<int64_t>(submits.back());
  }
  // The gaps in place of the sorted submit times.
  for (size_t i = 1; i < submits.size(); ++i) submits[i - 1] = submits[i] - submits[i - 1];
  if (!submits.empty()) submits.pop_back();
  const double span = static_cast<double>(s.last_submit - s.first_submit);
  s.span_days = span / 86400.0;
  s.jobs_per_day = span > 0 ? static_cast<double>(s.submit_known) / s.span_days : kNaN;
  // No valid job (none with a runtime and a size that fits): the load is unknown, not 0.
  const double valid_span = s.valid_jobs > 0 ? static_cast<double>(valid_last - valid_first) : 0.0;
  s.offered_load = valid_span > 0 && s.machine.procs > 0
                       ? area / (static_cast<double>(s.machine.procs) * valid_span)
                       : kNaN;
  s.interarrival = describe(std::move(submits));

  s.runtime = describe(values([](const swf::Record& r, std::vector<double>& v) {
    if (r.run_time >= 0) v.push_back(r.run_time);
  }));
  s.size = describe(values([](const swf::Record& r, std::vector<double>& v) {
    const int32_t size = trace::job_size(r);
    if (size > 0) v.push_back(size);
  }));
  s.estimate = describe(values([](const swf::Record& r, std::vector<double>& v) {
    if (trace::has_estimate(r)) v.push_back(r.requested_time);
  }));
  s.wait = describe(values([](const swf::Record& r, std::vector<double>& v) {
    if (r.wait_time >= 0) v.push_back(r.wait_time);
  }));
  s.accuracy = describe(values([](const swf::Record& r, std::vector<double>& v) {
    if (trace::has_estimate(r) && r.run_time >= 0)
      v.push_back(static_cast<double>(r.run_time) / static_cast<double>(r.requested_time));
  }));
  count_dependencies(records, s);
  return s;
}

Summary summarize(const swf::Log& log, std::optional<int64_t> procs) {
  Summary s = summarize(log.header, log.records, procs);
  s.read = log.report;
  return s;
}

}  // namespace schedlab::analysis
