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

// The jobs a log's distribution leaves out, by reason: no submit time, or a submit time and no value; the first
// job's missing inter-arrival time is neither.
TEST(DiversityStudy, JobsLeftOutAreCountedByReason) {
  swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  log.records[5].submit_time = -1;
  log.records[7].run_time = -1;
  log.records[8].run_time = -1;
  const DiversityLog rt = diversity_log("kth", log, analysis::Attribute::kRuntime);
  EXPECT_EQ(rt.without_submit, 1);
  EXPECT_EQ(rt.unknown_value, 2);
  EXPECT_EQ(rt.without_value, 3);
  const DiversityLog ia = diversity_log("kth", log, analysis::Attribute::kInterarrival);
  EXPECT_EQ(ia.without_submit, 1);
  EXPECT_EQ(ia.unknown_value, 0);
  EXPECT_EQ(ia.without_value, 2);  // (the JSON's jobs_without_value, as before: the first job too)
  EXPECT_EQ(static_cast<int64_t>(rt.values.size()) + rt.without_value, static_cast<int64_t>(log.records.size()));
}

}  // namespace
}  // namespace schedlab::experiments
