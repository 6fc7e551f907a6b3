// A private header (src/base): large tables backed by 2 MB pages where the kernel allows it.
//
// Why: a simulation of a large log fills tens of megabytes of fresh tables (the decompressed text, the
// records, the workload, the outcomes) once each, and with 4 KB pages a quarter of EASY's time on CEA-Curie
// went to page faults (26,000 of them). Linux gives transparent huge pages to memory marked with
// madvise(MADV_HUGEPAGE) when its mode is "madvise" (the default of Debian's kernels) or "always": with the
// tables below marked the same run takes 11,000 faults and about 10% less time (docs/performance.md). glibc's own
// switch (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) is read only at start-up, so the tables are marked here instead.
//
// Not every table gains: the kernel clears a whole 2 MB page at its first touch, out of cache, where a 4 KB page
// is cleared just before it is written. The record table of a ten-million-job log (800 MB, filled while parsing)
// took 24% longer on 2 MB pages, so it is left on small pages; and the decompressed text of that log in gzip (650 MB)
// 3-9% longer, so nothing above 256 MB is marked. The decompressed text of a log like CEA-Curie's, the workload and
// the simulation's per-job tables are.
//
// prefer_huge_pages marks the whole 2 MB pages inside [p, p + bytes), best before they are first touched, and
// does nothing for less than 4 MB (a huge page there would mostly hold other data) or more than 256 MB, or where
// madvise is refused (other systems, THP "never"): it only ever changes speed, never a result.
#pragma once

#include <cstddef>
#include <vector>

namespace schedlab::base {

void prefer_huge_pages(const void* p, size_t bytes);

// v.reserve(n), the new buffer marked before it is touched.
template <class T>
void reserve_huge(std::vector<T>& v, size_t n) {
  v.reserve(n);
  prefer_huge_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace schedlab::base
