#include "schedlab/base/json_parse.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

std::string nested(int levels, const std::string& open, const std::string& inner, const std::string& close) {
  std::string s;
  for (int k = 0; k < levels; ++k) s += open;
  s += inner;
  for (int k = 0; k < levels; ++k) s += close;
  return s;
}

TEST(ParseJson, ReadsDocumentsAsNlohmannDoes) {
  EXPECT_EQ(parse_json(R"({"f": 3, "bins": [[60, 25.5], [900, 10]], "name": "x"})"),
            nlohmann::json::parse(R"({"f": 3, "bins": [[60, 25.5], [900, 10]], "name": "x"})"));
  EXPECT_EQ(parse_json("[]"), nlohmann::json::array());
  EXPECT_THROW(parse_json("{\"a\": }"), nlohmann::json::parse_error);
  EXPECT_THROW(parse_json(""), nlohmann::json::parse_error);
}

// The bound: as deep as kMaxJsonDepth is read (and copied); deeper is refused, however deep (200,000 nested
// objects crashed a copy of the value before).
TEST(ParseJson, DeepDocumentsAreRefused) {
  const nlohmann::json ok = parse_json(nested(kMaxJsonDepth, "{\"a\":", "1", "}"));
  const nlohmann::json copy = ok;
  EXPECT_EQ(copy, ok);
  EXPECT_NO_THROW(parse_json(nested(kMaxJsonDepth, "[", "", "]")));
  for (const int levels : {kMaxJsonDepth + 1, 200000}) {
    try {
      parse_json(nested(levels, "{\"a\":", "1", "}"));
      ADD_FAILURE() << levels << " levels were read";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(), "JSON nested more than 256 levels deep");
    }
    EXPECT_THROW(parse_json(nested(levels, "[", "", "]")), std::invalid_argument);
  }
}

}  // namespace
}  // namespace schedlab::base
