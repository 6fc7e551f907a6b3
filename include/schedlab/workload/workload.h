// Building a simulation workload from an SWF log, following the project's conventions
// (docs/conventions.md, trace/conventions.h).
//
// - Machine size: WorkloadOptions::procs, else header MaxProcs, else MaxNodes, else the largest job.
//   A machine of size <= 0 is an error (std::invalid_argument).
// - Jobs that cannot be simulated are left out and counted by reason (trace::exclusion_name):
//   runtime < 0, size <= 0, size > machine. Never silently: see Workload::excluded and notes.
// - A job without an estimate (field 9 <= 0) uses its runtime as the estimate (counted).
// - With extend_estimates (Tsafrir 2007 note) a job whose runtime exceeds its estimate
//   gets its estimate raised to its runtime (counted in Workload::extended). Default off: estimates as
//   logged. Combined with kill_at_estimate no job is then cut (the extension comes first).
// - With kill_at_estimate a job runs min(runtime, estimate) and counts as killed when that cuts it;
//   it is an error (std::invalid_argument) if no simulated job of the log has an estimate.
// - Job order and ids: by (submit, SWF job number, position in the log); Job::id = index.
//
// Arrival scaling (inter-arrival times multiplied by a factor F > 0):
//   submit'_i = first + llround((submit_i - first) * F), first = the earliest submit among the jobs kept.
//   Scaling offsets from the first submit (not each gap separately) keeps rounding errors from
//   accumulating; each scaled inter-arrival time is within 1 s of the exact product. Order is preserved.
// - arrival_scale: F given directly.
// - load: F chosen so that the offered load becomes the target:
//     offered_load = sum(procs * runtime) / (machine procs * (last submit - first submit))
//   over the jobs kept (runtime as simulated, i.e. cut at the estimate with kill_at_estimate), so
//   F = offered_load / target. Rounding makes the achieved load differ slightly (reported; a note when it
//   misses the target by more than 1%). A target so high that every arrival falls in one second is an error
//   naming the highest load the jobs can be given.
//   Both load and an arrival_scale != 1 at once is an error.
// - Either way, a factor that would spread the arrivals over more than kMaxScaledSpan seconds is an error
//   (submit times are int64 seconds, and waits and ends are added to them).
//
// Feedback (WorkloadOptions::feedback; SWF fields 17-18, "a preceding job ... the current job can only start after
// the termination of this preceding job. Together with the next field, this allows the workload to include
// feedback"): a job that names a preceding job is submitted by the simulation its think time after that job ends,
// whatever its logged submit time (sim/simulate.h). Workload::after links it to the job it follows:
// - field 17 is resolved to the latest job of that number earlier in the workload's order; a job whose preceding
//   job is not there (excluded, absent, or only later in the log: a cycle otherwise) keeps its logged submit time,
//   counted by reason in Workload::feedback_dropped;
// - the think time is field 18 when it is >= 0, else the logged gap: this job's submit minus the preceding job's
//   logged end (submit + wait + runtime, a wait of -1 taken as 0), 0 when negative (counted in think_from_log);
// - arrival scaling (load, arrival_scale) scales the submit times of the jobs that follow no job; think times
//   stay as logged.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schedlab/workload/job.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::workload {


struct WorkloadOptions {
  std::optional<int64_t> procs;  // machine size (default: from the header, see above)
  bool kill_at_estimate = false;
  bool extend_estimates = false;
  std::optional<double> load;    // target offered load, > 0
  double arrival_scale = 1.0;    // inter-arrival factor, > 0
  bool feedback = false;         // submit jobs that name a preceding job after it ends (see above)
};

struct Workload {
  std::vector<Job> jobs;                 // ordered, ids = index
  std::vector<size_t> record_index;      // jobs[i] came from records[record_index[i]]
  int64_t procs = 0;
  trace::MachineSizeSource procs_source = trace::MachineSizeSource::kOption;
  int64_t records = 0;                   // records in the log
  std::map<std::string, int64_t> excluded;  // reason (trace::exclusion_name) -> count; only reasons seen
  int64_t excluded_total = 0;
  int64_t without_estimate = 0;          // kept jobs that use their runtime as the estimate
  int64_t killed = 0;                    // kept jobs cut at their estimate (kill_at_estimate)
  int64_t extended = 0;                  // kept jobs whose estimate was raised to their runtime
  bool kill_at_estimate = false;
  double arrival_scale = 1.0;            // the factor applied to inter-arrival times
  double offered_load_before = 0.0;      // offered load before scaling
  double offered_load = 0.0;             // after scaling; NaN when every job is submitted at one instant
  std::vector<std::string> notes;        // human-readable remarks on what was excluded or changed
  int64_t dependent = 0;                 // kept jobs that name a preceding job (SWF field 17), feedback or not
  // With feedback, when some job follows another: per job (by JobId) the earlier job it follows or -1, and its
  // think time in seconds (0 for a job that follows none). Empty otherwise: every job arrives at its submit.
  std::vector<JobId> after;
  std::vector<int64_t> think;
  int64_t following = 0;                 // jobs that follow another (after[i] >= 0)
  int64_t think_from_log = 0;            // of those, think times taken from the logged gap (field 18 unknown)
  std::map<std::string, int64_t> feedback_dropped;  // reason -> dependent jobs that keep their logged submit
  bool has_feedback() const { return !after.empty(); }
};

inline constexpr double kMaxScaledSpan = 1e15;  // seconds: about 32 million years

// Offered load of jobs on `procs` processors (see above); NaN (undefined) when all jobs are submitted at one
// instant, 0 without a job or a machine.
double offered_load(const std::vector<Job>& jobs, int64_t procs);

// The options alone (std::invalid_argument naming the bad one): a positive --procs, a positive finite arrival scale
// or load, not both. build_workload checks them first; its other errors are about the log's jobs.
void check_options(const WorkloadOptions& options);

Workload build_workload(const swf::Header& header, const std::vector<swf::Record>& records,
                        const WorkloadOptions& options = {});

}  // namespace schedlab::workload
