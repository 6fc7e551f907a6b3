#include "schedlab/trace/conventions.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

TEST(Conventions, SizePrefersRequestedProcessors) {
  EXPECT_EQ(job_size(testing::record({.submit_time = 0, .run_time = 1, .allocated_procs = 16, .requested_procs = 8,
                                      .requested_time = 1})), 8);
  EXPECT_EQ(job_size(testing::record({.submit_time = 0, .run_time = 1, .allocated_procs = 16, .requested_time = 1})),
                                      16);
  EXPECT_EQ(job_size(testing::record({.submit_time = 0, .run_time = 1, .allocated_procs = 4, .requested_procs = 0,
                                      .requested_time = 1})), 4);
}

TEST(Conventions, EstimateFallsBackToRuntime) {
  EXPECT_TRUE(has_estimate(testing::record({.submit_time = 0, .run_time = 50, .allocated_procs = 1,
                                            .requested_procs = 1, .requested_time = 100})));
  EXPECT_EQ(job_estimate(testing::record({.submit_time = 0, .run_time = 50, .allocated_procs = 1,
                                          .requested_procs = 1, .requested_time = 100})), 100);
  EXPECT_FALSE(has_estimate(testing::record({.submit_time = 0, .run_time = 50, .allocated_procs = 1,
                                             .requested_procs = 1})));
  EXPECT_EQ(job_estimate(testing::record({.submit_time = 0, .run_time = 50, .allocated_procs = 1,
                                          .requested_procs = 1})), 50);
  EXPECT_EQ(job_estimate(testing::record({.submit_time = 0, .run_time = 50, .allocated_procs = 1,
                                          .requested_procs = 1, .requested_time = 0})), 50);
}

TEST(Conventions, MachineSizeOrder) {
  swf::Header h;
  std::vector<swf::Record> jobs = {testing::record({.submit_time = 0, .run_time = 1, .allocated_procs = 4,
                                                    .requested_procs = 4, .requested_time = 1}),
                                                    testing::record({.submit_time = 0, .run_time = 1,
                                                    .allocated_procs = 12, .requested_time = 1})};
  EXPECT_EQ(machine_size(h, jobs).procs, 12);
  EXPECT_EQ(machine_size(h, jobs).source, MachineSizeSource::kLargestJob);
  h.max_nodes = 64;
  EXPECT_EQ(machine_size(h, jobs).procs, 64);
  h.max_procs = 0;  // non-positive counts as absent
  EXPECT_EQ(machine_size(h, jobs).procs, 64);
  h.max_procs = 128;
  EXPECT_EQ(machine_size(h, jobs).procs, 128);
  EXPECT_EQ(machine_size(h, jobs, 100).procs, 100);
  EXPECT_EQ(machine_size(h, jobs, 100).source, MachineSizeSource::kOption);
  // A machine of no processors is refused, not summarised (Python's stats(procs=-1) gave a negative offered load).
  EXPECT_THROW(machine_size(h, jobs, 0), std::invalid_argument);
  EXPECT_THROW(machine_size(h, jobs, -1), std::invalid_argument);
}

TEST(Conventions, ExclusionReasonsInOrder) {
  EXPECT_EQ(simulation_exclusion(testing::record({.submit_time = 0, .run_time = 10, .allocated_procs = 4,
                                                  .requested_procs = 4, .requested_time = 10}), 8), Exclusion::kNone);
  EXPECT_EQ(simulation_exclusion(testing::record({.submit_time = 0, .allocated_procs = 4, .requested_procs = 4,
                                                  .requested_time = 10}), 8), Exclusion::kNegativeRuntime);
  EXPECT_EQ(simulation_exclusion(testing::record({.submit_time = 0, .run_time = 10, .allocated_procs = 0,
                                                  .requested_time = 10}), 8), Exclusion::kNonPositiveSize);
  EXPECT_EQ(simulation_exclusion(testing::record({.submit_time = 0, .run_time = 10, .allocated_procs = 4,
                                                  .requested_procs = 9, .requested_time = 10}), 8),
                                                  Exclusion::kLargerThanMachine);
  EXPECT_EQ(simulation_exclusion(testing::record({.submit_time = 0, .run_time = 0, .allocated_procs = 4,
                                                  .requested_procs = 8, .requested_time = 10}), 8), Exclusion::kNone);
  swf::Record unknown_submit = testing::record({.submit_time = 0, .run_time = 10, .allocated_procs = 4,
                                                .requested_procs = 4, .requested_time = 10});
  unknown_submit.submit_time = -1;
  EXPECT_EQ(simulation_exclusion(unknown_submit, 8), Exclusion::kNoSubmitTime);
  EXPECT_EQ(exclusion_name(Exclusion::kNoSubmitTime), "no_submit_time");
}

}  // namespace
}  // namespace schedlab::trace
