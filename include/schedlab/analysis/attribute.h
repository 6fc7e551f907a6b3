// Per-job workload attributes used by the locality, diversity and temporal analyses, read out of SWF
// records with the project's conventions (trace/conventions.h).
//
// Contract of attribute_series():
// - Jobs with an unknown submit time (< 0) are left out (counted in `unknown_submit`).
// - The remaining jobs are put in submit-time order (stable: ties keep the log's order).
// - runtime = field 4, known when >= 0; procs = job size, known when > 0; cpu = runtime x size, known when
//   both are; estimate = job_estimate (field 9, or the runtime standing in, counted in
//   `estimate_from_runtime`), known when >= 0; interarrival = submit time minus the previous job's (in
//   the ordered sequence of all jobs with a known submit time), unknown for the first job.
// - A job whose attribute is unknown is left out and counted in `unknown_value`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::analysis {

enum class Attribute { kRuntime, kProcs, kCpu, kEstimate, kInterarrival };
inline constexpr int kAttributeKinds = 5;

std::string_view attribute_name(Attribute a);                     // "runtime", "procs", "cpu", ...
std::optional<Attribute> parse_attribute(std::string_view name);  // inverse of attribute_name
std::vector<std::string> attribute_names();                        // in Attribute order

struct AttributeSeries {
  std::vector<int64_t> times;   // submit times, ascending
  std::vector<double> values;   // the attribute of the job at the same index
  int64_t unknown_submit = 0;
  int64_t unknown_value = 0;
  int64_t estimate_from_runtime = 0;  // estimate attribute only: jobs without field 9
};

AttributeSeries attribute_series(const std::vector<swf::Record>& records, Attribute attribute);

}  // namespace schedlab::analysis
