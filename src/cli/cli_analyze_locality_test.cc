// `schedlab analyze locality` through the built binary, against the locality paper's Table 2.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

nlohmann::json run_locality(const std::string& log, const std::string& rounds) {
  const CliResult r = run_cli({"analyze", "locality", trace_path(log), "--bootstrap", rounds, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// Table 2 of the paper (runtime, 24 bins, 3-day slices): M'_med. The logs here are the archive's current
// versions of the paper's logs, so only M'_med (the stable metric) is held to 0.01.
TEST(CliAnalyzeLocality, RuntimeMedianMatchesTable2) {
  const struct {
    const char* log;
    double m_med_prime;
  } cases[] = {{"KTH-SP2-1996-2.swf.gz", 0.085},
               {"CTC-SP2-1996-3.1-cln.swf.gz", 0.063},
               {"LANL-CM5-1994-4.1-cln.swf.gz", 0.059}};
  for (const auto& c : cases) {
    SCHEDLAB_NEED_TRACE(c.log);
    const auto j = run_locality(c.log, "50");
    EXPECT_NEAR(j["m_prime"]["median"].get<double>(), c.m_med_prime, 0.01) << c.log;
    // The baseline is far below the observed value: locality is significant.
    EXPECT_LT(j["baseline"]["median"]["p95"].get<double>(), j["m_prime"]["median"].get<double>()) << c.log;
    EXPECT_DOUBLE_EQ(j["m"]["median"].get<double>(),
                     j["m_prime"]["median"].get<double>() - j["baseline"]["median"]["median"].get<double>());
  }
}

TEST(CliAnalyzeLocality, SameSeedSameBytesAndCsvSeries) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const std::string log = trace_path("KTH-SP2-1996-2.swf.gz");
  const CliResult a = run_cli({"analyze", "locality", log, "--bootstrap", "30", "--seed", "5", "--threads", "1"});
  const CliResult b = run_cli({"analyze", "locality", log, "--bootstrap", "30", "--seed", "5", "--threads", "2"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  TempDir dir;
  const CliResult c =
      run_cli({"analyze", "locality", log, "--bootstrap", "0", "--csv", dir.file("s.csv"), "--attr", "procs"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const std::string csv = read_file(dir.file("s.csv"));
  EXPECT_EQ(csv.rfind("slice,start,jobs,usable,m,top_bin\n", 0), 0u);
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 100);
}

// The text says what M', M'_g, M and p are (the table alone gave the paper's symbols).
TEST(CliAnalyzeLocality, TheTextExplainsItsColumns) {
  const CliResult r = run_cli({"analyze", "locality", bundled_kth(),
                               "--bootstrap", "20"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* explained : {"(M': the largest and the median deviation", "M'_g:\n their medians over the bootstrap",
                                "M: the locality beyond chance", "p: the share of rounds at or above M'"})
    EXPECT_NE(r.out.find(explained), std::string::npos) << explained << "\n" << r.out;
}

TEST(CliAnalyzeLocality, BadInputExitsOne) {
  TempDir dir;
  write_file(dir.file("tiny.swf"), "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
  const auto tiny = run_cli({"analyze", "locality", dir.file("tiny.swf")});
  EXPECT_EQ(tiny.exit_code, 1);
  EXPECT_NE(tiny.err.find(dir.file("tiny.swf") + ": no usable slice: every slice has fewer than"), std::string::npos)
      << tiny.err;
  const CliResult bad_attr = run_cli({"analyze", "locality", dir.file("tiny.swf"), "--attr", "memory"});
  EXPECT_EQ(bad_attr.exit_code, 2);  // a usage error
  EXPECT_NE(bad_attr.err.find("--attr"), std::string::npos);
  EXPECT_EQ(run_cli({"analyze", "locality", dir.file("tiny.swf"), "--slice", "3x"}).exit_code, 1);
  EXPECT_EQ(run_cli({"analyze", "locality", dir.file("missing.swf")}).exit_code, 1);
}

}  // namespace
}  // namespace schedlab::testing
