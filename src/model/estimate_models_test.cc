#include "schedlab/model/estimate_models.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "schedlab/model/song.h"
#include "schedlab/model/tsafrir.h"

namespace schedlab::model {
namespace {

std::vector<swf::Record> log_of(int n, uint64_t seed = 1) {
  base::Rng rng(seed);
  std::vector<swf::Record> recs;
  for (int i = 0; i < n; ++i) {
    swf::Record r;
    r.job_number = i + 1;
    r.requested_procs = 1;
    r.run_time = static_cast<int32_t>(rng.below(4 * 3600));
    r.requested_time = r.run_time + static_cast<int32_t>(rng.below(3600)) + 1;
    recs.push_back(r);
  }
  recs[3].run_time = -1;  // unknown runtime: left alone
  recs[3].requested_time = 77;
  return recs;
}

TEST(EstimateModels, ParametersMergeTextAndFilesLeftToRight) {
  const std::string file = ::testing::TempDir() + "params.json";
  std::ofstream(file) << R"({"f": 2, "cap": 3600})";
  const nlohmann::json p = load_params({"f=5,x=18h", file, "cap=1h"});
  EXPECT_EQ(p["f"], 2);     // the file's, given after the text
  EXPECT_EQ(p["x"], "18h");  // read as a duration by a model that declares one
  EXPECT_EQ(p["cap"], "1h");  // the text's, given last
  EXPECT_TRUE(load_params({}).empty());
  const auto error = [](const std::vector<std::string>& items) {
    try {
      load_params(items);
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error({::testing::TempDir() + "none.json"}), ::testing::TempDir() + "none.json: cannot open the parameter file");
  std::ofstream(file) << "[1, 2]";
  EXPECT_EQ(error({file}), file + ": the parameter file must hold a JSON object");
  std::ofstream(file) << "{";
  EXPECT_EQ(error({file}).rfind(file + ": malformed parameter file (not JSON)", 0), 0u);
  // A JSON object given inline (a fitted model held in memory, as Python hands it over), merged in its turn.
  const nlohmann::json inline_json = load_params({"f=5", R"( {"f": 3, "tmax": 7200})", "x=1h"});
  EXPECT_EQ(inline_json["f"], 3);
  EXPECT_EQ(inline_json["tmax"], 7200);
  EXPECT_EQ(inline_json["x"], "1h");
  EXPECT_EQ(error({"{\"f\": "}).rfind("parameters given as JSON: malformed", 0), 0u);
  EXPECT_EQ(error({"{} x"}).rfind("parameters given as JSON: malformed", 0), 0u);
}

TEST(EstimateModels, AccurateFFeitX2) {
  const auto base = log_of(2000);
  auto a = base;
  auto rep = apply_estimate_model("accurate", nlohmann::json::object(), a, 1);
  EXPECT_EQ(rep.assigned, 1999);
  EXPECT_EQ(rep.unknown_runtime, 1);
  EXPECT_EQ(a[3].requested_time, 77);
  for (size_t i = 0; i < a.size(); ++i)
    if (i != 3) {
      EXPECT_EQ(a[i].requested_time, std::max(a[i].run_time, 1));
    }
  auto f = base;
  apply_estimate_model("f", parse_params_text("f=3"), f, 1);
  double mean_ratio = 0;
  int n = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (i == 3) continue;
    EXPECT_GE(f[i].requested_time, f[i].run_time);
    EXPECT_LE(f[i].requested_time, 4 * f[i].run_time + 1);
    if (f[i].run_time > 100) {
      mean_ratio += static_cast<double>(f[i].requested_time) / f[i].run_time;
      ++n;
    }
  }
  EXPECT_NEAR(mean_ratio / n, 2.5, 0.1);  // E/R ~ U[1, 4]
  auto feit = base;
  apply_estimate_model("feit", nlohmann::json::object(), feit, 1);
  for (size_t i = 0; i < feit.size(); ++i) {
    if (i == 3) continue;
    EXPECT_GE(feit[i].requested_time, std::max(feit[i].run_time, 1));
    EXPECT_LE(feit[i].requested_time, std::max(86400, feit[i].run_time));
  }
  auto x2 = base;
  apply_estimate_model("x2", nlohmann::json::object(), x2, 1);
  for (size_t i = 0; i < x2.size(); ++i)
    if (i != 3) {
      EXPECT_EQ(x2[i].requested_time, 2 * base[i].requested_time);
    }
  EXPECT_THROW(apply_estimate_model("f", nlohmann::json::object(), f, 1), ModelError);
  EXPECT_THROW(apply_estimate_model("f", parse_params_text("f=-1"), f, 1), ModelError);
  EXPECT_THROW(apply_estimate_model("f", parse_params_text("g=1"), f, 1), ModelError);
  EXPECT_THROW(apply_estimate_model("nosuch", nlohmann::json::object(), f, 1), ModelError);
  // Estimates beyond the SWF field are capped, counted and warned about (they were capped in silence).
  auto huge = base;
  const auto capped = apply_estimate_model("f", parse_params_text("f=1e9"), huge, 1);
  int64_t at_max = 0;
  for (const auto& r : huge) at_max += r.requested_time == 2147483647 ? 1 : 0;
  EXPECT_GT(capped.capped, 1000);
  EXPECT_EQ(capped.capped, at_max);
  ASSERT_EQ(capped.warnings.size(), 1u);
  EXPECT_EQ(capped.warnings[0], std::to_string(at_max) +
                                    " estimates above 2^31 - 1 s (the SWF field's largest value) were capped at it");
  EXPECT_EQ(rep.capped, 0);
  EXPECT_TRUE(rep.warnings.empty());
  // feit with the field's largest value as its max asks for it: estimates at it are not "capped".
  auto longest = base;
  for (auto& r : longest) r.run_time = r.run_time >= 0 ? 2147483000 : r.run_time;
  const auto at_field_max = apply_estimate_model("feit", parse_params_text("max=2147483647"), longest, 1);
  EXPECT_EQ(at_field_max.capped, 0);
  EXPECT_GT(std::count_if(longest.begin(), longest.end(), [](const auto& r) { return r.requested_time == 2147483647; }),
            100);
}

// The table's `random` flag is what a sweep's seeds change: a model flagged deterministic gives the same estimates
// for two seeds, a random one other estimates (a sweep warns that seeds repeat the same runs by this flag).
TEST(EstimateModels, TheRandomFlagSaysWhetherTheSeedChangesTheEstimates) {
  const auto base = log_of(3000);
  for (const auto& entry : estimate_models()) {
    SCOPED_TRACE(std::string(entry.name));
    const nlohmann::json params = entry.name == "f" ? nlohmann::json{{"f", 2}} : nlohmann::json::object();
    auto a = base, b = base;
    apply_estimate_model(std::string(entry.name), params, a, 1);
    apply_estimate_model(std::string(entry.name), params, b, 2);
    bool same = true;
    for (size_t i = 0; i < a.size(); ++i) same = same && a[i].requested_time == b[i].requested_time;
    EXPECT_EQ(same, !entry.random);
    EXPECT_EQ(estimate_model_is_random(std::string(entry.name)), entry.random);
  }
  EXPECT_FALSE(estimate_model_is_random("real"));
  EXPECT_THROW(estimate_model_is_random("fiet"), ModelError);
}

TEST(EstimateModels, ShflKeepsTheMultisetAndCoversTruncatedRuntimes) {
  auto base = log_of(3000);
  base[10].run_time = base[10].requested_time + 500;  // a job that ran past its estimate
  auto s = base;
  apply_estimate_model("shfl", nlohmann::json::object(), s, 2);
  std::vector<int32_t> x, y;
  for (size_t i = 0; i < s.size(); ++i) {
    x.push_back(base[i].requested_time);
    y.push_back(s[i].requested_time);
    EXPECT_GE(s[i].requested_time, std::min(std::max(s[i].run_time, 0), base[i].requested_time));
  }
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  EXPECT_EQ(x, y);
}

TEST(EstimateModels, TsafrirGivesExactBinCountsAndIsDeterministic) {
  auto base = log_of(20000);
  for (auto& r : base)
    if (r.run_time >= 0) r.run_time %= 600;  // short jobs: the model's estimates can always cover them
  auto a = base, b = base;
  const auto p = parse_params_text("tmax=5h,tmax_share=20,bins=5m:15/1h:10");
  const auto rep = apply_estimate_model("tsafrir", p, a, 7);
  apply_estimate_model("tsafrir", p, b, 7);
  EXPECT_EQ(rep.assigned, 19999);
  std::map<int32_t, int64_t> counts;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].requested_time, b[i].requested_time);
    if (i == 3) continue;
    EXPECT_GE(a[i].requested_time, a[i].run_time);
    ++counts[a[i].requested_time];
  }
  EXPECT_EQ(static_cast<int64_t>(counts.size()), tsafrir_k(19999));
  EXPECT_EQ(counts[5 * 3600], 4000);  // round(20% x 19999)
  EXPECT_EQ(counts[300], 3000);
  EXPECT_EQ(counts[3600], 2000);
  auto c = log_of(20000);
  EXPECT_THROW(apply_estimate_model("tsafrir", parse_params_text("tmax=5h,bins=5m"), c, 7), ModelError);
  // No tmax and a log without estimates to take it from: the error says how to give it (it said only what was
  // missing); with tmax given the same log is modelled.
  auto none = log_of(2000);
  for (auto& r : none) {
    r.requested_time = -1;
    if (r.run_time >= 0) r.run_time %= 600;  // short jobs, which estimates up to 5 h can always cover
  }
  try {
    auto copy = none;
    apply_estimate_model("tsafrir", nlohmann::json::object(), copy, 7);
    ADD_FAILURE() << "no tmax was accepted";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("(give it: tmax=18h, or a model file from another log's 'estimates fit')"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(apply_estimate_model("tsafrir", parse_params_text("tmax=5h"), none, 7));
}

// Runtimes up to 4 h under T_max = 1 h: truncated to 1 h, they are 3/4 of the jobs, far more than T_max's share (the
// paper's reference stops there): the fewest estimates are raised to T_max so that every job is covered (the
// fewest: RaiseToCover.*), and the warning and the header note say how many.
TEST(EstimateModels, TsafrirRaisesEstimatesToTmaxToCoverLongRuntimes) {
  auto c = log_of(20000);
  const auto raised = apply_estimate_model("tsafrir", parse_params_text("tmax=1h"), c, 7);
  int64_t long_jobs = 0, at_tmax = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (i == 3) continue;
    long_jobs += c[i].run_time >= 3600;
    at_tmax += c[i].requested_time == 3600;
    EXPECT_GE(c[i].requested_time, std::min(c[i].run_time, 3600));
  }
  EXPECT_EQ(raised.truncated_runtimes,
            std::count_if(c.begin(), c.end(), [](const swf::Record& r) { return r.run_time > 3600; }));
  EXPECT_GT(raised.raised_to_tmax, 0);
  EXPECT_GE(at_tmax, long_jobs);  // every long job at T_max, the only estimate that covers it
  ASSERT_EQ(raised.warnings.size(), 2u);
  EXPECT_NE(raised.warnings[1].find(fmt::format("{} estimates raised to T_max = 3600 s", raised.raised_to_tmax)),
            std::string::npos)
      << raised.warnings[1];
  EXPECT_NE(estimate_model_note(raised, 7).find(fmt::format("; {} estimates raised to T_max", raised.raised_to_tmax)),
            std::string::npos);
}

// One runtime past T_max: the warning speaks of it in the singular ("1 runtime ... was"; the plural is tested
// above).
TEST(EstimateModels, TsafrirWarnsOfOneLongRuntimeInTheSingular) {
  auto c = log_of(2000);
  for (auto& r : c)
    if (r.run_time > 0) r.run_time = std::min(r.run_time, 60);
  c[10].run_time = 7200;
  c[10].requested_time = 7300;
  const auto rep = apply_estimate_model("tsafrir", parse_params_text("tmax=1h"), c, 7);
  EXPECT_EQ(rep.truncated_runtimes, 1);
  ASSERT_FALSE(rep.warnings.empty());
  EXPECT_EQ(rep.warnings[0], "tsafrir: 1 runtime above T_max = 3600 s was treated as T_max");
  EXPECT_EQ(c[10].requested_time, 3600);  // the only estimate that covers it
  EXPECT_EQ(rep.raised_to_tmax, 0) << ::testing::PrintToString(rep.warnings);  // T_max's own share covers it
  EXPECT_EQ(rep.warnings.size(), 1u);
}

// The Tsafrir model's other parameters, each against what it says (no test set them before: a parameter read
// wrongly would have given the defaults' estimates in silence). k: that many distinct estimates; top=N: only the
// first N user bins, the same log as giving those alone; coefficients: the reference set's popularities differ
// from the paper's.
TEST(EstimateModels, TsafrirKTopAndCoefficients) {
  auto base = log_of(20000);
  for (auto& r : base)
    if (r.run_time >= 0) r.run_time %= 600;
  const auto generate = [&](const std::string& params) {
    auto out = base;
    apply_estimate_model("tsafrir", parse_params_text(params), out, 7);
    return out;
  };
  const auto distinct = [](const std::vector<swf::Record>& log) {
    std::map<int32_t, int64_t> counts;
    for (const auto& r : log) ++counts[r.requested_time];
    return counts.size() - 1;  // the job with an unknown runtime keeps its 77 s
  };
  EXPECT_EQ(distinct(generate("tmax=5h,tmax_share=20")), static_cast<size_t>(tsafrir_k(19999)));
  EXPECT_EQ(distinct(generate("tmax=5h,tmax_share=20,k=40")), 40u);
  EXPECT_EQ(generate("tmax=5h,tmax_share=20,bins=5m:15/1h:10,top=1"), generate("tmax=5h,tmax_share=20,bins=5m:15"));
  EXPECT_NE(generate("tmax=5h,tmax_share=20,bins=5m:15/1h:10,top=2"), generate("tmax=5h,tmax_share=20,bins=5m:15"));
  EXPECT_EQ(generate("tmax=5h,tmax_share=20,coefficients=paper"), generate("tmax=5h,tmax_share=20"));  // the default
  EXPECT_NE(generate("tmax=5h,tmax_share=20,coefficients=ref"), generate("tmax=5h,tmax_share=20"));
  EXPECT_THROW(generate("tmax=5h,k=0"), ModelError);
  EXPECT_THROW(generate("tmax=5h,top=1.5"), ModelError);
  EXPECT_THROW(generate("tmax=5h,coefficients=mine"), ModelError);
}

// The Song model fitted on the log itself, in either family: Beta (the default, which drops training jobs whose
// accuracy is above 1.1) or Gamma (which keeps them): on a log where a tenth of the jobs overran their estimate
// the two fits, and so the estimates, differ.
TEST(EstimateModels, SongFamilies) {
  auto base = log_of(5000);
  for (size_t i = 0; i < base.size(); i += 10) base[i].requested_time = std::max(1, base[i].run_time / 2);
  const auto generate = [&](const std::string& params) {
    auto out = base;
    apply_estimate_model("song", parse_params_text(params), out, 3);
    return out;
  };
  EXPECT_EQ(generate("family=beta"), generate("min_group_jobs=" + std::to_string(SongFitOptions{}.min_group_jobs)));
  EXPECT_NE(generate("family=gamma"), generate("family=beta"));
  EXPECT_THROW(generate("family=normal"), ModelError);
}

TEST(EstimateModels, ParamsText) {
  const auto j = parse_params_text("tmax=18h, tmax_share=23.8,bins=5m:25/15m:10,coefficients=ref");
  EXPECT_EQ(j["tmax"], "18h");
  EXPECT_DOUBLE_EQ(j["tmax_share"].get<double>(), 23.8);
  EXPECT_EQ(parse_duration("18h"), 64800);
  EXPECT_EQ(parse_duration("1.5h"), 5400);
  EXPECT_EQ(parse_duration("90"), 90);
  EXPECT_THROW(parse_duration("abc"), ModelError);
  EXPECT_THROW(parse_params_text("novalue"), ModelError);
  EXPECT_THROW(parse_params_text("=3"), ModelError);
}

TEST(EstimateModels, FitTsafrirReadsTheLog) {
  auto base = log_of(1000);
  for (size_t i = 0; i < 300; ++i) base[i].requested_time = 6 * 3600;
  const TsafrirFit f = fit_tsafrir(base, 2);
  EXPECT_EQ(f.t_max, 6 * 3600);
  EXPECT_NEAR(f.t_max_share, 30.0, 0.11);
  EXPECT_EQ(f.jobs, 1000);
  EXPECT_LE(f.bins.size(), 2u);
  const auto j = to_json(f);
  EXPECT_EQ(j["tmax"].get<int32_t>(), 6 * 3600);
  EXPECT_NEAR(j["tmax_share"].get<double>(), 30.0, 0.11);
  EXPECT_EQ(j["info"]["jobs"].get<int64_t>(), 1000);
  std::vector<swf::Record> none(5);
  EXPECT_THROW(fit_tsafrir(none, 2), ModelError);
}

// T_max is the log's limit by default: 1 job of 4,000 at 2^31 - 1 s (a sentinel) does not make it; `max` takes
// it (the model would then spread its estimates up to 68 years), a given value is taken as it is, and the
// popular values kept as bins are below T_max.
TEST(EstimateModels, FitTsafrirTakesTheLogsLimitAsTmax) {
  auto base = log_of(4000);
  for (size_t i = 0; i < 1200; ++i) base[i].requested_time = 6 * 3600;
  for (size_t i = 1200; i < 1800; ++i) base[i].requested_time = 8 * 3600;  // more popular than 5 h, above 6 h
  for (size_t i = 1800; i < 2200; ++i) base[i].requested_time = 5 * 3600;
  base[2200].requested_time = 2147483647;
  TsafrirFit f = fit_tsafrir(base, 2);
  EXPECT_EQ(f.t_max, 8 * 3600);
  EXPECT_DOUBLE_EQ(f.t_max_share, 15.0);
  EXPECT_EQ(f.largest, 2147483647);
  EXPECT_EQ(f.above_t_max, 1);
  EXPECT_EQ(to_json(f)["info"]["tmax_rule"], "limit");
  EXPECT_EQ(to_json(f)["info"]["above_tmax"], 1);
  f = fit_tsafrir(base, 2, parse_tmax_choice("max", "--tmax"));
  EXPECT_EQ(f.t_max, 2147483647);
  EXPECT_DOUBLE_EQ(f.t_max_share, 0.025);
  EXPECT_EQ(f.above_t_max, 0);
  ASSERT_EQ(f.bins.size(), 2u);
  EXPECT_EQ(f.bins[0].time, 6 * 3600);
  EXPECT_EQ(f.bins[1].time, 8 * 3600);
  f = fit_tsafrir(base, 2, parse_tmax_choice("7h", "--tmax"));
  EXPECT_EQ(f.t_max, 7 * 3600);
  EXPECT_DOUBLE_EQ(f.t_max_share, 0.0);  // no job used 7 h
  EXPECT_EQ(f.above_t_max, 601);
  ASSERT_EQ(f.bins.size(), 2u);
  EXPECT_EQ(f.bins[0].time, 6 * 3600);  // 8 h, more popular, is above T_max
  EXPECT_EQ(f.bins[1].time, 5 * 3600);
  EXPECT_EQ(to_json(f)["info"]["tmax_rule"], "25200");
  try {
    parse_tmax_choice("largest", "--tmax");
    FAIL() << "no error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("--tmax: expected limit, max or a duration such as 18h (got \"largest\")"),
              std::string::npos)
        << e.what();
  }
  // Generated without parameters, the model takes the same limit.
  auto g = base;
  const auto rep = apply_estimate_model("tsafrir", nlohmann::json::object(), g, 1);
  EXPECT_NE(rep.parameters.find("tmax=28800 tmax_share=15"), std::string::npos) << rep.parameters;
}

// Parameters are checked against each model's declarations: the value's type and range, unknown keys, and
// durations in any unit.
TEST(EstimateModels, ParametersAreCheckedAgainstTheDeclarations) {
  auto log = log_of(100);
  const auto message = [&](const std::string& model, const nlohmann::json& params) {
    auto copy = log;
    try {
      apply_estimate_model(model, params, copy, 1);
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("f", {{"f", -1}}), "f model: parameter f must be a number >= 0, got '-1'");
  EXPECT_EQ(message("f", nlohmann::json::object()), "f model: parameter f is required (e.g. f=3)");
  EXPECT_EQ(message("feit", {{"max", "soon"}}).find("feit model: parameter max must be a duration"), 0u);
  EXPECT_EQ(message("feit", {{"colour", 1}}), "feit model: unknown parameter \"colour\" (known: max)");
  EXPECT_EQ(message("song", {{"family", "normal"}}),
            "song model: parameter family must be one of beta, gamma, got 'normal'");
  auto a = log, b = log;
  apply_estimate_model("feit", {{"max", "1.5h"}}, a, 7);
  apply_estimate_model("feit", {{"max", 5400}}, b, 7);
  EXPECT_EQ(a, b);
  for (const auto& r : a) EXPECT_LE(r.requested_time, std::max(5400, r.run_time));
  EXPECT_EQ(estimate_model_names().size(), estimate_models().size());
}

// The JSON of a generation and of a comparison carry the report's figures.
TEST(EstimateModels, ReportAndComparisonJson) {
  auto log = log_of(200);
  auto mod = log;
  const GenerateReport rep = apply_estimate_model("f", {{"f", 1}}, mod, 3);
  const auto j = to_json(rep);
  EXPECT_EQ(j["assigned"].get<int64_t>(), rep.assigned);
  EXPECT_EQ(j["parameters"].get<std::string>(), rep.parameters);
  const EstimateComparison c = compare_estimates(log, mod);
  const auto k = to_json(c);
  EXPECT_EQ(k["paired"].get<bool>(), c.paired);
  EXPECT_DOUBLE_EQ(k["ks"].get<double>(), c.ks);
  EXPECT_LE(k["real_bins"]["modes"].size(), 20u);
}

}  // namespace
}  // namespace schedlab::model
