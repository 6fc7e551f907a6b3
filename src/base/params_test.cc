// Specs (with nesting and files) and typed parameters: every malformed input is an error naming it.
#include "schedlab/base/params.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace schedlab::base {
namespace {

TEST(Spec, NameAndParameters) {
  const Spec s = parse_spec(" sbh : criteria=PE,P,E,* ; order = dfs;propagate=1 ", "predictor");
  EXPECT_EQ(s.name, "sbh");
  EXPECT_EQ(s.params.at("criteria"), "PE,P,E,*");
  EXPECT_EQ(s.params.at("order"), "dfs");
  EXPECT_EQ(format_spec(s), "sbh:criteria=PE,P,E,*;order=dfs;propagate=1");
  EXPECT_TRUE(parse_spec("easy", "scheduler").params.empty());
}

TEST(Spec, BracketsNestSpecs) {
  const Spec s = parse_spec("adaptive:candidates=[easy,[conservative:check=1;compress=fixpoint]];window=[a:b=[c:d=1]]",
                            "scheduler");
  EXPECT_EQ(s.params.at("candidates"), "easy,[conservative:check=1;compress=fixpoint]");
  const auto list = parse_spec_list(s.params.at("candidates"), "scheduler");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0], "easy");
  EXPECT_EQ(parse_spec(list[1], "scheduler").params.at("compress"), "fixpoint");
  EXPECT_THROW(parse_spec_list("easy,,fcfs", "scheduler"), std::invalid_argument);
  EXPECT_EQ(s.params.at("window"), "a:b=[c:d=1]");
  const Spec inner = parse_spec(s.params.at("window"), "scheduler");
  EXPECT_EQ(inner.name, "a");
  EXPECT_EQ(parse_spec(inner.params.at("b"), "scheduler").params.at("d"), "1");
  // Round trip through the canonical text.
  EXPECT_EQ(parse_spec(format_spec(s), "scheduler").params, s.params);
}

TEST(Spec, MalformedSpecsAreErrors) {
  for (const char* bad : {":a=1", "ruh:propagate", "ruh:a=1;a=2", "x:a=[1", "x:a=1]", "x:=1", "x:a=", "x:a=b:c",
                          "x[1]:a=1"}) {
    EXPECT_THROW(parse_spec(bad, "predictor"), std::invalid_argument) << bad;
  }
  try {
    parse_spec("ruh:a=1;a=2", "predictor");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'a' given twice"), std::string::npos) << e.what();
  }
  // A spec with parameters as a value, unbracketed: the message shows the brackets.
  try {
    parse_spec("wbas:high=maui:priority=xfactor;low=easy", "scheduler");
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "scheduler spec 'wbas:high=maui:priority=xfactor;low=easy': malformed parameter "
              "'high=maui:priority=xfactor' (a spec with parameters as a value goes in brackets: "
              "high=[maui:priority=xfactor])");
  }
  try {
    parse_spec("x:a=b=c", "scheduler");  // no spec in the value: no hint
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "scheduler spec 'x:a=b=c': malformed parameter 'a=b=c'");
  }
}

TEST(Spec, FromAFileWithCommentsAndLineBreaks) {
  const std::string path = ::testing::TempDir() + "/schedlab-spec-test.spec";
  {
    std::ofstream f(path);
    f << "# candidates of an adaptive scheduler\nadaptive:\n  candidates=[easy,\n    [conservative:check=1]];\n"
         "  # the window\n  window=3600\n";
  }
  const Spec s = parse_spec("@" + path, "scheduler");
  EXPECT_EQ(s.name, "adaptive");
  EXPECT_EQ(s.params.at("window"), "3600");
  const auto candidates = parse_spec_list(s.params.at("candidates"), "scheduler");
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(parse_spec(candidates[1], "scheduler").params.at("check"), "1");
  EXPECT_THROW(parse_spec("@/no/such/file.spec", "scheduler"), std::invalid_argument);
  // A file that names a file (here itself) is an error, not an endless recursion.
  {
    std::ofstream f(path);
    f << "@" << path << "\n";
  }
  EXPECT_THROW(parse_spec("@" + path, "scheduler"), std::invalid_argument);
  std::remove(path.c_str());
}

std::string spec_error(const std::string& text) {
  try {
    parse_spec(text, "scheduler");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

// What is not a spec file is said to be one of those, and a message shows at most 200 bytes of a spec: a log given
// by mistake as the spec file (-s @kth.swf) was printed whole, 2.6 MB, as "scheduler spec '; Version: 2.2 ...'".
TEST(Spec, WhatIsNotASpecFileIsRefusedAndMessagesStayShort) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(spec_error("@" + dir), "scheduler spec file '" + dir + "': a directory, not a spec file");
  const std::string big = dir + "/schedlab-spec-big.swf", gz = dir + "/schedlab-spec.swf.gz";
  {
    std::ofstream f(big);
    for (int k = 0; k < 40000; ++k) f << "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";  // 1.7 MB
    std::ofstream g(gz, std::ios::binary);
    g << std::string("\x1f\x8b\x08\x00", 4) << "abc";
  }
  EXPECT_EQ(spec_error("@" + big),
            "scheduler spec file '" + big + "': over 1 MiB, not a spec file (a spec is a few lines)");
  EXPECT_EQ(spec_error("@" + gz), "scheduler spec file '" + gz + "': a binary file, not a spec file");
  {
    std::ofstream g(gz, std::ios::binary | std::ios::trunc);
    g << "\xEF\xBB\xBF# a Windows editor's file\r\nconservative:check=1\r\n";  // a byte order mark, CRLF
  }
  EXPECT_EQ(parse_spec("@" + gz, "scheduler").name, "conservative");
  EXPECT_EQ(parse_spec("@" + gz, "scheduler").params.at("check"), "1");
  {
    std::ofstream f(big, std::ios::trunc);
    f << "; Version: 2.2\n";
    for (int k = 0; k < 20000; ++k) f << "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";  // 0.9 MB: read
  }
  const std::string e = spec_error("@" + big);
  EXPECT_LT(e.size(), 500u) << e.size();
  EXPECT_EQ(e.rfind("scheduler spec '; Version: 2.2 1 0 0 10 1 -1 -1 1 10", 0), 0u) << e;
  EXPECT_NE(e.find("... (860015 bytes)': malformed name '; Version'"), std::string::npos) << e;  // 43 B a line
  EXPECT_EQ(excerpt(std::string(200, 'a')), std::string(200, 'a'));
  EXPECT_EQ(excerpt(std::string(201, 'a')), std::string(200, 'a') + "... (201 bytes)");
  std::remove(big.c_str());
  std::remove(gz.c_str());
}

const std::vector<ParamDecl>& decls() {
  static const std::vector<ParamDecl> d = {
      {.name = "delay",
       .type = ParamType::kInt,
       .default_value = "0",
       .help = "seconds",
       .min = 0,
       .metavar = "SECONDS"},
      {.name = "confidence",
       .type = ParamType::kDouble,
       .default_value = "0.95",
       .help = "level",
       .min = 0.5,
       .max = 0.999},
      {.name = "check", .type = ParamType::kBool, .default_value = "0", .help = "self-check"},
      {.name = "compress",
       .type = ParamType::kChoice,
       .default_value = "once",
       .help = "how",
       .choices = {"once", "fixpoint"}},
      {.name = "db", .type = ParamType::kString, .help = "a file"},
      {.name = "inner", .type = ParamType::kSpec, .default_value = "easy", .help = "a scheduler"},
      {.name = "window", .type = ParamType::kDuration, .default_value = "1h", .help = "how far", .min = 1},
  };
  return d;
}

TEST(Params, DefaultsAndGivenValuesTyped) {
  const Params p("scheduler x", decls(), {{"delay", "30"}, {"check", "on"}, {"inner", "conservative:check=1"}});
  EXPECT_EQ(p.get_int("delay"), 30);
  EXPECT_TRUE(p.get_bool("check"));  // "on" is true, not silently false
  EXPECT_DOUBLE_EQ(p.get_double("confidence"), 0.95);
  EXPECT_EQ(p.get_string("compress"), "once");
  EXPECT_EQ(p.get_string("inner"), "conservative:check=1");
  EXPECT_TRUE(p.given("delay"));
  EXPECT_FALSE(p.given("compress"));
  EXPECT_FALSE(p.has("db"));
  EXPECT_EQ(p.get_duration("window"), 3600);
  EXPECT_EQ(Params("x", decls(), {{"window", "1.5h"}}).get_duration("window"), 5400);
  EXPECT_THROW(Params("x", decls(), {{"window", "0"}}), std::invalid_argument);
  EXPECT_THROW(Params("x", decls(), {{"window", "soon"}}), std::invalid_argument);
}

TEST(Params, AtDefaultComparesByType) {
  const Params same("x", decls(),
                    {{"delay", "00"}, {"confidence", "0.950"}, {"check", "no"}, {"compress", "once"}, {"window", "60m"}});
  for (const char* k : {"delay", "confidence", "check", "compress", "window", "inner"}) EXPECT_TRUE(same.at_default(k)) << k;
  EXPECT_TRUE(same.at_default("db"));  // no default, not given
  const Params other("x", decls(),
                     {{"delay", "1"}, {"confidence", "0.9"}, {"check", "yes"}, {"compress", "fixpoint"},
                      {"window", "2h"}, {"inner", "fcfs"}, {"db", "a"}});
  for (const char* k : {"delay", "confidence", "check", "compress", "window", "inner", "db"})
    EXPECT_FALSE(other.at_default(k)) << k;
  EXPECT_FALSE(other.at_default("nosuch"));
}

TEST(Params, BadValuesAndUnknownKeysNameTheParameter) {
  const auto message = [](const std::map<std::string, std::string>& given) {
    try {
      Params("scheduler x", decls(), given);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({{"delay", "-1"}}), "scheduler x: parameter delay must be a whole number >= 0, got '-1'");
  EXPECT_EQ(message({{"delay", "1.5"}}), "scheduler x: parameter delay must be a whole number >= 0, got '1.5'");
  EXPECT_EQ(message({{"confidence", "1"}}),
            "scheduler x: parameter confidence must be a number from 0.5 to 0.999, got '1'");
  EXPECT_EQ(message({{"check", "maybe"}}),
            "scheduler x: parameter check must be 0 or 1 (also false/true, no/yes, off/on), got 'maybe'");
  EXPECT_EQ(message({{"compress", "twice"}}),
            "scheduler x: parameter compress must be one of once, fixpoint, got 'twice'");
  EXPECT_EQ(message({{"colour", "red"}}),
            "scheduler x has no parameter 'colour' (its parameters: delay, confidence, check, compress, db, inner, "
            "window)");
  EXPECT_EQ(Params("p", {}, {}).has("x"), false);
  EXPECT_THROW(Params("p", {}, {{"x", "1"}}), std::invalid_argument);
}

TEST(Params, ReadingAsTheWrongTypeIsABug) {
  const Params p("x", decls(), {});
  EXPECT_THROW(p.get_int("check"), std::logic_error);
  EXPECT_THROW(p.get_int("undeclared"), std::logic_error);
}

TEST(Params, DescriptionsDeriveFromTheDeclarations) {
  EXPECT_EQ(describe_params(decls()),
            "delay=SECONDS (0), confidence=X (0.95), check=0|1 (0), compress=once|fixpoint (once), db=TEXT, "
            "inner=[SPEC] (easy), window=DURATION (1h)");
  const std::string md = params_markdown(decls());
  EXPECT_NE(md.find("| `delay` | int | `0` | a whole number >= 0 | seconds |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `db` | text | — | any text | a file |"), std::string::npos) << md;
}

// A file parameter is read from `files_dir` when relative (a sweep spec's directory), as given otherwise.
TEST(Params, AFileIsReadFromTheFilesDirectory) {
  const std::vector<ParamDecl> d = {{.name = "db", .type = ParamType::kFile, .help = "a database"}};
  EXPECT_EQ(Params("p", d, {{"db", "prof.sqlite"}}, "/exp").get_file("db"), "/exp/prof.sqlite");
  EXPECT_EQ(Params("p", d, {{"db", "../data/./prof.sqlite"}}, "exp").get_file("db"), "data/prof.sqlite");
  EXPECT_EQ(Params("p", d, {{"db", "/abs/prof.sqlite"}}, "/exp").get_file("db"), "/abs/prof.sqlite");
  EXPECT_EQ(Params("p", d, {{"db", "prof.sqlite"}}).get_file("db"), "prof.sqlite");  // the working directory
  EXPECT_THROW(Params("p", d, {{"db", ""}}), std::invalid_argument);
  EXPECT_THROW(Params("p", d, {{"db", "x"}}).get_string("db"), std::logic_error);  // a file is opened, not read
  EXPECT_EQ(describe_params(d), "db=FILE");
  EXPECT_NE(params_markdown(d).find("| `db` | file | — | a file's path (a relative one from the working directory; "
                                    "written in a sweep spec or a spec file, from that file's directory) | a database |"),
            std::string::npos);
}

// A relative "@PATH" is read from the directory of the file that names it; the paths inside a spec file from
// that file's own directory.
TEST(Spec, PathsAreRelativeToTheFileNamingThem) {
  EXPECT_EQ(spec_in_dir("@c.spec", "exp"), "@exp/c.spec");
  EXPECT_EQ(spec_in_dir(" @ ../specs/./c.spec", "exp/sub"), "@exp/specs/c.spec");
  EXPECT_EQ(spec_in_dir("@/abs/c.spec", "exp"), "@/abs/c.spec");
  EXPECT_EQ(spec_in_dir("@c.spec", ""), "@c.spec");  // the working directory
  EXPECT_EQ(spec_in_dir("easy", "exp"), "easy");
  EXPECT_EQ(spec_in_dir("pbas:candidates=[@c.spec,easy]", "exp"), "pbas:candidates=[@c.spec,easy]");  // its maker's
  EXPECT_EQ(spec_files_dir("@exp/specs/c.spec", "exp"), "exp/specs");
  EXPECT_EQ(spec_files_dir("@c.spec", "exp"), "");  // spec_in_dir already joined "exp": c.spec is in the working dir
  EXPECT_EQ(spec_files_dir("@/abs/c.spec", ""), "/abs");
  EXPECT_EQ(spec_files_dir("conservative:check=1", "exp"), "exp");
}

}  // namespace
}  // namespace schedlab::base
