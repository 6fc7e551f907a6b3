// Numbers as schedlab's CSV files write them, read back strictly.
#include "schedlab/base/csv_number.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(CsvNumber, WholeCellsOnly) {
  for (const double v : {0.0, -0.5, 12.0, 1e-3, 50426.449436624665, 1e300})
    EXPECT_EQ(parse_csv_number(csv_number(v)), v) << v;
  EXPECT_EQ(parse_csv_number("+2.5"), 2.5);
  EXPECT_TRUE(std::isnan(*parse_csv_number(csv_number(std::numeric_limits<double>::quiet_NaN()))));
  EXPECT_EQ(parse_csv_number("inf"), std::numeric_limits<double>::infinity());
  for (const char* bad : {"", "12abc", "0x10", "0x1p4", " 12", "12 ", "1,5", "+", "-", "++1", "e5", "."})
    EXPECT_EQ(parse_csv_number(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace schedlab::base
