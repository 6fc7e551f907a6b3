// The runs outputs: the histogram as CSV and JSON.
#include "schedlab/experiments/runs_report.h"

#include <gtest/gtest.h>

namespace schedlab::experiments {
namespace {

TEST(RunsReport, CsvAndJson) {
  analysis::RunsResult r;
  r.jobs = 7;
  r.runs = 4;
  r.longest = 3;
  r.histogram = {{1, 2}, {2, 1}, {3, 1}};
  EXPECT_EQ(runs_csv(r), "length,runs\n1,2\n2,1\n3,1\n");
  const auto j = to_json(r, "user, size");
  EXPECT_EQ(j["equivalence"].get<std::string>(), std::string("user, size"));
  EXPECT_EQ(j["jobs"].get<int64_t>(), 7);
  EXPECT_EQ(j["histogram"].dump(), "[[1,2],[2,1],[3,1]]");
}

}  // namespace
}  // namespace schedlab::experiments
