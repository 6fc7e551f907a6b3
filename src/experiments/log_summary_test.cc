// The JSON form of a log's summary: every count from the summary, dates only where the zone is known.
#include "schedlab/experiments/log_summary.h"

#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

TEST(LogSummaryJson, CountsAndDates) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const analysis::Summary s = analysis::summarize(log);
  const auto j = to_json(s, log.header);
  EXPECT_FALSE(j.contains("path"));
  EXPECT_EQ(j["records"], s.records);
  EXPECT_EQ(j["valid_jobs"], s.valid_jobs);
  EXPECT_EQ(j["distributions"]["runtime"]["median"], s.runtime.median);
  EXPECT_EQ(j["machine"]["procs"], s.machine.procs);
  ASSERT_TRUE(j["submit"].contains("first_date"));
  EXPECT_EQ(j["submit"]["first_date"].get<std::string>().substr(0, 4), "1996");
  swf::Header unknown_zone = log.header;
  unknown_zone.time_zone_string = "Nowhere/Atlantis";
  const auto k = to_json(s, unknown_zone);
  EXPECT_FALSE(k["submit"].contains("first_date"));
  EXPECT_EQ(k["submit"]["first"], s.first_submit);
}

}  // namespace
}  // namespace schedlab::experiments
