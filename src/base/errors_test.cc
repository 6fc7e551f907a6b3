// Bad input and bugs are told apart at the top (the CLI's exit 1 and 70).
#include "schedlab/base/errors.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace schedlab::base {
namespace {

TEST(Errors, BadInputIsNotABug) {
  EXPECT_FALSE(is_internal_error(std::invalid_argument("unknown scheduler 'x'")));
  EXPECT_FALSE(is_internal_error(std::out_of_range("x")));
  EXPECT_FALSE(is_internal_error(std::runtime_error("cannot open")));
  struct ReadError : std::runtime_error {  // as the library's error classes derive
    using std::runtime_error::runtime_error;
  };
  EXPECT_FALSE(is_internal_error(ReadError("f.swf:3: field 4 (run_time): not a number: \"x\"")));
}

TEST(Errors, BrokenInvariantsAreBugs) {
  EXPECT_TRUE(is_internal_error(InternalError("parameter read but not declared")));
  EXPECT_TRUE(is_internal_error(std::logic_error("--check: job 5 started before its submission")));
}

}  // namespace
}  // namespace schedlab::base
