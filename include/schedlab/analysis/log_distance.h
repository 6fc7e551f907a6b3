// How close two logs' job distributions are: a synthetic workload beside the real log it models (docs/generate.md).
//
// For each attribute of analysis/attribute.h (runtime, procs, cpu, estimate, interarrival): the two-sample
// Kolmogorov-Smirnov statistic (analysis/distribution.h ks_statistic) and both medians, over the jobs where the
// attribute is known (attribute_series; a job without an estimate has its runtime stand in, counted in
// `estimate_from_runtime_a/_b` so that a log without estimates is not compared as if it had them). Decision:
// procs and cpu are compared as fractions of each log's machine size (size / procs, runtime x size / procs),
// because a model scaled to another machine keeps its shape, not its sizes. Beside them, each log's jobs per day
// and offered load (analysis/summary.h).
#pragma once

#include <array>
#include <cstdint>

#include "schedlab/analysis/attribute.h"
#include "schedlab/swf/reader.h"

namespace schedlab::analysis {

struct AttributeDistance {
  Attribute attribute = Attribute::kRuntime;
  int64_t count_a = 0, count_b = 0;
  double median_a = 0, median_b = 0;  // procs and cpu as fractions of the machine
  double ks = 0;  // NaN when either log has no job with the attribute known
  int64_t estimate_from_runtime_a = 0, estimate_from_runtime_b = 0;  // estimate only: jobs without field 9
};

struct LogDistance {
  int64_t procs_a = 0, procs_b = 0;
  int64_t records_a = 0, records_b = 0;
  int64_t unknown_submit_a = 0, unknown_submit_b = 0;  // records in no distribution: no known submit time
  double jobs_per_day_a = 0, jobs_per_day_b = 0, load_a = 0, load_b = 0;
  std::array<AttributeDistance, kAttributeKinds> attributes;
};

// Throws std::invalid_argument naming the log (its `path`) when it has no job or its machine size is unknown.
LogDistance log_distance(const swf::Log& a, const swf::Log& b);

}  // namespace schedlab::analysis
