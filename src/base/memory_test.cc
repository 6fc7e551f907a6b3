// Requests beyond the machine's memory are refused with a message naming them.
#include "schedlab/base/memory.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace schedlab::base {
namespace {

TEST(Memory, PhysicalMemoryIsKnownOnLinux) { EXPECT_GT(physical_memory_bytes(), 64ull << 20); }

TEST(Memory, RequestsThatFitPass) {
  EXPECT_NO_THROW(check_fits_in_memory(0, "nothing"));
  EXPECT_NO_THROW(check_fits_in_memory(1 << 20, "a megabyte"));
  EXPECT_NO_THROW(check_fits_in_memory(static_cast<double>(physical_memory_bytes()), "all of it"));
}

TEST(Memory, RequestsBeyondTheMachineAreRefusedByName) {
  const double too_much = static_cast<double>(physical_memory_bytes()) * 2 + 1;
  try {
    check_fits_in_memory(too_much, "--jobs 9 (72 bytes per job)");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("--jobs 9 (72 bytes per job): about ", 0), 0u) << m;
    EXPECT_NE(m.find(" GB of memory needed, and this machine has "), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace schedlab::base
