// `schedlab flurries` and `schedlab filter --drop-flurries` through the built binary.
#include <string>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

TEST(CliFlurries, KthUncleanedAndCleanedFollowTheRule) {
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  // The archive's cleaning of KTH removed only its first 14 jobs, no flurry: with the default rule
  // (F = 3, more than 500 jobs) neither version has one.
  for (const char* log : {"KTH-SP2-1996-2.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz"}) {
    const CliResult r = run_cli({"flurries", trace_path(log), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["flurries"].size(), 0u) << log;
  }
  // A lower minimum lists smaller bursts; each satisfies the rule.
  const CliResult raw = run_cli({"flurries", trace_path("KTH-SP2-1996-2.swf.gz"), "--json", "--min-jobs", "100"});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  const auto j = nlohmann::json::parse(raw.out);
  EXPECT_GE(j["flurries"].size(), 1u);
  for (const auto& f : j["flurries"]) {
    EXPECT_GT(f["jobs"].get<int64_t>(), 3 * f["runner_up_jobs"].get<int64_t>());
    EXPECT_GT(f["jobs"].get<int64_t>(), 100);
  }
}

// The jobs the rule attributes to no one (no user or no submit time) are said, in the text and the JSON.
TEST(CliFlurries, JobsWithoutUserOrSubmitTimeAreSaid) {
  TempDir dir;
  write_file(dir.file("l.swf"), "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                "2 -1 0 10 1 -1 -1 1 100 -1 1 2 -1 -1 -1 -1 -1 -1\n"
                                "3 60 0 10 1 -1 -1 1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
  const CliResult r = run_cli({"flurries", dir.file("l.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n0 flurries, 0 of 3 records (2 without a user or submit time: in no flurry)\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(nlohmann::json::parse(run_cli({"flurries", dir.file("l.swf"), "--json"}).out)["unattributed"], 2);
  EXPECT_EQ(run_cli({"flurries", bundled_kth()}).out.find("in no flurry"), std::string::npos);
}

// A log converted from sacct names its users in its header: the flurry's user and the next one by name too.
TEST(CliFlurries, NamedByALogFromSacct) {
  TempDir dir;
  std::string log = "; MaxProcs: 4\n; Note: users: 7=alice, 8=bob\n";
  for (int i = 0; i < 40; ++i)  // alice: 35 jobs in week 0, bob: 5
    log += fmt::format("{} {} 0 10 1 -1 -1 1 10 -1 1 {} 1 -1 -1 -1 -1 -1\n", i + 1, i * 60, i < 35 ? 7 : 8);
  write_file(dir.file("in.swf"), log);
  CliResult r = run_cli({"flurries", dir.file("in.swf"), "--min-jobs", "30"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  names (user, next user)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  alice, bob\n"), std::string::npos) << r.out;
  r = run_cli({"flurries", dir.file("in.swf"), "--min-jobs", "30", "--json"});
  const auto f = nlohmann::json::parse(r.out)["flurries"].at(0);
  EXPECT_EQ(f["user"], 7);
  EXPECT_EQ(f["user_name"], "alice");
  EXPECT_EQ(f["runner_up_name"], "bob");
  // Without names in the header, neither column nor key.
  write_file(dir.file("plain.swf"), log.substr(log.find("1 0 ")));
  r = run_cli({"flurries", dir.file("plain.swf"), "--min-jobs", "30", "--json"});
  EXPECT_FALSE(nlohmann::json::parse(r.out)["flurries"].at(0).contains("user_name"));
  // A user alone in the week has no next user: "-", not the id -1.
  std::string alone = "; MaxProcs: 4\n";
  for (int i = 0; i < 20; ++i) alone += fmt::format("{} {} 0 10 1 -1 -1 1 10 -1 1 7 1 -1 -1 -1 -1 -1\n", i + 1, i * 60);
  write_file(dir.file("alone.swf"), alone);
  r = run_cli({"flurries", dir.file("alone.swf"), "--min-jobs", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("       7      0 +0 s                           20          -          0     20.0\n"),
            std::string::npos)
      << r.out;
}

TEST(CliFlurries, FilterDropsThemAndNotesIt) {
  TempDir dir;
  std::string log = "; MaxProcs: 4\n";
  int id = 1;
  for (int i = 0; i < 40; ++i)  // user 7: 40 jobs in week 0, user 8: 5
    log += fmt::format("{} {} 0 10 1 -1 -1 1 10 -1 1 {} 1 -1 -1 -1 -1 -1\n", id++, i * 60, i < 35 ? 7 : 8);
  write_file(dir.file("in.swf"), log);
  const CliResult list = run_cli({"flurries", dir.file("in.swf"), "--min-jobs", "20"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("1 flurry, 35 of 40 records"), std::string::npos) << list.out;
  const CliResult f = run_cli({"filter", dir.file("in.swf"), "-o", dir.file("out.swf"), "--drop-flurries",
                               "--flurry-min-jobs", "20"});
  ASSERT_EQ(f.exit_code, 0) << f.err;
  const swf::Log out = swf::read_log(dir.file("out.swf"));
  EXPECT_EQ(out.records.size(), 5u);
  bool noted = false;
  for (const auto& n : out.header.notes) noted = noted || n.starts_with("filter: dropped 35 records of 1 flurry (");
  EXPECT_TRUE(noted);
  EXPECT_EQ(run_cli({"flurries", dir.file("in.swf"), "--factor", "0.5"}).exit_code, 1);
}

}  // namespace
}  // namespace schedlab::testing
