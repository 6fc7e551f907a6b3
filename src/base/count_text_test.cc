#include "schedlab/base/count_text.h"

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(CountText, OneIsSingularEveryOtherCountPlural) {
  EXPECT_EQ(counted(1, "job"), "1 job");
  EXPECT_EQ(counted(0, "job"), "0 jobs");
  EXPECT_EQ(counted(2, "job"), "2 jobs");
  EXPECT_EQ(counted(-1, "second"), "-1 second");
  EXPECT_EQ(counted(11, "record"), "11 records");
  EXPECT_EQ(counted(1, "entry", "entries"), "1 entry");
  EXPECT_EQ(counted(3, "entry", "entries"), "3 entries");
  EXPECT_EQ(counted_grouped(28489, "job"), "28,489 jobs");
  EXPECT_EQ(counted_grouped(1, "flurry", "flurries"), "1 flurry");
  EXPECT_EQ(noun(1, "warm-up job"), "warm-up job");
  EXPECT_EQ(noun(1000, "warm-up job"), "warm-up jobs");
}

}  // namespace
}  // namespace schedlab::base
