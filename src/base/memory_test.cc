// Requests beyond the memory the process may use are refused with a message naming them.
#include "schedlab/base/memory.h"

#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "test_util.h"

namespace schedlab::base {
namespace {

TEST(Memory, PhysicalMemoryIsKnownOnLinux) {
  EXPECT_GT(physical_memory_bytes(), 64ull << 20);
  EXPECT_GT(usable_memory_bytes(), 0u);
  EXPECT_LE(usable_memory_bytes(), physical_memory_bytes());
}

TEST(Memory, RequestsThatFitPass) {
  EXPECT_NO_THROW(check_fits_in_memory(0, "nothing"));
  EXPECT_NO_THROW(check_fits_in_memory(1 << 20, "a megabyte"));
  EXPECT_NO_THROW(check_fits_in_memory(static_cast<double>(usable_memory_bytes()), "all of it"));
}

TEST(Memory, RequestsBeyondTheProcessAreRefusedByName) {
  const double too_much = static_cast<double>(physical_memory_bytes()) * 2 + 1;
  try {
    check_fits_in_memory(too_much, "--jobs 9 (72 bytes per job)");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("--jobs 9 (72 bytes per job): about ", 0), 0u) << m;
    EXPECT_NE(m.find(" GB of memory needed, and this process may use "), std::string::npos) << m;
  }
}

// A Slurm job's or a container's limit is lower than the machine: the control group's files say so.
TEST(Memory, ControlGroupLimits) {
  testing::TempDir dir;
  const std::string root = dir.path();
  std::filesystem::create_directories(root + "/slurm/job_7");
  std::filesystem::create_directories(root + "/memory/slurm/job_8");
  testing::write_file(root + "/slurm/job_7/memory.max", "4294967296\n");
  testing::write_file(root + "/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit("0::/slurm/job_7\n", root), 4294967296u);       // v2
  testing::write_file(root + "/slurm/job_7/memory.max", "max\n");
  EXPECT_EQ(cgroup_memory_limit("0::/slurm/job_7\n", root), std::nullopt);      // v2, no limit
  testing::write_file(root + "/memory/slurm/job_8/memory.limit_in_bytes", "2147483648\n");
  testing::write_file(root + "/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(cgroup_memory_limit("4:memory:/slurm/job_8\n1:cpu:/\n", root), 2147483648u);  // v1
  EXPECT_EQ(cgroup_memory_limit("4:cpu,memory:/\n", root), std::nullopt);       // v1's "no limit"
  EXPECT_EQ(cgroup_memory_limit("", root), std::nullopt);
  EXPECT_EQ(cgroup_memory_limit("0::/gone\n", root + "/nowhere"), std::nullopt);
}

}  // namespace
}  // namespace schedlab::base
