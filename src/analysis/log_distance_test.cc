// Two logs' distance on hand-made logs: KS and medians computed by hand, fractions of the machine, attributes
// one log lacks, and the logs that have no distance.
#include "schedlab/analysis/log_distance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace schedlab::analysis {
namespace {

// A: 10 processors; runtimes 10, 20, 30 on 1, 2, 4 processors; no estimates (field 9 is -1).
const char* kA =
    "; MaxProcs: 10\n"
    "1 0 0 10 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
    "2 100 0 20 2 -1 -1 2 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
    "3 200 0 30 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n";
// B: 20 processors; runtimes 10, 40 on 2, 8 processors (as fractions 0.1 and 0.4: A's first and last).
const char* kB =
    "; MaxProcs: 20\n"
    "1 0 0 10 2 -1 -1 2 50 -1 1 1 -1 -1 -1 -1 -1 -1\n"
    "2 50 0 40 8 -1 -1 8 60 -1 1 1 -1 -1 -1 -1 -1 -1\n";

const AttributeDistance& of(const LogDistance& d, Attribute a) { return d.attributes[static_cast<size_t>(a)]; }

TEST(LogDistance, HandComputedKsAndMedians) {
  const LogDistance d = log_distance(swf::parse_log(kA, "a.swf"), swf::parse_log(kB, "b.swf"));
  EXPECT_EQ(d.procs_a, 10);
  EXPECT_EQ(d.procs_b, 20);
  // Runtime: F_A - F_B at 10, 20, 30, 40 = 1/3-1/2, 2/3-1/2, 1-1/2, 0.
  const auto& rt = of(d, Attribute::kRuntime);
  EXPECT_DOUBLE_EQ(rt.ks, 0.5);
  EXPECT_DOUBLE_EQ(rt.median_a, 20);
  EXPECT_DOUBLE_EQ(rt.median_b, 25);
  EXPECT_EQ(rt.count_a, 3);
  EXPECT_EQ(rt.count_b, 2);
  EXPECT_EQ(d.records_a, 3);
  EXPECT_EQ(d.unknown_submit_a, 0);
  // Size as a fraction of the machine: A {0.1, 0.2, 0.4}, B {0.1, 0.4}: differences 1/6, 1/6, 0.
  const auto& procs = of(d, Attribute::kProcs);
  EXPECT_NEAR(procs.ks, 1.0 / 6, 1e-12);
  EXPECT_NEAR(procs.median_a, 0.2, 1e-12);
  EXPECT_NEAR(procs.median_b, 0.25, 1e-12);
  // A has no estimate: its runtimes stand in (attribute.h), {10, 20, 30} against {50, 60}: disjoint.
  const auto& est = of(d, Attribute::kEstimate);
  EXPECT_DOUBLE_EQ(est.ks, 1.0);
  EXPECT_DOUBLE_EQ(est.median_a, 20);
  EXPECT_DOUBLE_EQ(est.median_b, 55);
  EXPECT_EQ(est.estimate_from_runtime_a, 3);  // counted, so the output can say so
  EXPECT_EQ(est.estimate_from_runtime_b, 0);
  EXPECT_EQ(rt.estimate_from_runtime_a, 0);   // only the estimate has them
  // Inter-arrival: A {100, 100}, B {50}: disjoint.
  EXPECT_DOUBLE_EQ(of(d, Attribute::kInterarrival).ks, 1.0);
  // A one-job log has no inter-arrival time: no distance (not 0, which would read as the same distribution).
  const LogDistance one = log_distance(swf::parse_log(kA, "a.swf"), swf::parse_log("; MaxProcs: 20\n"
      "1 0 0 10 2 -1 -1 2 50 -1 1 1 -1 -1 -1 -1 -1 -1\n", "c.swf"));
  const auto& ia = of(one, Attribute::kInterarrival);
  EXPECT_TRUE(std::isnan(ia.ks));
  EXPECT_TRUE(std::isnan(ia.median_b));
  EXPECT_EQ(ia.count_b, 0);
  EXPECT_DOUBLE_EQ(of(one, Attribute::kRuntime).ks, 2.0 / 3);
}

TEST(LogDistance, ALogWithoutJobsOrMachineSizeIsNamed) {
  const auto error = [](const char* a, const char* b) {
    try {
      log_distance(swf::parse_log(a, "a.swf"), swf::parse_log(b, "b.swf"));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(kA, kB), "");
  EXPECT_EQ(error("; MaxProcs: 10\n", kB), "a.swf: the log has no job");
  EXPECT_EQ(error(kA, "; MaxProcs: 10\n"), "b.swf: the log has no job");
  EXPECT_EQ(error(kA, "1 0 0 10 -1 -1 -1 -1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"),
            "b.swf: the log's machine size is unknown (no MaxProcs or MaxNodes in the header, no job size)");
}

}  // namespace
}  // namespace schedlab::analysis
