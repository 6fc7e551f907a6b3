// The profiler's JSON: an estimate with its interval, and a missing one as {"ok": false} with the jobs that could
// not answer.
#include "schedlab/experiments/profiler_report.h"

#include <gtest/gtest.h>

namespace schedlab::experiments {
namespace {

TEST(ProfilerReport, EstimateJson) {
  predict::profiler::Estimate none;
  EXPECT_EQ(to_json(none, 0.95).dump(), "{\"held\":0,\"ok\":false}");
  none.held = 12;
  EXPECT_EQ(to_json(none, 0.95).dump(), "{\"held\":12,\"ok\":false}");
  predict::profiler::Estimate e;
  e.ok = true;
  e.estimate = 100;
  e.half_width = 20;
  e.sd = 5;
  const auto j = to_json(e, 0.9);
  EXPECT_DOUBLE_EQ(j["lower"].get<double>(), 80);
  EXPECT_DOUBLE_EQ(j["upper"].get<double>(), e.upper());
  EXPECT_DOUBLE_EQ(j["confidence"].get<double>(), 0.9);
  EXPECT_TRUE(j.contains("sd"));
  EXPECT_FALSE(j.contains("function"));
}

}  // namespace
}  // namespace schedlab::experiments
