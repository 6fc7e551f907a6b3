#include <string>

#include <gtest/gtest.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "schedlab/base/version.h"
#include "test_util.h"

namespace schedlab::testing {
namespace {

const char* kKth = "KTH-SP2-1996-2.swf.gz";

TEST(CliEstimates, BinsJsonOnKth) {
  SCHEDLAB_NEED_TRACE(kKth);
  const auto r = run_cli({"estimates", "bins", trace_path(kKth), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["distinct"], 271);
  std::vector<int64_t> cover;
  for (const auto& c : j["cover"]) cover.push_back(c["bins"]);
  EXPECT_EQ(cover, (std::vector<int64_t>{1, 8, 21, 41, 60, 89, 122, 271}));
  EXPECT_EQ(j["modes"].size(), 20u);
  EXPECT_EQ(j["modes"][0]["value"], 14400);
}

TEST(CliEstimates, GenerateIsByteIdenticalForASeedAndNotesTheModel) {
  SCHEDLAB_NEED_TRACE(kKth);
  TempDir dir;
  for (const std::string model : {"song", "feit", "shfl"}) {
    const auto a = run_cli({"estimates", "generate", trace_path(kKth), "--model", model, "--seed", "5", "-o",
                            dir.file("a.swf")});
    const auto b = run_cli({"estimates", "generate", trace_path(kKth), "--model", model, "--seed", "5", "-o",
                            dir.file("b.swf")});
    const auto c = run_cli({"estimates", "generate", trace_path(kKth), "--model", model, "--seed", "6", "-o",
                            dir.file("c.swf")});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const std::string x = read_file(dir.file("a.swf"));
    EXPECT_EQ(x, read_file(dir.file("b.swf"))) << model;
    EXPECT_NE(x, read_file(dir.file("c.swf"))) << model;
    EXPECT_NE(x.find("; Note: field 9 (requested time) replaced by schedlab " + std::string(base::kVersion) +
                         " estimates generate --model " + model),
              std::string::npos);
  }
  // A model named as a sweep spec names it ("f:f=3") is the model with those parameters (it was "unknown estimate
  // model"); --params merge after it.
  ASSERT_EQ(run_cli({"estimates", "generate", trace_path(kKth), "--model", "f", "--params", "f=3", "-o",
                     dir.file("p.swf")})
                .exit_code,
            0);
  const auto spec = run_cli({"estimates", "generate", trace_path(kKth), "--model", "f:f=3", "-o", dir.file("s.swf")});
  ASSERT_EQ(spec.exit_code, 0) << spec.err;
  EXPECT_EQ(read_file(dir.file("s.swf")), read_file(dir.file("p.swf")));
  const auto later = run_cli({"estimates", "generate", trace_path(kKth), "--model", "f:f=2", "--params", "f=3", "-o",
                              dir.file("l.swf")});
  ASSERT_EQ(later.exit_code, 0) << later.err;
  EXPECT_EQ(read_file(dir.file("l.swf")), read_file(dir.file("p.swf")));
}

TEST(CliEstimates, FitThenGenerateThenCompare) {
  SCHEDLAB_NEED_TRACE(kKth);
  TempDir dir;
  auto r = run_cli({"estimates", "fit", trace_path(kKth), "--model", "song", "-o", dir.file("m.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"estimates", "generate", trace_path(kKth), "--model", "song", "--params", dir.file("m.json"),
               "--params", "align_prob=0.5", "-o", dir.file("s.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"estimates", "compare", trace_path(kKth), dir.file("s.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["paired"].get<bool>());
  EXPECT_GT(j["ks"].get<double>(), 0.0);
  EXPECT_LT(j["ks"].get<double>(), 0.2);
}

TEST(CliEstimates, TsafrirFitThenGenerateOnCtc) {
  const char* ctc = "CTC-SP2-1996-3.1-cln.swf.gz";
  SCHEDLAB_NEED_TRACE(ctc);
  TempDir dir;
  auto r = run_cli({"estimates", "fit", trace_path(ctc), "--top", "2", "-o", dir.file("t.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"estimates", "generate", trace_path(ctc), "--model", "tsafrir", "--params", dir.file("t.json"), "-o",
               dir.file("t.swf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"estimates", "bins", dir.file("t.swf"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["t_max"], 64800);
  EXPECT_EQ(j["modes"][0]["value"], 64800);                       // T_max keeps its share, rank 1
  EXPECT_NEAR(j["modes"][0]["share"].get<double>(), 0.238, 0.001);
  EXPECT_EQ(j["modes"][1]["value"], 900);                         // improved: 15m 10.6% and 5m 8.8% as given
  EXPECT_NEAR(j["modes"][1]["share"].get<double>(), 0.106, 0.001);
  EXPECT_EQ(j["distinct"], 349);                                  // K(77,222)
}

// LLNL-Thunder's estimates take 8 values, and T_max with the two most popular others hold 99.95% of the jobs: the
// fitted model leaves 55 jobs for its 399 other bins. The error says so and what to change; fewer bins then work.
TEST(CliEstimates, AFitWhoseUserBinsLeaveTooFewJobsSaysWhatToChange) {
  const char* thunder = "LLNL-Thunder-2007-1.1-cln.swf.gz";
  SCHEDLAB_NEED_TRACE(thunder);
  TempDir dir;
  auto r = run_cli({"estimates", "fit", trace_path(thunder), "-o", dir.file("t.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"estimates", "generate", trace_path(thunder), "--model", "tsafrir", "--params", dir.file("t.json"), "-o",
               dir.file("t.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(trace_path(thunder) + ": infeasible bins: the user bins (T_max's share included) take 119793 "
                       "of the N = 119849 jobs (99.95%), which leaves 56 for the model's 399 other bins"),
            std::string::npos)
      << r.err;
  r = run_cli({"estimates", "generate", trace_path(thunder), "--model", "tsafrir", "--params", dir.file("t.json"),
               "--params", "k=20", "-o", dir.file("t.swf")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliEstimates, ClearErrors) {
  TempDir dir;
  write_file(dir.file("bad.json"), "{not json");
  write_file(dir.file("none.swf"), "1 0 0 100 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n");
  auto r = run_cli({"estimates", "fit", dir.file("none.swf"), "--model", "song"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir.file("none.swf") + ": song model: no training job"), std::string::npos) << r.err;
  // A model trained on (or drawing from) the log being written says which log could not serve: it named none.
  for (const char* model : {"song", "tsafrir", "shfl"}) {
    r = run_cli({"estimates", "generate", dir.file("none.swf"), "--model", model, "-o", dir.file("out.swf")});
    EXPECT_EQ(r.exit_code, 1) << model;
    EXPECT_NE(r.err.find(fmt::format("error: {}: {} ", dir.file("none.swf"), model)), std::string::npos) << r.err;
  }
  // A parameter's own error names no log: the log is not at fault (it was prefixed like the log's errors).
  r = run_cli({"estimates", "generate", bundled_kth(), "--model", "tsafrir", "--params", "tmax=200,bins=5m:xx",
               "-o", dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "schedlab: error: tsafrir model: malformed bin \"5m:xx\" (expected TIME:PERCENT, e.g. 5m:25)\n");
  r = run_cli({"estimates", "fit", dir.file("none.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(dir.file("none.swf") + ": tsafrir fit: the log has no estimates"), std::string::npos) << r.err;
  // An option of the other model changed nothing (--tmax with song fitted the same model): refused before the
  // log is read (this one does not exist).
  r = run_cli({"estimates", "fit", dir.file("absent.swf"), "--model", "song", "--tmax", "max"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "schedlab: error: --tmax applies to the tsafrir model only\n");
  r = run_cli({"estimates", "fit", dir.file("absent.swf"), "--family", "gamma"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "schedlab: error: --family applies to the song model only\n");
  r = run_cli({"estimates", "generate", dir.file("none.swf"), "--model", "song", "--params", dir.file("bad.json"),
               "-o", dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("malformed parameter file"), std::string::npos) << r.err;
  // A parameter file nested 200,000 deep: refused as it is read (it crashed schedlab, a stack overflow, when the
  // parameters were copied).
  std::string deep;
  for (int k = 0; k < 200000; ++k) deep += "{\"a\":";
  deep += "1" + std::string(200000, '}');
  write_file(dir.file("deep.json"), deep);
  r = run_cli({"estimates", "generate", dir.file("none.swf"), "--model", "song", "--params", dir.file("deep.json"),
               "-o", dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "schedlab: error: " + dir.file("deep.json") +
                       ": malformed parameter file: JSON nested more than 256 levels deep\n");
  write_file(dir.file("long.swf"), "1 0 0 190 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                   "2 0 0 190 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                   "3 0 0 190 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n");
  // Three 190-s jobs under T_max = 200 s, where the model gives one estimate below 190 s: it is raised to T_max,
  // said on standard error and in the log's note (the paper's reference stops there: "infeasible").
  r = run_cli({"estimates", "generate", dir.file("long.swf"), "--model", "tsafrir", "--params", "tmax=200",
               "-o", dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("schedlab: warning: tsafrir: 1 estimate raised to T_max = 200 s so that every job's estimate "
                       "covers its runtime"),
            std::string::npos)
      << r.err;
  EXPECT_NE(read_file(dir.file("o.swf")).find("; 1 estimate raised to T_max to cover its job's runtime"),
            std::string::npos);
  // Three jobs make a model of one bin: a second value has no place in it.
  r = run_cli({"estimates", "generate", dir.file("long.swf"), "--model", "tsafrir", "--params",
               "tmax=200,tmax_share=50,bins=100:50", "-o", dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "schedlab: error: " + dir.file("long.swf") +
                ": tsafrir model: 2 user bins do not fit in a head of 1 bins\n");
  r = run_cli({"estimates", "generate", dir.file("none.swf"), "--model", "f", "--params", "f=1,zz=3", "-o",
               dir.file("o.swf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown parameter"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace schedlab::testing
