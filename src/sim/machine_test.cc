// Processor sets: the union the preemptive schedulers (and Python's decision.keep_free_for) build.
#include "schedlab/sim/machine.h"

#include <gtest/gtest.h>

namespace schedlab::sim {
namespace {

TEST(ProcSets, UnionMergesOverlappingAndAdjacentRanges) {
  EXPECT_EQ(proc_union({}, {}), ProcSet{});
  EXPECT_EQ(proc_union({{0, 4}}, {}), (ProcSet{{0, 4}}));
  EXPECT_EQ(proc_union({{8, 12}}, {{0, 4}}), (ProcSet{{0, 4}, {8, 12}}));
  EXPECT_EQ(proc_union({{0, 4}}, {{4, 6}}), (ProcSet{{0, 6}}));              // adjacent
  EXPECT_EQ(proc_union({{0, 4}, {10, 12}}, {{2, 11}}), (ProcSet{{0, 12}}));  // overlapping both
  EXPECT_EQ(proc_union({{0, 4}}, {{1, 2}}), (ProcSet{{0, 4}}));              // contained
  EXPECT_EQ(proc_count(proc_union({{0, 4}, {6, 8}}, {{3, 7}})), 8);
}

}  // namespace
}  // namespace schedlab::sim
