// libFuzzer entry point for the simulator: the bytes are a small workload (up to 40 jobs on a machine of 1 to 16
// processors; same-instant arrivals, zero runtimes, estimates missing, exact, under and over the runtime, jobs
// too wide for the machine, feedback links to earlier, later and missing jobs; the arrivals as logged, squeezed
// to a quarter or spread four times), and every registered scheduler,
// one variant of their parameters and every preset simulate it with the engine's checks on (SimOptions::check:
// no processor over-committed, every job run exactly its runtime once, no start after a reservation's promise,
// the schedulers' own self-checks where they have one), with one of eight predictors or, one input in two, a
// predictor that re-predicts any job at any hook (tests/shuffling_predictor.h). Any exception from a workload the
// builder accepted is a bug, and so is a difference between
// - `easy` / `easy-sjbf` with the `estimate` predictor and the obvious per-instant EASY of tests/easy_reference.h
//   (the start of every job; the real logs are compared in src/sim/easy_reference_test.cc),
// - easy-preemptive, lerwf and lerwf-fill (resume delays 0 and 7 s) and their obvious implementations of
//   tests/preemptive_references.h (every job's start, end, run time and suspensions),
// - conservative (one pass and fixpoint), easy-kill, two Maui and three Flex configurations and the obvious
//   implementations of tests/conservative_reference.h, tests/maui_reference.h and tests/flex_reference.h (every
//   job's start), and
// - two runs of the same scheduler (every job's start, end and run time, and the metrics): the same inputs give
//   the same schedule. The averages leave out none, 1%, half or 95% of the first jobs (the warm-up).
// Real logs exercise the schedulers at scale; these tiny workloads reach the corners they rarely meet.
// To replay a finding with the command: SCHEDLAB_FUZZ_DUMP=case.swf build-fuzz/simulate_fuzz ARTIFACT writes the
// workload as a log and prints the options, the predictor and the variant.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "conservative_reference.h"
#include "easy_reference.h"
#include "flex_reference.h"
#include "maui_reference.h"
#include "preemptive_references.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/kill_at_prediction.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"
#include "schedlab/swf/writer.h"
#include "schedlab/workload/workload.h"
#include "shuffling_predictor.h"

namespace {

using namespace schedlab;

constexpr size_t kMaxJobs = 40;
constexpr size_t kBytesPerJob = 6;

// Predictors that keep, lower and raise predictions (and change them while a job runs or waits).
const char* const kPredictors[] = {
    "estimate", "perfect", "user-last2:correction=tsafrir", "sbh", "ruh:propagate=1", "constant:value=30",
    "estimate:correction=double", "user-last2:order=end;running=0",
};

// Parameter values other than the defaults, one of them per input.
const char* const kVariants[] = {
    "conservative:compress=fixpoint;check=1",
    "easy-kill:check=1",
    "maui:depth=3;priority=xfactor;backfill=bestfit;reservation=fixed",
    "maui:backfill=shortest;arrivals=new",
    "flex:slack=estimate;cost=bsld;slack_factor=0",
    "flex:cost=wait;slack_factor=3",
    "pbas:interval=1h;metric=bsld;runtimes=predicted",
    "pbas:candidates=easy,conservative;interval=10m;metric=wait",
    "wbas:interval=1h;maf=10",
    "lerwf:resume_delay=30",
    "lerwf-fill:resume_delay=5",
    "easy-preemptive:resume_delay=7",
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "simulate_fuzz: %s\n", what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// The share of the first jobs left out of the averages (none, Tsafrir's 1%, half, nearly all).
constexpr double kWarmups[] = {0.0, 0.01, 0.5, 0.95};
double warmup = 0.0;

sim::SimResult run(const workload::Workload& w, const std::string& scheduler, const std::string& predictor) {
  sim::SimOptions options;
  options.check = true;
  options.warmup_fraction = warmup;
  try {
    // (A preset brings its own predictor: `predictor` is then empty.)
    sim::SimResult r = predictor.starts_with("shuffling:")
                           ? sim::simulate(w, *sim::make_scheduler(scheduler), *testing::test_predictor(predictor),
                                           options)
                           : sim::simulate(w, scheduler, predictor, options);
    if (r.jobs.size() != w.jobs.size() || r.termination_order.size() != w.jobs.size())
      fail(scheduler + " / " + predictor + ": not every job has an outcome and an end");
    return r;
  } catch (const std::exception& e) {
    fail(scheduler + " / " + predictor + ": " + e.what());
  }
}

bool same_schedule(const sim::SimResult& a, const sim::SimResult& b) {
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    if (a.jobs[i].start != b.jobs[i].start || a.jobs[i].end != b.jobs[i].end || a.jobs[i].ran != b.jobs[i].ran)
      return false;
  }
  // The metrics too, to the bit (NaN where there is no job to average equals NaN).
  const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
  return same(a.metrics.wait.mean, b.metrics.wait.mean) && same(a.metrics.utilization, b.metrics.utilization) &&
         a.metrics.jobs == b.metrics.jobs;
}

// `scheduler` (a spec) and `reference` give every job the same start, end, run time and suspensions.
void compare(const workload::Workload& w, const std::string& scheduler, const sim::Scheduler& reference,
             const predict::Predictor& predictor) {
  sim::SimOptions options;
  options.check = true;
  sim::SimResult want, got;
  try {
    want = sim::simulate(w, reference, predictor, options);
    got = sim::simulate(w, *sim::make_scheduler(scheduler), predictor, options);
  } catch (const std::exception& e) {
    fail(scheduler + " or its reference / " + std::string(predictor.name()) + ": " + e.what());
  }
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const sim::JobOutcome& a = got.jobs[i];
    const sim::JobOutcome& b = want.jobs[i];
    if (a.start != b.start || a.end != b.end || a.ran != b.ran || a.suspensions != b.suspensions)
      fail(scheduler + ": job " + std::to_string(w.jobs[i].job_number) + " starts " + std::to_string(a.start) +
           ", ends " + std::to_string(a.end) + ", suspended " + std::to_string(a.suspensions) + "; the reference " +
           std::to_string(b.start) + ", " + std::to_string(b.end) + ", " + std::to_string(b.suspensions));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const int64_t machine = 1 + data[0] % 16;
  const uint8_t flags = data[1];
  const uint8_t choice = data[2];
  workload::WorkloadOptions wo;
  wo.kill_at_estimate = flags & 1;
  wo.extend_estimates = flags & 2;
  wo.feedback = flags & 4;
  warmup = kWarmups[(flags >> 3) % std::size(kWarmups)];
  constexpr double kArrivalScales[] = {1.0, 1.0, 0.25, 4.0};  // the arrivals squeezed together or spread out
  wo.arrival_scale = kArrivalScales[(flags >> 5) % std::size(kArrivalScales)];
  swf::Header header;
  header.max_procs = machine;

  std::vector<swf::Record> records;
  int64_t submit = 0;
  for (size_t at = 3; at + kBytesPerJob <= size && records.size() < kMaxJobs; at += kBytesPerJob) {
    const uint8_t* b = data + at;
    swf::Record r;
    r.job_number = static_cast<int32_t>(records.size() + 1);
    submit += b[0] < 160 ? b[0] % 3 : (b[0] - 160) * 7;  // mostly arrivals at the same or the next seconds
    r.submit_time = static_cast<int32_t>(submit);
    const int64_t runtime = b[1] < 24 ? 0 : b[1] < 200 ? b[1] - 24 : (b[1] - 200) * 50;
    r.run_time = static_cast<int32_t>(runtime);
    switch (b[2] % 5) {
      case 0: r.requested_time = -1; break;                                            // none
      case 1: r.requested_time = static_cast<int32_t>(runtime); break;                 // exact (0: none)
      case 2: r.requested_time = static_cast<int32_t>(runtime / 2); break;             // under
      case 3: r.requested_time = static_cast<int32_t>(runtime + b[2]); break;          // over
      default: r.requested_time = static_cast<int32_t>(b[2] * 20); break;              // unrelated
    }
    const int32_t procs = static_cast<int32_t>(1 + (b[3] & 0x7f) % (machine + 1));  // machine + 1: excluded
    if (b[3] & 0x80) {
      r.allocated_procs = procs;
    } else {
      r.requested_procs = procs;
    }
    r.status = 1;
    r.user_id = b[4] % 4;
    r.executable = (b[4] >> 2) % 3;
    r.group_id = 1;
    if (wo.feedback && b[5] % 4 == 0) {
      r.preceding_job = (b[5] >> 2) % static_cast<int>(records.size() + 3);  // 0, earlier, itself, later
      r.think_time = b[5] % 3 == 0 ? -1 : b[5];
    }
    records.push_back(r);
  }

  const std::string predictor =
      flags & 0x80 ? "shuffling:" + std::to_string(choice) : kPredictors[choice % std::size(kPredictors)];
  const std::string variant = kVariants[(choice >> 3) % std::size(kVariants)];
  if (const char* dump = std::getenv("SCHEDLAB_FUZZ_DUMP")) {
    swf::write_log(dump, header, records);
    std::fprintf(stderr,
                 "simulate_fuzz: wrote %s (--procs %lld%s%s%s --arrival-scale %g --warmup-fraction %g --check; "
                 "predictor %s; variant %s)\n",
                 dump, static_cast<long long>(machine), wo.kill_at_estimate ? " --kill-at-estimate" : "",
                 wo.extend_estimates ? " --extend-estimates" : "", wo.feedback ? " --feedback" : "", wo.arrival_scale,
                 warmup, predictor.c_str(), variant.c_str());
  }
  workload::Workload w;
  try {
    w = workload::build_workload(header, records, wo);
  } catch (const std::invalid_argument&) {
    return 0;  // e.g. kill-at-estimate without any estimate: refused by name, as it should be
  }
  if (w.jobs.empty()) return 0;

  int64_t suspensions = 0;
  for (const auto& entry : sim::schedulers()) suspensions += run(w, std::string(entry.name), predictor).suspensions;
  const sim::SimResult first = run(w, variant, predictor);
  if (!same_schedule(first, run(w, variant, predictor))) fail(variant + " / " + predictor + ": two runs differ");
  for (const auto& preset : sim::presets()) run(w, std::string(preset.name), "");

  // The preemptive schedulers against their obvious implementations, on the engine with the chosen predictor. Not
  // when a schedule thrashes: a predictor that predicts a second at a time has easy-preemptive suspend a job every
  // second (94,400 suspensions of 37 jobs in one input), legitimately, and the walking reference costs O(Q x R) per
  // event: four such runs took 20 s under the sanitizers, past the fuzzer's 10-s timeout.
  const auto predictor_made = testing::test_predictor(predictor);
  for (const int64_t delay : {int64_t{0}, int64_t{7}}) {
    if (suspensions > 10000) break;
    const std::string suffix = ":resume_delay=" + std::to_string(delay);
    compare(w, "easy-preemptive" + suffix, *testing::walking_easy_preemptive(delay), *predictor_made);
    compare(w, "lerwf" + suffix, *testing::sorting_lerwf(false, delay), *predictor_made);
    compare(w, "lerwf-fill" + suffix, *testing::sorting_lerwf(true, delay), *predictor_made);
  }
  // Conservative and Maui against theirs.
  compare(w, "conservative", *testing::keeping_conservative(false), *predictor_made);
  compare(w, "conservative:compress=fixpoint", *testing::keeping_conservative(true), *predictor_made);
  compare(w, "easy-kill", sim::KillAtPrediction("easy-kill", testing::keeping_conservative(false)), *predictor_made);
  using Maui = sim::MauiScheduler::Options;
  compare(w, "maui:depth=2;priority=xfactor;backfill=bestfit;reservation=fixed",
          *testing::sorting_maui({2, Maui::Priority::kXfactor, Maui::Backfill::kBestFit, true, false}),
          *predictor_made);
  compare(w, "maui:backfill=shortest;arrivals=new",
          *testing::sorting_maui({1, Maui::Priority::kFcfs, Maui::Backfill::kShortest, false, true}), *predictor_made);
  // Flex against its own: the default, and a slack of nothing and of three mean waits with the other costs.
  using Flex = sim::FlexScheduler::Options;
  compare(w, "flex", *testing::trying_flex(Flex{}), *predictor_made);
  Flex none;
  none.slack = Flex::Slack::kEstimate;
  none.slack_factor = 0;
  none.cost = Flex::Cost::kBoundedSlowdown;
  compare(w, "flex:slack=estimate;cost=bsld;slack_factor=0", *testing::trying_flex(none), *predictor_made);
  Flex wide;
  wide.slack_factor = 3;
  wide.cost = Flex::Cost::kWait;
  compare(w, "flex:cost=wait;slack_factor=3", *testing::trying_flex(wide), *predictor_made);

  if (w.has_feedback() || wo.arrival_scale != 1.0) return 0;  // the reference submits every job at its logged time
  for (const bool sjbf : {false, true}) {
    const std::string name = sjbf ? "easy-sjbf" : "easy";
    const sim::SimResult r = run(w, name, "estimate");
    const std::vector<int64_t> reference = testing::reference_easy_starts(
        records, w.procs, {.shortest_first = sjbf, .extend = wo.extend_estimates, .kill = wo.kill_at_estimate});
    for (size_t i = 0; i < w.jobs.size(); ++i) {
      const int64_t expected = reference[w.record_index[i]];
      if (expected != r.jobs[i].start)
        fail(name + ": job " + std::to_string(records[w.record_index[i]].job_number) + " starts at " +
             std::to_string(r.jobs[i].start) + ", the reference EASY at " + std::to_string(expected));
    }
  }
  return 0;
}
