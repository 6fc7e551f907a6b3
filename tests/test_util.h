// Helpers shared by the tests: where the real logs are, temporary files, and running the CLI.
#pragma once

#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "schedlab/swf/record.h"

namespace schedlab::testing {

// ../shared/traces relative to the source tree; tests that need a log skip when it is absent.
std::string traces_dir();
std::string trace_path(const std::string& file);  // traces_dir() + "/" + file
bool trace_exists(const std::string& file);
std::vector<std::string> all_traces();            // every *.swf.gz in traces_dir(), sorted

// The KTH log bundled with the project (data/KTH-SP2-1996-2.swf.gz): always there, unlike the shared logs.
std::string bundled_kth();

// Skips the current test, with one uniform message that scripts/run_tests.py counts, when the shared log
// `file` is absent. Every test that needs a real log starts with it (or SCHEDLAB_NEED_TRACES for all of them).
#define SCHEDLAB_NEED_TRACE(file)                                                                         \
  if (!::schedlab::testing::trace_exists(file))                                                           \
  GTEST_SKIP() << "needs the shared logs: " << (file) << " is not in " << ::schedlab::testing::traces_dir()
#define SCHEDLAB_NEED_TRACES()                                                                            \
  if (::schedlab::testing::all_traces().empty())                                                          \
  GTEST_SKIP() << "needs the shared logs: none in " << ::schedlab::testing::traces_dir()

// A record for a hand-written test log, every field named: record({.submit_time = 0, .run_time = 100,
// .requested_procs = 4}). Fields left out are -1 (unknown), as in a Record.
swf::Record record(const swf::RecordFields& fields);

// One job of a hand-made log: SWF job number, submit, runtime, processors, estimate (-1 = none).
struct J {
  int32_t number;
  int32_t submit;
  int32_t run;
  int32_t procs;
  int32_t estimate;
};

inline std::vector<swf::Record> records(const std::vector<J>& jobs) {
  std::vector<swf::Record> out;
  for (const J& j : jobs) {
    swf::Record r;
    r.job_number = j.number;
    r.submit_time = j.submit;
    r.run_time = j.run;
    r.requested_procs = j.procs;
    r.allocated_procs = j.procs;
    r.requested_time = j.estimate;
    r.status = 1;
    r.user_id = 1;
    out.push_back(r);
  }
  return out;
}
inline std::vector<swf::Record> records(std::initializer_list<J> jobs) { return records(std::vector<J>(jobs)); }

// A fresh temporary directory, removed when the object goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void write_file(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);

struct CliResult {
  int exit_code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};
// Runs the built schedlab binary with `args` (each passed as one argument, no shell). `stdout_path`: standard
// output goes there instead (e.g. /dev/full, for write errors), and `out` stays empty.
CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "",
                  const std::string& stdout_path = "");

// The keys of a JSON object (the tests that pin the parts of a command's JSON).
std::set<std::string> json_keys(const nlohmann::json& object);

}  // namespace schedlab::testing
