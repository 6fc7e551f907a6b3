// `schedlab report` through the built binary: the page's numbers are the CLI's JSON (stats, simulate, compare,
// analyze locality, sessions), the page is self-contained, and bad input leaves no file behind.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

// The data the page carries (the JSON in its schedlab-data element, "<\/" back to "</").
nlohmann::json page_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"schedlab-data\">";
  const size_t start = page.find(open);
  if (start == std::string::npos) return nullptr;
  const size_t from = start + open.size(), end = page.find("</script>", from);
  std::string text = page.substr(from, end - from);
  for (size_t i = 0; (i = text.find("<\\/", i)) != std::string::npos;) text.replace(i, 3, "</");
  return nlohmann::json::parse(text);
}

nlohmann::json cli_json(const std::vector<std::string>& args) {
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliReport, NumbersOnThePageAreTheCliJson) {
  TempDir dir;
  // -s repeated is the list (the comma form is the rest of the tests').
  const CliResult r = run_cli({"report", bundled_kth(), "-s", "easy", "-s", "conservative", "-o", dir.file("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;  // the estimate: no predictor to correct
  const std::string page = read_file(dir.file("r.html"));
  EXPECT_EQ(page.find("<script src"), std::string::npos);  // everything inlined
  EXPECT_NE(page.find("vegaEmbed"), std::string::npos);
  const nlohmann::json d = page_data(page);
  ASSERT_TRUE(d.is_object());
  // Workload: the stats summary, locality (100 bootstrap rounds), session and user classes.
  const nlohmann::json stats = cli_json({"stats", bundled_kth(), "--json"});
  EXPECT_EQ(d["summary"]["valid_jobs"], stats["valid_jobs"]);
  EXPECT_EQ(d["summary"]["machine"], stats["machine"]);
  const nlohmann::json loc = cli_json({"analyze", "locality", bundled_kth(), "--bootstrap", "100", "--json"});
  EXPECT_EQ(d["workload"]["locality"]["m_med"], loc["m_prime"]["median"]);
  EXPECT_EQ(d["workload"]["locality"]["baseline"], loc["baseline"]["median"]["median"]);
  EXPECT_EQ(d["workload"]["locality"]["slices"].size(), loc["usable_slices"].get<size_t>());
  const nlohmann::json ses = cli_json({"sessions", bundled_kth(), "--classify", "--json"});
  EXPECT_EQ(d["workload"]["classes"]["sessions"], ses["sessions"]);
  // Scheduling: each scheduler's summary is simulate's; the months are compare's.
  const auto& summary = d["scheduling"]["summary"];
  ASSERT_EQ(summary.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    const std::string name = summary[k]["scheduler"];
    const nlohmann::json sim = cli_json({"simulate", bundled_kth(), "-s", name, "--by-class", "--json"});
    EXPECT_EQ(summary[k]["wait_mean"], sim["metrics"]["wait"]["mean"]) << name;
    EXPECT_EQ(summary[k]["loss_of_capacity"], sim["metrics"]["loss_of_capacity"]) << name;
    for (size_t c = 0; c < 4; ++c) {  // the charts by job class: simulate --by-class's classes
      const auto& bar = d["scheduling"]["by_class"][4 * k + c];
      EXPECT_EQ(bar["scheduler"], name);
      EXPECT_EQ(bar["wait_mean"], sim["by_class"]["classes"][c]["wait_mean"]) << name << c;
      EXPECT_EQ(bar["bounded_slowdown_mean"], sim["by_class"]["classes"][c]["bounded_slowdown_mean"]) << name << c;
    }
    EXPECT_EQ(summary[k]["wait_median"], sim["metrics"]["wait"]["median"]) << name;
    EXPECT_EQ(summary[k]["bounded_slowdown_mean"], sim["metrics"]["bounded_slowdown"]["mean"]) << name;
    EXPECT_EQ(summary[k]["utilization"], sim["metrics"]["utilization"]) << name;
  }
  const nlohmann::json cmp = cli_json({"compare", bundled_kth(), "-s", "easy,conservative", "--json"});
  const auto& monthly = d["scheduling"]["monthly"];
  ASSERT_EQ(monthly.size(), 2 * cmp["periods"].size());
  for (const auto& m : monthly) {
    const auto& period = cmp["periods"][m["month"].get<size_t>() - 1]["schedulers"][m["scheduler"].get<std::string>()];
    EXPECT_EQ(m["wait"], period["wait"]);
    EXPECT_EQ(m["bsld_deviation"], period["bounded_slowdown_deviation"]);
  }
}

// --warmup-fraction and --bsld-tau are simulate's: the summary table and the charts by job class are simulate's
// under the same flags.
TEST(CliReport, TheWarmUpAndTheSlowdownThresholdAreSimulates) {
  TempDir dir;
  const std::vector<std::string> flags = {"--warmup-fraction", "0.05", "--bsld-tau", "60"};
  std::vector<std::string> args = {"report", bundled_kth(), "-s", "easy", "-o", dir.file("r.html")};
  args.insert(args.end(), flags.begin(), flags.end());
  const CliResult r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json d = page_data(read_file(dir.file("r.html")));
  args = {"simulate", bundled_kth(), "-s", "easy", "--by-class", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  const nlohmann::json sim = cli_json(args);
  const auto& row = d["scheduling"]["summary"][0];
  const auto warmup = sim["jobs"]["warmup_excluded"].get<int64_t>();
  EXPECT_GT(warmup, 0);
  EXPECT_EQ(row["jobs"].get<int64_t>(), d["scheduling"]["jobs"].get<int64_t>() - warmup);
  EXPECT_EQ(row["wait_mean"], sim["metrics"]["wait"]["mean"]);
  EXPECT_EQ(row["bounded_slowdown_mean"], sim["metrics"]["bounded_slowdown"]["mean"]);
  for (size_t c = 0; c < 4; ++c)
    EXPECT_EQ(d["scheduling"]["by_class"][c]["bounded_slowdown_mean"],
              sim["by_class"]["classes"][c]["bounded_slowdown_mean"]) << c;
}

// --class-limits sets the classes of the charts by job class; a bad one is an error naming the option, no page.
TEST(CliReport, ClassLimits) {
  TempDir dir;
  const CliResult r =
      run_cli({"report", bundled_kth(), "-s", "easy", "--class-limits", "30m,16", "-o", dir.file("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json d = page_data(read_file(dir.file("r.html")));
  EXPECT_EQ(d["scheduling"]["by_class_limits"]["limits"], "30m,16");
  EXPECT_EQ(d["scheduling"]["by_class_limits"]["narrow_procs"], 16);
  const nlohmann::json sim = cli_json({"simulate", bundled_kth(), "-s", "easy", "--class-limits", "30m,16", "--json"});
  EXPECT_EQ(d["scheduling"]["by_class"][3]["wait_mean"], sim["by_class"]["classes"][3]["wait_mean"]);
  const CliResult bad =
      run_cli({"report", bundled_kth(), "-s", "easy", "--class-limits", "30m", "-o", dir.file("b.html")});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--class-limits: job class limits '30m'"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("b.html")));
}

// A predictor left uncorrected is warned of on standard error and its warning is in the page's data (compare's).
TEST(CliReport, AnUncorrectedPredictorIsWarnedOf) {
  TempDir dir;
  const CliResult r = run_cli({"report", bundled_kth(), "-s", "easy,fcfs", "-p", "ruh", "-o", dir.file("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("schedlab: warning: a job ran past its predicted end and the predictor (ruh) gave it no longer "
                       "prediction (13513 times with easy, "),
            std::string::npos)
      << r.err;
  const nlohmann::json d = page_data(read_file(dir.file("r.html")));
  EXPECT_EQ(d["scheduling"]["warnings"],
            cli_json({"compare", bundled_kth(), "-s", "easy,fcfs", "-p", "ruh", "--json"})["warnings"]);
  EXPECT_EQ(d["scheduling"]["warnings"].size(), 1u);
}

// --correction, as simulate and compare take it: the page's schedules and accuracy are the corrected predictor's,
// named with its correction, and nothing is warned of (the page had no way to correct a predictor but its spec).
TEST(CliReport, ACorrectionIsAppliedAndNamed) {
  TempDir dir;
  const CliResult r = run_cli({"report", bundled_kth(), "-s", "easy,fcfs", "-p", "ruh", "--correction", "tsafrir", "-o",
                               dir.file("r.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  const nlohmann::json d = page_data(read_file(dir.file("r.html")));
  EXPECT_EQ(d["scheduling"]["predictor"], "ruh:correction=tsafrir");
  EXPECT_TRUE(d["scheduling"]["warnings"].empty());
  const nlohmann::json sim =
      cli_json({"simulate", bundled_kth(), "-s", "easy", "-p", "ruh", "--correction", "tsafrir", "--json"});
  ASSERT_EQ(d["scheduling"]["accuracy"].size(), 2u);
  EXPECT_EQ(d["scheduling"]["accuracy"][0]["absolute_error"], sim["accuracy"]["absolute_error"]);
  EXPECT_EQ(run_cli({"report", "--sweep", "r.csv", "--correction", "tsafrir", "-o", dir.file("s.html")}).exit_code, 2);
  // A correction of the estimate alone is named too (the page said "estimate" for the corrected runs).
  ASSERT_EQ(
      run_cli({"report", bundled_kth(), "-s", "easy", "--correction", "tsafrir", "-o", dir.file("e.html")}).exit_code,
      0);
  EXPECT_EQ(page_data(read_file(dir.file("e.html")))["scheduling"]["predictor"], "estimate:correction=tsafrir");
}

TEST(CliReport, SweepPage) {
  TempDir dir;
  write_file(dir.file("s.toml"), "logs = '" + bundled_kth() + "'\nschedulers = ['fcfs', 'easy']\nloads = [0.6, 0.8]\n");
  ASSERT_EQ(run_cli({"sweep", dir.file("s.toml"), "-o", dir.file("r.csv")}).exit_code, 0);
  const CliResult r = run_cli({"report", "--sweep", dir.file("r.csv"), "--metric", "bounded_slowdown_mean",
                               "-o", dir.file("s.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json d = page_data(read_file(dir.file("s.html")));
  EXPECT_EQ(d["x"], "load");
  EXPECT_EQ(d["points"].size(), 4u);
  const nlohmann::json sim = cli_json({"simulate", bundled_kth(), "-s", "easy", "--load", "0.8", "--json"});
  bool found = false;
  for (const auto& p : d["points"])
    if (p["series"] == "easy" && p["x"] == 0.8) {
      found = true;
      EXPECT_EQ(p["value"], sim["metrics"]["bounded_slowdown"]["mean"]);
    }
  EXPECT_TRUE(found);
  // The results piped in (`schedlab sweep s.toml -o - | schedlab report --sweep - ...`): the same page data ("-"
  // was "no such file").
  const CliResult piped = run_cli({"report", "--sweep", "-", "--metric", "bounded_slowdown_mean", "-o",
                                   dir.file("p.html")},
                                  read_file(dir.file("r.csv")));
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  nlohmann::json from_file = d, from_stdin = page_data(read_file(dir.file("p.html")));
  EXPECT_EQ(from_stdin["title"], "<stdin>");
  from_file.erase("title");
  from_stdin.erase("title");
  EXPECT_EQ(from_stdin, from_file);
}

// Each bad input: a non-zero exit, a message naming the problem, and no page (not even a partial one); an earlier
// page at the same path is left as it was.
TEST(CliReport, BadInputLeavesNoFile) {
  TempDir dir;
  write_file(dir.file("empty.swf"), "; MaxProcs: 4\n");
  write_file(dir.file("excluded.swf"), "; MaxProcs: 4\n1 0 0 -1 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n"
                                       "2 5 0 -1 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n");
  write_file(dir.file("ok.swf"), "; MaxProcs: 4\n1 0 0 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"report", dir.file("empty.swf")}, "empty.swf: no job to simulate (the log has no job records)"},
      {{"report", dir.file("excluded.swf")},
       "excluded.swf: no job to simulate (all 2 records were excluded: negative_runtime 2)"},
      {{"report", dir.file("ok.swf"), "-s", "easy,nope"}, "unknown scheduler 'nope'"},
      {{"report", dir.file("ok.swf"), "--procs", "0"}, "machine size must be positive, got --procs 0"},
      {{"report", dir.file("ok.swf"), "--metric", "bsld_mean"}, "--metric requires --sweep"},
      {{"report", "--sweep", dir.file("ok.swf"), "-s", "fcfs"}, "--sweep excludes --schedulers"},
      {{"report", "--sweep", dir.file("ok.swf"), "--warmup-fraction", "0.1"}, "--sweep excludes --warmup-fraction"},
      {{"report", dir.file("ok.swf"), "--warmup-fraction", "1"}, "warm-up fraction must be in [0, 1), got 1"},
      {{"report", dir.file("ok.swf"), "--bsld-tau", "0"}, "bounded-slowdown threshold must be positive, got 0"},
      {{"report", dir.file("missing.swf")}, "missing.swf"},
      {{"report", "--sweep", dir.file("ok.swf")}, "not the CSV of schedlab sweep"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"-o", dir.file("out.html")});
    const CliResult r = run_cli(args);
    EXPECT_NE(r.exit_code, 0) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.html"))) << c.message;
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.html.tmp"))) << c.message;
  }
  write_file(dir.file("old.html"), "earlier page");
  EXPECT_NE(run_cli({"report", dir.file("empty.swf"), "-o", dir.file("old.html")}).exit_code, 0);
  EXPECT_EQ(read_file(dir.file("old.html")), "earlier page");
}

}  // namespace
}  // namespace schedlab::testing
