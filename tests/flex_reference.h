// An obvious Flex (sim/flex.h), shared by its test (src/sim/flex_reference_test.cc) and the simulation fuzzer
// (fuzz/simulate_fuzz.cc): the waiting jobs in priority order with their reservations and deadlines, and every
// question — does a job fit at its reservation, where does it fit first — answered by a scan over the holds of the
// running jobs and the reservations (tests/hold_steps.h), built afresh for each question. At every call it rebuilds
// the schedule from the running jobs (every job kept at its reservation where it still fits, the grown ones after
// the others when keeping them in place would push another job past its deadline), compresses it by one pass in
// priority order on the occasions sim/flex.h names (an early end or a changed prediction, both learnt from the
// notifications; an insertion at the last call; an overdue running job; a reservation passed unused), and places each
// arrival by trying every position of the queue in full: no availability profile, no profile kept between calls, no
// certificates, no search that stops when it cannot win. The occasions matter: one pass can leave a job that a later
// job's move would let start earlier, and compressing at every call would then move it sooner than Flex does. It
// follows the rules of the header comment of sim/flex.h (slack, candidates, cost, ties, held durations, overdue
// jobs, wake-ups) and must give every job the same start as the scheduler.
#pragma once

#include <memory>

#include "schedlab/sim/scheduler.h"
#include "sim/flex.h"

namespace schedlab::testing {

std::unique_ptr<sim::Scheduler> trying_flex(const sim::FlexScheduler::Options& options);

}  // namespace schedlab::testing
