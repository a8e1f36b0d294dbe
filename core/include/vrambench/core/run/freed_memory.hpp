// What a worker frees goes back to the system.
//
// A worker's peak resident memory is held to the run's RAM budget (plan.hpp), and a
// CPU driver allocates a device's memory with malloc (lavapipe does). glibc raises its
// mmap threshold each time a freed block was mapped, up to 32 MiB: after
// capacity.alloc-latency frees a 16 MiB block, every later block under 16 MiB comes from
// the heap and stays resident once freed, so the next probe's memory lands beside it
// (capacity.fragmentation's chunks took lavapipe's worker 180 MiB past its budget).
#pragma once

namespace vrb {

// Fixes the mmap threshold at glibc's first value (128 KiB), which also ends its raising:
// every block of that size or more is mapped on its own and unmapped when freed.
// Does nothing where another allocator (a sanitizer's) stands in for glibc's.
void return_freed_memory_to_the_system();

} // namespace vrb
