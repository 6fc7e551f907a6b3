// The simulation experiment behind `schedlab simulate`: same result as the simulator called directly,
// presets resolved once, JSON with the figures.
#include "schedlab/experiments/simulation.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "schedlab/predict/predictor.h"
#include "schedlab/predict/registry.h"
#include "schedlab/sim/scheduler_registry.h"
#include "schedlab/sim/simulate.h"
#include "fixed_predictor.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

// Four jobs on 4 processors: job 2 waits for job 1 (hand-computed: starts at 100).
const char* kSimulationLog =
    "; MaxProcs: 4\n"
    "1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n"
    "2 10 -1 50 2 -1 -1 2 60 -1 1 1 -1 -1 -1 -1 -1 -1\n"
    "3 20 -1 10 2 -1 -1 2 20 -1 1 2 -1 -1 -1 -1 -1 -1\n"
    "4 30 -1 10 8 -1 -1 8 20 -1 1 2 -1 -1 -1 -1 -1 -1\n";

TEST(Simulation, SameAsTheSimulatorByName) {
  const swf::Log log = swf::parse_log(kSimulationLog);
  SimulationSpec spec;
  spec.scheduler = "easy";
  const Simulation s = run_simulation(prepare_simulation(spec), log);
  ASSERT_EQ(s.workload.jobs.size(), 3u);  // job 4 is larger than the machine
  EXPECT_EQ(s.workload.excluded_total, 1);
  EXPECT_EQ(s.result.jobs[1].start, 100);
  EXPECT_EQ(s.result.jobs[2].start, 100);
  const sim::SimResult direct = sim::simulate(s.workload, "easy");
  ASSERT_EQ(direct.jobs.size(), s.result.jobs.size());
  for (size_t i = 0; i < direct.jobs.size(); ++i) EXPECT_EQ(direct.jobs[i].start, s.result.jobs[i].start);
  EXPECT_EQ(s.result.scheduler, "easy");
  EXPECT_FALSE(s.event_cost.has_value());
}

// A predictor other than the estimate that leaves jobs overdue is warned of (EASY with ruh on KTH waits 8x longer
// than with its correction); with a correction, or with the estimate (the log's own overruns), nothing is said.
TEST(Simulation, AnUncorrectedPredictorIsWarnedOf) {
  const swf::Log log = swf::parse_log(kSimulationLog);
  const auto warnings = [&](const std::string& predictor, const std::string& correction) {
    SimulationSpec spec;
    spec.scheduler = "easy";
    spec.predictor = predictor;
    spec.correction = correction;
    return run_simulation(prepare_simulation(spec), log);
  };
  const Simulation constant = warnings("constant:value=5", "");
  EXPECT_EQ(constant.result.overdue_misses, 3);  // every job runs past 5 s
  ASSERT_EQ(constant.warnings.size(), 1u);
  EXPECT_NE(constant.warnings[0].find("a job ran past its predicted end and the predictor (constant:value=5) gave "
                                      "it no longer prediction (3 times)"),
            std::string::npos)
      << constant.warnings[0];
  EXPECT_NE(constant.warnings[0].find("--correction tsafrir"), std::string::npos);
  EXPECT_EQ(to_json(constant)["warnings"], constant.warnings);
  EXPECT_EQ(to_json(constant)["overdue_misses"], 3);
  EXPECT_TRUE(warnings("constant:value=5", "tsafrir").warnings.empty());
  // The estimate: job 2 runs 50 s of an estimate of 60, so no miss at all; give it an overrun.
  const swf::Log overrun = swf::parse_log("; MaxProcs: 4\n1 0 -1 100 4 -1 -1 4 50 -1 1 1 -1 -1 -1 -1 -1 -1\n");
  SimulationSpec spec;
  spec.scheduler = "easy";
  const Simulation estimate = run_simulation(prepare_simulation(spec), overrun);
  EXPECT_EQ(estimate.result.overdue_misses, 1);
  EXPECT_TRUE(estimate.warnings.empty());
}

// Several results (compare): one warning per predictor, with the count under each scheduler that left jobs overdue.
TEST(Simulation, SeveralResultsGetOneWarningPerPredictor) {
  const auto result = [](const std::string& scheduler, const std::string& predictor, int64_t overdue) {
    sim::SimResult r;
    r.scheduler = scheduler;
    r.predictor = predictor;
    r.overdue_misses = overdue;
    return r;
  };
  const std::vector<std::string> w = simulation_warnings(std::vector<sim::SimResult>{
      result("easy", "ruh", 5), result("fcfs", "ruh", 0), result("conservative", "ruh", 2),
      result("easy", "estimate", 7), result("maui", "sbh", 1)});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("the predictor (ruh) gave it no longer prediction (5 times with easy, 2 with conservative)"),
            std::string::npos)
      << w[0];
  EXPECT_NE(w[1].find("(sbh) gave it no longer prediction (once with maui)"), std::string::npos) << w[1];
  EXPECT_TRUE(simulation_warnings(std::vector<sim::SimResult>{result("easy", "estimate", 7)}).empty());
}

TEST(Simulation, NoJobLeftIsAnError) {
  SimulationSpec spec;
  spec.scheduler = "easy";
  const PreparedSimulation prepared = prepare_simulation(spec);
  try {
    (void)run_simulation(prepared, swf::parse_log("; MaxProcs: 4\n"));
    ADD_FAILURE() << "a log without jobs simulated";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "<memory>: no job to simulate (the log has no job records)");
  }
  spec.workload.procs = 1;  // every job of kSimulationLog is larger
  try {
    (void)run_simulation(prepare_simulation(spec), swf::parse_log(kSimulationLog));
    ADD_FAILURE() << "a log whose jobs were all excluded simulated";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "<memory>: no job to simulate (all 4 records were excluded: larger_than_machine 4)");
  }
  // With a target load, the exclusions are still the reason given (it said "cannot scale to a target load: the
  // jobs have no work", without the log's name).
  spec.workload.load = 0.5;
  try {
    (void)run_simulation(prepare_simulation(spec), swf::parse_log(kSimulationLog, "k.swf"));
    ADD_FAILURE() << "a log whose jobs were all excluded simulated";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "k.swf: no job to simulate (all 4 records were excluded: larger_than_machine 4)");
  }
  spec.workload.procs.reset();
  try {
    (void)run_simulation(prepare_simulation(spec), swf::parse_log("; MaxProcs: 4\n" + std::string(
                                                         "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"), "one.swf"));
    ADD_FAILURE() << "one job scaled to a load";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "one.swf: cannot scale to a target load: the jobs have no work or are all submitted at once");
  }
}

TEST(Simulation, PresetsAreResolvedAndKeepTheirName) {
  SimulationSpec spec;
  spec.scheduler = "easy++";
  const Simulation s = run_simulation(prepare_simulation(spec), swf::parse_log(kSimulationLog));
  EXPECT_EQ(s.result.scheduler, "easy++");
  EXPECT_NE(s.result.predictor.find("user-last2"), std::string::npos) << s.result.predictor;
  spec.predictor = "ruh";
  EXPECT_THROW(prepare_simulation(spec), std::invalid_argument);
  spec.predictor.clear();
  spec.correction = "tsafrir";
  EXPECT_THROW(prepare_simulation(spec), std::invalid_argument);
}

// The object runs as the registered predictor with the same rule does, its correction applied and named; on KTH
// the schedule differs from the estimate's, so a predictor object that was ignored would fail here.
TEST(Simulation, APredictorObjectRunsAsTheRegisteredOneWithTheSameRule) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const auto run = [&](const std::string& predictor, std::shared_ptr<const predict::Predictor> object,
                       const std::string& correction) {
    SimulationSpec spec;
    spec.scheduler = "easy";
    spec.predictor = predictor;
    spec.predictor_object = std::move(object);
    spec.correction = correction;
    return run_simulation(prepare_simulation(spec), log);
  };
  const auto fixed = std::make_shared<const schedlab::testing::FixedPredictor>(600);
  for (const std::string correction : {"", "none", "tsafrir", "double"}) {
    const Simulation mine = run("", fixed, correction);
    const Simulation registered = run("constant:value=600", nullptr, correction);
    ASSERT_EQ(mine.result.jobs.size(), registered.result.jobs.size());
    size_t differ = 0;
    for (size_t i = 0; i < mine.result.jobs.size(); ++i) {
      ASSERT_EQ(mine.result.jobs[i].start, registered.result.jobs[i].start) << correction << " job " << i;
      ASSERT_EQ(mine.result.jobs[i].prediction_at_start, registered.result.jobs[i].prediction_at_start) << correction << " job " << i;
    }
    const Simulation estimate = run("", nullptr, "");
    for (size_t i = 0; i < mine.result.jobs.size(); ++i) differ += mine.result.jobs[i].start != estimate.result.jobs[i].start;
    EXPECT_GT(differ, 1000u) << correction;
    const bool corrected = !correction.empty() && correction != "none";
    EXPECT_EQ(mine.result.predictor, corrected ? "fixed:correction=" + correction : "fixed");
    EXPECT_EQ(mine.warnings.size(), corrected ? 0u : 1u) << correction;  // uncorrected, jobs ran overdue
  }
  // The caller's object is cloned, never run itself: two runs of it give the same schedule.
  EXPECT_EQ(to_json(run("", fixed, "tsafrir"))["metrics"], to_json(run("", fixed, "tsafrir"))["metrics"]);
}

TEST(Simulation, APredictorObjectIsRefusedBesideASpecOrAPreset) {
  SimulationSpec spec;
  spec.scheduler = "easy";
  spec.predictor = "ruh";
  spec.predictor_object = std::make_shared<const schedlab::testing::FixedPredictor>(5);
  try {
    prepare_simulation(spec);
    ADD_FAILURE() << "a spec and an object both taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "give a predictor spec ('ruh') or a predictor object (fixed), not both");
  }
  spec.predictor.clear();
  spec.scheduler = "easy++";
  try {
    prepare_simulation(spec);
    ADD_FAILURE() << "a preset took a predictor object";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scheduler preset 'easy++' sets its own predictor"), std::string::npos)
        << e.what();
  }
  spec.scheduler = "easy";
  spec.correction = "tsafrri";
  EXPECT_THROW(prepare_simulation(spec), std::invalid_argument);
}

// A scheduler object of the caller's own runs in the place of a registered one, named as given (else by its name()),
// with the predictor and correction any scheduler takes.
TEST(Simulation, ASchedulerObjectRunsWithThePredictorGiven) {
  const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  const auto run = [&](const std::string& scheduler, std::shared_ptr<const sim::Scheduler> object) {
    SimulationSpec spec;
    spec.scheduler = scheduler;
    spec.scheduler_object = std::move(object);
    spec.predictor = "user-last2";
    spec.correction = "tsafrir";
    return run_simulation(prepare_simulation(spec), log);
  };
  const std::shared_ptr<const sim::Scheduler> mine = sim::make_scheduler("conservative");
  const Simulation object = run("", mine);
  const Simulation named = run("conservative", nullptr);
  EXPECT_EQ(object.result.scheduler, "conservative");  // its name()
  EXPECT_EQ(object.result.predictor, "user-last2:correction=tsafrir");
  ASSERT_EQ(object.result.jobs.size(), named.result.jobs.size());
  for (size_t i = 0; i < named.result.jobs.size(); ++i) ASSERT_EQ(object.result.jobs[i].start, named.result.jobs[i].start);
  EXPECT_EQ(run("my policy", mine).result.scheduler, "my policy");
  // No preset behind a name: "easy++" names the object, and the predictor given is the one used.
  EXPECT_EQ(run("easy++", mine).result.predictor, "user-last2:correction=tsafrir");
}

TEST(Simulation, UnknownNamesFailWhenPrepared) {
  SimulationSpec spec;
  spec.scheduler = "no-such-scheduler";
  EXPECT_THROW(prepare_simulation(spec), std::invalid_argument);
  spec.scheduler = "easy";
  spec.predictor = "no-such-predictor";
  EXPECT_THROW(prepare_simulation(spec), std::invalid_argument);
}

TEST(Simulation, EventCostAndJson) {
  SimulationSpec spec;
  spec.scheduler = "fcfs";
  spec.correction = "double";
  spec.event_cost = true;
  spec.sim.warmup_fraction = 0.0;
  const PreparedSimulation prepared = prepare_simulation(spec);
  const Simulation s = run_simulation(prepared, swf::parse_log(kSimulationLog));
  ASSERT_TRUE(s.event_cost.has_value());
  EXPECT_EQ(s.event_cost->events, s.result.scheduler_calls);
  // A second run with the same prepared policy reports only its own events.
  const Simulation again = run_simulation(prepared, swf::parse_log(kSimulationLog));
  EXPECT_EQ(again.event_cost->events, s.event_cost->events);
  const nlohmann::json j = to_json(s);
  EXPECT_EQ(j["scheduler"], "fcfs");
  EXPECT_EQ(j["jobs"]["simulated"], 3);
  EXPECT_EQ(j["jobs"]["excluded"]["larger_than_machine"], 1) << j["jobs"]["excluded"].dump();
  EXPECT_DOUBLE_EQ(j["metrics"]["wait"]["mean"].get<double>(), s.result.metrics.wait.mean);
  EXPECT_TRUE(j.contains("event_cost"));
  EXPECT_NE(j["predictor"].get<std::string>().find("double"), std::string::npos) << j["predictor"];
}

// A scheduler spec may come from a file (comments and line breaks allowed), naming a preset too; results
// name it by the spec the file holds.
TEST(Simulation, SchedulerSpecFromAFile) {
  const std::string path = ::testing::TempDir() + "/schedlab-simulation-test.spec";
  {
    std::ofstream f(path);
    f << "# the paper's EASY++\neasy++\n";
  }
  SimulationSpec spec;
  spec.scheduler = "@" + path;
  const Simulation s = run_simulation(prepare_simulation(spec), swf::parse_log(kSimulationLog));
  EXPECT_EQ(s.result.scheduler, "easy++");
  EXPECT_NE(s.result.predictor.find("user-last2"), std::string::npos) << s.result.predictor;
  {
    std::ofstream f(path);
    f << "conservative:\n  compress=fixpoint\n";
  }
  EXPECT_EQ(run_simulation(prepare_simulation(spec), swf::parse_log(kSimulationLog)).result.scheduler,
            "conservative:compress=fixpoint");
  std::remove(path.c_str());
}

// No built-in scheduler or predictor draws on the seed: a sweep says that seeds without a random estimate model
// repeat the same results (experiments/sweep.h, sweep_seeds_warning), which holds only while this does. Each on
// KTH's first 3,000 jobs with two seeds, job by job.
TEST(Simulation, NoBuiltInSchedulerOrPredictorDependsOnTheSeed) {
  swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  log.records.resize(3000);
  const auto same_for_two_seeds = [&](const std::string& scheduler, const std::string& predictor) {
    SCOPED_TRACE(scheduler + " / " + predictor);
    SimulationSpec spec;
    spec.scheduler = scheduler;
    spec.predictor = predictor;
    spec.sim.seed = 1;
    const Simulation a = run_simulation(prepare_simulation(spec), log);
    spec.sim.seed = 987654321;
    const Simulation b = run_simulation(prepare_simulation(spec), log);
    ASSERT_EQ(a.result.jobs.size(), b.result.jobs.size());
    size_t differ = 0;
    for (size_t i = 0; i < a.result.jobs.size(); ++i)
      differ += a.result.jobs[i].start != b.result.jobs[i].start || a.result.jobs[i].end != b.result.jobs[i].end;
    EXPECT_EQ(differ, 0u);
  };
  for (const sim::SchedulerEntry& s : sim::schedulers()) same_for_two_seeds(std::string(s.name), "");
  for (const predict::PredictorEntry& p : predict::predictors()) same_for_two_seeds("easy-sjbf", std::string(p.name));
}

}  // namespace
}  // namespace schedlab::experiments
