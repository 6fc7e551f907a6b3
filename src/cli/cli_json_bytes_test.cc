// --json outputs of a log whose file name and header hold bytes that are not UTF-8 (a Latin-1 system): valid JSON
// with U+FFFD for those bytes. Before, nlohmann's dump threw type_error 316 and every such command failed with
// "[json.exception.type_error.316] invalid UTF-8 byte".
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace schedlab::testing {
namespace {

TEST(CliJsonBytes, NamesAndHeadersThatAreNotUtf8GiveValidJson) {
  TempDir dir;
  const std::string log = dir.file("caf\xe9.swf");
  write_file(log, "; Computer: caf\xe9 \xff machine\n; MaxProcs: 10\n; UnixStartTime: 800000000\n"
                  "1 0 0 10 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n2 40 0 10 2 -1 -1 2 60 -1 1 2 1 1 1 -1 -1 -1\n");
  const std::vector<std::vector<std::string>> commands = {
      {"stats", log, "--json"},
      {"simulate", log, "-s", "easy", "--json"},
      {"compare", log, "--schedulers", "easy,fcfs", "--json"},
      {"predict", log, "--json"},
      {"analyze", "temporal", log, "--json"},
      {"estimates", "bins", log, "--json"},
      {"profiler", "ingest", log, "--db", dir.file("p.db"), "--json"},
  };
  for (const auto& args : commands) {
    const CliResult r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << args[0];  // the parser refuses invalid UTF-8
    EXPECT_NE(r.out.find("caf\xEF\xBF\xBD"), std::string::npos) << args[0] << ": " << r.out.substr(0, 300);
  }
}

}  // namespace
}  // namespace schedlab::testing
