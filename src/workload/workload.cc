#include "schedlab/workload/workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/core.h>

#include "base/huge_pages.h"
#include "schedlab/base/count_text.h"

namespace schedlab::workload {

double offered_load(const std::vector<Job>& jobs, int64_t procs) {
  if (jobs.empty() || procs <= 0) return 0.0;
  int64_t first = jobs.front().submit, last = jobs.front().submit;
  double work = 0;
  for (const auto& j : jobs) {
    first = std::min(first, j.submit);
    last = std::max(last, j.submit);
    work += static_cast<double>(j.procs) * static_cast<double>(j.runtime);
  }
  if (last == first) return std::numeric_limits<double>::quiet_NaN();
  return work / (static_cast<double>(procs) * static_cast<double>(last - first));
}

static void scale_arrivals(std::vector<Job>& jobs, double factor) {
  if (jobs.empty()) return;
  const int64_t first = jobs.front().submit;  // jobs are sorted by submit
  for (auto& j : jobs) {
    j.submit = first + std::llround(static_cast<double>(j.submit - first) * factor);
  }
}

static std::string exclusion_note(trace::Exclusion e, int64_t count, int64_t procs) {
  const std::string jobs = base::counted(count, "job");
  switch (e) {
    case trace::Exclusion::kNegativeRuntime: return fmt::format("{} excluded: negative (unknown) runtime", jobs);
    case trace::Exclusion::kNonPositiveSize: return fmt::format("{} excluded: no processor count", jobs);
    case trace::Exclusion::kLargerThanMachine:
      return fmt::format("{} excluded: larger than the machine ({})", jobs, base::counted(procs, "processor"));
    case trace::Exclusion::kNoSubmitTime: return fmt::format("{} excluded: unknown (negative) submit time", jobs);
    case trace::Exclusion::kNone: break;
  }
  return {};
}

// Resolves SWF fields 17-18 of the kept jobs (w.jobs, w.record_index) into w.after and w.think (workload.h).
static void link_feedback(const std::vector<swf::Record>& records, Workload& w) {
  const size_t n = w.jobs.size();
  std::unordered_set<int32_t> excluded_numbers;  // job numbers of the records left out of the simulation
  {
    std::vector<char> kept(records.size(), 0);
    for (size_t idx : w.record_index) kept[idx] = 1;
    for (size_t i = 0; i < records.size(); ++i)
      if (!kept[i]) excluded_numbers.insert(records[i].job_number);
  }
  std::unordered_map<int32_t, JobId> latest;  // job number -> the latest job of that number so far
  latest.reserve(n);
  std::vector<JobId> after(n, -1);
  std::vector<int64_t> think(n, 0);
  int64_t not_simulated = 0, not_earlier = 0;
  for (size_t i = 0; i < n; ++i) {
    const swf::Record& r = records[w.record_index[i]];
    if (r.preceding_job >= 0) {
      const auto it = latest.find(r.preceding_job);
      if (it == latest.end()) {
        ++(excluded_numbers.contains(r.preceding_job) ? not_simulated : not_earlier);
      } else {
        const JobId a = it->second;
        after[i] = a;
        ++w.following;
        if (r.think_time >= 0) {
          think[i] = r.think_time;
        } else {
          const swf::Record& p = records[w.record_index[static_cast<size_t>(a)]];
          const int64_t logged_end = int64_t{p.submit_time} + std::max<int64_t>(p.wait_time, 0) + p.run_time;
          think[i] = std::max<int64_t>(0, int64_t{r.submit_time} - logged_end);
          ++w.think_from_log;
        }
      }
    }
    latest[w.jobs[i].job_number] = static_cast<JobId>(i);
  }
  const auto jobs = [](int64_t k) { return base::counted(k, "job"); };
  if (not_simulated > 0) {
    w.feedback_dropped["preceding job not simulated"] = not_simulated;
    w.notes.push_back(fmt::format("feedback: {} whose preceding job is excluded from the simulation arrive{} at {} "
                                  "logged submit time",
                                  jobs(not_simulated), not_simulated == 1 ? "s" : "",
                                  not_simulated == 1 ? "its" : "their"));
  }
  if (not_earlier > 0) {
    w.feedback_dropped["preceding job not earlier in the log"] = not_earlier;
    w.notes.push_back(fmt::format("feedback: {} whose preceding job is not earlier in the log arrive{} at {} logged "
                                  "submit time",
                                  jobs(not_earlier), not_earlier == 1 ? "s" : "", not_earlier == 1 ? "its" : "their"));
  }
  if (w.following > 0) {
    w.after = std::move(after);
    w.think = std::move(think);
    w.notes.push_back(fmt::format("feedback: {} submitted {} think time after {} preceding job ends{}", jobs(w.following),
                                  w.following == 1 ? "its" : "their", w.following == 1 ? "its" : "their",
                                  w.think_from_log == 0 ? std::string()
                                                        : fmt::format(" ({} think time{} taken from the logged gap)",
                                                                      w.think_from_log, w.think_from_log == 1 ? "" : "s")));
  }
}

void check_options(const WorkloadOptions& options) {
  if (options.procs && *options.procs <= 0) {
    throw std::invalid_argument(fmt::format("machine size must be positive, got --procs {}", *options.procs));
  }
  if (!(options.arrival_scale > 0) || !std::isfinite(options.arrival_scale)) {
    throw std::invalid_argument(fmt::format("arrival scale must be a positive number, got {}", options.arrival_scale));
  }
  if (options.load && (!(*options.load > 0) || !std::isfinite(*options.load))) {
    throw std::invalid_argument(fmt::format("target load must be a positive number, got {}", *options.load));
  }
  if (options.load && options.arrival_scale != 1.0) {
    throw std::invalid_argument("give either a target load or an arrival scale, not both");
  }
}

Workload build_workload(const swf::Header& header, const std::vector<swf::Record>& records,
                        const WorkloadOptions& options) {
  check_options(options);
  Workload w;
  const trace::MachineSize machine = trace::machine_size(header, records, options.procs);
  if (machine.procs <= 0) {
    throw std::invalid_argument(
        "machine size is 0: the log gives no MaxProcs or MaxNodes and no job has a size (use --procs)");
  }
  w.procs = machine.procs;
  w.procs_source = machine.source;
  w.records = static_cast<int64_t>(records.size());
  w.kill_at_estimate = options.kill_at_estimate;

  std::array<int64_t, trace::kExclusionKinds> excluded{};
  std::vector<size_t> kept;
  base::reserve_huge(kept, records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const trace::Exclusion e = trace::simulation_exclusion(records[i], w.procs);
    if (e == trace::Exclusion::kNone) {
      kept.push_back(i);
    } else {
      ++excluded[static_cast<size_t>(e)];
    }
  }
  for (int k = 0; k < trace::kExclusionKinds; ++k) {
    if (excluded[static_cast<size_t>(k)] == 0) continue;
    const auto e = static_cast<trace::Exclusion>(k);
    w.excluded[std::string(trace::exclusion_name(e))] = excluded[static_cast<size_t>(k)];
    w.excluded_total += excluded[static_cast<size_t>(k)];
    w.notes.push_back(exclusion_note(e, excluded[static_cast<size_t>(k)], w.procs));
  }

  auto before = [&](size_t a, size_t b) {
    const auto& ra = records[a];
    const auto& rb = records[b];
    if (ra.submit_time != rb.submit_time) return ra.submit_time < rb.submit_time;
    return ra.job_number < rb.job_number;
  };
  if (!std::is_sorted(kept.begin(), kept.end(), before)) std::stable_sort(kept.begin(), kept.end(), before);

  base::reserve_huge(w.jobs, kept.size());
  int64_t dependent = 0;  // jobs that name a preceding job (SWF field 17)
  for (size_t i = 0; i < kept.size(); ++i) {
    const swf::Record& r = records[kept[i]];
    if (r.preceding_job >= 0) ++dependent;
    Job j;
    j.id = static_cast<workload::JobId>(i);
    j.job_number = r.job_number;
    j.submit = r.submit_time;
    j.procs = trace::job_size(r);
    j.has_estimate = trace::has_estimate(r);
    j.estimate = trace::job_estimate(r);
    j.runtime = r.run_time;
    if (!j.has_estimate) ++w.without_estimate;
    if (options.extend_estimates && j.runtime > j.estimate) {
      j.estimate = j.runtime;
      ++w.extended;
    }
    if (options.kill_at_estimate && j.runtime > j.estimate) {
      j.runtime = j.estimate;
      j.killed = true;
      ++w.killed;
    }
    j.user = r.user_id;
    j.group = r.group_id;
    j.executable = r.executable;
    j.queue = r.queue;
    j.partition = r.partition;
    w.jobs.push_back(j);
  }
  w.record_index = std::move(kept);  // (moved, not copied: 8 bytes a job)
  if (options.kill_at_estimate && !w.jobs.empty() && w.without_estimate == static_cast<int64_t>(w.jobs.size())) {
    throw std::invalid_argument(
        "--kill-at-estimate needs user estimates, but no job of this log has one (field 9 requested time)");
  }
  if (w.without_estimate > 0) {
    w.notes.push_back(w.without_estimate == 1
                          ? std::string("1 job without an estimate uses its runtime as the estimate")
                          : fmt::format("{} jobs without an estimate use their runtime as the estimate",
                                        w.without_estimate));
  }
  if (w.extended > 0) {
    w.notes.push_back(w.extended == 1
                          ? std::string("1 job had its estimate raised to its runtime (--extend-estimates)")
                          : fmt::format("{} jobs had their estimate raised to their runtime (--extend-estimates)",
                                        w.extended));
  }
  if (w.killed > 0)
    w.notes.push_back(w.killed == 1 ? std::string("1 job cut at its estimate (--kill-at-estimate)")
                                    : fmt::format("{} jobs cut at their estimate (--kill-at-estimate)", w.killed));
  w.dependent = dependent;
  if (options.feedback && dependent == 0 && !w.jobs.empty()) {
    // Asked for and nothing to follow (the archive's logs name no preceding job): said, or the run looks like one
    // with feedback.
    w.notes.push_back("feedback: no job names a preceding job (SWF field 17): every job arrives at its logged submit "
                      "time");
  } else if (options.feedback && dependent > 0) {
    link_feedback(records, w);
  } else if (dependent > 0) {
    // Without --feedback the jobs arrive at their logged submit times, whatever the schedule: said, not silently
    // dropped.
    w.notes.push_back(fmt::format("{} name{} a preceding job (SWF fields 17-18): {} at {} logged submit time{} "
                                  "(--feedback submits a job its think time after its preceding job ends)",
                                  base::counted(dependent, "job"), dependent == 1 ? "s" : "",
                                  dependent == 1 ? "it arrives" : "they arrive", dependent == 1 ? "its" : "their",
                                  dependent == 1 ? "" : "s"));
  }

  w.offered_load_before = offered_load(w.jobs, w.procs);
  double factor = options.arrival_scale;
  if (options.load && !w.jobs.empty()) {  // without a job, the caller says why none is left
    if (!(w.offered_load_before > 0)) {
      throw std::invalid_argument("cannot scale to a target load: the jobs have no work or are all submitted at once");
    }
    factor = w.offered_load_before / *options.load;
  }
  if (factor != 1.0 && !w.jobs.empty()) {
    const std::string what = options.load ? fmt::format("target load {:g}", *options.load)
                                          : fmt::format("arrival scale {:g}", factor);
    const int64_t span = w.jobs.back().submit - w.jobs.front().submit;  // jobs are sorted by submit
    // Scaled submit times are whole seconds that must leave room for waits and runtimes in 64 bits.
    if (static_cast<double>(span) * factor > kMaxScaledSpan) {
      throw std::invalid_argument(fmt::format(
          "{}: the arrivals' {} s would span {:.3g} s (inter-arrival times x {:.6g}), beyond the {:.3g} s a "
          "simulation can hold",
          what, span, static_cast<double>(span) * factor, factor, kMaxScaledSpan));
    }
    scale_arrivals(w.jobs, factor);
    w.notes.push_back(fmt::format("inter-arrival times multiplied by {:.6g}", factor));
    if (options.load && span > 0 && w.jobs.back().submit == w.jobs.front().submit) {
      throw std::invalid_argument(fmt::format(
          "{}: every arrival falls in one second (the arrivals' {} s x {:.6g}), which has no offered load; the "
          "highest load these jobs can be given is {:.6g} (all arrivals within 1 s)",
          what, span, factor, w.offered_load_before * static_cast<double>(span)));
    }
  }
  w.arrival_scale = factor;
  w.offered_load = offered_load(w.jobs, w.procs);
  // Arrivals are whole seconds: when the span shrinks to a few seconds the target cannot be met closely.
  if (options.load && !w.jobs.empty() && std::abs(w.offered_load / *options.load - 1) > 0.01) {
    w.notes.push_back(fmt::format("the offered load reached is {:.6g}, not the target {:g}: submit times are whole "
                                  "seconds and the arrivals span {} s",
                                  w.offered_load, *options.load, w.jobs.back().submit - w.jobs.front().submit));
  }
  return w;
}

}  // namespace schedlab::workload
