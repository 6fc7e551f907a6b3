// Feitelson's generative model with locality of sampling ("Locality of Sampling and Diversity in Parallel
// System Workloads", Sec. 4; ../shared/spec/feitelson-locality.md), and the scrambled baseline.
//
// generate_locality(): the global distribution is the log's jobs (every record with a known runtime >= 0 and
// a size > 0: its runtime, size and estimate travel together, with its user, group and executable). Loop:
// draw a job X uniformly from the pool, draw a run length R with P(R = r) ∝ r^-θ for r = 1..max_repetitions
// (a normalised table, as the paper), emit X R times. The first item of each run arrives by a Poisson process
// whose rate is the log's job rate / E[R] (so that jobs arrive at the log's job rate), or at the log's own
// submit times (`arrivals = kLog`: run k at the submit time number floor(k × E[R]), so that the runs cover the
// log's span; past the last one they start again one log span later); repeat k
// arrives when repeat k - 1 ends (its runtime) plus `think` seconds. `repeat` chooses what repeats: the whole
// job (kJob), only its runtime and estimate (kRuntime; the size is drawn afresh for every job) or only its size
// (kSize). Runs are generated until `jobs` jobs exist (the last run is cut), then sorted by submit time (ties:
// the order generated) and numbered 1..jobs. The generated log holds the log's job rate while runs start; the
// repeats of the runs still going on at the last run start (the tail, LocalityModelStats) arrive after it, and
// `cut_tail` drops them.
// Records: fields 1 job number, 2 submit, 3 wait -1, 4 runtime, 5 and 8 size, 9 the source's estimate, 11
// status 1, 12-16 the source's user, group, executable, queue, partition; the others -1.
//
// scramble(): the log's jobs (sorted by submit) keep their arrival times, and every other field is permuted
// over them (Fisher-Yates): locality is destroyed, the global distribution and the arrival process kept.
//
// Randomness: base::Rng::stream(seed, 0) for the runs (X, R, then the gap to the next run, in that order) and
// stream(seed, 1) for kRuntime/kSize's fresh draws; byte-identical output for a seed. Cost O(jobs log jobs).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/header.h"
#include "schedlab/swf/record.h"

namespace schedlab::model {

struct LocalityModelOptions {
  double theta = 2.5;            // > 1
  int64_t jobs = 0;              // > 0; 0: as many as the log has
  int max_repetitions = 1000;    // >= 1
  enum class Repeat { kJob, kRuntime, kSize } repeat = Repeat::kJob;
  enum class Arrivals { kPoisson, kLog } arrivals = Arrivals::kPoisson;
  int64_t think = 0;             // seconds between a repeat's end and the next repeat, >= 0
  // Drop the tail (below): the repeats submitted after the last run has started, as a real log's end cuts the runs
  // going on at it. Fewer than `jobs` jobs then remain (stats.tail_jobs fewer).
  bool cut_tail = false;
  uint64_t seed = 1;
};

struct LocalityModelStats {
  int64_t pool = 0;              // jobs of the log in the global distribution
  int64_t runs = 0;              // runs generated
  int64_t following = 0;         // repeats: jobs that name the job before them in their run (SWF fields 17-18)
  double mean_run_length = 0;    // E[R] of the table
  double log_rate_per_day = 0;   // the log's jobs per day
  double run_rate_per_day = 0;   // first items per day (Poisson)
  int64_t largest_size = 0;      // of the pool (MaxProcs when the log's header has none)
  // The tail: runs started near the end go on past the last run start, a repeat each runtime (CEA-Curie: 558 jobs
  // of 28 runs over 218.6 more days, the runs' span 254 days), so whole-log jobs per day and load fall below the
  // log's (661 against 1,233 jobs/day).
  int64_t last_run_start = 0;    // submit time of the last run's first job
  int64_t tail_jobs = 0;         // repeats submitted after it (dropped with cut_tail)
  int64_t tail_runs = 0;         // the runs they belong to
  int64_t tail_seconds = 0;      // from the last run start to the last of them
  // The log's records not in the pool, by the first reason: "unknown_submit_time", "unknown_runtime",
  // "unknown_size" (only the reasons that occur).
  std::map<std::string, int64_t> left_out;
};
// The tail in words: "558 repeats of 28 runs arrive after the last run starts, over 218.6 more days ..." (with
// what `option`, the caller's name of cut_tail, does or did), or that there is none. `grouped`: "3,935 repeats",
// as the terminal's other counts; a header's notes write counts plain.
std::string locality_tail_text(const LocalityModelStats& stats, bool cut_tail, std::string_view option,
                               bool grouped);

// "60 records left out: unknown_runtime 60", or "" when none was.
// `grouped`: thousands grouped, as the terminal's other counts ("6,066 records"); a header's notes write them plain.
std::string left_out_text(const LocalityModelStats& stats, bool grouped = false);

// The names of the choices ("job", "runtime", "size"; "poisson", "log"), for the CLI, Python and the header's
// Note line, and back (nullopt for anything else). The *_names() lists are in enum order.
std::string_view locality_repeat_name(LocalityModelOptions::Repeat r);
std::optional<LocalityModelOptions::Repeat> parse_locality_repeat(std::string_view name);
std::vector<std::string> locality_repeat_names();
std::string_view locality_arrivals_name(LocalityModelOptions::Arrivals a);
std::optional<LocalityModelOptions::Arrivals> parse_locality_arrivals(std::string_view name);
std::vector<std::string> locality_arrivals_names();

// Throws std::invalid_argument naming the option: theta <= 1, jobs < 0, max_repetitions < 1, think < 0 (so that a
// tool can check its options before it reads a log).
void check_locality_options(const LocalityModelOptions& options);
// Throws std::invalid_argument as check_locality_options(), or when the log has no usable job (or, for Poisson
// arrivals, fewer than two distinct submit times).
std::vector<swf::Record> generate_locality(const std::vector<swf::Record>& log, const LocalityModelOptions& options,
                                           LocalityModelStats* stats = nullptr);
// The header of a generated log: MaxNodes and MaxProcs from the log's header (MaxProcs, when it has none: the
// largest size), its UnixStartTime, TimeZone and TimeZoneString when it has them (the generated submit times are
// on its axis), and Note lines with the model, the source and every parameter.
swf::Header locality_header(const swf::Header& log_header, const std::string& source, const LocalityModelOptions& o,
                            const LocalityModelStats& stats);

std::vector<swf::Record> scramble(const std::vector<swf::Record>& log, uint64_t seed);
// The same header fields as locality_header(), with Note lines naming the source and the seed.
swf::Header scramble_header(const swf::Header& log_header, const std::vector<swf::Record>& log, const std::string& source,
                            uint64_t seed);

}  // namespace schedlab::model
