// Helpers shared by the tests: where the real logs are, temporary files, and running the CLI.
#pragma once

#include <string>
#include <vector>

namespace schedlab::testing {

// ../shared/traces relative to the source tree; tests that need a log skip when it is absent.
std::string traces_dir();
std::string trace_path(const std::string& file);  // traces_dir() + "/" + file
bool trace_exists(const std::string& file);
std::vector<std::string> all_traces();            // every *.swf.gz in traces_dir(), sorted

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
// Runs the built schedlab binary with `args` (each passed as one argument, no shell).
CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "");

}  // namespace schedlab::testing
