#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace schedlab::testing {
namespace fs = std::filesystem;

std::string traces_dir() { return SCHEDLAB_TRACES_DIR; }
std::string trace_path(const std::string& file) { return traces_dir() + "/" + file; }
std::string bundled_kth() { return std::string(SCHEDLAB_SOURCE_DIR) + "/data/KTH-SP2-1996-2.swf.gz"; }
bool trace_exists(const std::string& file) { return fs::exists(trace_path(file)); }

swf::Record record(const swf::RecordFields& fields) {
  swf::Record r;
  static_cast<swf::RecordFields&>(r) = fields;
  return r;
}

std::vector<std::string> all_traces() {
  std::vector<std::string> out;
  if (!fs::is_directory(traces_dir())) return out;
  for (const auto& e : fs::directory_iterator(traces_dir())) {
    const std::string name = e.path().filename().string();
    if (name.size() > 7 && name.ends_with(".swf.gz")) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TempDir::TempDir() {
  std::string templ = (fs::temp_directory_path() / "schedlab-test-XXXXXX").string();
  if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = templ;
}
TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text,
                  const std::string& stdout_path) {
  TempDir dir;
  const std::string in_path = dir.file("stdin"), err_path = dir.file("stderr");
  const std::string out_path = stdout_path.empty() ? dir.file("stdout") : stdout_path;
  write_file(in_path, stdin_text);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (!freopen(in_path.c_str(), "rb", stdin) || !freopen(out_path.c_str(), "wb", stdout) ||
        !freopen(err_path.c_str(), "wb", stderr))
      _exit(127);
    std::vector<char*> argv;
    std::string cli = SCHEDLAB_CLI;
    argv.push_back(cli.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(cli.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (stdout_path.empty()) r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

std::set<std::string> json_keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

}  // namespace schedlab::testing
