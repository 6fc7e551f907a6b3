#include "schedlab/sim/job_classes.h"

#include <array>
#include <charconv>
#include <stdexcept>

#include <fmt/core.h>

#include "schedlab/base/duration.h"
#include "schedlab/sim/metrics.h"
#include "sim/metrics_of.h"

namespace schedlab::sim {

JobClassLimits parse_job_class_limits(std::string_view text) {
  const size_t comma = text.find(',');
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("job class limits '{}': {} (RUNTIME,PROCS, e.g. 1h,8)", text, why));
  };
  if (comma == std::string_view::npos) throw bad("a runtime and a size separated by a comma are needed");
  JobClassLimits out;
  const auto runtime = base::parse_duration(text.substr(0, comma));
  if (!runtime || *runtime <= 0) throw bad(fmt::format("'{}' is not a positive duration", text.substr(0, comma)));
  out.short_runtime = *runtime;
  const std::string_view procs = text.substr(comma + 1);
  const auto [end, ec] = std::from_chars(procs.data(), procs.data() + procs.size(), out.narrow_procs);
  if (ec != std::errc{} || end != procs.data() + procs.size() || out.narrow_procs <= 0)
    throw bad(fmt::format("'{}' is not a positive whole number of processors", procs));
  return out;
}

std::string job_class_limits_text(const JobClassLimits& limits) {
  return fmt::format("{},{}", base::format_duration(limits.short_runtime), limits.narrow_procs);
}

std::vector<JobClassMetrics> metrics_by_class(const workload::Workload& workload, const SimResult& result,
                                              JobClassLimits limits, int64_t bsld_tau) {
  if (limits.short_runtime <= 0 || limits.narrow_procs <= 0) {
    throw std::invalid_argument(fmt::format("job classes: the limits must be positive (short runtime {} s, narrow {} "
                                            "processors)",
                                            limits.short_runtime, limits.narrow_procs));
  }
  const std::vector<workload::Job>& jobs = workload.jobs;
  const auto& order = result.termination_order;
  if (result.jobs.size() != jobs.size() || order.size() > jobs.size() || result.metrics.warmup_excluded < 0 ||
      static_cast<size_t>(result.metrics.warmup_excluded) > order.size()) {
    throw std::invalid_argument(fmt::format("job classes: the result ({} jobs) is not of this workload ({} jobs)",
                                            result.jobs.size(), jobs.size()));
  }
  const auto class_of = [&](size_t idx) {
    return (jobs[idx].runtime > limits.short_runtime ? 2 : 0) + (jobs[idx].procs > limits.narrow_procs ? 1 : 0);
  };
  const auto times_of = [&](size_t idx) {
    const JobOutcome& o = result.jobs[idx];
    return JobTimes{result.submitted(workload, idx), o.start, o.end, jobs[idx].procs, o.ran};
  };
  std::array<JobClassMetrics, 4> c;
  for (size_t i = 0; i < c.size(); ++i) c[i].name = kJobClassNames[i];
  std::array<double, 4> work{};
  double all_work = 0;
  std::vector<bool> kept(jobs.size(), false);
  // The sums in termination order, as the whole run's means.
  for (size_t k = static_cast<size_t>(result.metrics.warmup_excluded); k < order.size(); ++k) {
    const auto idx = static_cast<size_t>(order[k]);
    if (idx >= jobs.size()) throw std::invalid_argument(fmt::format("job classes: job {} is not in the workload", idx));
    kept[idx] = true;
    const JobTimes t = times_of(idx);
    JobClassMetrics& m = c[static_cast<size_t>(class_of(idx))];
    ++m.jobs;
    m.wait_mean += wait_of(t);
    m.response_mean += response_of(t);
    m.slowdown_mean += slowdown_of(t);
    m.bounded_slowdown_mean += bounded_slowdown_of(t, bsld_tau);
    const double w = static_cast<double>(t.procs) * static_cast<double>(run_of(t));
    work[static_cast<size_t>(class_of(idx))] += w;
    all_work += w;
  }
  each_passing_job(result, [&](size_t idx) {
    if (kept[idx]) ++c[static_cast<size_t>(class_of(idx))].backfilled;
  });
  const int64_t all = result.metrics.jobs;
  for (size_t i = 0; i < c.size(); ++i) {
    JobClassMetrics& m = c[i];
    if (all > 0) m.share = static_cast<double>(m.jobs) / static_cast<double>(all);
    if (all_work > 0) m.work_share = work[i] / all_work;
    if (m.jobs == 0) continue;
    const auto n = static_cast<double>(m.jobs);
    m.wait_mean /= n, m.response_mean /= n, m.slowdown_mean /= n, m.bounded_slowdown_mean /= n;
    m.backfilled_share = static_cast<double>(m.backfilled) / n;
  }
  return {c.begin(), c.end()};
}

}  // namespace schedlab::sim
