// The log's own schedule replayed through a predictor, on a hand-made three-job log.
#include "schedlab/experiments/log_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <stdexcept>
#include <utility>

#include "schedlab/predict/basic_predictors.h"
#include "schedlab/predict/registry.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

// job 1: submit 0, wait 10, run 100, estimate 200; job 2: submit 5, wait unknown (-1), run 50, estimate 40
// (it outlives its estimate); job 3: 9 processors on an 8-processor machine, left out.
const char* kReplayLog =
    "; MaxProcs: 8\n"
    "1 0 10 100 4 -1 -1 4 200 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "2 5 -1 50 2 -1 -1 2 40 -1 1 8 -1 -1 -1 -1 -1 -1\n"
    "3 6 0 10 9 -1 -1 9 20 -1 1 8 -1 -1 -1 -1 -1 -1\n";

TEST(LogReplay, StartsAtSubmitPlusLoggedWaitAndCountsUnknownWaits) {
  const swf::Log log = swf::parse_log(kReplayLog);
  const LogReplay r = replay_log(log, predict::EstimatePredictor());
  ASSERT_EQ(r.workload.jobs.size(), 2u);
  EXPECT_EQ(r.workload.excluded_total, 1);
  EXPECT_EQ(r.start, (std::vector<int64_t>{10, 5}));
  EXPECT_EQ(r.unknown_wait, 1);
  EXPECT_EQ(r.predictor, "estimate");
  // Job 2 outlives its 40 s estimate at t = 45: one deadline miss.
  EXPECT_EQ(r.result.deadline_misses, 1);
  EXPECT_FALSE(r.result.jobs[0].underestimated);
  EXPECT_TRUE(r.result.jobs[1].underestimated);
  EXPECT_EQ(r.result.summary.jobs, 2);
}

TEST(LogReplay, CsvHasOneLinePerReplayedJob) {
  const LogReplay r = replay_log(swf::parse_log(kReplayLog), predict::EstimatePredictor());
  const std::string csv = log_replay_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "job_id,user,submit,start,end,runtime,estimate,initial_prediction,prediction_at_start,absolute_error,"
            "relative_accuracy,underestimated");
  // Accuracies as the shortest text that reads back to the same double (six fixed decimals lost digits).
  EXPECT_NE(csv.find("\n1,7,0,10,110,100,200,200,200,100,0.5,0\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n2,8,5,5,55,50,40,40,40,10,0.8,1\n"), std::string::npos) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  // Written to a file row by row (predict --jobs-out), the same text.
  schedlab::testing::TempDir dir;
  write_log_replay_csv(dir.file("jobs.csv"), r);
  EXPECT_EQ(schedlab::testing::read_file(dir.file("jobs.csv")), csv);
}

// The log given up (predict's command): the same replay, and the records are let go before it runs.
TEST(LogReplay, AGivenUpLogGivesTheSameReplayAndFreesItsRecords) {
  const LogReplay kept = replay_log(swf::parse_log(kReplayLog), predict::EstimatePredictor());
  swf::Log log = swf::parse_log(kReplayLog);
  const LogReplay moved = replay_log(std::move(log), predict::EstimatePredictor());
  EXPECT_EQ(log_replay_csv(moved), log_replay_csv(kept));
  EXPECT_EQ(to_json(moved), to_json(kept));
  EXPECT_TRUE(log.records.empty());  // NOLINT(bugprone-use-after-move): the overload's contract
  EXPECT_EQ(log.records.capacity(), 0u);
}

TEST(LogReplay, JsonCarriesCountsAndAccuracy) {
  const nlohmann::json j =
      to_json(replay_log(swf::parse_log(kReplayLog), predict::EstimatePredictor(), {{}, false, 0.5}));
  EXPECT_EQ(j["jobs"]["replayed"], 2);
  EXPECT_EQ(j["jobs"]["excluded"], 1);
  EXPECT_EQ(j["jobs"]["unknown_wait"], 1);
  EXPECT_EQ(j["warmup_fraction"], 0.5);
  EXPECT_EQ(j["accuracy"]["jobs"], 1);  // the first of two terminated jobs is warm-up
  EXPECT_EQ(j["deadline_misses"], 1);
}

TEST(LogReplay, RejectsAWarmupFractionOutsideZeroOne) {
  EXPECT_THROW(replay_log(swf::parse_log(kReplayLog), predict::EstimatePredictor(), {{}, false, 1.0}),
               std::invalid_argument);
}

// The next job of a user, after the whole log. User 7: jobs of 100, 300 and 50 s (estimates 1000); user 8: one job of
// 60 s. user-last2 predicts the mean of the user's two last finished jobs, (300 + 50) / 2 = 175, below the estimate;
// the last job ends at 3000 + 0 + 50, so the next job arrives at 3051.
const char* kHistory =
    "; MaxProcs: 8\n"
    "1 0 0 100 4 -1 -1 4 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "2 1000 0 300 2 -1 -1 2 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "3 2000 0 60 2 -1 -1 2 1000 -1 1 8 -1 -1 -1 -1 -1 -1\n"
    "4 3000 0 50 2 -1 -1 2 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n";

TEST(LogReplay, NextJobOfAUserAfterTheWholeLog) {
  const swf::Log log = swf::parse_log(kHistory);
  const auto last2 = predict::make_predictor("user-last2", {});
  NextPrediction n = predict_next(log, *last2, {.user = 7, .procs = 4, .estimate = 1000});
  EXPECT_EQ(n.submit, 3051);
  ASSERT_TRUE(n.prediction);
  EXPECT_EQ(*n.prediction, 175);
  EXPECT_EQ(n.user_jobs, 3);
  EXPECT_EQ(n.replay.workload.jobs.size(), 4u);
  // A log given up: the same answer, its records freed.
  swf::Log given = log;
  const NextPrediction moved = predict_next(std::move(given), *last2, {.user = 7, .procs = 4, .estimate = 1000});
  EXPECT_EQ(moved.prediction, n.prediction);
  EXPECT_EQ(moved.submit, n.submit);
  EXPECT_EQ(moved.user_mean_relative_accuracy, n.user_mean_relative_accuracy);
  EXPECT_TRUE(given.records.empty());  // NOLINT(bugprone-use-after-move): moved-from on purpose
  // Never above the estimate; without history the estimate; without both, no prediction.
  EXPECT_EQ(*predict_next(log, *last2, {.user = 7, .estimate = 120}).prediction, 120);
  n = predict_next(log, *last2, {.user = 9, .estimate = 500});
  EXPECT_EQ(*n.prediction, 500);
  EXPECT_EQ(n.user_jobs, 0);
  EXPECT_TRUE(std::isnan(n.user_mean_relative_accuracy));
  EXPECT_FALSE(predict_next(log, *last2, {.user = 9}).prediction);
  // User 8 has one finished job: its runtime (the spec's rule; pyss's min_jobs=2 would give the estimate).
  EXPECT_EQ(*predict_next(log, *last2, {.user = 8, .estimate = 700}).prediction, 60);
  EXPECT_EQ(*predict_next(log, *predict::make_predictor("user-last2:min_jobs=2", {}), {.user = 8, .estimate = 700})
                 .prediction,
            700);
  // The estimate predictor answers with the estimate.
  EXPECT_EQ(*predict_next(log, predict::EstimatePredictor(), {.user = 7, .estimate = 900}).prediction, 900);
  const nlohmann::json j = to_json(predict_next(log, *last2, {.user = 7, .estimate = 1000}));
  EXPECT_EQ(j["prediction"], 175);
  EXPECT_EQ(j["job"]["estimate"], 1000);
  EXPECT_EQ(j["job"]["executable"], -1);
  EXPECT_TRUE(to_json(predict_next(log, *last2, {.user = 9}))["prediction"].is_null());
}

TEST(LogReplay, NextJobErrorsNameTheField) {
  const swf::Log log = swf::parse_log(kHistory);
  const auto expect_error = [&](const NextJob& job, const std::string& text, const std::string& predictor = "estimate") {
    try {
      predict_next(log, *predict::make_predictor(predictor, {}), job);
      ADD_FAILURE() << "no error, expected " << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  expect_error({.user = -1}, "the next job's user must be >= 0, got -1");
  expect_error({.user = 1, .procs = 0}, "the next job's procs must be > 0, got 0");
  expect_error({.user = 1, .estimate = 0}, "the next job's estimate must be > 0 seconds, got 0");
  expect_error({.user = 1, .procs = 9}, "the next job's 9 processors are more than the machine's 8");
  expect_error({.user = 1}, "perfect: its prediction depends on the job's runtime (as perfect's does)", "perfect");
  // Wrapped in a correction too (its name is another): the answer is what is tested, not the name.
  expect_error({.user = 1}, "perfect:correction=tsafrir: its prediction depends on the job's runtime",
               "perfect:correction=tsafrir");
}

TEST(LogReplay, NoJobLeftIsAnErrorNotZeroAccuracy) {
  // Averages over no job would read as a perfect predictor (mean error 0).
  try {
    replay_log(swf::parse_log("; MaxProcs: 8\n"), predict::EstimatePredictor());
    ADD_FAILURE() << "a header-only log was replayed";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "<memory>: no job to replay (the log has no job records)");
  }
  try {
    replay_log(swf::parse_log(kReplayLog), predict::EstimatePredictor(), {int64_t{1}, false, 0.0});
    ADD_FAILURE() << "a log with every job excluded was replayed";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "<memory>: no job to replay (all 3 records were excluded: larger_than_machine 3)");
  }
}

}  // namespace
}  // namespace schedlab::experiments
