#include "schedlab/base/nearest.h"

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(Nearest, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("easy", "easy"), 0u);
  EXPECT_EQ(edit_distance("easyy", "easy"), 1u);     // deletion
  EXPECT_EQ(edit_distance("chek", "check"), 1u);     // insertion
  EXPECT_EQ(edit_distance("xfacter", "xfactor"), 1u);  // substitution
  EXPECT_EQ(edit_distance("fcsf", "fcfs"), 1u);       // two neighbours swapped
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);         // a swap is not edited again
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Nearest, SuggestsOnlyWhatIsNearEnough) {
  const std::vector<std::string> names = {"fcfs", "easy", "easy-sjbf", "conservative", "seeds"};
  EXPECT_EQ(nearest_name("easyy", names), "easy");
  EXPECT_EQ(nearest_name("EASY", names), "easy");  // case alone is no distance
  EXPECT_EQ(nearest_name("seed", names), "seeds");
  EXPECT_EQ(nearest_name("consrevatve", names), "conservative");  // 3 edits in 11 letters
  EXPECT_EQ(nearest_name("fcsf", names), "fcfs");
  EXPECT_EQ(nearest_name("easy", names), "");        // a known name needs no suggestion
  EXPECT_EQ(nearest_name("ez", names), "");          // too short to mean one name
  EXPECT_EQ(nearest_name("flex", names), "");        // 2 edits from fcfs and easy in 4 letters: a guess
  EXPECT_EQ(nearest_name("backfill", names), "");
  EXPECT_EQ(nearest_name("easyy", {}), "");
  EXPECT_EQ(did_you_mean("easyy", names), "; did you mean 'easy'?");
  EXPECT_EQ(did_you_mean("zzzz", names), "");
}

}  // namespace
}  // namespace schedlab::base
