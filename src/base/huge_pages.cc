#include "base/huge_pages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace schedlab::base {

void prefer_huge_pages(const void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  constexpr size_t kMost = size_t{256} << 20;  // (larger tables measured slower: huge_pages.h)
  if (p == nullptr || bytes < 2 * kHuge || bytes > kMost) return;
  const auto begin = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = (begin + bytes) & ~(kHuge - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // (refusal: no harm)
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace schedlab::base
