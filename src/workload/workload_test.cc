#include "schedlab/workload/workload.h"

#include <cmath>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "test_util.h"

namespace schedlab::workload {
namespace {
using testing::J;

TEST(WorkloadTest, ExclusionsAreCountedByReason) {
  auto recs = testing::records({J{1, 0, 10, 4, 10}, J{2, 1, -1, 4, 10}, J{3, 2, 10, 0, 10}, J{4, 3, 10, 20, 10},
                                J{5, 4, 10, 21, 10}, J{6, 5, 10, 2, -1}});
  recs[2].allocated_procs = -1;
  WorkloadOptions o;
  o.procs = 16;
  const Workload w = build_workload(swf::Header{}, recs, o);
  EXPECT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.excluded_total, 4);
  EXPECT_EQ(w.excluded.at("negative_runtime"), 1);
  EXPECT_EQ(w.excluded.at("no_size"), 1);
  EXPECT_EQ(w.excluded.at("larger_than_machine"), 2);
  EXPECT_EQ(w.without_estimate, 1);
  EXPECT_EQ(w.jobs[1].estimate, 10);  // runtime stands in
  EXPECT_FALSE(w.jobs[1].has_estimate);
  bool noted = false;
  for (const auto& n : w.notes)
    noted = noted || n.find("2 jobs excluded: larger than the machine (16 processors)") != std::string::npos;
  EXPECT_TRUE(noted);
}

// A one-processor machine reads "1 processor" (it read "1 processors").
TEST(WorkloadTest, TheExclusionNoteCountsOneProcessorInTheSingular) {
  auto recs = testing::records({J{1, 0, 10, 1, 10}, J{2, 1, 10, 4, 10}});
  WorkloadOptions o;
  o.procs = 1;
  const Workload w = build_workload(swf::Header{}, recs, o);
  ASSERT_EQ(w.notes.size(), 1u);
  EXPECT_EQ(w.notes[0], "1 job excluded: larger than the machine (1 processor)");
}

// Without feedback, SWF fields 17-18 (a preceding job and a think time) are not simulated: the jobs arrive at their
// logged times, and a note says how many named a preceding job and how to simulate them. An excluded job does not
// count.
TEST(WorkloadTest, JobsNamingAPrecedingJobAreNoted) {
  auto recs = testing::records({J{1, 0, 10, 4, 10}, J{2, 1, 10, 4, 10}, J{3, 2, 10, 4, 10}, J{4, 3, -1, 4, 10}});
  WorkloadOptions o;
  o.procs = 16;
  const auto note_of = [&] {
    std::string found;
    for (const auto& n : build_workload(swf::Header{}, recs, o).notes)
      if (n.find("preceding job") != std::string::npos) found = n;
    return found;
  };
  EXPECT_EQ(note_of(), "");
  recs[1].preceding_job = 1;
  recs[1].think_time = 30;
  recs[2].preceding_job = 2;
  recs[3].preceding_job = 3;  // excluded (negative runtime)
  EXPECT_EQ(note_of(), "2 jobs name a preceding job (SWF fields 17-18): they arrive at their logged submit times "
                       "(--feedback submits a job its think time after its preceding job ends)");
  EXPECT_FALSE(build_workload(swf::Header{}, recs, o).has_feedback());
  EXPECT_EQ(build_workload(swf::Header{}, recs, o).jobs[1].submit, 1);
  recs[2].preceding_job = -1;
  EXPECT_EQ(note_of(), "1 job names a preceding job (SWF fields 17-18): it arrives at its logged submit time "
                       "(--feedback submits a job its think time after its preceding job ends)");
}

// With feedback, field 17 becomes a link to the latest earlier job of that number, field 18 the think time (the
// logged gap when it is -1); a link that would point at an excluded job or forwards is dropped, by reason.
TEST(WorkloadTest, FeedbackLinksEachJobToTheJobItFollows) {
  auto recs = testing::records({J{1, 0, 100, 4, 100}, J{2, 10, 50, 2, 50}, J{3, 20, 50, 2, 50}, J{4, 500, 10, 1, 10},
                                J{5, 600, -1, 1, 10}, J{6, 700, 5, 1, 10}, J{7, 800, 5, 1, 10}});
  recs[1].preceding_job = 1;
  recs[1].think_time = 30;
  recs[3].preceding_job = 2;  // think time from the log: 500 - (10 + 7 + 50) = 433
  recs[1].wait_time = 7;
  recs[5].preceding_job = 5;  // excluded (negative runtime)
  recs[6].preceding_job = 8;  // no such job earlier
  recs[2].preceding_job = 3;  // itself: not earlier
  WorkloadOptions o;
  o.procs = 16;
  o.feedback = true;
  const Workload w = build_workload(swf::Header{}, recs, o);
  ASSERT_TRUE(w.has_feedback());
  EXPECT_EQ(w.dependent, 5);
  EXPECT_EQ(w.following, 2);
  EXPECT_EQ(w.think_from_log, 1);
  EXPECT_EQ(w.after, (std::vector<JobId>{-1, 0, -1, 1, -1, -1}));
  EXPECT_EQ(w.think, (std::vector<int64_t>{0, 30, 0, 433, 0, 0}));
  EXPECT_EQ(w.feedback_dropped.at("preceding job not simulated"), 1);
  EXPECT_EQ(w.feedback_dropped.at("preceding job not earlier in the log"), 2);
  // A repeated job number: the latest one before the follower.
  recs[2].job_number = 1;
  recs[2].preceding_job = -1;
  recs[3].preceding_job = 1;
  const Workload again = build_workload(swf::Header{}, recs, o);
  EXPECT_EQ(again.after[3], 2);
  // A logged gap below zero (submitted while the preceding job ran) is a think time of 0.
  recs[3].submit_time = 30;
  EXPECT_EQ(build_workload(swf::Header{}, recs, o).think[3], 0);
  // A log that names no preceding job: said.
  const Workload plain = build_workload(swf::Header{}, testing::records({J{1, 0, 10, 1, 10}}), o);
  EXPECT_FALSE(plain.has_feedback());
  EXPECT_EQ(plain.notes, (std::vector<std::string>{
                             "feedback: no job names a preceding job (SWF field 17): every job arrives at its logged "
                             "submit time"}));
  // Without a link that holds, no feedback at all.
  auto lone = testing::records({J{1, 0, 10, 1, 10}, J{2, 5, 10, 1, 10}});
  lone[0].preceding_job = 2;
  const Workload none = build_workload(swf::Header{}, lone, o);
  EXPECT_FALSE(none.has_feedback());
  EXPECT_EQ(none.feedback_dropped.at("preceding job not earlier in the log"), 1);
}

TEST(WorkloadTest, MachineSizeRules) {
  auto recs = testing::records({J{1, 0, 10, 4, 10}, J{2, 1, 10, 6, 10}});
  swf::Header h;
  EXPECT_EQ(build_workload(h, recs).procs, 6);  // largest job
  h.max_nodes = 8;
  EXPECT_EQ(build_workload(h, recs).procs, 8);
  h.max_procs = 12;
  EXPECT_EQ(build_workload(h, recs).procs, 12);
  WorkloadOptions o;
  o.procs = 0;
  EXPECT_THROW(build_workload(h, recs, o), std::invalid_argument);
  EXPECT_THROW(build_workload(swf::Header{}, testing::records({J{1, 0, 10, 0, 10}})), std::invalid_argument);
}

TEST(WorkloadTest, KillAtEstimateNeedsEstimates) {
  WorkloadOptions o;
  o.kill_at_estimate = true;
  try {
    build_workload(swf::Header{}, testing::records({J{1, 0, 10, 4, -1}, J{2, 0, 10, 4, -1}}), o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no job of this log has one"), std::string::npos);
  }
  const Workload w = build_workload(swf::Header{}, testing::records({J{1, 0, 100, 4, 50}, J{2, 0, 10, 4, -1}}), o);
  EXPECT_EQ(w.jobs[0].runtime, 50);
  EXPECT_TRUE(w.jobs[0].killed);
  EXPECT_EQ(w.jobs[1].runtime, 10);
  EXPECT_EQ(w.killed, 1);
}

TEST(WorkloadTest, OrderBySubmitThenJobNumber) {
  WorkloadOptions ten;
  ten.procs = 10;
  const Workload w =
      build_workload(swf::Header{}, testing::records({J{5, 10, 1, 1, 1}, J{3, 10, 1, 1, 1}, J{9, 0, 1, 1, 1}}), ten);
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.jobs[0].job_number, 9);
  EXPECT_EQ(w.jobs[1].job_number, 3);
  EXPECT_EQ(w.jobs[2].job_number, 5);
  EXPECT_EQ(w.record_index[0], 2u);
  for (size_t i = 0; i < w.jobs.size(); ++i) EXPECT_EQ(w.jobs[i].id, static_cast<int32_t>(i));
}

TEST(WorkloadTest, ArrivalScaleAndLoad) {
  // Offered load: work 4*100 + 4*100 + 2*50 = 900 over 10 procs * 100 s = 0.9.
  const auto recs = testing::records({J{1, 100, 100, 4, 100}, J{2, 133, 100, 4, 100}, J{3, 200, 50, 2, 50}});
  WorkloadOptions o;
  o.procs = 10;
  const Workload base = build_workload(swf::Header{}, recs, o);
  EXPECT_DOUBLE_EQ(base.offered_load, 0.9);
  o.arrival_scale = 0.5;
  const Workload half = build_workload(swf::Header{}, recs, o);
  EXPECT_EQ(half.jobs[0].submit, 100);
  EXPECT_EQ(half.jobs[1].submit, 117);  // 100 + llround(16.5)
  EXPECT_EQ(half.jobs[2].submit, 150);
  EXPECT_DOUBLE_EQ(half.offered_load, 1.8);
  o.arrival_scale = 1.0;
  o.load = 0.45;
  const Workload slow = build_workload(swf::Header{}, recs, o);
  EXPECT_DOUBLE_EQ(slow.arrival_scale, 2.0);
  EXPECT_EQ(slow.jobs[2].submit, 300);
  EXPECT_DOUBLE_EQ(slow.offered_load, 0.45);
  o.arrival_scale = 2.0;
  EXPECT_THROW(build_workload(swf::Header{}, recs, o), std::invalid_argument);
  o.load.reset();
  o.arrival_scale = 0;
  EXPECT_THROW(build_workload(swf::Header{}, recs, o), std::invalid_argument);
}

// The limits of arrival scaling: every arrival in one second (no offered load), a target missed by rounding,
// and a factor beyond what 64-bit times hold (it wrapped and failed as 'job 1 is invalid or out of order').
TEST(WorkloadTest, ArrivalScalingLimits) {
  const auto recs = testing::records({J{1, 100, 100, 4, 100}, J{2, 133, 100, 4, 100}, J{3, 200, 50, 2, 50}});
  WorkloadOptions o;
  o.procs = 10;
  o.arrival_scale = 1e-3;  // asked for: the three jobs arrive together, which has no offered load
  const Workload burst = build_workload(swf::Header{}, recs, o);
  EXPECT_EQ(burst.jobs[2].submit, 100);
  EXPECT_TRUE(std::isnan(burst.offered_load));
  o.arrival_scale = 1.0;
  o.load = 1e6;  // 0.9 over 100 s: 90 at most, all within 1 s
  try {
    build_workload(swf::Header{}, recs, o);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("target load 1e+06: every arrival falls in one second"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("the highest load these jobs can be given is 90"), std::string::npos)
        << e.what();
  }
  o.load = 60;  // F = 0.015: offsets 33 and 100 s become 0.495 -> 0 and 1.5 -> 2 s: load 900 / 20 = 45, noted
  const Workload coarse = build_workload(swf::Header{}, recs, o);
  EXPECT_DOUBLE_EQ(coarse.offered_load, 45);
  ASSERT_FALSE(coarse.notes.empty());
  EXPECT_NE(coarse.notes.back().find("the offered load reached is 45, not the target 60"), std::string::npos)
      << coarse.notes.back();
  o.load = 0.45;  // met exactly: no such note
  for (const auto& n : build_workload(swf::Header{}, recs, o).notes)
    EXPECT_EQ(n.find("reached"), std::string::npos) << n;
  o.load.reset();
  for (const double f : {1e14, 1e300}) {
    o.arrival_scale = f;
    try {
      build_workload(swf::Header{}, recs, o);
      FAIL() << "expected an error for " << f;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("beyond the 1e+15 s a simulation can hold"), std::string::npos)
          << e.what();
    }
  }
  o.arrival_scale = 1e13;  // 100 s -> 1e15 s: at the limit, kept
  EXPECT_EQ(build_workload(swf::Header{}, recs, o).jobs[2].submit, 100 + 1000000000000000);
}

}  // namespace
}  // namespace schedlab::workload

namespace schedlab::workload {
namespace {

// A record with an unknown submit time (-1) cannot be placed in time: it is excluded and counted.
TEST(WorkloadTest, UnknownSubmitTimeIsExcludedAndCounted) {
  auto recs = testing::records({J{1, 0, 10, 4, 10}, J{2, 5, 10, 4, 10}, J{3, 6, 10, 4, 10}});
  recs[1].submit_time = -1;
  WorkloadOptions o;
  o.procs = 8;
  const Workload w = build_workload(swf::Header{}, recs, o);
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.excluded.at("no_submit_time"), 1);
}

}  // namespace
}  // namespace schedlab::workload
