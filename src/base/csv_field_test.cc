// schedlab's CSV cells, written and read back.
#include "schedlab/base/csv_field.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schedlab/base/csv_number.h"

namespace schedlab::base {
namespace {

TEST(CsvField, CellsRoundTripThroughQuoting) {
  const std::vector<std::string> cells = {"easy", "pbas:candidates=easy,flex", "say \"hi\"", "", "a,\"b\",c"};
  std::string line;
  for (const auto& c : cells) {
    if (!line.empty()) line += ',';
    line += csv_field(c);
  }
  EXPECT_EQ(line, "easy,\"pbas:candidates=easy,flex\",\"say \"\"hi\"\"\",,\"a,\"\"b\"\",c\"");
  EXPECT_EQ(split_csv_line(line), cells);
  EXPECT_EQ(split_csv_line(""), std::vector<std::string>{""});
  EXPECT_EQ(split_csv_line("1,"), (std::vector<std::string>{"1", ""}));
}

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
