// The machine: a pool of identical processors.
//
// Today only the processor count matters; allocate() returns an Allocation so that processor identities
// (which processors a job holds: needed for preemption, resuming on the same processors, topology) can be
// added later without changing callers. A Machine is a plain copyable value.
#pragma once

#include <cstdint>

#include "schedlab/predict/job.h"

namespace schedlab::sim {

using predict::JobId;

// What a job holds while it runs. (Later: the processor set.)
struct Allocation {
  JobId job = -1;
  int64_t procs = 0;
  friend bool operator==(const Allocation&, const Allocation&) = default;
};

class Machine {
 public:
  Machine() = default;
  // Throws std::invalid_argument when procs <= 0.
  explicit Machine(int64_t procs);

  int64_t total() const { return total_; }
  int64_t free() const { return free_; }
  int64_t used() const { return total_ - free_; }
  bool can_allocate(int64_t procs) const { return procs <= free_; }

  // Gives `procs` processors to `job`. Throws std::logic_error when fewer are free (over-commitment).
  Allocation allocate(JobId job, int64_t procs);
  // Returns an allocation's processors. Throws std::logic_error if that frees more than the machine has.
  void release(const Allocation& allocation);

  friend bool operator==(const Machine&, const Machine&) = default;

 private:
  int64_t total_ = 0;
  int64_t free_ = 0;
};

}  // namespace schedlab::sim
