// The flurries outputs: one CSV row per flurry; JSON with the rule and the total.
#include "schedlab/experiments/flurries_report.h"

#include <gtest/gtest.h>

namespace schedlab::experiments {
namespace {

TEST(FlurriesReport, CsvAndJson) {
  std::vector<trace::Flurry> flurries(2);
  flurries[0] = {.user = 7, .week = 2, .week_start = 1209600, .jobs = 900, .runner_up = 3, .runner_up_jobs = 100,
                 .ratio = 9};
  flurries[1] = {.user = 8, .week = 5, .week_start = 3024000, .jobs = 600, .runner_up = 1, .runner_up_jobs = 150,
                 .ratio = 4};
  EXPECT_EQ(flurries_csv(flurries),
            "user,week,week_start,jobs,runner_up,runner_up_jobs,ratio\n7,2,1209600,900,3,100,9\n"
            "8,5,3024000,600,1,150,4\n");
  EXPECT_EQ(flurry_jobs(flurries), 1500);
  swf::Log log;
  log.records.resize(3000);
  const auto j = to_json(flurries, trace::FlurryOptions{}, log);
  EXPECT_EQ(j["records"].get<int64_t>(), 3000);
  EXPECT_EQ(j["flurry_jobs"].get<int64_t>(), 1500);
  EXPECT_EQ(j["flurries"][0]["week_start_date"].get<std::string>(), std::string());  // no UnixStartTime
  EXPECT_THROW(trace::check_flurry_options({.factor = 0.5}), std::invalid_argument);
}

}  // namespace
}  // namespace schedlab::experiments
