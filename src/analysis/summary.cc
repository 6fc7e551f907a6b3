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

  std::vector<double> runtimes, sizes, estimates, submits, waits, accuracy;
  std::unordered_map<int32_t, int64_t> estimate_counts;
  int64_t over_estimate = 0, power_of_two = 0;
  double area = 0;  // sum of size x runtime over valid jobs, processor-seconds
  for (const auto& r : records) {
    const trace::Exclusion e = trace::simulation_exclusion(r, s.machine.procs);
    ++s.excluded[static_cast<int>(e)];
    const int32_t size = trace::job_size(r);
    if (e == trace::Exclusion::kNone) area += static_cast<double>(size) * static_cast<double>(r.run_time);
    if (!trace::has_estimate(r)) ++s.without_estimate;

    if (r.run_time >= 0) runtimes.push_back(r.run_time);
    if (size > 0) {
      sizes.push_back(size);
      if (std::has_single_bit(static_cast<uint32_t>(size))) ++power_of_two;
    }
    if (trace::has_estimate(r)) {
      estimates.push_back(r.requested_time);
      ++estimate_counts[r.requested_time];
      if (r.run_time >= 0) {
        accuracy.push_back(static_cast<double>(r.run_time) / static_cast<double>(r.requested_time));
        if (r.run_time > r.requested_time) ++over_estimate;
      }
    }
    if (r.submit_time >= 0) submits.push_back(r.submit_time);
    if (r.wait_time >= 0) waits.push_back(r.wait_time);
  }
  s.valid_jobs = s.excluded[static_cast<int>(trace::Exclusion::kNone)];

  s.runtime_over_estimate_share = share(over_estimate, static_cast<int64_t>(accuracy.size()));
  s.power_of_two_share = share(power_of_two, static_cast<int64_t>(sizes.size()));

  std::vector<int64_t> counts;
  counts.reserve(estimate_counts.size());
  for (const auto& [value, count] : estimate_counts) counts.push_back(count);
  std::sort(counts.begin(), counts.end(), std::greater<>());
  const auto with_estimate = static_cast<int64_t>(estimates.size());
  s.distinct_estimates = static_cast<int64_t>(counts.size());
  s.estimates_for_50 = popular_cover(counts, with_estimate, 0.5);
  s.estimates_for_90 = popular_cover(counts, with_estimate, 0.9);

  std::sort(submits.begin(), submits.end());
  s.submit_known = static_cast<int64_t>(submits.size());
  std::vector<double> gaps;
  if (!submits.empty()) {
    s.first_submit = static_cast<int64_t>(submits.front());
    s.last_submit = static_cast<int64_t>(submits.back());
    gaps.reserve(submits.size() - 1);
    for (size_t i = 1; i < submits.size(); ++i) gaps.push_back(submits[i] - submits[i - 1]);
  }
  const double span = static_cast<double>(s.last_submit - s.first_submit);
  s.span_days = span / 86400.0;
  s.jobs_per_day = span > 0 ? static_cast<double>(s.submit_known) / s.span_days : kNaN;
  s.offered_load = span > 0 && s.machine.procs > 0
                       ? area / (static_cast<double>(s.machine.procs) * span)
                       : kNaN;

  s.runtime = describe(std::move(runtimes));
  s.size = describe(std::move(sizes));
  s.estimate = describe(std::move(estimates));
  s.interarrival = describe(std::move(gaps));
  s.wait = describe(std::move(waits));
  s.accuracy = describe(std::move(accuracy));
  return s;
}

Summary summarize(const swf::Log& log, std::optional<int64_t> procs) {
  Summary s = summarize(log.header, log.records, procs);
  s.read = log.report;
  return s;
}

}  // namespace schedlab::analysis
