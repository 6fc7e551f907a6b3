#include "schedlab/sim/machine.h"

#include <stdexcept>

#include <fmt/core.h>

namespace schedlab::sim {

Machine::Machine(int64_t procs) : total_(procs), free_(procs) {
  if (procs <= 0) throw std::invalid_argument(fmt::format("machine size must be positive, got {}", procs));
}

Allocation Machine::allocate(JobId job, int64_t procs) {
  if (procs < 0 || procs > free_) {
    throw std::logic_error(fmt::format("processors over-committed: job {} needs {} processors, {} of {} free",
                                       job, procs, free_, total_));
  }
  free_ -= procs;
  return Allocation{job, procs};
}

void Machine::release(const Allocation& allocation) {
  if (allocation.procs < 0 || free_ + allocation.procs > total_) {
    throw std::logic_error(fmt::format("job {} releases {} processors but only {} are in use", allocation.job,
                                       allocation.procs, total_ - free_));
  }
  free_ += allocation.procs;
}

}  // namespace schedlab::sim
