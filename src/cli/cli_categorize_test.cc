// `schedlab categorize` through the built binary.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

// user, executable, size, queue, runtime -> one SWF line.
std::string line(int id, int user, int exe, int size, int queue, int runtime) {
  return fmt::format("{} {} 0 {} {} -1 -1 {} -1 -1 1 {} -1 {} {} -1 -1 -1\n", id, id * 10, runtime, size, size, user,
                     exe, queue);
}

// User 1: exe 1 on 4 processors, 100 100 100 300 300 300 (C.V. sqrt(12000)/200 = sqrt(0.3));
// user 2: exe 2 on 8 processors, 6 x 1000 s (C.V. 0); user 3: 2 jobs (a group too small);
// one job with an unknown executable (user 1, 4 processors, 200 s).
std::string tiny_log_text() {
  std::string log = "; MaxProcs: 16\n";
  int id = 1;
  for (const int t : {100, 100, 100, 300, 300, 300}) log += line(id++, 1, 1, 4, 1, t);
  for (int i = 0; i < 6; ++i) log += line(id++, 2, 2, 8, 1, 1000);
  for (int i = 0; i < 2; ++i) log += line(id++, 3, 1, 4, 2, 50);
  log += line(id++, 1, -1, 4, 1, 200);
  return log;
}

TEST(CliCategorize, JsonOnAHandComputedLog) {
  TempDir dir;
  write_file(dir.file("tiny.swf"), tiny_log_text());
  const CliResult r = run_cli({"categorize", dir.file("tiny.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 15);
  ASSERT_EQ(j["keys"].size(), 6u);
  const auto key = [&](const std::string& name) {
    for (const auto& k : j["keys"])
      if (k["key"] == name) return k;
    ADD_FAILURE() << "no key " << name;
    return nlohmann::json{};
  };
  // System: 15 jobs, sum 1200 + 6000 + 100 + 200 = 7500, sum of squares 300,000 + 6e6 + 5,000 + 40,000.
  const auto sys = key("system");
  EXPECT_EQ(sys["jobs"], 15);
  EXPECT_NEAR(sys["mean_runtime"].get<double>(), 500.0, 1e-9);
  EXPECT_NEAR(sys["weighted_cv"].get<double>(), std::sqrt((6345000.0 - 7500.0 * 7500 / 15) / 14) / 500, 1e-12);
  // User: user 1 = 100 x3, 300 x3, 200 (C.V. 0.5), user 2 (C.V. 0); user 3 is a small group.
  const auto user = key("user");
  EXPECT_EQ(user["groups"], 2);
  EXPECT_EQ(user["jobs"], 13);
  EXPECT_EQ(user["excluded"]["small_group"], 2);
  EXPECT_NEAR(user["weighted_cv"].get<double>(), 7 * 0.5 / 13, 1e-12);
  // Executable + user + parallelism: (1, 1, 4) C.V. sqrt(0.3) over 6 jobs, (2, 2, 8) C.V. 0 over 6 jobs.
  const auto eup = key("executable+user+parallelism");
  EXPECT_EQ(eup["groups"], 2);
  EXPECT_EQ(eup["excluded"]["unknown_executable"], 1);
  EXPECT_EQ(eup["excluded"]["small_group"], 2);
  EXPECT_NEAR(eup["weighted_cv"].get<double>(), 6 * std::sqrt(0.3) / 12, 1e-12);
  EXPECT_NEAR(eup["mean_runtime"].get<double>(), 7200.0 / 12, 1e-9);
  // 7 x 0.5 / 13 = 0.2692 (user) is just below 6 sqrt(0.3) / 12 = 0.2739.
  EXPECT_EQ(j["lowest_cv_key"], "user");
  EXPECT_FALSE(j.contains("groups"));
}

TEST(CliCategorize, TextTableAndGroupList) {
  TempDir dir;
  write_file(dir.file("tiny.swf"), tiny_log_text());
  const CliResult r = run_cli({"categorize", dir.file("tiny.swf"), "--groups", "user"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lowest weighted C.V.: user (0.27)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("groups of user (2 of 2, most jobs first)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("user 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("small_group 2"), std::string::npos) << r.out;
  // A key without any group kept (queue 1 has 13 jobs): said, not an empty table under its header.
  const CliResult none = run_cli({"categorize", dir.file("tiny.swf"), "--groups", "queue", "--min-jobs", "14"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("groups of queue (0 of 0, most jobs first):\n  none: no group kept (the jobs left out are "
                          "counted above)\n"),
            std::string::npos)
      << none.out;
  // With groups of two allowed, user 3 (two jobs of 50 s, C.V. 0) joins.
  const CliResult two = run_cli({"categorize", dir.file("tiny.swf"), "--json", "--min-jobs", "2", "--groups",
                                 "user", "--top", "1"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const auto j = nlohmann::json::parse(two.out);
  EXPECT_EQ(j["keys"][1]["groups"], 3);
  EXPECT_EQ(j["groups"]["count"], 3);
  ASSERT_EQ(j["groups"]["list"].size(), 1u);
  EXPECT_EQ(j["groups"]["list"][0]["user"], 1);  // 7 jobs, the largest group
}

TEST(CliCategorize, BadInputAndOptions) {
  TempDir dir;
  write_file(dir.file("bad.swf"), tiny_log_text() + "16 0 0 abc 4 -1 -1 4 -1 -1 1 1 -1 1 1 -1 -1 -1\n");
  const CliResult bad = run_cli({"categorize", dir.file("bad.swf")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bad.swf:17: field 4 (run_time)"), std::string::npos) << bad.err;
  write_file(dir.file("tiny.swf"), tiny_log_text());
  // Each refusal names its option (they said "the minimum group size", "top", which no option is called).
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--min-jobs", "1"}, "--min-jobs must be >= 2 (the sample standard deviation needs two jobs), got 1"},
      {{"--max-jobs", "3"}, "--max-jobs (3) must be 0 (no limit) or >= --min-jobs (6)"},
      {{"--top", "-1"}, "--top must be >= 0 (0: all groups), got -1"}};
  for (const auto& [options, message] : refused) {
    std::vector<std::string> args = {"categorize", dir.file("tiny.swf")};
    args.insert(args.end(), options.begin(), options.end());
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "schedlab: error: " + message + "\n");
  }
  EXPECT_EQ(run_cli({"categorize", dir.file("tiny.swf"), "--parallelism", "sqrt"}).exit_code, 2);  // a usage error
  EXPECT_EQ(run_cli({"categorize", dir.file("tiny.swf"), "--groups", "nosuch"}).exit_code, 2);
  EXPECT_EQ(run_cli({"categorize", dir.file("missing.swf")}).exit_code, 1);
}

TEST(CliCategorize, KthHasNoQueuesOrExecutables) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const CliResult r = run_cli({"categorize", trace_path("KTH-SP2-1996-2.swf.gz"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"], 28489);
  // The KTH log records neither queues nor executables (fields 15 and 14 are -1 throughout).
  EXPECT_EQ(j["keys"][2]["groups"], 0);
  EXPECT_EQ(j["keys"][2]["excluded"]["unknown_queue"], 28489);
  EXPECT_TRUE(j["keys"][2]["weighted_cv"].is_null());
  EXPECT_EQ(j["keys"][4]["excluded"]["unknown_executable"], 28489);
  EXPECT_EQ(j["keys"][0]["jobs"], 28489);
  for (const auto& k : j["keys"]) {
    int64_t total = k["jobs"].get<int64_t>();
    for (const auto& [reason, n] : k["excluded"].items()) total += n.get<int64_t>();
    EXPECT_EQ(total, 28489) << k["key"];
  }
}

}  // namespace
}  // namespace schedlab::testing
