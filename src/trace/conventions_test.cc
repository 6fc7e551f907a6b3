#include "schedlab/trace/conventions.h"

#include <gtest/gtest.h>

namespace schedlab::trace {
namespace {

swf::Record job(int32_t req_procs, int32_t alloc_procs, int32_t runtime, int32_t req_time) {
  swf::Record r;
  r.submit_time = 0;
  r.requested_procs = req_procs;
  r.allocated_procs = alloc_procs;
  r.run_time = runtime;
  r.requested_time = req_time;
  return r;
}

TEST(Conventions, SizePrefersRequestedProcessors) {
  EXPECT_EQ(job_size(job(8, 16, 1, 1)), 8);
  EXPECT_EQ(job_size(job(-1, 16, 1, 1)), 16);
  EXPECT_EQ(job_size(job(0, 4, 1, 1)), 4);
}

TEST(Conventions, EstimateFallsBackToRuntime) {
  EXPECT_TRUE(has_estimate(job(1, 1, 50, 100)));
  EXPECT_EQ(job_estimate(job(1, 1, 50, 100)), 100);
  EXPECT_FALSE(has_estimate(job(1, 1, 50, -1)));
  EXPECT_EQ(job_estimate(job(1, 1, 50, -1)), 50);
  EXPECT_EQ(job_estimate(job(1, 1, 50, 0)), 50);
}

TEST(Conventions, MachineSizeOrder) {
  swf::Header h;
  std::vector<swf::Record> jobs = {job(4, 4, 1, 1), job(-1, 12, 1, 1)};
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
}

TEST(Conventions, ExclusionReasonsInOrder) {
  EXPECT_EQ(simulation_exclusion(job(4, 4, 10, 10), 8), Exclusion::kNone);
  EXPECT_EQ(simulation_exclusion(job(4, 4, -1, 10), 8), Exclusion::kNegativeRuntime);
  EXPECT_EQ(simulation_exclusion(job(-1, 0, 10, 10), 8), Exclusion::kNonPositiveSize);
  EXPECT_EQ(simulation_exclusion(job(9, 4, 10, 10), 8), Exclusion::kLargerThanMachine);
  EXPECT_EQ(simulation_exclusion(job(8, 4, 0, 10), 8), Exclusion::kNone);
  swf::Record unknown_submit = job(4, 4, 10, 10);
  unknown_submit.submit_time = -1;
  EXPECT_EQ(simulation_exclusion(unknown_submit, 8), Exclusion::kNoSubmitTime);
  EXPECT_EQ(exclusion_name(Exclusion::kNoSubmitTime), "no_submit_time");
}

}  // namespace
}  // namespace schedlab::trace
