// Header: typed standard keys, tolerance of real header formats, continuation lines, problems.
#include "schedlab/swf/header.h"

#include <gtest/gtest.h>

#include "schedlab/swf/reader.h"
#include "test_util.h"

namespace schedlab::swf {
namespace {

using schedlab::testing::trace_exists;
using schedlab::testing::trace_path;

Header parse(const std::vector<std::string>& lines) {
  Header h;
  int64_t n = 0;
  for (const auto& l : lines) h.add_line(l, ++n);
  return h;
}

TEST(HeaderParse, EveryStandardKeyTyped) {
  const Header h = parse({
      "; Version: 2.2",
      "; Computer: IBM SP2",
      "; Installation: Somewhere (X)",
      "; Acknowledge: A. Person",
      "; Information: http://a.example/",
      "; Conversion: B. Person 1 Jan 2000",
      "; MaxJobs: 1000",
      "; MaxRecords: 999",
      "; Preemption: Double",
      "; UnixStartTime: 843480031",
      "; TimeZone: -18000",
      "; TimeZoneString: US/Eastern",
      "; StartTime: Mon Sep 23 14:00:31 CEST 1996",
      "; EndTime:   Fri Aug 29 10:55:01 CEST 1997",
      "; MaxNodes: 64",
      "; MaxProcs: 128",
      "; MaxRuntime: 86400",
      "; MaxMemory: 262144",
      "; AllowOveruse: Yes",
      "; MaxQueues: 2",
      "; Queue:  1  batch    ",
      "; Queue:  2  debug",
      "; MaxPartitions: 1",
      "; Partition: 1 all",
      "; Note: first note",
      "; Note: second note",
  });
  EXPECT_EQ(h.lines.size(), 26u);
  EXPECT_EQ(h.version, "2.2");
  EXPECT_EQ(h.computer, "IBM SP2");
  EXPECT_EQ(h.installation, "Somewhere (X)");
  EXPECT_EQ(h.acknowledge, std::vector<std::string>{"A. Person"});
  EXPECT_EQ(h.information, std::vector<std::string>{"http://a.example/"});
  EXPECT_EQ(h.conversion, std::vector<std::string>{"B. Person 1 Jan 2000"});
  EXPECT_EQ(h.max_jobs, 1000);
  EXPECT_EQ(h.max_records, 999);
  EXPECT_EQ(h.preemption, "Double");
  EXPECT_EQ(h.unix_start_time, 843480031);
  EXPECT_EQ(h.time_zone, "-18000");
  EXPECT_EQ(h.time_zone_string, "US/Eastern");
  EXPECT_EQ(h.start_time, "Mon Sep 23 14:00:31 CEST 1996");
  EXPECT_EQ(h.end_time, "Fri Aug 29 10:55:01 CEST 1997");
  EXPECT_EQ(h.max_nodes, 64);
  EXPECT_EQ(h.max_procs, 128);
  EXPECT_EQ(h.max_runtime, 86400);
  EXPECT_EQ(h.max_memory, 262144);
  EXPECT_EQ(h.allow_overuse, true);
  EXPECT_EQ(h.max_queues, 2);
  EXPECT_EQ(h.queues, (std::vector<std::string>{"1  batch", "2  debug"}));
  EXPECT_EQ(h.max_partitions, 1);
  EXPECT_EQ(h.partitions, std::vector<std::string>{"1 all"});
  EXPECT_EQ(h.notes, (std::vector<std::string>{"first note", "second note"}));
  EXPECT_TRUE(h.problems.empty());
  EXPECT_EQ(h.lines[20], "; Queue:  1  batch    ");  // verbatim, trailing blanks kept
}

TEST(HeaderParse, KeysCaseInsensitiveAndSpacingTolerant) {
  const Header h = parse({";MaxProcs: 100", ";   maxnodes:50", "; VERSION : SWF v2", ";\tNote:\ttabbed\t",
                          "  ; MAXJOBS:   7  ", ";allowoveruse: no"});
  EXPECT_EQ(h.max_procs, 100);
  EXPECT_EQ(h.max_nodes, 50);
  EXPECT_EQ(h.version, "SWF v2");
  EXPECT_EQ(h.notes, std::vector<std::string>{"tabbed"});
  EXPECT_EQ(h.max_jobs, 7);
  EXPECT_EQ(h.allow_overuse, false);
  EXPECT_TRUE(h.problems.empty());
}

TEST(HeaderParse, IntegerWithTrailingText) {
  const Header h = parse({"; MaxNodes: 338 (batch partition; 512 total)", "; MaxProcs: 1664 (72, 1368, 224)"});
  EXPECT_EQ(h.max_nodes, 338);
  EXPECT_EQ(h.max_procs, 1664);
  EXPECT_TRUE(h.problems.empty());
}

TEST(HeaderParse, UnknownValuesLeaveFieldAbsent) {
  const Header h = parse({"; MaxRuntime: N/A", "; MaxMemory: -1", "; MaxProcs:", "; AllowOveruse: unknown"});
  EXPECT_FALSE(h.max_runtime.has_value());
  EXPECT_FALSE(h.max_memory.has_value());
  EXPECT_FALSE(h.max_procs.has_value());
  EXPECT_FALSE(h.allow_overuse.has_value());
  EXPECT_TRUE(h.problems.empty());
  EXPECT_EQ(h.lines.size(), 4u);
}

TEST(HeaderParse, BadValuesAreProblems) {
  const Header h = parse({"; Version: 2", "; MaxProcs: lots", "; MaxJobs: 12x", "; MaxNodes: -8",
                          "; AllowOveruse: maybe", "; UnixStartTime: -5"});
  EXPECT_FALSE(h.max_procs.has_value());
  EXPECT_FALSE(h.max_jobs.has_value());
  EXPECT_FALSE(h.max_nodes.has_value());
  EXPECT_FALSE(h.allow_overuse.has_value());
  EXPECT_EQ(h.unix_start_time, -5);
  ASSERT_EQ(h.problems.size(), 4u);
  EXPECT_EQ(h.problems[0], "line 2: MaxProcs: cannot parse 'lots' as a non-negative integer");
  EXPECT_EQ(h.problems[1], "line 3: MaxJobs: cannot parse '12x' as a non-negative integer");
  EXPECT_EQ(h.problems[2], "line 4: MaxNodes: cannot parse '-8' as a non-negative integer");
  EXPECT_EQ(h.problems[3], "line 5: AllowOveruse: cannot parse 'maybe' as Yes/No");
  EXPECT_EQ(h.lines.size(), 6u);
}

TEST(HeaderParse, ContinuationLines) {
  const Header h = parse({
      "; Information: http://www.pdc.kth.se/",
      ";              http://www.cs.huji.ac.il/labs/parallel/workload/",
      "; Note: THIS IS A CLEANED VERSION OF THE LOG!",
      ";       The filter used to produce it was",
      ";\t  job<=14 (14 jobs removed)",
      ";",
      ";       not a continuation (after an empty comment)",
      "; MaxProcs: 10",
      ";       not a continuation (after an integer key)",
      "; Copyright: text",
      ";   not a continuation (after an unknown key)",
      "; Note: x",
      "; y is not a continuation (one space)",
  });
  EXPECT_EQ(h.information,
            std::vector<std::string>{"http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/"});
  EXPECT_EQ(h.notes, (std::vector<std::string>{
                         "THIS IS A CLEANED VERSION OF THE LOG!\nThe filter used to produce it was\njob<=14 (14 jobs removed)",
                         "x"}));
  EXPECT_EQ(h.lines.size(), 13u);
  EXPECT_EQ(h.lines[1], ";              http://www.cs.huji.ac.il/labs/parallel/workload/");
  EXPECT_TRUE(h.problems.empty());
}

TEST(HeaderParse, UnknownKeysAndCommentsKeptInOrder) {
  const Header h = parse({";   --- SWF file converted from SACCT ---", "; Queues: free text about queues",
                          "; Copyright: someone", ";", "; MaxProcs: 4"});
  EXPECT_EQ(h.lines, (std::vector<std::string>{";   --- SWF file converted from SACCT ---",
                                               "; Queues: free text about queues", "; Copyright: someone", ";",
                                               "; MaxProcs: 4"}));
  EXPECT_TRUE(h.queues.empty());  // "Queues" is not the standard key "Queue"
  EXPECT_EQ(h.max_procs, 4);
}

TEST(HeaderParse, RepeatedSingleKeyLastWins) {
  const Header h = parse({"; MaxQueues: 4", "; MaxQueues: 3"});
  EXPECT_EQ(h.max_queues, 3);
}

TEST(HeaderParse, AddNote) {
  Header h = parse({"; MaxProcs: 4"});
  h.add_note("filtered: user=3 removed");
  EXPECT_EQ(h.lines.back(), "; Note: filtered: user=3 removed");
  EXPECT_EQ(h.notes, std::vector<std::string>{"filtered: user=3 removed"});
}

TEST(HeaderReal, KthTypedFields) {
  // Values read with: zcat KTH-SP2-1996-2.swf.gz | head -19
  SCHEDLAB_NEED_TRACE("KTH-SP2-1996-2.swf.gz");
  const Header h = read_log(trace_path("KTH-SP2-1996-2.swf.gz")).header;
  EXPECT_EQ(h.version, "2.2");
  EXPECT_EQ(h.computer, "IBM SP2");
  EXPECT_EQ(h.installation, "Swedish Royal Institute of Technology (KTH)");
  EXPECT_EQ(h.acknowledge, std::vector<std::string>{"Lars Malinowsky"});
  EXPECT_EQ(h.information,
            std::vector<std::string>{"http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/"});
  EXPECT_EQ(h.conversion, std::vector<std::string>{"Dror Feitelson (feit@cs.huji.ac.il) 1 Aug 2006"});
  EXPECT_EQ(h.max_jobs, 28490);
  EXPECT_EQ(h.max_records, 28490);
  EXPECT_EQ(h.preemption, "No");
  EXPECT_EQ(h.unix_start_time, 843480031);
  EXPECT_EQ(h.time_zone, "3600");
  EXPECT_EQ(h.time_zone_string, "Europe/Stockholm");
  EXPECT_EQ(h.start_time, "Mon Sep 23 14:00:31 CEST 1996");
  EXPECT_EQ(h.end_time, "Fri Aug 29 10:55:01 CEST 1997");
  EXPECT_EQ(h.max_nodes, 100);
  EXPECT_EQ(h.max_procs, 100);
  EXPECT_EQ(h.notes, std::vector<std::string>{"uses the EASY scheduler"});
  EXPECT_FALSE(h.max_runtime.has_value());
  EXPECT_FALSE(h.max_queues.has_value());
  EXPECT_TRUE(h.queues.empty());
  EXPECT_TRUE(h.problems.empty());
  ASSERT_EQ(h.lines.size(), 19u);
  EXPECT_EQ(h.lines.front(), "; Version: 2.2");
  EXPECT_EQ(h.lines.back(), ";");
}

TEST(HeaderReal, SandiaRossVariants) {
  SCHEDLAB_NEED_TRACE("Sandia-Ross-2001-1.1-cln.swf.gz");
  const Header h = read_log(trace_path("Sandia-Ross-2001-1.1-cln.swf.gz")).header;
  EXPECT_EQ(h.version, "SWF v2");
  EXPECT_EQ(h.computer, "Compaq DS10L 1U servers");
  EXPECT_EQ(h.preemption, "no");
  EXPECT_EQ(h.max_nodes, 1524);
  EXPECT_EQ(h.max_procs, 1524);
  EXPECT_FALSE(h.max_runtime.has_value());  // "N/A"
  EXPECT_FALSE(h.max_memory.has_value());   // "N/A"
  EXPECT_EQ(h.allow_overuse, true);         // "yes"
  EXPECT_EQ(h.max_queues, 3);               // given twice: 4, then 3
  EXPECT_EQ(h.queues.size(), 3u);
  EXPECT_EQ(h.max_partitions, 11);
  EXPECT_EQ(h.partitions.size(), 11u);
  EXPECT_EQ(h.partitions.front(), "1");
  EXPECT_TRUE(h.problems.empty());
  EXPECT_EQ(h.lines.size(), 44u);
}

TEST(HeaderReal, CeaCurieNotesAndPartitions) {
  SCHEDLAB_NEED_TRACE("CEA-Curie-2011-2.1-cln.swf.gz");
  const Header h = read_log(trace_path("CEA-Curie-2011-2.1-cln.swf.gz")).header;
  EXPECT_EQ(h.max_procs, 93312);
  EXPECT_EQ(h.max_nodes, 5544);
  EXPECT_EQ(h.max_jobs, 773138);
  EXPECT_EQ(h.unix_start_time, 1296571124);
  EXPECT_EQ(h.end_time, "Wed Oct 17 04:25:36 CEST 2012");
  EXPECT_EQ(h.max_partitions, 33);
  ASSERT_EQ(h.partitions.size(), 33u);
  EXPECT_EQ(h.partitions[32], "33  crypto/munge");
  ASSERT_FALSE(h.notes.empty());
  EXPECT_EQ(h.notes.front(),
            "Curie is composed of 3 types of nodes: thin, fat, and hybrid,\nsee: "
            "http://www-hpc.cea.fr/en/complexe/tgcc-curie.htm");
  EXPECT_EQ(h.lines.size(), 74u);
  EXPECT_TRUE(h.problems.empty());
}

}  // namespace
}  // namespace schedlab::swf
