// The project-wide conventions (docs/conventions.md) for reading a job out of an SWF record.
// Every command and library function that needs a job's size, estimate or the machine size uses these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::trace {

// Job size = requested processors (field 8) when > 0, else allocated processors (field 5).
inline int32_t job_size(const swf::Record& r) {
  return r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
}

// A job has an estimate when its requested time (field 9) is > 0.
inline bool has_estimate(const swf::Record& r) { return r.requested_time > 0; }

// Estimate = requested time when given, otherwise the runtime stands in for it (callers count these).
inline int32_t job_estimate(const swf::Record& r) {
  return has_estimate(r) ? r.requested_time : r.run_time;
}

// Where the machine size came from.
enum class MachineSizeSource { kOption, kMaxProcs, kMaxNodes, kLargestJob };
std::string_view machine_size_source_name(MachineSizeSource s);  // "option", "MaxProcs", ...

struct MachineSize {
  int64_t procs = 0;
  MachineSizeSource source = MachineSizeSource::kLargestJob;
};

// Machine size: `option` if given, else the header's MaxProcs, else MaxNodes, else the largest job size.
// A header value <= 0 counts as absent; an `option` <= 0 is std::invalid_argument.
MachineSize machine_size(const swf::Header& header, const std::vector<swf::Record>& records,
                         std::optional<int64_t> option = std::nullopt);

// Why a job cannot be simulated on a machine of `procs` processors.
enum class Exclusion { kNone, kNegativeRuntime, kNonPositiveSize, kLargerThanMachine, kNoSubmitTime };
inline constexpr int kExclusionKinds = 5;
// "none", "negative_runtime", "no_size", "larger_than_machine", "no_submit_time"
std::string_view exclusion_name(Exclusion e);

// Checks in this order: submit time < 0 (unknown: the job cannot be placed in time), runtime < 0,
// size <= 0, size > procs.
Exclusion simulation_exclusion(const swf::Record& r, int64_t procs);

}  // namespace schedlab::trace
