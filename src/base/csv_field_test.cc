// schedlab's CSV cells, written and read back.
#include "schedlab/base/csv_field.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>


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

}  // namespace
}  // namespace schedlab::base
