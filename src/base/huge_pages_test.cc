#include "base/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace schedlab::base {
namespace {

// Marking memory changes how the kernel backs it, never what it holds: contents written after (and before) the
// marking read back the same, whatever the alignment, and small, empty or null ranges are left alone.
TEST(HugePages, MarkedMemoryHoldsWhatIsWritten) {
  constexpr size_t kBytes = size_t{9} << 20;
  std::unique_ptr<char[]> buffer(new char[kBytes + 123]);
  char* p = buffer.get() + 123;  // deliberately not aligned
  for (size_t i = 0; i < kBytes; i += 4096) p[i] = static_cast<char>(i / 4096);
  prefer_huge_pages(p, kBytes);
  for (size_t i = 0; i < kBytes; i += 4096) ASSERT_EQ(p[i], static_cast<char>(i / 4096)) << i;
  for (size_t i = 1; i < kBytes; i += 4096) p[i] = 'x';
  for (size_t i = 1; i < kBytes; i += 4096) ASSERT_EQ(p[i], 'x') << i;
  prefer_huge_pages(nullptr, kBytes);
  prefer_huge_pages(p, 0);
  prefer_huge_pages(p, 100);
}

TEST(HugePages, ReserveHugeReservesAndKeepsElements) {
  std::vector<int64_t> v{1, 2, 3};
  reserve_huge(v, size_t{1} << 20);
  EXPECT_GE(v.capacity(), size_t{1} << 20);
  EXPECT_EQ(v, (std::vector<int64_t>{1, 2, 3}));
  for (int64_t i = 0; i < (int64_t{1} << 20) - 3; ++i) v.push_back(i);
  EXPECT_EQ(v.size(), size_t{1} << 20);
  EXPECT_EQ(v.back(), (int64_t{1} << 20) - 4);
  std::vector<int64_t> empty;
  reserve_huge(empty, 0);
  EXPECT_TRUE(empty.empty());
}

}  // namespace
}  // namespace schedlab::base
