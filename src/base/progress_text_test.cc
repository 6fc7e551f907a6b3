#include "schedlab/base/progress_text.h"

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(ProgressText, ThousandsAndDurations) {
  EXPECT_EQ(group_thousands(28489), "28,489");
  EXPECT_EQ(group_thousands(-1234567), "-1,234,567");
  EXPECT_EQ(group_thousands(999), "999");
  EXPECT_EQ(duration_text(42.4), "42s");
  EXPECT_EQ(duration_text(185), "3m05s");
  EXPECT_EQ(duration_text(3720), "1h02m");
  EXPECT_EQ(duration_text(-1), "?");
}

// The two forms, as the CLI prints them on a terminal and in a log, and the Python module likewise.
TEST(ProgressText, BarAndLine) {
  EXPECT_EQ(progress_text("simulate", "jobs", 1200, 4000, 2.0, false),
            "simulate: 1,200/4,000 jobs done, 600 jobs/s, ETA 5s");
  EXPECT_EQ(progress_text("sweep", "runs", 3, 12, 6.0, false), "sweep: 3/12 runs done, 0.5 runs/s, ETA 18s");
  EXPECT_EQ(progress_text("sweep", "runs", 3, 12, 6.0, true),
            "sweep: [#######.......................] 3/12 runs done, ETA 18s");
  EXPECT_EQ(progress_text("x", "steps", 0, 5, 1.0, false), "x: 0/5 steps done, 0.0 steps/s, ETA ?");
  EXPECT_EQ(progress_text("x", "steps", 5, 5, 1.0, true), "x: [##############################] 5/5 steps done, ETA 0s");
}

}  // namespace
}  // namespace schedlab::base
