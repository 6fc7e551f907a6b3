// Workload characterisation by job category (Gibbons 1997, Tables 3.1/3.2; docs/analysis.md):
// how much of the run-time variability of a log disappears when jobs are grouped by a key.
//
// Contract of categorize():
// - The quantity is the wall-clock run time, SWF field 4.
// - Keys: system (every job in one group), user (field 12), queue (field 15), parallelism (job size,
//   trace::job_size), executable (field 14), executable+user+parallelism (all three equal).
// - Jobs are checked in this order and a job is left out of a key for the first reason that applies, counted
//   per key and per reason, never dropped silently (jobs counted + all exclusions of a key = records):
//     partial_line        status 2, 3 or 4: a partial-execution line; the job's summary line carries its time
//     unknown_runtime     field 4 < 0
//     unknown_executable  field 14 < 0 (executable keys only)
//     unknown_user        field 12 < 0 (user keys only)
//     unknown_queue       field 15 < 0 (queue key only)
//     no_size             job size <= 0 (parallelism keys only)
//     small_group         its group has fewer than min_group_jobs jobs
//     large_group         its group has more than max_group_jobs jobs (only when max_group_jobs > 0)
//     zero_mean_group     every job of its group ran 0 s, so the C.V. is undefined (0/0)
// - Per group g of n_g >= 2 jobs: mean_g and C.V._g = s_g / mean_g with s_g the sample standard deviation
//   (divisor n_g - 1, the s of the profiler's t intervals).
// - Per key, over its G counted groups (N = sum n_g jobs): weighted mean = sum n_g mean_g / N (= the mean of
//   the N jobs) and weighted C.V. = sum n_g C.V._g / N (the thesis's "weighted average C.V."; weights = job
//   counts). NaN when no group is counted.
//
// Decisions where the thesis is silent (stated in docs/analysis.md):
// - The thesis counts, for the by-user figures, only users with more than five jobs; the same minimum
//   (min_group_jobs = 6) applies here to every key, so that one-job groups (C.V. 0 by construction) cannot
//   pull the weighted C.V. down. min_group_jobs must be >= 2 (the sample standard deviation needs two jobs).
//   max_group_jobs reproduces Table 3.1's split of the parallelism groups (6..19 jobs, >= 20 jobs).
// - "Parallelism" is the exact degree of parallelism (the thesis: "all the jobs with the same degree of
//   parallelism are placed in the same category"; "a given number of processors"). ParallelismBucket::kLog2
//   groups sizes as the profiler's repository does instead: {1}, {2}, {3-4}, {5-8}, ..., a bucket named by its
//   largest size (the smallest power of two >= size).
// - All statuses (completed, failed, cancelled) with a known run time count, as in the thesis's accounting
//   logs; restrict a log first with `schedlab filter --status` to study completed jobs only.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedlab/swf/record.h"

namespace schedlab::analysis {

enum class CategoryKey { kSystem, kUser, kQueue, kParallelism, kExecutable, kExecutableUserParallelism };
inline constexpr int kCategoryKeys = 6;
// "system", "user", "queue", "parallelism", "executable", "executable+user+parallelism"
std::string_view category_key_name(CategoryKey key);
std::optional<CategoryKey> parse_category_key(std::string_view name);  // inverse of category_key_name
std::vector<std::string> category_key_names();                         // in CategoryKey order

enum class CategoryExclusion {
  kPartialLine,
  kUnknownRuntime,
  kUnknownExecutable,
  kUnknownUser,
  kUnknownQueue,
  kNoSize,
  kSmallGroup,
  kLargeGroup,
  kZeroMeanGroup
};
inline constexpr int kCategoryExclusionKinds = 9;
// "partial_line", "unknown_runtime", "unknown_executable", "unknown_user", "unknown_queue", "no_size",
// "small_group", "large_group", "zero_mean_group"
std::string_view category_exclusion_name(CategoryExclusion e);

enum class ParallelismBucket { kExact, kLog2 };

struct CategorizeOptions {
  int64_t min_group_jobs = 6;  // groups with fewer jobs are left out (>= 2)
  int64_t max_group_jobs = 0;  // groups with more jobs are left out; 0 = no upper limit
  ParallelismBucket parallelism = ParallelismBucket::kExact;
};

// One counted group. The key's field values are in `executable`, `user`, `queue`, `parallelism` (-1 for the
// fields the key does not use); `parallelism` is the size, or with kLog2 the bucket's largest size.
struct CategoryGroup {
  int32_t executable = -1, user = -1, queue = -1, parallelism = -1;
  int64_t jobs = 0;
  double mean = 0;  // mean run time, seconds
  double cv = 0;    // sample standard deviation / mean
};

struct CategoryResult {
  CategoryKey key = CategoryKey::kSystem;
  int64_t groups = 0;  // groups counted
  int64_t jobs = 0;    // jobs in the counted groups
  double mean_runtime = 0;  // job-weighted mean run time (NaN when no group is counted)
  double weighted_cv = 0;   // job-weighted mean of the group C.V.s (NaN when no group is counted)
  std::array<int64_t, kCategoryExclusionKinds> excluded{};  // index = static_cast<int>(CategoryExclusion)
  std::vector<CategoryGroup> group_list;  // the counted groups, ordered by their key values

  int64_t excluded_total() const;
};

struct Categorization {
  int64_t records = 0;
  CategorizeOptions options;
  std::array<CategoryResult, kCategoryKeys> keys;  // index = static_cast<int>(CategoryKey)

  const CategoryResult& operator[](CategoryKey k) const { return keys[static_cast<size_t>(k)]; }
  // The key with the smallest weighted C.V. among keys with at least one counted group (ties: the earlier
  // key in CategoryKey order); nullopt when no key has a group.
  std::optional<CategoryKey> lowest_cv() const;
};

// Throws std::invalid_argument when min_group_jobs < 2 or 0 < max_group_jobs < min_group_jobs (categorize
// checks too; a command calls it first to fail before reading a log).
void check_categorize_options(const CategorizeOptions& options);
// "exact" / "log2", and back (nullopt for anything else).
std::string_view parallelism_bucket_name(ParallelismBucket b);
std::optional<ParallelismBucket> parse_parallelism_bucket(std::string_view name);
std::vector<std::string> parallelism_bucket_names();  // "exact", "log2"

// Throws std::invalid_argument when top < 0 (a command calls it to fail before reading a log).
void check_group_listing(int64_t top);
// The groups of a key to list: largest first (ties in key order), at most `top` (0 = all); throws as
// check_group_listing().
std::vector<CategoryGroup> largest_groups(const CategoryResult& r, int64_t top);

// Throws std::invalid_argument when min_group_jobs < 2 or 0 < max_group_jobs < min_group_jobs.
Categorization categorize(const std::vector<swf::Record>& records, const CategorizeOptions& options = {});

}  // namespace schedlab::analysis
