// GainBounds (src/sim/gain_bounds.h): which jobs a set of gains can help, hand-computed.
#include "sim/gain_bounds.h"

#include <gtest/gtest.h>

#include <vector>

namespace schedlab::sim {
namespace {

TEST(GainBounds, NoGainOpensNoWindow) {
  const GainBounds none;
  EXPECT_FALSE(none.may_open(1, 1'000'000, 0));
  EXPECT_FALSE(none.may_open(0, 1'000'000, 0));
}

TEST(GainBounds, OneGainHelpsOnlyJobsItCanLiftBeforeTheirReservation) {
  // Processors given back on [100, 200): at least 2 were free there before, at most 8 after.
  GainBounds g;
  g.add(100, 200, 8, 2);
  EXPECT_TRUE(g.may_open(4, 150, 0));    // 4 processors, reserved at 150: the gain lies partly before
  EXPECT_FALSE(g.may_open(4, 100, 0));   // reserved where the gain begins: nothing of it lies before
  EXPECT_FALSE(g.may_open(9, 150, 0));   // more than the most free there
  EXPECT_TRUE(g.may_open(8, 150, 0));    // exactly the most
  EXPECT_FALSE(g.may_open(2, 150, 0));   // no more than the fewest free before: it had them already
  EXPECT_TRUE(g.may_open(3, 150, 0));
  EXPECT_FALSE(g.may_open(4, 500, 200)); // the gain is past
  EXPECT_TRUE(g.may_open(4, 500, 199));
}

TEST(GainBounds, AUnionCoversEveryGain) {
  GainBounds a, b, both;
  a.add(100, 200, 8, 2);
  b.add(300, 400, 5, 0);
  both.add(a);
  both.add(b);
  EXPECT_EQ(both.lo, 100);
  EXPECT_EQ(both.hi, 400);
  EXPECT_EQ(both.most, 8);
  EXPECT_EQ(both.least, 0);
  EXPECT_TRUE(both.may_open(1, 350, 250));  // b alone could lift 1 processor there
  EXPECT_FALSE(a.may_open(1, 350, 250));
  GainBounds same;
  same.add(100, 200, 8, 2);
  same.add(300, 400, 5, 0);
  EXPECT_EQ(same.lo, both.lo);
  EXPECT_EQ(same.hi, both.hi);
  EXPECT_EQ(same.most, both.most);
  EXPECT_EQ(same.least, both.least);
}

TEST(GainBounds, SuffixesCoverTheGainsFromEachIndexOn) {
  std::vector<GainBounds> gains(3);
  gains[0].add(100, 200, 8, 2);
  gains[1].add(300, 400, 5, 0);
  gains[2].add(50, 60, 3, 1);
  std::vector<GainBounds> suffix;
  suffix_bounds(gains, suffix);
  ASSERT_EQ(suffix.size(), 4u);
  EXPECT_EQ(suffix[0].lo, 50);
  EXPECT_EQ(suffix[0].hi, 400);
  EXPECT_EQ(suffix[0].most, 8);
  EXPECT_EQ(suffix[0].least, 0);
  EXPECT_EQ(suffix[1].lo, 50);   // gains 1 and 2
  EXPECT_EQ(suffix[1].most, 5);
  EXPECT_EQ(suffix[2].lo, 50);   // gain 2 alone
  EXPECT_EQ(suffix[2].hi, 60);
  EXPECT_EQ(suffix[2].least, 1);
  EXPECT_FALSE(suffix[3].may_open(1, 1'000'000, 0));  // nothing since the last gain
}

}  // namespace
}  // namespace schedlab::sim
