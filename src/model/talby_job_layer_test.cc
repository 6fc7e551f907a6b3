// The job layer of Talby's model fitted on a log, its file, and the session draw (model/talby_job_layer.h).
#include "schedlab/model/talby_job_layer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "schedlab/swf/reader.h"
#include "schedlab/swf/writer.h"
#include "schedlab/trace/sessions.h"
#include "test_util.h"

namespace schedlab::model {
namespace {

using analysis::SessionClass;

const swf::Log& layer_kth() {
  static const swf::Log log = swf::read_log(schedlab::testing::bundled_kth());
  return log;
}
const TalbyJobModel& layer_kth_model() {
  static const TalbyJobModel m = fit_talby_job_layer(layer_kth(), "KTH");
  return m;
}

TEST(Empirical, DrawsInProportionToCounts) {
  Empirical e;
  e.add(5, 3);
  e.add(1, 1);
  e.add(5, 0);  // zero counts vanish
  e.finish();
  ASSERT_EQ(e.values(), (std::vector<double>{1, 5}));
  EXPECT_EQ(e.counts(), (std::vector<int64_t>{1, 3}));
  EXPECT_DOUBLE_EQ(e.mean(), 4.0);
  EXPECT_DOUBLE_EQ(e.quantile(0.25), 1.0);
  EXPECT_DOUBLE_EQ(e.quantile(0.26), 5.0);
  base::Rng rng(7);
  int fives = 0;
  for (int i = 0; i < 40000; ++i) fives += e.draw(rng) == 5.0;
  EXPECT_NEAR(fives / 40000.0, 0.75, 0.01);
}

// Past 4M counts a draw searches the cumulative counts instead of the lookup table. Values 0..999 with one count
// each, then 1000 with five million: the unit u a draw takes from the generator must give value u below 1000 (an
// off-by-one in the search gives u +- 1 there, about 200 times in a million draws) and 1000 above.
TEST(Empirical, ADistributionPastTheLookupTableDrawsByTheCumulativeCounts) {
  Empirical e;
  for (int v = 0; v < 1000; ++v) e.add(v);
  e.add(1000, 5'000'000);
  e.finish();
  ASSERT_GT(e.total(), int64_t{1} << 22);
  base::Rng drawn(11), same(11);
  int small = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const uint64_t u = same.below(static_cast<uint64_t>(e.total()));
    const double want = u < 1000 ? static_cast<double>(u) : 1000.0;
    small += u < 1000;
    ASSERT_EQ(e.draw(drawn), want) << "draw " << i << ", unit " << u;
  }
  EXPECT_GT(small, 100);  // the one-count values were drawn
}

TEST(TalbyJobLayer, FitCoversEverySessionAndJobOfKth) {
  const TalbyJobModel& m = layer_kth_model();
  EXPECT_EQ(m.procs, 100);
  int64_t sessions = 0, jobs = 0;
  for (const TalbyClassJobs& c : m.classes) {
    sessions += c.sessions;
    jobs += c.jobs;
    EXPECT_EQ(c.start_minute.total(), c.sessions);
    EXPECT_EQ(c.sequences.total(), c.sessions);
    EXPECT_EQ(static_cast<int64_t>(c.pool.runtimes.size()), c.jobs);
    EXPECT_EQ(std::accumulate(c.pool.lengths.begin(), c.pool.lengths.end(), int64_t{0}), c.jobs);
    // Sequences per session add up to the pool.
    double seqs = 0;
    for (size_t i = 0; i < c.sequences.values().size(); ++i)
      seqs += c.sequences.values()[i] * static_cast<double>(c.sequences.counts()[i]);
    EXPECT_EQ(static_cast<size_t>(seqs), c.pool.count());
    // Think times inside a session are below the 20-minute boundary by construction.
    if (c.think.total() > 0) {
      EXPECT_LT(c.think.values().back(), 1200);
    }
  }
  EXPECT_EQ(sessions, m.sessions);
  EXPECT_EQ(sessions, 8280);  // every KTH session has a usable job (`schedlab sessions` counts 8,280)
  EXPECT_EQ(jobs + m.skipped_jobs, 28489);
  EXPECT_EQ(m.jobs, jobs);
  // The classes mean what their names say: interactive weekend sessions start on Saturday/Sunday (most of them:
  // on KTH the cluster also takes Friday-night sessions that run into the weekend), interactive workday daytime
  // ones Monday to Friday.
  const auto weekend_share = [&](SessionClass c) {
    const Empirical& w = m.classes[static_cast<size_t>(c)].start_minute;
    int64_t weekend = 0;
    for (size_t i = 0; i < w.values().size(); ++i)
      if (w.values()[i] >= 5 * 1440) weekend += w.counts()[i];
    return static_cast<double>(weekend) / static_cast<double>(w.total());
  };
  EXPECT_GT(weekend_share(SessionClass::kIW), 0.7);
  EXPECT_LT(weekend_share(SessionClass::kIWD), 0.02);
  // Batch highly parallel sessions run the widest jobs.
  const auto mean_size = [&](SessionClass c) {
    const auto& p = m.classes[static_cast<size_t>(c)].pool.sizes;
    return std::accumulate(p.begin(), p.end(), 0.0) / static_cast<double>(p.size());
  };
  EXPECT_GT(mean_size(SessionClass::kBHP), 3 * mean_size(SessionClass::kIWD));
  EXPECT_TRUE(m.estimates.contains("tmax"));
}

TEST(TalbyJobLayer, FileRoundTripIsExact) {
  const nlohmann::ordered_json j = to_json(layer_kth_model());
  const TalbyJobModel back = talby_job_model_from_json(nlohmann::json::parse(j.dump()), "model.json");
  EXPECT_EQ(to_json(back).dump(), j.dump());
  const std::string path = ::testing::TempDir() + "talby_job_model.json";
  write_talby_job_model(path, layer_kth_model());
  EXPECT_EQ(to_json(read_talby_job_model(path)).dump(), j.dump());
}

// The message of the error raised by reading `j` (after `edit`), or "" when it reads.
template <typename Edit>
std::string error_after(Edit edit) {
  nlohmann::json j = nlohmann::json::parse(to_json(layer_kth_model()).dump());
  edit(j);
  try {
    talby_job_model_from_json(j, "m.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TalbyJobLayer, MalformedFilesNameTheField) {
  EXPECT_EQ(error_after([](nlohmann::json&) {}), "");
  EXPECT_EQ(error_after([](nlohmann::json& j) { j["model"] = "other"; }).rfind("m.json: model: must be", 0), 0u);
  EXPECT_NE(error_after([](nlohmann::json& j) { j.erase("classes"); }).find("m.json: classes: missing"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"].erase("BHD"); }).find("classes.BHD: missing"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"]["IW"]["start_minute"]["values"][0] = 10080; })
                .find("classes.IW.start_minute.values[0]: 10080 is outside [0, 10079]"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"]["IWN"]["sequences"]["counts"].push_back(1); })
                .find("classes.IWN.sequences:"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"]["BHP"]["pool"]["sizes"][0] = 0; })
                .find("classes.BHP.pool.sizes[0]: must be >= 1"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"]["BHP"]["pool"]["runtimes"].push_back(5); })
                .find("classes.BHP.pool.runtimes:"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["classes"]["IWD"]["think"]["values"][0] = 5000; })
                .find("classes.IWD.think.values[0]"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["procs"] = "many"; }).find("procs: must be an integer"),
            std::string::npos);
  EXPECT_NE(error_after([](nlohmann::json& j) { j["estimates"] = nlohmann::json::object({{"bogus", 1}}); })
                .find("m.json: estimates:"),
            std::string::npos);
  const std::string path = ::testing::TempDir() + "talby_not_json.json";
  swf::write_text_file(path, "{ not json");
  EXPECT_THROW(read_talby_job_model(path), std::invalid_argument);
  EXPECT_THROW(read_talby_job_model(::testing::TempDir() + "no/such/file.json"), std::invalid_argument);
}

// Jobs without a runtime or a size cannot be drawn: they are left out of the pools and counted as skipped, and a
// session with no other job is no session of the model. On KTH every job is usable, so here every 7th job and all
// of one user's lose their runtime; the counts are checked against the sessions built from the same log.
TEST(TalbyJobLayer, JobsWithoutARuntimeAreSkippedAndCounted) {
  swf::Log log = layer_kth();
  const int32_t user = log.records[100].user_id;
  int64_t marked = 0;
  for (size_t i = 0; i < log.records.size(); ++i) {
    if (i % 7 == 0 || log.records[i].user_id == user) {
      log.records[i].run_time = -1;
      ++marked;
    }
  }
  const trace::Sessions sessions = trace::build_sessions(log.records);
  int64_t in_sessions = 0, usable_sessions = 0;
  for (const auto& s : sessions.sessions) {
    in_sessions += static_cast<int64_t>(s.jobs.size());
    const auto usable = [&](size_t j) { return log.records[j].run_time >= 0; };
    usable_sessions += std::any_of(s.jobs.begin(), s.jobs.end(), usable) ? 1 : 0;
  }
  ASSERT_EQ(in_sessions, 28489);
  ASSERT_LT(usable_sessions, static_cast<int64_t>(sessions.sessions.size()));  // the user's sessions are all unusable
  const TalbyJobModel m = fit_talby_job_layer(log, "KTH-marked");
  EXPECT_EQ(m.skipped_jobs, marked);
  EXPECT_EQ(m.jobs, 28489 - marked);
  EXPECT_EQ(m.sessions, usable_sessions);
  int64_t pooled = 0, class_sessions = 0;
  for (const TalbyClassJobs& c : m.classes) {
    pooled += static_cast<int64_t>(c.pool.runtimes.size());
    class_sessions += c.sessions;
    for (const auto r : c.pool.runtimes) EXPECT_GE(r, 0);
  }
  EXPECT_EQ(pooled, m.jobs);
  EXPECT_EQ(class_sessions, m.sessions);
}

TEST(TalbyJobLayer, FitRejectsLogsWithoutWhatTheModelNeeds) {
  swf::Log log = layer_kth();
  for (auto& r : log.records) r.requested_time = -1;
  EXPECT_THROW(
      {
        try {
          fit_talby_job_layer(log, "noest.swf");
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("noest.swf: no job has an estimate"), std::string::npos);
          throw;
        }
      },
      std::invalid_argument);
  log = layer_kth();
  for (auto& r : log.records) r.user_id = -1;
  EXPECT_THROW(fit_talby_job_layer(log, "nouser.swf"), std::invalid_argument);
  log = layer_kth();
  log.header.unix_start_time.reset();
  try {
    fit_talby_job_layer(log, "notime.swf");
    ADD_FAILURE() << "no UnixStartTime was not refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("notime.swf: no UnixStartTime in the header: the session classes and start "
                                         "times need the log's local time (add the header line '; UnixStartTime: N'"),
              std::string::npos)
        << e.what();
  }
}

TEST(TalbyJobLayer, DrawnSessionsAreOneSessionOnTheMachine) {
  const TalbyJobModel& m = layer_kth_model();
  base::Rng rng(3);
  for (int k = 0; k < analysis::kSessionClasses; ++k) {
    for (int i = 0; i < 300; ++i) {
      TalbySession s = draw_session_start(m, static_cast<SessionClass>(k), 7 * 86400, rng);
      ASSERT_GE(s.start, 7 * 86400);
      ASSERT_LT(s.start, 14 * 86400);
      draw_session_jobs(m, s, 1024, rng);
      ASSERT_FALSE(s.jobs.empty());
      EXPECT_EQ(s.jobs.front().submit, s.start);
      std::vector<swf::Record> records;
      int64_t end = s.start;
      for (const TalbyJob& j : s.jobs) {
        ASSERT_GE(j.size, 1);
        ASSERT_LE(j.size, 1024);
        ASSERT_GE(j.runtime, 0);
        end = std::max(end, j.submit + j.runtime);
        swf::Record r;
        r.submit_time = static_cast<int32_t>(j.submit);
        r.run_time = j.runtime;
        r.user_id = 1;
        records.push_back(r);
      }
      EXPECT_EQ(s.end, end);
      // Every job follows the previous one's end by less than 20 minutes: one session under the thesis's rule.
      EXPECT_EQ(trace::build_sessions(records).sessions.size(), 1u);
    }
  }
}

TEST(TalbyJobLayer, SizesScaleWithTheMachineAndSerialJobsStaySerial) {
  const TalbyJobModel& m = layer_kth_model();
  base::Rng a(11), b(11);
  for (int i = 0; i < 500; ++i) {
    TalbySession s100 = draw_session_start(m, SessionClass::kBHP, 0, a);
    draw_session_jobs(m, s100, 100, a);  // the fitted machine: sizes as in the log
    TalbySession s400 = draw_session_start(m, SessionClass::kBHP, 0, b);
    draw_session_jobs(m, s400, 400, b);  // same draws, four times the machine
    ASSERT_EQ(s100.jobs.size(), s400.jobs.size());
    for (size_t k = 0; k < s100.jobs.size(); ++k) {
      const int32_t small = s100.jobs[k].size;
      EXPECT_EQ(s400.jobs[k].size, small == 1 ? 1 : 4 * small);
      EXPECT_EQ(s400.jobs[k].runtime, s100.jobs[k].runtime);
    }
  }
}

}  // namespace
}  // namespace schedlab::model
