// The machine: a pool of identical processors numbered 0 .. total-1.
//
// Two modes, chosen at construction:
// - counting (default): only the number of free processors is kept; Allocation::ranges stays empty. This is
//   all non-preemptive space sharing needs, and it is O(1) per operation.
// - tracking processor identities: the free processors are kept as disjoint ranges, an allocation records
//   which processors a job holds, and a job can be given back exactly the processors it held before (a
//   suspended job resumes only where it left: its memory image is there). Used by the preemptive schedulers,
//   and by --check to verify that no processor ever runs two jobs.
//   Allocation policy (deterministic, so a scheduler can predict it on a copy of the machine): the
//   lowest-numbered free processors first, skipping those in `avoid` unless nothing else is free.
//   Cost: O(k log F) per allocate/release, F = free ranges, k = ranges touched.
// A Machine is a plain copyable value.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "schedlab/workload/job.h"

namespace schedlab::sim {

using workload::JobId;

// Processors [lo, hi).
struct ProcRange {
  int32_t lo = 0, hi = 0;
  int64_t size() const { return int64_t{hi} - lo; }
  friend bool operator==(const ProcRange&, const ProcRange&) = default;
};
using ProcSet = std::vector<ProcRange>;  // sorted, disjoint, non-adjacent ranges

// Number of processors in a set.
int64_t proc_count(const ProcSet& set);
// Whether two sets share a processor (both sorted). O(|a| + |b|).
bool overlaps(const ProcSet& a, const ProcSet& b);
// The processors in either set, as a ProcSet (sorted, disjoint, non-adjacent). O((|a| + |b|) log).
ProcSet proc_union(const ProcSet& a, const ProcSet& b);

// What a job holds while it runs.
struct Allocation {
  JobId job = -1;
  int64_t procs = 0;
  ProcSet ranges;  // the processors (tracking mode only; empty when counting)
  friend bool operator==(const Allocation&, const Allocation&) = default;
};

class Machine {
 public:
  Machine() = default;
  // Throws std::invalid_argument when procs <= 0 (or, when tracking, procs > INT32_MAX).
  explicit Machine(int64_t procs, bool track_processors = false);

  int64_t total() const { return total_; }
  int64_t free() const { return free_; }
  int64_t used() const { return total_ - free_; }
  bool tracks_processors() const { return track_; }
  bool can_allocate(int64_t procs) const { return procs <= free_; }

  // Gives `procs` processors to `job` (policy above; `avoid` only matters when tracking). Throws
  // std::logic_error when fewer are free (over-commitment).
  Allocation allocate(JobId job, int64_t procs, const ProcSet& avoid = {});
  // Tracking mode: whether every processor of `set` is free.
  bool all_free(const ProcSet& set) const;
  // Gives exactly the processors of `set` to `job`. Throws std::logic_error if one is busy (or when counting).
  Allocation allocate_exactly(JobId job, const ProcSet& set);
  // Returns an allocation's processors. Throws std::logic_error if that frees more than the machine has or
  // (tracking) a processor that is already free.
  void release(const Allocation& allocation);
  // Tracking mode: the free processors, as ranges lo -> hi.
  const std::map<int32_t, int32_t>& free_ranges() const { return free_ranges_; }

  friend bool operator==(const Machine&, const Machine&) = default;

 private:
  void take(int32_t lo, int32_t hi);  // [lo, hi) must lie within one free range
  int64_t total_ = 0;
  int64_t free_ = 0;
  bool track_ = false;
  std::map<int32_t, int32_t> free_ranges_;  // lo -> hi, disjoint and non-adjacent
};

}  // namespace schedlab::sim
