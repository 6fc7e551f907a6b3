// The job layer of Talby's user/session workload model (thesis §13.2), fitted per session class from a log.
// The thesis describes the layer (Listing 5's GenerateSession) but does not fit it; this is the project's
// Decision (../shared/spec/talby-thesis.md, docs/generate.md "Talby's user/session model"):
//
// Fitting (fit_talby_job_layer): the log's user sessions (trace/sessions.h, 20-minute think time) are classified
// by k-means into the five session classes exactly as `schedlab sessions --classify` does (seed 1, 10 restarts,
// z-scored; analysis/session_classes.h). Per class, empirical distributions (value -> count) of:
// - the minute of the week of the session's start (0 = Monday 00:00 .. 10079), in the log's local time: day and
//   time of day together (Listing 5 draws both; together they keep, e.g., Friday-night starts of weekend work);
// - sequences per session: a sequence is a maximal run of consecutive jobs of the session (submit order) with
//   the same size and the same executable (an unknown executable matches an unknown one) — the "unique job
//   sequences" of §13.2;
// - the sequences themselves: every sequence of the class's sessions with its size and the runtimes of its
//   jobs (a block bootstrap: a generated sequence is one of them, drawn uniformly, so its size, runtimes and
//   repetitions keep the log's joint structure — the thesis draws runtime, parallelism and repetitions per
//   sequence; drawing them apart made repeats of long jobs from ratios of short ones and loads of 10x);
// - think time between consecutive jobs of the session: submit minus the previous job's recorded end
//   (trace::recorded_end; may be negative), always < the 20-minute session boundary; and the inter-arrival
//   time of the pairs whose think time is negative (the user submitted before the previous job ended).
// Jobs with an unknown runtime (< 0) or no size (<= 0) are left out of the session's sequences (counted).
// User estimates are the Tsafrir modal model fitted to the whole log (model/estimate_models.h fit_tsafrir,
// top 2), applied to the generated runtimes.
//
// Sampling (draw_session): Listing 5's GenerateSession for one class: start minute of the week (and a uniform
// second), number of sequences, then each sequence drawn from the class's pool; the first job of the session is
// submitted at the session's start, every further job after a think time drawn from the class: a think time t >= 0
// puts it at the previous job's submit + its runtime + t; a negative one (submitted while the previous job ran)
// at the previous submit + an overlapping inter-arrival time drawn from the class, at most the previous runtime +
// 19:59 (Decision: adding the negative think time to a generated runtime made a third of all jobs arrive at once).
// Either way the jobs of a generated session form one session again under the 20-minute rule. Sizes scale with
// the machine: a serial job stays serial, others become round(size × procs / fitted procs), in 1..procs.
//
// File (to_json / read_talby_job_model): a JSON object {"model": "talby-job-layer", "version": 1, "source",
// "procs", "sessions", "jobs", "skipped_jobs", "estimates": {tsafrir fit}, "classes": {"IWD": {"sessions",
// "jobs", "start_minute", "sequences", "think", "overlap_gap", "pool": {"sizes": [...], "lengths": [...],
// "runtimes": [...]}}, ...}}, each distribution {"values": [...], "counts": [...]}; the pool's runtimes are
// the sequences' runtimes one after the other (lengths[i] of them for sequence i). Reading validates every field and throws
// std::invalid_argument naming the file and the field.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "schedlab/analysis/session_classes.h"
#include "schedlab/base/random.h"
#include "schedlab/swf/reader.h"

namespace schedlab::model {

// An empirical distribution: distinct values ascending, each with a count > 0.
class Empirical {
 public:
  void add(double value, int64_t count = 1);  // accumulate (any order); call finish() before drawing
  void finish();                             // sorts, merges equal values, builds the cumulative counts
  double draw(base::Rng& rng) const;         // a value with probability count / total; needs total() > 0
  int64_t total() const { return cumulative_.empty() ? 0 : cumulative_.back(); }
  const std::vector<double>& values() const { return values_; }
  const std::vector<int64_t>& counts() const { return counts_; }
  double quantile(double p) const;  // the smallest value whose cumulative share reaches p
  double mean() const;

 private:
  std::vector<double> values_;
  std::vector<int64_t> counts_, cumulative_;
  static constexpr int64_t kLookupLimit = 1 << 22;
  std::vector<uint32_t> lookup_;  // value index per unit of count (when total() <= kLookupLimit)
};

struct TalbySequencePool {
  std::vector<int32_t> sizes, lengths, runtimes;
  std::vector<int64_t> first;  // index of each sequence's first runtime (derived)
  size_t count() const { return sizes.size(); }
};

struct TalbyClassJobs {
  int64_t sessions = 0, jobs = 0;
  Empirical start_minute, sequences, think, overlap_gap;  // start_minute: of the week
  TalbySequencePool pool;
};

struct TalbyJobModel {
  std::string source;
  int64_t procs = 0;  // the fitted log's machine size
  int64_t sessions = 0, jobs = 0, skipped_jobs = 0;
  nlohmann::json estimates;  // the Tsafrir fit (parameters of apply_estimate_model("tsafrir", ...))
  std::array<TalbyClassJobs, analysis::kSessionClasses> classes;
};

// Throws std::invalid_argument naming `source` when the log has no user, no session, no estimate, no
// UnixStartTime (local time), an unknown machine size, or a session class that receives no session.
TalbyJobModel fit_talby_job_layer(const swf::Log& log, const std::string& source);

nlohmann::ordered_json to_json(const TalbyJobModel& model);
// `name` is used in error messages ("FILE: classes.IWD.size.counts: ...").
TalbyJobModel talby_job_model_from_json(const nlohmann::json& j, const std::string& name);
TalbyJobModel read_talby_job_model(const std::string& path);
void write_talby_job_model(const std::string& path, const TalbyJobModel& model);

// One generated job of a session (before estimates).
struct TalbyJob {
  int64_t submit = 0;
  int32_t runtime = 0, size = 1;
  int64_t sequence = 0;  // 0-based within the session
  // The think time after the session's previous job ended, when this job was submitted after that end (it follows
  // that job: SWF fields 17-18); -1 for the first job and a job submitted while the previous one ran.
  int32_t think = -1;
};
struct TalbySession {
  int64_t start = 0, end = 0;  // end = latest submit + runtime of its jobs
  analysis::SessionClass cls = analysis::SessionClass::kIWD;
  std::vector<TalbyJob> jobs;
};

// Listing 5's GenerateSession in two steps (so a start that already collides costs no job draws): the start of a
// session of class `cls` in the week starting at `week_start` (a Monday 00:00, seconds), then its jobs on a
// machine of `procs` processors (sets `end`).
TalbySession draw_session_start(const TalbyJobModel& model, analysis::SessionClass cls, int64_t week_start,
                                base::Rng& rng);
void draw_session_jobs(const TalbyJobModel& model, TalbySession& session, int64_t procs, base::Rng& rng);

}  // namespace schedlab::model
