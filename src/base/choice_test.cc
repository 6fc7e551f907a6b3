#include "schedlab/base/choice.h"

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

enum class Colour { kRed, kGreen, kBlue };
constexpr std::array<std::string_view, 3> kColours = {"red", "green", "blue"};

TEST(Choice, NamesMapToTheirEnumValuesInOrder) {
  EXPECT_EQ(parse_choice<Colour>(kColours, "red"), Colour::kRed);
  EXPECT_EQ(parse_choice<Colour>(kColours, "blue"), Colour::kBlue);
  EXPECT_FALSE(parse_choice<Colour>(kColours, "Blue").has_value());  // exact names only
  EXPECT_FALSE(parse_choice<Colour>(kColours, "").has_value());
  EXPECT_EQ(choice_names(kColours), (std::vector<std::string>{"red", "green", "blue"}));
}

}  // namespace
}  // namespace schedlab::base
