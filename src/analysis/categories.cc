#include "schedlab/analysis/categories.h"

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "schedlab/base/choice.h"
#include "schedlab/trace/conventions.h"

namespace schedlab::analysis {
namespace {

constexpr std::array<std::string_view, kCategoryKeys> kKeyNames = {
    "system", "user", "queue", "parallelism", "executable", "executable+user+parallelism"};
constexpr std::array<std::string_view, kCategoryExclusionKinds> kExclusionNames = {
    "partial_line", "unknown_runtime", "unknown_executable", "unknown_user", "unknown_queue",
    "no_size",      "small_group",     "large_group",        "zero_mean_group"};

// Which record fields a key groups by.
struct KeyFields {
  bool executable = false, user = false, queue = false, parallelism = false;
};

KeyFields fields_of(CategoryKey key) {
  switch (key) {
    case CategoryKey::kSystem: return {};
    case CategoryKey::kUser: return {.user = true};
    case CategoryKey::kQueue: return {.queue = true};
    case CategoryKey::kParallelism: return {.parallelism = true};
    case CategoryKey::kExecutable: return {.executable = true};
    case CategoryKey::kExecutableUserParallelism: return {.executable = true, .user = true, .parallelism = true};
  }
  return {};
}

// The smallest power of two >= size: the largest size of the profiler's bucket ceil(log2 size).
int32_t log2_bucket(int32_t size) {
  int64_t b = 1;
  while (b < size) b <<= 1;
  return static_cast<int32_t>(b);
}

// Welford's running mean and sum of squared deviations: stable for run times up to 2^31 over millions of
// jobs, where a plain sum of squares would lose the variance of long, similar jobs to cancellation.
struct Accumulator {
  int64_t n = 0;
  double mean = 0, m2 = 0;
  void add(double x) {
    ++n;
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
  }
};

using GroupKey = std::array<int32_t, 4>;  // executable, user, queue, parallelism (-1 when not used)

CategoryResult categorize_key(const std::vector<swf::Record>& records, CategoryKey key,
                              const CategorizeOptions& options) {
  CategoryResult result;
  result.key = key;
  const KeyFields f = fields_of(key);
  const auto exclude = [&](CategoryExclusion e, int64_t n = 1) { result.excluded[static_cast<size_t>(e)] += n; };
  std::map<GroupKey, Accumulator> groups;
  for (const swf::Record& r : records) {
    if (r.status >= 2 && r.status <= 4) {
      exclude(CategoryExclusion::kPartialLine);
      continue;
    }
    if (r.run_time < 0) {
      exclude(CategoryExclusion::kUnknownRuntime);
      continue;
    }
    GroupKey g{-1, -1, -1, -1};
    if (f.executable) {
      if (r.executable < 0) {
        exclude(CategoryExclusion::kUnknownExecutable);
        continue;
      }
      g[0] = r.executable;
    }
    if (f.user) {
      if (r.user_id < 0) {
        exclude(CategoryExclusion::kUnknownUser);
        continue;
      }
      g[1] = r.user_id;
    }
    if (f.queue) {
      if (r.queue < 0) {
        exclude(CategoryExclusion::kUnknownQueue);
        continue;
      }
      g[2] = r.queue;
    }
    if (f.parallelism) {
      const int32_t size = trace::job_size(r);
      if (size <= 0) {
        exclude(CategoryExclusion::kNoSize);
        continue;
      }
      g[3] = options.parallelism == ParallelismBucket::kLog2 ? log2_bucket(size) : size;
    }
    groups[g].add(static_cast<double>(r.run_time));
  }

  double weighted_mean = 0, weighted_cv = 0;
  for (const auto& [g, acc] : groups) {
    if (acc.n < options.min_group_jobs) {
      exclude(CategoryExclusion::kSmallGroup, acc.n);
      continue;
    }
    if (options.max_group_jobs > 0 && acc.n > options.max_group_jobs) {
      exclude(CategoryExclusion::kLargeGroup, acc.n);
      continue;
    }
    // Run times are integers >= 0, so a zero mean means every job ran 0 s.
    if (acc.mean == 0) {
      exclude(CategoryExclusion::kZeroMeanGroup, acc.n);
      continue;
    }
    CategoryGroup out;
    out.executable = g[0];
    out.user = g[1];
    out.queue = g[2];
    out.parallelism = g[3];
    out.jobs = acc.n;
    out.mean = acc.mean;
    out.cv = std::sqrt(acc.m2 / static_cast<double>(acc.n - 1)) / acc.mean;
    result.group_list.push_back(out);
    ++result.groups;
    result.jobs += acc.n;
    weighted_mean += static_cast<double>(acc.n) * out.mean;
    weighted_cv += static_cast<double>(acc.n) * out.cv;
  }
  if (result.jobs > 0) {
    result.mean_runtime = weighted_mean / static_cast<double>(result.jobs);
    result.weighted_cv = weighted_cv / static_cast<double>(result.jobs);
  } else {
    result.mean_runtime = result.weighted_cv = std::numeric_limits<double>::quiet_NaN();
  }
  return result;
}

}  // namespace

std::string_view category_key_name(CategoryKey key) { return kKeyNames[static_cast<size_t>(key)]; }

std::optional<CategoryKey> parse_category_key(std::string_view name) {
  return base::parse_choice<CategoryKey>(kKeyNames, name);
}
std::vector<std::string> category_key_names() { return base::choice_names(kKeyNames); }

std::string_view category_exclusion_name(CategoryExclusion e) { return kExclusionNames[static_cast<size_t>(e)]; }

int64_t CategoryResult::excluded_total() const {
  int64_t total = 0;
  for (const int64_t n : excluded) total += n;
  return total;
}

std::optional<CategoryKey> Categorization::lowest_cv() const {
  std::optional<CategoryKey> best;
  for (const CategoryResult& r : keys) {
    if (r.groups == 0) continue;
    if (!best || r.weighted_cv < (*this)[*best].weighted_cv) best = r.key;
  }
  return best;
}

void check_categorize_options(const CategorizeOptions& options) {
  if (options.min_group_jobs < 2)
    throw std::invalid_argument(fmt::format(
        "--min-jobs must be >= 2 (the sample standard deviation needs two jobs), got {}",
        options.min_group_jobs));
  if (options.max_group_jobs < 0 || (options.max_group_jobs > 0 && options.max_group_jobs < options.min_group_jobs))
    throw std::invalid_argument(fmt::format("--max-jobs ({}) must be 0 (no limit) or >= --min-jobs ({})",
                                            options.max_group_jobs, options.min_group_jobs));
}

constexpr std::array<std::string_view, 2> kBucketNames = {"exact", "log2"};  // in ParallelismBucket order

std::string_view parallelism_bucket_name(ParallelismBucket b) { return kBucketNames.at(static_cast<size_t>(b)); }
std::optional<ParallelismBucket> parse_parallelism_bucket(std::string_view name) {
  return base::parse_choice<ParallelismBucket>(kBucketNames, name);
}
std::vector<std::string> parallelism_bucket_names() { return base::choice_names(kBucketNames); }

void check_group_listing(int64_t top) {
  if (top < 0) throw std::invalid_argument(fmt::format("--top must be >= 0 (0: all groups), got {}", top));
}

std::vector<CategoryGroup> largest_groups(const CategoryResult& r, int64_t top) {
  check_group_listing(top);
  std::vector<CategoryGroup> list = r.group_list;
  std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.jobs > b.jobs; });
  if (top > 0 && static_cast<int64_t>(list.size()) > top) list.resize(static_cast<size_t>(top));
  return list;
}

Categorization categorize(const std::vector<swf::Record>& records, const CategorizeOptions& options) {
  check_categorize_options(options);
  Categorization c;
  c.records = static_cast<int64_t>(records.size());
  c.options = options;
  for (int k = 0; k < kCategoryKeys; ++k)
    c.keys[static_cast<size_t>(k)] = categorize_key(records, static_cast<CategoryKey>(k), options);
  return c;
}

}  // namespace schedlab::analysis
