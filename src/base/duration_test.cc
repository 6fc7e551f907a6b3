// One duration rule for every command and parameter, and its short form.
#include "schedlab/base/duration.h"

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(Duration, ParsesNumbersWithUnits) {
  EXPECT_EQ(parse_duration("90"), 90);
  EXPECT_EQ(parse_duration("90s"), 90);
  EXPECT_EQ(parse_duration("15m"), 900);
  EXPECT_EQ(parse_duration(" 1.5h "), 5400);
  EXPECT_EQ(parse_duration("2d"), 172800);
  EXPECT_EQ(parse_duration("1w"), 604800);
  EXPECT_EQ(parse_duration("0"), 0);
  EXPECT_EQ(parse_duration("0.5"), 1);  // half away from zero
  EXPECT_EQ(parse_duration("1e3"), 1000);
  EXPECT_EQ(parse_duration("1h30m"), 5400);
  EXPECT_EQ(parse_duration("1m30s"), 90);
}

TEST(Duration, RejectsWhatIsNotADuration) {
  for (const char* bad :
       {"", "h", "-5m", "+5", "5x", "5 m", "1h-30m", "1h 30m", "abc", "1e400", "inf", "nan", "5mm", "1e20w"}) {
    EXPECT_FALSE(parse_duration(bad).has_value()) << bad;
  }
}

TEST(Duration, ShortFormRoundTrips) {
  EXPECT_EQ(format_duration(14400), "4h");
  EXPECT_EQ(format_duration(300), "5m");
  EXPECT_EQ(format_duration(45), "45s");
  EXPECT_EQ(format_duration(0), "0s");  // was "0h" (predict --next of a job predicted to run 0 s)
  EXPECT_EQ(format_duration(90), "1m30s");
  EXPECT_EQ(format_duration(12000), "3:20");
  EXPECT_EQ(format_duration(5430), "1:30:30");
  for (const int64_t s : {1, 59, 60, 61, 3599, 3600, 3601, 86399, 86400, 123456}) {
    const std::string f = format_duration(s);
    if (f.find(':') == std::string::npos) {
      EXPECT_EQ(parse_duration(f), s) << f;
    }
  }
}

}  // namespace
}  // namespace schedlab::base
