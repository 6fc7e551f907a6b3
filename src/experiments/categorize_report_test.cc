// The categorize JSON: every key, the lowest C.V. key, and the largest groups of the listed key.
#include "schedlab/experiments/categorize_report.h"

#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

TEST(CategorizeReport, KeysAndLargestGroups) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const analysis::Categorization c = analysis::categorize(log.records);
  const auto j = to_json(c, analysis::CategoryKey::kUser, 3);
  EXPECT_EQ(j["keys"].size(), static_cast<size_t>(analysis::kCategoryKeys));
  EXPECT_EQ(j["rule"]["parallelism"].get<std::string>(), std::string("exact"));
  const auto& list = j["groups"]["list"];
  ASSERT_EQ(list.size(), 3u);
  EXPECT_GE(list[0]["jobs"].get<int64_t>(), list[1]["jobs"].get<int64_t>());
  EXPECT_GE(list[1]["jobs"].get<int64_t>(), list[2]["jobs"].get<int64_t>());
  EXPECT_FALSE(to_json(c, std::nullopt, 3).contains("groups"));
  EXPECT_EQ(analysis::parse_parallelism_bucket("log2"), analysis::ParallelismBucket::kLog2);
  EXPECT_FALSE(analysis::parse_parallelism_bucket("linear").has_value());
}

}  // namespace
}  // namespace schedlab::experiments
