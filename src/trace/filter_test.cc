#include "schedlab/trace/filter.h"
#include "test_util.h"

#include <algorithm>
#include <string>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "schedlab/base/version.h"

namespace schedlab::trace {
namespace {

std::vector<swf::Record> filter_log() {
  return {
      testing::record({.job_number = 1, .submit_time = 0, .run_time = 10, .requested_procs = 1, .status = 1,
                       .user_id = 1, .queue = 1, .partition = 1}),     testing::record({.job_number = 2,
                       .submit_time = 100, .run_time = 10, .requested_procs = 2, .status = 0, .user_id = 2,
                       .queue = 2, .partition = 1}),  testing::record({.job_number = 3, .submit_time = 200,
                       .run_time = 10, .requested_procs = 4, .status = 5, .user_id = 3, .queue = 1, .partition = 2}),
      testing::record({.job_number = 4, .submit_time = 300, .run_time = 10, .requested_procs = 8, .status = 1,
                       .user_id = 1, .queue = 3, .partition = 2}),   testing::record({.job_number = 5,
                       .submit_time = 400, .run_time = 10, .requested_procs = 16, .status = 1, .user_id = 2,
                       .queue = 1, .partition = 3}), testing::record({.job_number = 6, .run_time = 10,
                       .requested_procs = 4, .status = 1, .user_id = 4, .queue = 1, .partition = 1}),
      testing::record({.job_number = 7, .submit_time = 500, .run_time = 10, .status = 1, .user_id = 4, .queue = 1,
                       .partition = 1}),
  };
}

std::vector<int32_t> numbers(const FilterResult& r) {
  std::vector<int32_t> out;
  for (const auto& rec : r.kept) out.push_back(rec.job_number);
  return out;
}

int64_t filtered_out(const FilterResult& r, FilterReason reason) { return r.excluded[static_cast<int>(reason)]; }

TEST(Filter, EmptySpecKeepsEverything) {
  const FilterSpec spec;
  EXPECT_TRUE(spec.empty());
  const FilterResult r = apply_filter(filter_log(), spec);
  EXPECT_EQ(r.kept, filter_log());
  EXPECT_EQ(r.excluded_total(), 0);
}

TEST(Filter, TimeWindowIsHalfOpen) {
  FilterSpec spec;
  spec.from = 100;
  spec.to = 400;
  const FilterResult r = apply_filter(filter_log(), spec);
  EXPECT_EQ(numbers(r), (std::vector<int32_t>{2, 3, 4}));
  EXPECT_EQ(filtered_out(r, FilterReason::kBeforeFrom), 1);
  EXPECT_EQ(filtered_out(r, FilterReason::kNotBeforeTo), 2);  // 400 and 500
  EXPECT_EQ(filtered_out(r, FilterReason::kUnknownSubmit), 1);
  EXPECT_EQ(r.excluded_total(), 4);
}

TEST(Filter, OnlyFromBound) {
  FilterSpec spec;
  spec.from = 300;
  EXPECT_EQ(numbers(apply_filter(filter_log(), spec)), (std::vector<int32_t>{4, 5, 7}));
}

// A window that keeps no record says what the log spans; a window that keeps some, emptied by another criterion,
// says nothing (the dates are not the cause).
TEST(Filter, AnEmptyTimeWindowNamesTheLogsSpan) {
  FilterSpec spec;
  spec.from = 501;
  swf::Header header;
  EXPECT_EQ(filter_window_hint(filter_log(), spec, apply_filter(filter_log(), spec), header),
            "the log's jobs were submitted from +0 s to +500 s; --from/--to keep none of them");
  header.unix_start_time = 820454400;  // 1996-01-01 00:00:00 UTC
  spec.from = -1000;
  spec.to = 0;
  EXPECT_EQ(filter_window_hint(filter_log(), spec, apply_filter(filter_log(), spec), header),
            "the log's jobs were submitted from 1996-01-01 00:00:00 UTC to 1996-01-01 00:08:20 UTC; --from/--to keep "
            "none of them");
  spec.to = 1;  // keeps job 1
  EXPECT_EQ(filter_window_hint(filter_log(), spec, apply_filter(filter_log(), spec), header), "");
  spec.users = {99};  // nothing kept, but the window held job 1
  EXPECT_EQ(filter_window_hint(filter_log(), spec, apply_filter(filter_log(), spec), header), "");
  FilterSpec no_window;
  no_window.users = {99};
  EXPECT_EQ(filter_window_hint(filter_log(), no_window, apply_filter(filter_log(), no_window), header), "");
}

// An id no record has is named with the log's own values (most records first): `--status 7` kept nothing and
// `--exclude-users 42` dropped nothing, with no other sign than the counts.
TEST(Filter, ListedIdsNoRecordHasAreNamed) {
  FilterSpec spec;
  EXPECT_TRUE(filter_value_hints(filter_log(), spec).empty());
  spec.statuses = std::set<int32_t>{1, 7};
  spec.users = std::set<int32_t>{1, 99, 98};
  spec.exclude_users = {42};
  spec.queues = std::set<int32_t>{1, 2};  // both occur: nothing said
  EXPECT_EQ(filter_value_hints(filter_log(), spec),
            (std::vector<std::string>{
                "--users 98,99: no record has user 98 or 99 (the log's: 1 (2 records), 2 (2), 4 (2), 3 (1))",
                "--exclude-users 42: no record has user 42, so nothing was dropped for it (the log's: 1 (2 records), 2 "
                "(2), 4 (2), 3 (1))",
                "--status 7: no record has status 7 (the log's: 1 (5 records), 0 (1), 5 (1))"}));
  std::vector<swf::Record> many;  // ten partitions: the eight with the most records, and how many more
  for (int32_t p = 0; p < 10; ++p)
    for (int32_t k = 0; k <= p; ++k) many.push_back(testing::record({.job_number = p * 10 + k, .partition = p}));
  FilterSpec partitions;
  partitions.partitions = std::set<int32_t>{20};
  EXPECT_EQ(filter_value_hints(many, partitions),
            std::vector<std::string>{"--partition 20: no record has partition 20 (the log's: 9 (10 records), 8 (9), "
                                     "7 (8), 6 (7), 5 (6), 4 (5), 3 (4), 2 (3) and 2 more)"});
  EXPECT_EQ(filter_value_hints({}, partitions),
            std::vector<std::string>{"--partition 20: no record has partition 20 (the log's: no records)"});
}

TEST(Filter, Users) {
  FilterSpec spec;
  spec.users = std::set<int32_t>{1, 3};
  FilterResult r = apply_filter(filter_log(), spec);
  EXPECT_EQ(numbers(r), (std::vector<int32_t>{1, 3, 4}));
  EXPECT_EQ(filtered_out(r, FilterReason::kUser), 4);

  FilterSpec ex;
  ex.exclude_users = {2, 4};
  r = apply_filter(filter_log(), ex);
  EXPECT_EQ(numbers(r), (std::vector<int32_t>{1, 3, 4}));
  EXPECT_EQ(filtered_out(r, FilterReason::kUser), 4);
}

TEST(Filter, ProcessorBoundsUseJobSize) {
  FilterSpec spec;
  spec.min_procs = 2;
  spec.max_procs = 8;
  std::vector<swf::Record> log = filter_log();
  log[0].requested_procs = -1;  // job 1: size from allocated processors
  log[0].allocated_procs = 4;
  const FilterResult r = apply_filter(log, spec);
  EXPECT_EQ(numbers(r), (std::vector<int32_t>{1, 2, 3, 4, 6}));
  EXPECT_EQ(filtered_out(r, FilterReason::kAboveMaxProcs), 1);
  EXPECT_EQ(filtered_out(r, FilterReason::kUnknownSize), 1);
  EXPECT_EQ(filtered_out(r, FilterReason::kBelowMinProcs), 0);

  FilterSpec min_only;
  min_only.min_procs = 4;
  const FilterResult r2 = apply_filter(filter_log(), min_only);
  EXPECT_EQ(numbers(r2), (std::vector<int32_t>{3, 4, 5, 6}));
  EXPECT_EQ(filtered_out(r2, FilterReason::kBelowMinProcs), 2);
}

TEST(Filter, StatusQueuePartition) {
  FilterSpec status;
  status.statuses = std::set<int32_t>{0, 5};
  EXPECT_EQ(numbers(apply_filter(filter_log(), status)), (std::vector<int32_t>{2, 3}));
  FilterSpec queue;
  queue.queues = std::set<int32_t>{2, 3};
  EXPECT_EQ(numbers(apply_filter(filter_log(), queue)), (std::vector<int32_t>{2, 4}));
  FilterSpec partition;
  partition.partitions = std::set<int32_t>{2};
  const FilterResult r = apply_filter(filter_log(), partition);
  EXPECT_EQ(numbers(r), (std::vector<int32_t>{3, 4}));
  EXPECT_EQ(filtered_out(r, FilterReason::kPartition), 5);
}

// Kept jobs whose preceding job (field 17) the filter left out are warned of: --feedback cannot follow them. Partition 2
// keeps jobs 3 and 4; job 4 follows job 3 (kept), job 3 follows job 1 (left out).
TEST(Filter, KeptJobsWhosePrecedingJobWasLeftOutAreWarnedOf) {
  std::vector<swf::Record> log = filter_log();
  FilterSpec partition;
  partition.partitions = std::set<int32_t>{2};
  EXPECT_EQ(filter_dependency_hint(apply_filter(log, partition)), "");
  for (swf::Record& r : log) {
    if (r.job_number == 4) r.preceding_job = 3;
  }
  EXPECT_EQ(filter_dependency_hint(apply_filter(log, partition)), "");
  for (swf::Record& r : log) {
    if (r.job_number == 3) r.preceding_job = 1;
  }
  const FilterResult kept = apply_filter(log, partition);
  EXPECT_EQ(filter_dependency_hint(kept), "1 kept job names a preceding job the filter left out (SWF field 17): "
                                          "simulate --feedback submits it at its logged submit time");
  const std::vector<std::string> hints = filter_hints(log, swf::Header{}, partition, kept, "2");
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints.back(), filter_dependency_hint(kept));
}

TEST(Filter, FirstFailingCriterionIsTheReason) {
  FilterSpec spec;
  spec.from = 250;
  spec.users = std::set<int32_t>{2};
  spec.statuses = std::set<int32_t>{0};
  const FilterResult r = apply_filter(filter_log(), spec);
  EXPECT_TRUE(r.kept.empty());
  EXPECT_EQ(filtered_out(r, FilterReason::kUnknownSubmit), 1);  // job 6
  EXPECT_EQ(filtered_out(r, FilterReason::kBeforeFrom), 3);     // jobs 1-3
  EXPECT_EQ(filtered_out(r, FilterReason::kUser), 2);           // jobs 4, 7
  EXPECT_EQ(filtered_out(r, FilterReason::kStatus), 1);         // job 5
  EXPECT_EQ(r.excluded_total(), 7);
}

TEST(Filter, NotesDescribeTheFilter) {
  FilterSpec spec;
  spec.from = 100;
  spec.from_text = "+100";
  spec.users = std::set<int32_t>{2, 1};
  spec.max_procs = 8;
  const FilterResult r = apply_filter(filter_log(), spec);
  const auto notes = filter_notes(spec, r);
  const auto has = [&](const std::string& text) {
    return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n == text; });
  };
  EXPECT_TRUE(has(fmt::format("FILTERED by schedlab {} filter: 2 of 7 records kept, 5 excluded", base::kVersion)))
      << notes[0];
  EXPECT_TRUE(has("filter: submit time >= +100 = 100 s from the log start (inclusive)"));
  EXPECT_TRUE(has("filter: user in 1,2"));
  EXPECT_TRUE(has("filter: job size <= 8 processors"));
  EXPECT_TRUE(has("filter: excluded 1 record: unknown_submit"));
  EXPECT_TRUE(has("filter: excluded 1 record: before_from"));
  EXPECT_TRUE(has("filter: excluded 2 records: user"));
  EXPECT_TRUE(has("filter: excluded 1 record: above_max_procs"));
  for (const auto& n : notes) EXPECT_EQ(n.find("status"), std::string::npos) << n;
}

TEST(Filter, ReasonNamesAreDistinct) {
  std::set<std::string_view> names;
  for (int i = 0; i < kFilterReasons; ++i) names.insert(filter_reason_name(static_cast<FilterReason>(i)));
  EXPECT_EQ(names.size(), static_cast<size_t>(kFilterReasons));
  EXPECT_EQ(names.count("?"), 0u);
}

}  // namespace
}  // namespace schedlab::trace

namespace schedlab::trace {
namespace {

// "--from 1996-10-01 --to +60d" as a 60-day window: the error says that a relative --to counts from the log start
// and gives the bound that means what was wanted; with both bounds of one kind it does not.
TEST(Filter, ARelativeToBeforeADateSaysWhereItCountsFrom) {
  FilterSpec spec;
  spec.from = 8'000'000;
  spec.from_text = "1996-10-01 (UTC)";
  spec.to = 5'184'000;
  spec.to_text = "+60d";
  try {
    check_filter_spec(spec);
    FAIL() << "an empty window was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "; --to +60d counts from the log start, not from --from (60d after --from is --to +13184000)"),
              std::string::npos)
        << e.what();
  }
  spec.from_text = "+8000000";
  try {
    check_filter_spec(spec);
    FAIL() << "an empty window was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).find("counts from the log start"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace schedlab::trace
