// The historical application profiler of Gibbons 1997 (docs/predictors.md): a repository of
// past runtimes by category, the weighted least-squares execution-time function T(p) = a/p + b + c·p with
// Student-t intervals, the fallback chain, the correction for jobs that outlived their estimate, and Welch's
// one-sided test (compareJobEstimates). Pure C++: persistence is in predict/profiler_db.h, the simulation
// predictor in predict/profiler_predictor.h.
//
// Categories, tried in this order by every query:
//   1. exe_user: (executable, user)      2. exe: (executable, any user)      3. system: every job.
// Executable = SWF field 14, user = field 12 (−1 = unknown user: one user, like the other predictors).
// A job with an unknown executable (−1) has no executable category: it is counted in the system category
// only, and a query for it starts at the system level (its (−1, user) leaf is still stored, see Repository).
//
// Repository entries: per category, a RunEntry {n, Σt, Σt², Σp} for every (processor bucket, elapsed bucket):
//   processor bucket  ⌈log2 p⌉: {1} → 0, {2} → 1, {3,4} → 2, {5..8} → 3, ...
//   elapsed bucket    base 2 in seconds (spec Decision): t = 0 → 0; 2^(k−1) <= t < 2^k → k (t = 1 → 1, 2–3 → 2).
// All sums are exact integers (Σt² in 128 bits), so the result does not depend on the order jobs were added
// and a repository saved and loaded again gives bit-identical estimates. All jobs weigh equally (no decay).
//
// Conditioning on the attained (elapsed) time R: a query with R > 0 uses only the entries whose elapsed
// bucket is >= bucket(R). This is BUCKET-GRANULAR: every job that ran at least R is kept, and so are the jobs
// of R's own bucket that ran less than R (at least 2^(k−1) > R/2). R <= 0 uses every entry.
//
// Estimate at p processors within one category (get_estimate tries the levels in order, first success wins):
//   a. fit: needs >= 3 processor buckets with data. Y_i = mean runtime of bucket i, X_i = [1/p̄_i, 1, p̄_i]
//      with p̄_i = Σp/n of the bucket, V = diag(σ_i²) with σ_i² = s_i²/n_i, the variance of the bucket MEAN
//      (Decision: the thesis calls V "the standard deviations of the estimates in Y", and Y holds means; with
//      this V, (X'V⁻¹X)⁻¹ is the covariance of b and the interval is one for the mean runtime at p).
//      s_i² = the bucket's sample variance; a bucket with one job takes the pooled within-bucket variance
//      Σ(n_i−1)s_i² / Σ(n_i−1) of the points (Decision); every s_i² is at least 1 s² (Decision: runtimes are
//      whole seconds, and a zero variance would make V singular). No fit when every point has one job (no
//      variance information). b = (X'V⁻¹X)⁻¹X'V⁻¹Y; estimate Y0 = X0'b, X0 = [1/p, 1, p]; half-width
//      t(ν, (1+δ)/2)·sqrt(X0'(X'V⁻¹X)⁻¹X0) with ν = n = total observations of the points (as the spec says).
//      A fit whose value at p is not positive (an extrapolation artefact) is not used (Decision).
//   b. bucket mean: the processor bucket of p has n >= 2 jobs: estimate = mean, half-width t(n−1, (1+δ)/2)·s/√n.
//   Otherwise the next level. Nothing anywhere (empty repository, or nothing ran as long as R) → ok = false.
//   Then, for R > 0, the correction of a job that has outlived its estimate (corrected_estimate below).
//
// Costs: add O(log buckets) per level; a query O(levels × entries of the category) plus, when the category
// changed since its last query, one QR solve over its processor buckets (the fit is memoised per category);
// Student-t quantiles are cached. Queries update the memo, so one Repository must not be queried from two
// threads at once (copies are independent).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "schedlab/workload/job.h"
#include "schedlab/swf/record.h"

namespace schedlab::predict::profiler {

// Exact sums of squares (t < 2^31, so Σt² of up to 2^66 jobs fits).
__extension__ typedef unsigned __int128 Uint128;
std::string to_string(Uint128 v);
// Parses decimal digits; false on anything else or overflow.
bool parse_uint128(std::string_view text, Uint128& out);

inline constexpr int kProcBuckets = 33;     // ⌈log2 p⌉ for 1 <= p < 2^32
inline constexpr int kElapsedBuckets = 33;  // 0 .. 32 for 0 <= t < 2^32
inline constexpr int64_t kMaxRuntime = (int64_t{1} << 31) - 1;  // largest runtime the repository accepts
inline constexpr int64_t kMaxProcs = (int64_t{1} << 31) - 1;

int proc_bucket(int64_t procs);       // procs >= 1
int elapsed_bucket(int64_t seconds);  // seconds >= 0 (negative → 0)

struct RunEntry {
  int64_t n = 0;      // jobs
  int64_t sum_t = 0;  // Σ runtime, seconds
  Uint128 sum_t2 = 0; // Σ runtime², s²
  int64_t sum_p = 0;  // Σ processors

  void add(int64_t runtime, int64_t procs);
  void merge(const RunEntry& other);
  double mean() const;        // n > 0
  double mean_procs() const;  // n > 0
  double variance() const;    // sample variance (n − 1 in the denominator), exact until the final division; n >= 2
  friend bool operator==(const RunEntry&, const RunEntry&) = default;
};

enum class Level { kExeUser, kExe, kSystem };
std::string_view level_name(Level level);  // "exe_user", "exe", "system"
enum class Method { kFit, kBucketMean };
std::string_view method_name(Method method);  // "fit", "bucket_mean"

// The two-sided Student-t critical value t(ν, (1+δ)/2) — i.e. quantile (1+δ)/2 — for 0 < δ < 1, ν > 0.
// Quantiles come from Boost.Math and are cached; ν > 1024 is first rounded down to a multiple of 1/16 of its
// power of two (the quantile grows by < 0.02%, so intervals widen imperceptibly) because a growing category
// needs a new ν after every job and one Boost quantile costs tens of microseconds. ν <= 1024 is exact.
double t_two_sided(double dof, double confidence);

// One point of the execution-time fit: a processor bucket's mean processors, mean runtime and the variance of
// that mean (V_ii), and how many jobs it stands for.
struct FitPoint {
  double procs = 0;
  double mean = 0;
  double variance = 0;  // of the mean, > 0
  int64_t n = 0;
};

// getExecTimeFunction's result: b and (X'V⁻¹X)⁻¹ of the weighted least-squares fit of T(p) = a/p + b + c·p.
class ExecutionTime {
 public:
  // Fits from >= 3 points with distinct procs (> 0) and positive variances; nullopt otherwise.
  static std::optional<ExecutionTime> fit(const std::vector<FitPoint>& points);

  // b = [a, b, c]: T(p) = a/p + b + c·p.
  const std::array<double, 3>& coefficients() const { return b_; }
  // (X'V⁻¹X)⁻¹, the covariance of b.
  const std::array<std::array<double, 3>, 3>& covariance() const { return cov_; }
  int64_t observations() const { return n_; }  // total jobs of the points

  struct Result {
    double estimate = 0;    // T(p)
    double half_width = 0;  // t(n, (1+δ)/2)·sqrt(X0'(X'V⁻¹X)⁻¹X0)
    double std_error = 0;   // sqrt(X0'(X'V⁻¹X)⁻¹X0)
    double dof = 0;         // n
  };
  // estimateTime(numProcs, confidence); 0 < confidence < 1 (std::invalid_argument otherwise), procs > 0.
  Result estimate_time(double procs, double confidence) const;

 private:
  std::array<double, 3> b_{};
  std::array<std::array<double, 3>, 3> cov_{};
  std::array<std::array<double, 3>, 3> factor_{};  // L with cov = L·L' (keeps X0'·cov·X0 >= 0 and accurate)
  int64_t n_ = 0;
};

// getEstimate's result.
struct Estimate {
  bool ok = false;
  double estimate = 0;    // mean total runtime, seconds
  double half_width = 0;  // half the width of the confidence interval
  double std_error = 0;   // standard error of `estimate`
  double dof = 0;         // degrees of freedom of the t quantile (fit: n; bucket mean: n − 1)
  Level level = Level::kSystem;
  Method method = Method::kBucketMean;
  int64_t samples = 0;    // jobs behind the estimate (fit: all points; bucket mean: the bucket)
  int buckets = 0;        // processor buckets used (fit) or 1
  double sd = 0;          // bucket mean: sample standard deviation of the bucket's runtimes; fit: 0
  std::optional<ExecutionTime> function;  // the fitted function (method fit)
  // get_estimate with an attained time R > 0 applies Gibbons's correction (corrected_estimate): when the job
  // has outlived E + 3·CI, `estimate` is E' and `uncorrected` keeps E (the half-width is E's).
  bool corrected = false;
  double uncorrected = 0;
  // Jobs of the category that answered or, ok false, of the widest one tried (only those that ran as long as
  // the job, when it has run). ok false with held > 0: data that cannot answer at this size, as the fit is not
  // positive there and the job's processor bucket holds fewer than 2 jobs.
  int64_t held = 0;
  double upper() const { return estimate + half_width; }
};

// A query key: what the scheduler knows about a job.
struct JobQuery {
  int32_t executable = -1;
  int32_t user = -1;
  int64_t procs = 1;
  int64_t attained = 0;  // seconds it has already run (0 = not started)
};

// One category's entries.
class Category {
 public:
  void add(int pbucket, int ebucket, const RunEntry& entry);
  // The entries of processor bucket `pbucket` with elapsed bucket >= min_ebucket, summed (n = 0 if none).
  RunEntry bucket(int pbucket, int min_ebucket) const;
  // Every processor bucket with data at elapsed bucket >= min_ebucket: (pbucket, sum).
  std::vector<std::pair<int, RunEntry>> points(int min_ebucket) const;
  // Every stored (pbucket, ebucket, entry).
  void for_each(const std::function<void(int, int, const RunEntry&)>& f) const;
  int64_t jobs() const { return jobs_; }

  // points(min_ebucket) and the execution-time fit over them (nullopt when no fit is possible), remembered until
  // the category changes: a scheduler asks about many jobs between two terminations, and the fit is the
  // expensive part of a query (the thesis's ExecutionTime objects exist for the same reason). One memo for
  // min_ebucket 0 (arrivals) and one for the last other value (deadline misses). Queries therefore modify the
  // memo: a Repository must not be queried from two threads at once.
  struct Fitted {
    std::vector<std::pair<int, RunEntry>> points;
    std::optional<ExecutionTime> fit;
  };
  const Fitted& fitted(int min_ebucket) const;

 private:
  struct Memo {
    uint64_t version = ~uint64_t{0};
    int min_ebucket = -1;
    Fitted fitted;
  };
  struct Row {
    int pbucket = 0;
    RunEntry total;                                 // all elapsed buckets (the common R = 0 query)
    std::vector<std::pair<int, RunEntry>> elapsed;  // sorted by elapsed bucket
  };
  std::vector<Row> rows_;  // sorted by pbucket
  int64_t jobs_ = 0;
  uint64_t version_ = 0;   // changes with every add
  mutable Memo memo_[2];   // [0]: min_ebucket 0, [1]: the last other min_ebucket
};

class Repository {
 public:
  // Adds one finished job. Throws std::invalid_argument when runtime is outside [0, kMaxRuntime] or procs
  // outside [1, kMaxProcs].
  void add(int32_t executable, int32_t user, int64_t procs, int64_t runtime);
  // Adds an aggregated entry to the leaf (executable, user) and to its upper levels (loading a database).
  void merge(int32_t executable, int32_t user, int pbucket, int ebucket, const RunEntry& entry);

  // The category of a level (nullptr when nothing was added to it). `executable`/`user` are ignored where the
  // level does not use them; exe_user and exe of an unknown executable (< 0) are always nullptr.
  const Category* category(Level level, int32_t executable, int32_t user) const;
  // The stored leaves: (executable, user) → category, including executable −1 (jobs counted only in the
  // system level). The database stores these; the exe and system levels are sums of them.
  const std::map<std::pair<int32_t, int32_t>, Category>& leaves() const { return leaves_; }
  int64_t jobs() const { return system_.jobs(); }
  size_t executables() const { return exes_.size(); }

  // getExecTimeFunction at one level: the fit over the category's entries with elapsed bucket >= bucket(attained).
  std::optional<ExecutionTime> exec_time_function(Level level, int32_t executable, int32_t user,
                                                  int64_t attained) const;
  // getEstimate: the fallback chain (see the top of this file), then, when job.attained > 0, the correction
  // for a job that has outlived its estimate (corrected_estimate; the thesis makes it part of getEstimate).
  // 0 < confidence < 1, procs >= 1.
  Estimate get_estimate(const JobQuery& job, double confidence) const;
  // One level only, uncorrected (ok = false when that level cannot answer).
  Estimate estimate_at(Level level, const JobQuery& job, double confidence) const;

 private:
  std::map<std::pair<int32_t, int32_t>, Category> leaves_;
  std::unordered_map<int32_t, Category> exes_;
  Category system_;
};

// Gibbons's correction for a job that has run `attained` = R seconds with estimate E and half-width CI:
// if E + 3·CI < R, E' = ⌈R/E − 0.5⌉·E raised to ⌈R/E⌉·E (spec Decision, for 1 < R/E <= 1.5 where the thesis's
// rule gives E' = E < R; note that ⌈R/E⌉·E >= ⌈R/E − 0.5⌉·E always, so E' = ⌈R/E⌉·E, the smallest multiple of
// E that is >= R); otherwise E unchanged. E <= 0 cannot be scaled: returns R.
double corrected_estimate(double estimate, double half_width, double attained);

// Welch's one-sided test (Allen's formulation in the thesis): is the mean of A greater than the mean of B by
// more than `difference`?  t = (x̄ − ȳ − d0) / sqrt(se_x² + se_y²), ν = (se_x² + se_y²)² / (se_x⁴/ν_x + se_y⁴/ν_y);
// accepted when t > t_ν quantile δ (one-sided). With summaries, se² = s²/n and ν = n − 1 (n, m >= 2).
struct WelchResult {
  double t = 0;
  double dof = 0;       // ν (infinite when both standard errors are 0)
  double critical = 0;  // quantile δ of Student-t with ν degrees of freedom
  bool accepted = false;
};
WelchResult welch_test(double mean_a, double sd_a, int64_t n_a, double mean_b, double sd_b, int64_t n_b,
                       double difference, double confidence);
// The general form on two estimates (their std_error and dof): a bucket mean gives exactly the summary form;
// a fit brings its standard error sqrt(X0'(X'V⁻¹X)⁻¹X0) with ν = n (Decision). Both must be ok.
WelchResult welch_test(const Estimate& a, const Estimate& b, double difference, double confidence);

// compareJobEstimates(difference, confidence, A, B): queries both jobs with get_estimate (their half-widths at
// `confidence`; a job past E + 3·CI is compared with its corrected E') and tests mean A > mean B + difference
// at one-sided confidence `confidence`.
// ok = false when either query fails.
struct Comparison {
  Estimate a, b;
  WelchResult test;
  bool ok = false;
};
Comparison compare_job_estimates(const Repository& repo, double difference, double confidence, const JobQuery& a,
                                 const JobQuery& b);

// What the profiler learns from an SWF record, and why it may skip one.
enum class Skip { kNone, kNegativeRuntime, kNoSize, kPartialExecution };
// "negative_runtime" (field 4 < 0), "no_size" (job size <= 0), "partial_execution" (status 2, 3, 4: the job's
// summary line is counted instead). Every other record is learnt, whatever its status (a failed or cancelled
// job's runtime is what the machine saw).
std::string_view skip_name(Skip skip);
Skip skip_reason(const swf::Record& record);
// Adds the record (job size by trace::job_size) unless skipped; returns the reason.
Skip add_record(Repository& repo, const swf::Record& record);

}  // namespace schedlab::predict::profiler
