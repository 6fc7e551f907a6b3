// A job as the simulator and the predictors see it: the fields of one SWF record that scheduling and
// prediction need, with the project's conventions (trace/conventions.h) already applied.
//
// A simulation's workload is a vector of these, ordered by (submit, SWF job number, record position);
// `id` is the index in that vector and is what every simulator and predictor API calls a job.
#pragma once

#include <cstdint>

namespace schedlab::workload {

using JobId = int32_t;  // index of the job in its workload

// Fields by size, so that a job takes 64 bytes (72 in the order of the SWF fields): the workload of a
// large log is one of the biggest tables of a simulation. Initialise by name, not by position.
struct Job {
  int64_t submit = 0;       // seconds (after arrival scaling: WorkloadOptions::load / arrival_scale)
  int64_t estimate = 0;     // user estimate (field 9), or the runtime when the log gives none
  // The runtime the simulation gives the job: the logged runtime, or min(runtime, estimate) with
  // WorkloadOptions::kill_at_estimate. Only the `perfect` predictor (and the engine) may look at it.
  int64_t runtime = 0;
  JobId id = -1;
  int32_t job_number = -1;  // SWF field 1
  int32_t procs = 0;        // job size (trace::job_size), > 0
  int32_t user = -1;        // SWF field 12
  int32_t group = -1;       // field 13
  int32_t executable = -1;  // field 14
  int32_t queue = -1;       // field 15
  int32_t partition = -1;   // field 16
  bool has_estimate = false;
  bool killed = false;  // the runtime was cut at the estimate (WorkloadOptions::kill_at_estimate)
};
static_assert(sizeof(Job) == 64);

}  // namespace schedlab::workload
