// The locality outputs: one CSV row per slice, JSON with the baseline only when there is one.
#include "schedlab/experiments/locality_report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

TEST(LocalityReport, CsvRowsAndJsonFields) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const auto series = analysis::attribute_series(log.records, analysis::Attribute::kRuntime);
  analysis::LocalityOptions o;
  o.rounds = 0;
  const auto r = analysis::locality(series.times, series.values, o);
  const std::string csv = locality_csv(r);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<std::ptrdiff_t>(r.slices.size()) + 1);
  auto j = to_json(r, o, series, analysis::Attribute::kRuntime);
  EXPECT_EQ(j["attribute"].get<std::string>(), std::string("runtime"));
  EXPECT_EQ(j["slices"], static_cast<int64_t>(r.slices.size()));
  EXPECT_FALSE(j.contains("baseline"));
  EXPECT_FALSE(j.contains("estimate_from_runtime"));
  o.rounds = 5;
  const auto rb = analysis::locality(series.times, series.values, o);
  j = to_json(rb, o, series, analysis::Attribute::kRuntime);
  EXPECT_EQ(j["baseline"]["rounds"], 5);
  EXPECT_DOUBLE_EQ(j["m"]["max"].get<double>(), rb.m_max);
}

}  // namespace
}  // namespace schedlab::experiments
