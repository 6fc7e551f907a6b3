// The diversity study: a log against itself and another, CSV and JSON, errors naming the log.
#include "schedlab/experiments/diversity_study.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include "test_util.h"

namespace schedlab::experiments {
namespace {

TEST(DiversityStudy, TwoCopiesOfALogAgreeAndOutputsHaveEveryLog) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  analysis::DiversityOptions o;
  o.rounds = 0;
  const auto st = run_diversity_study({diversity_log("a/kth.swf", log, analysis::Attribute::kRuntime),
                                       diversity_log("b/kth.swf", log, analysis::Attribute::kRuntime)},
                                      analysis::Attribute::kRuntime, o);
  ASSERT_EQ(st.result.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(st.result.rows[0].job_weighted, st.result.rows[1].job_weighted);  // same distribution
  const std::string csv = diversity_csv(st);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find("\nkth.swf,"), std::string::npos);
  const auto j = to_json(st);
  EXPECT_EQ(j["logs"].size(), 2u);
  EXPECT_EQ(j["logs"][1]["path"].get<std::string>(), std::string("b/kth.swf"));
  swf::Log empty = log;
  empty.records.clear();
  EXPECT_THROW(diversity_log("empty.swf", empty, analysis::Attribute::kRuntime), std::invalid_argument);
  EXPECT_THROW(run_diversity_study({diversity_log("a", log, analysis::Attribute::kRuntime)},
                                   analysis::Attribute::kRuntime, o),
               std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::experiments
