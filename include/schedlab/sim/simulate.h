// The discrete-event scheduler simulator. Everything the `schedlab simulate` command does is callable
// from here; the CLI only parses options and prints.
//
// Events, in integer seconds, deterministic. At one instant the engine processes, in this order:
//   1. all terminations at that time (by job id): processors freed, predictor then scheduler notified;
//   2. all arrivals (queue order = (submit, job id)): predictor gives the initial prediction, the job joins
//      the queue, scheduler notified. With feedback (Workload::has_feedback()) a job that follows another is
//      submitted its think time after that job's termination (any termination: a kill too), at that instant
//      among the others by job id; SimResult::submit keeps every job's submit time;
//   3. deadline misses (a running job still running at start + prediction, by job id): predictor notified;
//      then the scheduler's overrun policy (sim/scheduler.h): keep running, kill, or suspend and re-queue;
//   4. prediction updates returned by the predictor (applied in order, clamped to >= elapsed runtime);
//   5. if anything of 1, 2 or 4 happened, or the scheduler asked to be woken now (Decision::wake_at): ONE
//      scheduler call; the chosen jobs start now (predictor and scheduler notified of each start). If the
//      predictor changes predictions on a start, the scheduler is called again at the same instant (only
//      then).
// A job with runtime 0 terminates at the instant it starts: its termination is a new round at the same
// time (step 1 again, then another scheduler call).
//
// --check (SimOptions::check) verifies while simulating and throws std::logic_error naming the job:
// processors never over-committed; no job starts before its submission; every job runs exactly its
// runtime (min(runtime, estimate) with kill-at-estimate), summed over the pieces it ran in when suspended
// (or until a kill); every job is started and terminated exactly once; no processor runs two jobs (the
// machine tracks processors under --check) and a resumed job runs on the processors it left; no job starts later than a reservation the scheduler gave it while the promise could hold
// (sim/scheduler.h). Always-on cheap checks: a scheduler starting a job that is not waiting or does not
// fit, and jobs left waiting on an idle machine at the end, are errors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/predict/predictor.h"
#include "schedlab/sim/result.h"
#include "schedlab/sim/scheduler.h"
#include "schedlab/workload/workload.h"

namespace schedlab::sim {

// Simulates `workload` under copies (clone()) of `scheduler` and `predictor`.
SimResult simulate(const Workload& workload, const Scheduler& scheduler, const predict::Predictor& predictor,
                   const SimOptions& options = {});

// Same, with the scheduler and predictor made from their registries by name (throws
// std::invalid_argument for unknown names). `predictor` is a predictor spec (predict/spec.h). `scheduler`
// may also be a preset (sim/scheduler_registry.h: easy-pcor, easy+, easy++, perfect++), which sets the
// predictor too: then `predictor` must be empty (resolve_policy). Empty `predictor`: the default, estimate.
SimResult simulate(const Workload& workload, std::string_view scheduler, std::string_view predictor = {},
                   const SimOptions& options = {});

}  // namespace schedlab::sim
