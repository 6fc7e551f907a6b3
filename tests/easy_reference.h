// A second opinion on EASY, shared by the tests (src/sim/easy_reference_test.cc, on whole real logs) and the
// simulation fuzzer (fuzz/simulate_fuzz.cc, on small adversarial workloads): an obvious, slow, per-instant
// implementation of the conventions of docs/conventions.md, written from the records without the engine, the
// workload builder or sim/shadow.h.
//
// A record is simulated when its runtime >= 0, its size (requested processors, else allocated) is in
// 1..machine and its submit time >= 0; its estimate is the requested time when > 0, else its runtime. With
// extend, an estimate below the runtime is raised to it; then with kill, a job runs min(runtime, estimate).
// Jobs are ordered by (submit, SWF job number, position in the log).
//
// At each instant: terminations, then arrivals, then one scheduling pass: start queued jobs in order while the
// head fits; for the head that does not, the shadow time is the earliest expected end T (expected end =
// max(start + estimate, now)) at which the processors free now plus those of every running job expected to end
// by T cover the head; extra = those processors - the head's. Then every later job starts if it fits now and
// either ends by the shadow time or fits in extra (which it then uses). A job with runtime 0 ends at the same
// instant, which makes another round. With shortest_first (easy-sjbf) the later jobs are visited by estimate,
// shortest first (ties in queue order), instead of in queue order.
#pragma once

#include <cstdint>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::testing {

struct EasyReferenceOptions {
  bool shortest_first = false;  // easy-sjbf
  bool extend = false;          // WorkloadOptions::extend_estimates
  bool kill = false;            // WorkloadOptions::kill_at_estimate
};

// Start time of every simulated record, by position in the log (-1 for a record not simulated). Throws
// std::logic_error if jobs wait with nothing running and nothing to arrive, or the head of the queue could never
// fit (both bugs of the reference: every simulated job fits the machine).
std::vector<int64_t> reference_easy_starts(const std::vector<swf::Record>& records, int64_t machine,
                                           const EasyReferenceOptions& options = {});

}  // namespace schedlab::testing
