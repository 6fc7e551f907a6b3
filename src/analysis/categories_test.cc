#include "schedlab/analysis/categories.h"
#include "test_util.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace schedlab::analysis {
namespace {

// 29 records; every expected value below is worked out by hand from this list.
//   A 6x user 1, exe 1, size 4,  queue 1, runtime 100,100,100,300,300,300
//   B 6x user 2, exe 2, size 8,  queue 1, runtime 1000
//   C 2x user 2, exe 2, size 7,  queue 1, runtime 4000
//   D 3x user 3, exe 1, size 4,  queue 2, runtime 200
//   E    user 1, exe 1, size 4,  queue 1, runtime -1           (unknown runtime)
//   F    user 1, exe 1, size 4,  queue 1, runtime 500, status 3 (partial-execution line)
//   G    user -1, exe 1, size 4, queue 2, runtime 200           (unknown user)
//   H    user 2, exe 2, size 8,  queue -1, runtime 1000         (unknown queue)
//   I    user 1, exe -1, size 4, queue 1, runtime 200           (unknown executable)
//   J    user 3, exe 1, size 0,  queue 2, runtime 200           (no size)
//   K 6x user 4, exe 3, size 2,  queue 3, runtime 0             (a group with zero mean)
std::vector<swf::Record> tiny_log() {
  std::vector<swf::Record> log;
  for (const int32_t t : {100, 100, 100, 300, 300, 300})
    log.push_back(testing::record({.run_time = t, .allocated_procs = 4, .requested_procs = 4, .status = 1,
                                   .user_id = 1, .executable = 1, .queue = 1}));
  for (int i = 0; i < 6; ++i)
    log.push_back(testing::record({.run_time = 1000, .allocated_procs = 8, .requested_procs = 8, .status = 1,
                                   .user_id = 2, .executable = 2, .queue = 1}));
  for (int i = 0; i < 2; ++i)
    log.push_back(testing::record({.run_time = 4000, .allocated_procs = 7, .requested_procs = 7, .status = 1,
                                   .user_id = 2, .executable = 2, .queue = 1}));
  for (int i = 0; i < 3; ++i)
    log.push_back(testing::record({.run_time = 200, .allocated_procs = 4, .requested_procs = 4, .status = 1,
                                   .user_id = 3, .executable = 1, .queue = 2}));
  log.push_back(testing::record({.allocated_procs = 4, .requested_procs = 4, .status = 1, .user_id = 1,
                                 .executable = 1, .queue = 1}));
  log.push_back(testing::record({.run_time = 500, .allocated_procs = 4, .requested_procs = 4, .status = 3,
                                 .user_id = 1, .executable = 1, .queue = 1}));
  log.push_back(testing::record({.run_time = 200, .allocated_procs = 4, .requested_procs = 4, .status = 1,
                                 .executable = 1, .queue = 2}));
  log.push_back(testing::record({.run_time = 1000, .allocated_procs = 8, .requested_procs = 8, .status = 1,
                                 .user_id = 2, .executable = 2}));
  log.push_back(testing::record({.run_time = 200, .allocated_procs = 4, .requested_procs = 4, .status = 1,
                                 .user_id = 1, .queue = 1}));
  swf::Record j = testing::record({.run_time = 200, .allocated_procs = 0, .requested_procs = 0, .status = 1,
                                   .user_id = 3, .executable = 1, .queue = 2});
  j.requested_procs = -1;
  log.push_back(j);
  for (int i = 0; i < 6; ++i)
    log.push_back(testing::record({.run_time = 0, .allocated_procs = 2, .requested_procs = 2, .status = 1,
                                   .user_id = 4, .executable = 3, .queue = 3}));
  return log;
}

int64_t excluded(const CategoryResult& r, CategoryExclusion e) { return r.excluded[static_cast<size_t>(e)]; }

// Group of 100,100,100,300,300,300 and 200 (user 1 = A + I): mean 200, squared deviations 6 x 100^2,
// sample variance 60000/6 = 10000, C.V. 100/200.
// 1000 x 7 and 4000 x 2 (user 2; exe 2): mean 15000/9, sum of squares 39e6 - 15000^2/9 = 14e6, variance
// 14e6/8 = 1.75e6, C.V.^2 = 1.75e6 / (15000/9)^2 = 0.63.
// 100 x 3, 300 x 3, 200 x 5 (size 4; exe 1): mean 200, squared deviations 60000, variance 6000, C.V.^2 = 0.15.
const double kCvUser2 = std::sqrt(0.63);
const double kCvSize4 = std::sqrt(0.15);

TEST(Categories, HandComputedTinyLogEveryKey) {
  const Categorization c = categorize(tiny_log());
  EXPECT_EQ(c.records, 29);
  for (const CategoryResult& r : c.keys) {
    EXPECT_EQ(r.jobs + r.excluded_total(), 29) << category_key_name(r.key);  // nothing dropped silently
    EXPECT_EQ(excluded(r, CategoryExclusion::kUnknownRuntime), 1) << category_key_name(r.key);
    EXPECT_EQ(excluded(r, CategoryExclusion::kPartialLine), 1) << category_key_name(r.key);
  }

  // System: 27 jobs, sum 17400, sum of squares 39,540,000.
  const CategoryResult& sys = c[CategoryKey::kSystem];
  EXPECT_EQ(sys.groups, 1);
  EXPECT_EQ(sys.jobs, 27);
  EXPECT_NEAR(sys.mean_runtime, 17400.0 / 27, 1e-9);
  EXPECT_NEAR(sys.weighted_cv, std::sqrt((39540000.0 - 17400.0 * 17400.0 / 27) / 26) / (17400.0 / 27), 1e-12);

  // User: user 1 (7 jobs, C.V. 0.5), user 2 (9 jobs), user 3 too small (4), user 4 all zero (6), G unknown.
  const CategoryResult& user = c[CategoryKey::kUser];
  EXPECT_EQ(user.groups, 2);
  EXPECT_EQ(user.jobs, 16);
  EXPECT_EQ(excluded(user, CategoryExclusion::kUnknownUser), 1);
  EXPECT_EQ(excluded(user, CategoryExclusion::kSmallGroup), 4);
  EXPECT_EQ(excluded(user, CategoryExclusion::kZeroMeanGroup), 6);
  EXPECT_NEAR(user.mean_runtime, 1025.0, 1e-9);  // (7 x 200 + 9 x 15000/9) / 16
  EXPECT_NEAR(user.weighted_cv, (7 * 0.5 + 9 * kCvUser2) / 16, 1e-12);
  ASSERT_EQ(user.group_list.size(), 2u);
  EXPECT_EQ(user.group_list[0].user, 1);
  EXPECT_EQ(user.group_list[0].jobs, 7);
  EXPECT_NEAR(user.group_list[0].cv, 0.5, 1e-12);
  EXPECT_EQ(user.group_list[0].executable, -1);

  // Queue: queue 1 = A + B + C + I (15 jobs, sum 15400, squares 38,340,000); queue 2 small (5); queue 3 zero.
  const CategoryResult& queue = c[CategoryKey::kQueue];
  EXPECT_EQ(queue.groups, 1);
  EXPECT_EQ(queue.jobs, 15);
  EXPECT_EQ(excluded(queue, CategoryExclusion::kUnknownQueue), 1);
  EXPECT_EQ(excluded(queue, CategoryExclusion::kSmallGroup), 5);
  EXPECT_NEAR(queue.weighted_cv, std::sqrt((38340000.0 - 15400.0 * 15400.0 / 15) / 14) / (15400.0 / 15), 1e-12);

  // Parallelism (exact): size 4 = A + D + G + I (11 jobs), size 8 = B + H (7 jobs, all 1000 s: C.V. 0),
  // size 7 = C too small, size 2 = K zero, J has no size.
  const CategoryResult& par = c[CategoryKey::kParallelism];
  EXPECT_EQ(par.groups, 2);
  EXPECT_EQ(par.jobs, 18);
  EXPECT_EQ(excluded(par, CategoryExclusion::kNoSize), 1);
  EXPECT_EQ(excluded(par, CategoryExclusion::kSmallGroup), 2);
  EXPECT_EQ(excluded(par, CategoryExclusion::kZeroMeanGroup), 6);
  EXPECT_NEAR(par.mean_runtime, (11 * 200 + 7 * 1000) / 18.0, 1e-9);
  EXPECT_NEAR(par.weighted_cv, 11 * kCvSize4 / 18, 1e-12);

  // Executable: exe 1 = A + D + G + J (11 jobs, same values as size 4), exe 2 = B + C + H (as user 2).
  const CategoryResult& exe = c[CategoryKey::kExecutable];
  EXPECT_EQ(exe.groups, 2);
  EXPECT_EQ(exe.jobs, 20);
  EXPECT_EQ(excluded(exe, CategoryExclusion::kUnknownExecutable), 1);
  EXPECT_NEAR(exe.mean_runtime, 860.0, 1e-9);  // (2200 + 15000) / 20
  EXPECT_NEAR(exe.weighted_cv, (11 * kCvSize4 + 9 * kCvUser2) / 20, 1e-12);

  // Executable + user + parallelism: (1,1,4) = A (C.V. sqrt(12000)/200 = sqrt(0.3)), (2,2,8) = B + H (C.V. 0);
  // (2,2,7) and (1,3,4) too small; exclusions checked executable, user, size in that order.
  const CategoryResult& eup = c[CategoryKey::kExecutableUserParallelism];
  EXPECT_EQ(eup.groups, 2);
  EXPECT_EQ(eup.jobs, 13);
  EXPECT_EQ(excluded(eup, CategoryExclusion::kUnknownExecutable), 1);
  EXPECT_EQ(excluded(eup, CategoryExclusion::kUnknownUser), 1);
  EXPECT_EQ(excluded(eup, CategoryExclusion::kNoSize), 1);
  EXPECT_EQ(excluded(eup, CategoryExclusion::kSmallGroup), 5);
  EXPECT_NEAR(eup.mean_runtime, (1200.0 + 7000.0) / 13, 1e-9);
  EXPECT_NEAR(eup.weighted_cv, 6 * std::sqrt(0.3) / 13, 1e-12);
  ASSERT_EQ(eup.group_list.size(), 2u);
  EXPECT_EQ(eup.group_list[1].executable, 2);
  EXPECT_EQ(eup.group_list[1].user, 2);
  EXPECT_EQ(eup.group_list[1].parallelism, 8);
  EXPECT_EQ(eup.group_list[1].queue, -1);

  // 11 sqrt(.15)/18 = 0.2367 beats 6 sqrt(.3)/13 = 0.2528.
  EXPECT_EQ(c.lowest_cv(), CategoryKey::kParallelism);
}

TEST(Categories, Log2BucketsMergeSizesSevenAndEight) {
  CategorizeOptions o;
  o.parallelism = ParallelismBucket::kLog2;
  const Categorization c = categorize(tiny_log(), o);
  const CategoryResult& par = c[CategoryKey::kParallelism];
  // Bucket 8 = sizes 5..8 = B + C + H: the 9 jobs of user 2; bucket 4 as before.
  EXPECT_EQ(par.groups, 2);
  EXPECT_EQ(par.jobs, 20);
  EXPECT_EQ(par.group_list[1].parallelism, 8);
  EXPECT_EQ(par.group_list[1].jobs, 9);
  EXPECT_NEAR(par.weighted_cv, (11 * kCvSize4 + 9 * kCvUser2) / 20, 1e-12);
}

TEST(Categories, GroupSizeLimits) {
  CategorizeOptions o;
  o.min_group_jobs = 6;
  o.max_group_jobs = 8;  // user 2 (9 jobs) is now too large
  const Categorization c = categorize(tiny_log(), o);
  EXPECT_EQ(c[CategoryKey::kUser].groups, 1);
  EXPECT_EQ(excluded(c[CategoryKey::kUser], CategoryExclusion::kLargeGroup), 9);
  EXPECT_NEAR(c[CategoryKey::kUser].weighted_cv, 0.5, 1e-12);
  // With groups of two jobs allowed, user 3 (four jobs of 200 s) counts with C.V. 0.
  o.min_group_jobs = 2;
  o.max_group_jobs = 0;
  const Categorization c2 = categorize(tiny_log(), o);
  const CategoryResult& user = c2[CategoryKey::kUser];
  EXPECT_EQ(user.groups, 3);
  EXPECT_EQ(user.jobs, 20);
  EXPECT_NEAR(user.weighted_cv, (7 * 0.5 + 9 * kCvUser2) / 20, 1e-12);

  o.min_group_jobs = 1;
  EXPECT_THROW(categorize(tiny_log(), o), std::invalid_argument);
  o.min_group_jobs = 6;
  o.max_group_jobs = 5;
  EXPECT_THROW(categorize(tiny_log(), o), std::invalid_argument);
}

TEST(Categories, EmptyKeyIsNanAndNamesRoundTrip) {
  std::vector<swf::Record> log;
  for (int i = 0; i < 10; ++i)
    log.push_back(testing::record({.run_time = 100 + i, .allocated_procs = 4, .requested_procs = 4, .status = 1,
                                   .user_id = 1}));
  const Categorization c = categorize(log);
  EXPECT_EQ(c[CategoryKey::kExecutable].groups, 0);
  EXPECT_TRUE(std::isnan(c[CategoryKey::kExecutable].weighted_cv));
  EXPECT_EQ(excluded(c[CategoryKey::kExecutable], CategoryExclusion::kUnknownExecutable), 10);
  // Only system, user and parallelism have groups, all equal here: ties go to the earlier key.
  EXPECT_EQ(c.lowest_cv(), CategoryKey::kSystem);
  EXPECT_FALSE(categorize({}).lowest_cv().has_value());
  for (int k = 0; k < kCategoryKeys; ++k)
    EXPECT_EQ(parse_category_key(category_key_name(static_cast<CategoryKey>(k))), static_cast<CategoryKey>(k));
  EXPECT_FALSE(parse_category_key("nosuch").has_value());
  // The names the CLI and Python offer are the ones parse_… accepts, in enum order.
  const auto names = category_key_names();
  ASSERT_EQ(names.size(), static_cast<size_t>(kCategoryKeys));
  for (int k = 0; k < kCategoryKeys; ++k) EXPECT_EQ(parse_category_key(names[static_cast<size_t>(k)]), static_cast<CategoryKey>(k));
  EXPECT_EQ(parallelism_bucket_names(), (std::vector<std::string>{"exact", "log2"}));
  for (const auto& n : parallelism_bucket_names()) EXPECT_EQ(parallelism_bucket_name(parse_parallelism_bucket(n).value()), n);
}

TEST(CategorizeTest, ANegativeListingIsRefusedAndZeroListsAll) {
  CategorizeOptions o;
  o.min_group_jobs = 2;
  const Categorization c = categorize(tiny_log(), o);
  ASSERT_GE(c[CategoryKey::kUser].group_list.size(), 3u);
  EXPECT_EQ(largest_groups(c[CategoryKey::kUser], 0).size(), c[CategoryKey::kUser].group_list.size());
  EXPECT_EQ(largest_groups(c[CategoryKey::kUser], 2).size(), 2u);
  EXPECT_THROW(largest_groups(c[CategoryKey::kUser], -1), std::invalid_argument);
  EXPECT_THROW(check_group_listing(-1), std::invalid_argument);
  EXPECT_NO_THROW(check_group_listing(0));
}

}  // namespace
}  // namespace schedlab::analysis
