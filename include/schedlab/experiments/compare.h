// The per-period comparison of schedulers (Talby thesis §7.2, Tables 8–11, 13, 14 and Figure 7): several
// policies simulated on one log (read once, the runs on parallel threads), then compared period by period.
//
//   CompareResult r = run_compare(spec, log);   // throws std::invalid_argument on a bad spec, before simulating
//   nlohmann::json j = to_json(r);
//
// Definitions (the thesis gives the tables, not every formula; docs/adaptive.md):
// - Periods: consecutive `period`-long windows from the first job's submit time; a job belongs to the
//   period it was submitted in. Period means are over all the jobs of the period (the warm-up applies to
//   the whole-log averages only). Periods without jobs are left out of everything.
// - Wins (Table 9): per metric, a period is won by the scheduler whose period mean is lower than every other's.
//   A lowest mean two or more share (equal schedules; no wait at all in a quiet month) is won by none of them
//   and counted for each as a shared best (the thesis is silent on ties; given to the first listed, a Maui equal
//   to EASY listed after it showed 0 months won, and a quiet month was a win of whichever came first).
// - Gaps (Table 10), for each pair (a, b) and the wait metric: over the periods a wins (a's mean lower than
//   b's), the mean and the largest (mean wait of b − mean wait of a) / mean wait of a; the same for b; and the
//   periods where the two are equal, in neither. A period whose winner had no wait at all is won but has no
//   relative gap: it is left out of the mean and the largest (it counted as a gap of 0 until 2026-11).
// - Deviation (Figure 7): (scheduler's period mean − mean of all schedulers' period means) / that mean.
// - Gains against the baseline (Tables 11, 14): performance = (baseline's whole-log mean − the scheduler's)
//   / the baseline's; stability = (σ_baseline − σ_scheduler) / σ_baseline, σ the population standard deviation
//   of the period means. Positive = better than the baseline.
// - Correlations (Table 13): Pearson, over periods, between each period attribute and the difference of
//   mean waits (scheduler − baseline): absolute (seconds) and relative (/ the baseline's mean wait). Positive:
//   large values go with the baseline doing better. Attributes: jobs, users, runtime load, and the median and
//   interquartile range of runtime, processors, CPU work (runtime × processors) and inter-arrival time.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/predict/predictor.h"
#include "schedlab/sim/job_classes.h"
#include "schedlab/sim/result.h"
#include "schedlab/sim/scheduler.h"
#include "schedlab/swf/reader.h"
#include "schedlab/workload/workload.h"

namespace schedlab::experiments {

struct CompareSpec {
  std::vector<std::string> schedulers;  // scheduler specs or presets (at least one; names must differ)
  std::string predictor;                // empty: each policy's default (estimate, or a preset's)
  std::string correction;
  // A predictor of the caller's own instead of `predictor` (SimulationSpec::predictor_object): every scheduler runs
  // a clone of it.
  std::shared_ptr<const predict::Predictor> predictor_object = {};
  // Empty, or one per entry of `schedulers`: a non-null entry is a policy of the caller's own run in that place
  // (SimulationSpec::scheduler_object), `schedulers[i]` naming it (empty: its name()).
  std::vector<std::shared_ptr<const sim::Scheduler>> scheduler_objects = {};
  workload::WorkloadOptions workload;
  sim::SimOptions sim;
  int64_t period = 30 * 86400;  // seconds, > 0
  std::string baseline;         // one of `schedulers`; empty: the last one listed
  int threads = 0;              // parallel simulations; 0: the machine's cores
  // Each scheduler's metrics by job class as well (sim/job_classes.h): CompareResult::by_class.
  std::optional<sim::JobClassLimits> by_class = std::nullopt;
};

// The attributes of one period's jobs (Table 13's variables).
struct PeriodAttributes {
  int64_t index = 0;  // period number from the first submit
  int64_t start = 0;  // seconds (the workload's clock)
  int64_t jobs = 0, users = 0;
  double load = 0;  // runtime × processors / (machine processors × period)
  double runtime_median = 0, runtime_iqr = 0, procs_median = 0, procs_iqr = 0;
  double work_median = 0, work_iqr = 0, interarrival_median = 0, interarrival_iqr = 0;
};
// Attribute names in the order of PeriodAttributes (for tables and JSON) and their values.
const std::vector<std::string>& period_attribute_names();
std::vector<double> period_attribute_values(const PeriodAttributes& a);

enum class CompareMetric { kWait, kBoundedSlowdown };

struct CompareResult {
  CompareSpec spec;
  std::vector<std::string> names;       // as results call them (a preset's name, a spec)
  std::vector<sim::SimResult> results;  // whole-log, per scheduler
  std::vector<PeriodAttributes> periods;
  // [metric][scheduler][period]: period means.
  std::vector<std::vector<std::vector<double>>> period_means;
  size_t baseline = 0;  // index into names
  int64_t procs = 0;
  size_t jobs = 0;
  // The workload all schedulers ran: the log's records, those left out by reason, the arrival scaling and the
  // workload's notes (what was excluded or changed), as `simulate` reports them.
  int64_t records = 0;
  std::map<std::string, int64_t> excluded;
  double arrival_scale = 1.0, offered_load = 0.0;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;  // what the results say about how they were asked for (simulation_warnings)
  // With spec.by_class: [scheduler][class], the four classes of sim::metrics_by_class (JSON: each scheduler's
  // "by_class", and "by_class_limits").
  std::vector<std::vector<sim::JobClassMetrics>> by_class;

  double whole(CompareMetric m, size_t s) const;
  // Per scheduler: the periods it won alone, and those where it shared the lowest mean with another.
  std::vector<int64_t> wins(CompareMetric m) const;
  std::vector<int64_t> shared_wins(CompareMetric m) const;
  struct Gap {
    int64_t periods = 0;      // won
    int64_t gap_periods = 0;  // of those, the ones whose winner waited at all (a gap over a mean of 0 is none)
    // Over the gap periods, fractions (0.5 = 50%); NaN over none (JSON null).
    double mean = std::numeric_limits<double>::quiet_NaN(), max = std::numeric_limits<double>::quiet_NaN();
  };
  struct PairGaps {
    Gap a, b;            // the periods won by a (first) and by b (second), with their wait gaps
    int64_t tied = 0;  // periods of equal mean waits
  };
  PairGaps gaps(size_t a, size_t b) const;
  // [scheduler][period]
  std::vector<std::vector<double>> deviations(CompareMetric m) const;
  // (baseline − s) / baseline of the whole-log mean, and of the standard deviation of the period means; 0 for the
  // baseline itself, NaN when the baseline's is 0 (no wait; a single period).
  double performance_gain(CompareMetric m, size_t s) const;
  double stability_gain(CompareMetric m, size_t s) const;
  // Per attribute: {absolute, relative} correlation with (wait of s − wait of the baseline). NaN when undefined.
  std::vector<std::pair<double, double>> correlations(size_t s) const;
};

CompareResult run_compare(const CompareSpec& spec, const swf::Log& log);

nlohmann::json to_json(const CompareResult& r);

// The per-period table of `compare --csv`: period, start, the period's attributes, then per scheduler its mean
// wait and bounded slowdown and their deviations (columns "SPEC:wait", ...; a spec with a comma is quoted).
std::string compare_csv(const CompareResult& r);

}  // namespace schedlab::experiments
