// The log's own schedule replayed through a predictor, on a hand-made three-job log.
#include "schedlab/experiments/log_replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "schedlab/predict/basic_predictors.h"
#include "test_util.h"

namespace schedlab::experiments {
namespace {

// job 1: submit 0, wait 10, run 100, estimate 200; job 2: submit 5, wait unknown (-1), run 50, estimate 40
// (it outlives its estimate); job 3: 9 processors on an 8-processor machine, left out.
const char* kLog =
    "; MaxProcs: 8\n"
    "1 0 10 100 4 -1 -1 4 200 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "2 5 -1 50 2 -1 -1 2 40 -1 1 8 -1 -1 -1 -1 -1 -1\n"
    "3 6 0 10 9 -1 -1 9 20 -1 1 8 -1 -1 -1 -1 -1 -1\n";

TEST(LogReplay, StartsAtSubmitPlusLoggedWaitAndCountsUnknownWaits) {
  const swf::Log log = swf::parse_log(kLog);
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
  const LogReplay r = replay_log(swf::parse_log(kLog), predict::EstimatePredictor());
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
  const LogReplay kept = replay_log(swf::parse_log(kLog), predict::EstimatePredictor());
  swf::Log log = swf::parse_log(kLog);
  const LogReplay moved = replay_log(std::move(log), predict::EstimatePredictor());
  EXPECT_EQ(log_replay_csv(moved), log_replay_csv(kept));
  EXPECT_EQ(to_json(moved), to_json(kept));
  EXPECT_TRUE(log.records.empty());  // NOLINT(bugprone-use-after-move): the overload's contract
  EXPECT_EQ(log.records.capacity(), 0u);
}

TEST(LogReplay, JsonCarriesCountsAndAccuracy) {
  const nlohmann::json j = to_json(replay_log(swf::parse_log(kLog), predict::EstimatePredictor(), {{}, false, 0.5}));
  EXPECT_EQ(j["jobs"]["replayed"], 2);
  EXPECT_EQ(j["jobs"]["excluded"], 1);
  EXPECT_EQ(j["jobs"]["unknown_wait"], 1);
  EXPECT_EQ(j["warmup_fraction"], 0.5);
  EXPECT_EQ(j["accuracy"]["jobs"], 1);  // the first of two terminated jobs is warm-up
  EXPECT_EQ(j["deadline_misses"], 1);
}

TEST(LogReplay, RejectsAWarmupFractionOutsideZeroOne) {
  EXPECT_THROW(replay_log(swf::parse_log(kLog), predict::EstimatePredictor(), {{}, false, 1.0}),
               std::invalid_argument);
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
    replay_log(swf::parse_log(kLog), predict::EstimatePredictor(), {int64_t{1}, false, 0.0});
    ADD_FAILURE() << "a log with every job excluded was replayed";
  } catch (const NoJobLeft& e) {
    EXPECT_STREQ(e.what(), "<memory>: no job to replay (all 3 records were excluded: larger_than_machine 3)");
  }
}

}  // namespace
}  // namespace schedlab::experiments
