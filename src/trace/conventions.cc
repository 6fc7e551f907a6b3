#include "schedlab/trace/conventions.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::trace {

std::string_view machine_size_source_name(MachineSizeSource s) {
  switch (s) {
    case MachineSizeSource::kOption: return "option";
    case MachineSizeSource::kMaxProcs: return "MaxProcs";
    case MachineSizeSource::kMaxNodes: return "MaxNodes";
    case MachineSizeSource::kLargestJob: return "largest job";
  }
  return "?";
}

MachineSize machine_size(const swf::Header& header, const std::vector<swf::Record>& records,
                         std::optional<int64_t> option) {
  if (option) {
    // Every summary over such a machine is wrong (stats' offered load came out negative), so no caller may pass it.
    if (*option <= 0)
      throw std::invalid_argument(fmt::format("machine size must be positive, got --procs {}", *option));
    return {*option, MachineSizeSource::kOption};
  }
  if (header.max_procs && *header.max_procs > 0) return {*header.max_procs, MachineSizeSource::kMaxProcs};
  if (header.max_nodes && *header.max_nodes > 0) return {*header.max_nodes, MachineSizeSource::kMaxNodes};
  int64_t largest = 0;
  for (const auto& r : records) largest = std::max<int64_t>(largest, job_size(r));
  return {largest, MachineSizeSource::kLargestJob};
}

std::string_view exclusion_name(Exclusion e) {
  switch (e) {
    case Exclusion::kNone: return "none";
    case Exclusion::kNegativeRuntime: return "negative_runtime";
    case Exclusion::kNonPositiveSize: return "no_size";
    case Exclusion::kLargerThanMachine: return "larger_than_machine";
    case Exclusion::kNoSubmitTime: return "no_submit_time";
  }
  return "?";
}

Exclusion simulation_exclusion(const swf::Record& r, int64_t procs) {
  if (r.submit_time < 0) return Exclusion::kNoSubmitTime;
  if (r.run_time < 0) return Exclusion::kNegativeRuntime;
  const int32_t size = job_size(r);
  if (size <= 0) return Exclusion::kNonPositiveSize;
  if (size > procs) return Exclusion::kLargerThanMachine;
  return Exclusion::kNone;
}

}  // namespace schedlab::trace
