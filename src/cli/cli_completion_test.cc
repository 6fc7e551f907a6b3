// Shell completion (cli/completion.h): the binary's candidates for a word, and the bash script run by a real bash
// the way bash's programmable completion calls it.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace schedlab::testing {
namespace {

// The candidates `schedlab __complete WORDS...` prints, one per line.
std::vector<std::string> candidates(const std::vector<std::string>& words) {
  std::vector<std::string> args = {"__complete"};
  args.insert(args.end(), words.begin(), words.end());
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> out;
  size_t from = 0;
  while (from < r.out.size()) {
    const size_t nl = r.out.find('\n', from);
    out.push_back(r.out.substr(from, nl - from));
    from = nl + 1;
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& w) {
  return std::find(v.begin(), v.end(), w) != v.end();
}

TEST(CliCompletion, CommandsOptionsAndValues) {
  auto c = candidates({""});
  EXPECT_TRUE(has(c, "simulate") && has(c, "analyze") && has(c, "completion") && !has(c, "__files"));
  c = candidates({"analyze", ""});
  EXPECT_TRUE(has(c, "locality") && has(c, "temporal") && !has(c, "simulate") && !has(c, "__files"));
  // A command's options, long and short, and not another command's.
  c = candidates({"simulate", "log.swf", "--w"});
  EXPECT_TRUE(has(c, "--warmup-fraction") && has(c, "--scheduler") && has(c, "-s") && !has(c, "--schedulers"));
  c = candidates({"analyze", "locality", "--"});
  EXPECT_TRUE(has(c, "--slice") && has(c, "--bootstrap"));
  // An option's values: schedulers and presets, predictors, choices of an IsMember check.
  c = candidates({"simulate", "log.swf", "-s", "e"});
  EXPECT_TRUE(has(c, "easy") && has(c, "conservative") && has(c, "easy++") && !has(c, "__files"));
  c = candidates({"simulate", "log.swf", "--scheduler", "=", "e"});  // bash splits --scheduler=e so
  EXPECT_TRUE(has(c, "easy"));
  c = candidates({"predict", "log.swf", "-p", ""});
  EXPECT_TRUE(has(c, "sbh") && has(c, "user-last2") && !has(c, "easy"));
  c = candidates({"compare", "log.swf", "--schedulers", "easy,fl"});
  EXPECT_TRUE(has(c, "easy,flex") && has(c, "easy,easy"));
  c = candidates({"analyze", "locality", "log.swf", "--attr", ""});
  EXPECT_TRUE(has(c, "runtime") && has(c, "procs"));
  c = candidates({"simulate", "log.swf", "--correction", ""});
  EXPECT_TRUE(has(c, "tsafrir") && has(c, "times10"));
  c = candidates({"predict", "log.swf", "--next", ""});  // not a file: the job's first key
  EXPECT_EQ(c, std::vector<std::string>{"user="});
  c = candidates({"completion", ""});
  EXPECT_EQ(c, std::vector<std::string>{"bash"});
  // A plug-in's parameters after ':' (bash splits the word at ':' and '='), and their values when a fixed set.
  c = candidates({"simulate", "log.swf", "-s", "conservative", ":", ""});
  EXPECT_EQ(c, (std::vector<std::string>{"compress=", "check="}));
  c = candidates({"simulate", "log.swf", "--scheduler", "=", "conservative", ":", "compress", "=", ""});
  EXPECT_EQ(c, (std::vector<std::string>{"once", "fixpoint"}));
  c = candidates({"simulate", "log.swf", "-s", "conservative", ":", "check", "=", ""});
  EXPECT_EQ(c, (std::vector<std::string>{"0", "1"}));
  c = candidates({"compare", "log.swf", "--schedulers", "easy,maui", ":", ""});
  EXPECT_TRUE(has(c, "priority=") && has(c, "backfill="));
  c = candidates({"predict", "log.swf", "-p", "sbh", ":", ""});
  EXPECT_TRUE(has(c, "criteria="));
  // Parameters after ';', which the user quotes: a quoted word stays whole, its quote kept in the candidates;
  // an unquoted one is split at ':' and '=' only ("2\\;pri").
  c = candidates({"simulate", "log.swf", "-s", "'maui:depth=2;"});
  EXPECT_TRUE(has(c, "'maui:depth=2;priority=") && has(c, "'maui:depth=2;backfill=")) << c.size();
  c = candidates({"simulate", "log.swf", "-s", "\"maui:depth=2;priority="});
  EXPECT_EQ(c, (std::vector<std::string>{"\"maui:depth=2;priority=fcfs", "\"maui:depth=2;priority=xfactor"}));
  c = candidates({"simulate", "log.swf", "-s", "'maui:depth=2;priority='xf"});  // bash closed the quote
  EXPECT_EQ(c, std::vector<std::string>{"'maui:depth=2;priority='xfactor"});
  c = candidates({"compare", "log.swf", "--schedulers", "'easy,[conservative:check=1;c"});
  EXPECT_TRUE(has(c, "'easy,[conservative:check=1;compress="));
  c = candidates({"simulate", "log.swf", "-s", "maui", ":", "depth", "=", "2\\;pri"});
  EXPECT_TRUE(has(c, "2\\;priority=") && has(c, "2\\;arrivals="));
  c = candidates({"simulate", "log.swf", "-s", "maui", ":", "depth", "=", "2\\;backfill", "=", ""});
  EXPECT_EQ(c, (std::vector<std::string>{"firstfit", "bestfit", "shortest"}));
  // After the spec, an option's value is the option's again.
  c = candidates({"simulate", "log.swf", "-s", "maui", ":", "depth", "=", "2", "--jobs-out", "=", ""});
  EXPECT_EQ(c, std::vector<std::string>{"__files"});
  EXPECT_TRUE(candidates({"simulate", "log.swf", "-s", "'nosuch:a=1;b"}).empty());
  // `estimates fit` fits two of the seven models; song's families.
  EXPECT_EQ(candidates({"estimates", "fit", "log.swf", "--model", ""}), (std::vector<std::string>{"tsafrir", "song"}));
  EXPECT_EQ(candidates({"estimates", "fit", "--family", ""}), (std::vector<std::string>{"beta", "gamma"}));
  EXPECT_TRUE(has(candidates({"estimates", "generate", "log.swf", "--model", ""}), "x2"));
  // "@PATH": a spec read from a file, for the shell's file names.
  EXPECT_EQ(candidates({"simulate", "log.swf", "-s", "@"}), std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"predict", "log.swf", "-p", "@x/"}), std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"compare", "log.swf", "--schedulers", "easy,@"}), std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"simulate", "log.swf", "-s", "@", "sp"}), std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"simulate", "log.swf", "--scheduler", "=@", "sp"}), std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"compare", "log.swf", "--schedulers", "easy,", "@", ""}),
            std::vector<std::string>{"__spec_files"});
  EXPECT_EQ(candidates({"simulate", "log.swf", "--jobs-out", "@", ""}), std::vector<std::string>{"__files"});
  EXPECT_TRUE(candidates({"simulate", "log.swf", "-s", "nosuch", ":", ""}).empty());
  EXPECT_FALSE(has(candidates({"simulate", "log.swf", "--procs", "conservative", ":", ""}), "compress="));  // not a scheduler option
  // Logs and output files: file names.
  EXPECT_EQ(candidates({"simulate", ""}), std::vector<std::string>{"__files"});
  EXPECT_EQ(candidates({"simulate", "log.swf", "-s", "easy", "--jobs-out", ""}), std::vector<std::string>{"__files"});
  // After a value, options again; a word taken as an option's value is not a command.
  c = candidates({"simulate", "log.swf", "-s", "easy", "-"});
  EXPECT_TRUE(has(c, "--procs"));
  c = candidates({"analyze", "--help", "loc"});
  EXPECT_TRUE(has(c, "locality"));
  // Unknown commands and options give nothing to complete, never an error.
  EXPECT_TRUE(candidates({"nosuch", "--x", ""}).empty());
  EXPECT_EQ(run_cli({"__complete"}).exit_code, 0);
}

// The script in a real bash: COMP_WORDS/COMP_CWORD as bash's completion sets them, the function's COMPREPLY.
// `line`: COMP_LINE up to the cursor (COMP_POINT), when the test needs it.
std::string bash_complete(const std::string& line_words, int cword, const std::string& line = "") {
  TempDir dir;
  write_file(dir.file("log.swf"), "");
  write_file(dir.file("logs.csv"), "");
  write_file(dir.file("run@2026.swf"), "");
  write_file(dir.file("run@2026@b.swf"), "");
  std::filesystem::create_directories(dir.file("specs"));
  const std::string script = dir.file("t.sh");
  write_file(script, "cd '" + dir.path() + "' || exit 1\nsource <('" + std::string(SCHEDLAB_CLI) +
                         "' completion bash)\nCOMP_WORDS=(" + line_words + ")\nCOMP_CWORD=" +
                         std::to_string(cword) + "\nCOMP_LINE='" + line + "'\nCOMP_POINT=" +
                         std::to_string(line.size()) + "\n_schedlab\nprintf '%s\\n' \"${COMPREPLY[@]}\" | sort\n");
  const std::string cmd = "bash '" + script + "' 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p.get())) out.append(buf.data(), n);
  return out;
}

TEST(CliCompletion, TheBashScriptCompletesInBash) {
  const std::string cli = std::string("'") + SCHEDLAB_CLI + "'";
  EXPECT_EQ(bash_complete(cli + " sim", 1), "simulate\n");
  EXPECT_EQ(bash_complete(cli + " analyze te", 2), "temporal\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf --scheduler easy-", 4),
            "easy-kill\neasy-pcor\neasy-preemptive\neasy-sjbf\n");
  EXPECT_EQ(bash_complete(cli + " simulate lo", 2), "log.swf\nlogs.csv\n");  // file names
  EXPECT_EQ(bash_complete(cli + " simulate log.swf --warm", 3), "--warmup-fraction\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -s conservative : comp", 6), "compress=\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -s conservative : compress = f", 8), "fixpoint\n");
  // A quoted spec keeps its quote; an escaped ';' its backslash (compgen -W would remove either).
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -s \"'maui:depth=2;pri\"", 4), "'maui:depth=2;priority=\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -s maui : depth = '2\\;res'", 8), "2\\;reservation=\n");
  // A spec read from a file: "@" and a file name, a directory with its '/' (a list's last item too). Bash splits
  // the words at '@' ("=@" after an option's '=') and replaces the word from its '@' on (checked in an
  // interactive bash); with '@' taken out of COMP_WORDBREAKS the word is whole.
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -s @ lo", 5), "@log.swf\n@logs.csv\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf -p @ sp", 5), "@specs/\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf --scheduler =@ sp", 5), "@specs/\n");
  EXPECT_EQ(bash_complete(cli + " compare log.swf --schedulers easy, @ logs", 6), "@logs.csv\n");
  EXPECT_EQ(bash_complete(cli + " compare log.swf --schedulers easy,@logs", 4), "easy,@logs.csv\n");
  // A file name with '@': bash splits "run@20" into run, @, 20 (COMP_LINE keeps it whole) and replaces the word
  // from its '@' on (both checked in an interactive bash), so the names come from that '@'.
  EXPECT_EQ(bash_complete(cli + " simulate run @ 20", 4, "schedlab simulate run@20"),
            "@2026.swf\n@2026@b.swf\n");
  EXPECT_EQ(bash_complete(cli + " stats run @ 2026 @", 5, "schedlab stats run@2026@"), "@b.swf\n");
  EXPECT_EQ(bash_complete(cli + " simulate log.swf --jobs-out = run @", 6, "schedlab simulate log.swf --jobs-out=run@"),
            "@2026.swf\n@2026@b.swf\n");
  EXPECT_EQ(bash_complete(cli + " simulate ru", 2, "schedlab simulate ru"), "run@2026.swf\nrun@2026@b.swf\n");
}

}  // namespace
}  // namespace schedlab::testing
