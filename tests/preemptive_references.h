// Obvious implementations of the preemptive schedulers, shared by their tests (src/sim/*_reference_test.cc, on random
// workloads and a KTH prefix) and the simulation fuzzer (fuzz/simulate_fuzz.cc): each recomputes everything at every
// call, without the shortcuts of the real schedulers, and must give every job the same start, end, run time and
// suspensions.
// - easy-preemptive (sim/easy_preemptive.h): walks the whole queue, and every running job's processors for each
//   suspended job, and searches each job's fit from now (the scheduler stops the walk once nothing more can start,
//   keeps the suspended jobs' processors sorted across calls, and starts each search at the fit of a smaller,
//   shorter job placed before it: sim/fit_floor.h).
// - lerwf / lerwf-fill (sim/lerwf.h): sorts every job (running, waiting, suspended) by remaining time at every call
//   (the scheduler keeps the waiting jobs ordered across calls and merges them with the running list).
#pragma once

#include <cstdint>
#include <memory>

#include "schedlab/sim/scheduler.h"

namespace schedlab::testing {

std::unique_ptr<sim::Scheduler> walking_easy_preemptive(int64_t resume_delay);
std::unique_ptr<sim::Scheduler> sorting_lerwf(bool fill, int64_t resume_delay);

}  // namespace schedlab::testing
