// Record: integer members, exact fractional values beside them, and when a fraction stops applying.
#include "schedlab/swf/record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedlab::swf {
namespace {

std::string text(const Record& r, int number) {
  std::string out;
  r.append_text(out, number);
  return out;
}

TEST(Record, IntegerFieldsNeedNoFraction) {
  Record r;
  r.run_time = 3600;
  EXPECT_EQ(r.value(4), 3600.0);
  EXPECT_FALSE(r.fractional(4));
  EXPECT_FALSE(r.has_fractions());
  r.set_value(4, 14400.0);  // integral: the member only
  EXPECT_EQ(r.run_time, 14400);
  EXPECT_FALSE(r.has_fractions());
  EXPECT_EQ(text(r, 4), "14400");
}

TEST(Record, FractionKeptAndMemberRoundedHalfAwayFromZero) {
  Record r;
  r.set_value(6, 107.77);
  r.set_value(7, -2.5);
  r.set_value(10, 2.5);
  EXPECT_EQ(r.avg_cpu_time, 108);
  EXPECT_EQ(r.used_memory, -3);
  EXPECT_EQ(r.requested_memory, 3);
  EXPECT_EQ(r.value(6), 107.77);
  EXPECT_EQ(r.value(7), -2.5);
  EXPECT_EQ(text(r, 6), "107.77");
  EXPECT_EQ(text(r, 7), "-2.5");
  EXPECT_EQ(text(r, 1), "-1");
  r.set_value(6, 0.000001);  // replaces the earlier fraction; written without an exponent
  EXPECT_EQ(r.avg_cpu_time, 0);
  EXPECT_EQ(text(r, 6), "0.000001");
  r.set_value(6, 552.0);  // integral again: the fraction goes
  EXPECT_FALSE(r.fractional(6));
  EXPECT_EQ(text(r, 6), "552");
}

TEST(Record, AssigningTheMemberMakesItsFractionStale) {
  Record r;
  r.set_value(4, 99.4);
  ASSERT_TRUE(r.fractional(4));
  r.run_time = 120;  // a simulated run time, say
  EXPECT_FALSE(r.fractional(4));
  EXPECT_EQ(r.value(4), 120.0);
  EXPECT_EQ(text(r, 4), "120");
  EXPECT_FALSE(r.has_fractions());
}

TEST(Record, CopiesAndComparisonsUseTheExactValues) {
  Record a;
  a.set_value(6, 107.77);
  Record b = a;
  EXPECT_EQ(b.value(6), 107.77);
  EXPECT_EQ(a, b);
  Record c;
  c.avg_cpu_time = 108;  // the same integer member, not the same value
  EXPECT_NE(a, c);
  c = a;
  EXPECT_EQ(a, c);
  c = Record{};  // assigning an all-integer record drops the fractions
  EXPECT_FALSE(c.has_fractions());
  EXPECT_EQ(c.avg_cpu_time, -1);
  std::vector<Record> v(3, a);
  v.reserve(100);  // moves keep them
  EXPECT_EQ(v[2].value(6), 107.77);
  Record moved = std::move(v[0]);
  EXPECT_EQ(moved.value(6), 107.77);
}

}  // namespace
}  // namespace schedlab::swf
