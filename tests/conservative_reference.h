// An obvious conservative backfilling (sim/conservative.h), shared by its test
// (src/sim/conservative_reference_test.cc) and the simulation fuzzer (fuzz/simulate_fuzz.cc): the reservations are
// a map from job to [start, end), the running jobs' holds another, and every question — how many processors are free
// on a span, where a job fits first — is answered by a scan over all the holds, built afresh for each question. No
// availability profile, no certificates, no remembered failures, no heap of due reservations, no flag for changed
// predictions (the holds are compared with the predictions at every call). It follows the rules of the header
// comment of sim/conservative.h (held durations, overdue jobs, releases, one compression pass or passes to a
// fixpoint, wake-ups, promises) and must give every job the same start as the scheduler.
#pragma once

#include <memory>

#include "schedlab/sim/scheduler.h"

namespace schedlab::testing {

std::unique_ptr<sim::Scheduler> keeping_conservative(bool fixpoint);

}  // namespace schedlab::testing
