/* Heap allocation counter linked into the benchmark programs.
 *
 * malloc-count.c defines malloc and its siblings in the executable, which
 * puts them ahead of glibc's in every lookup: calls from libc itself, from
 * a preloaded libehsyslog.so and from LTTng-UST all land here, are counted
 * and then served by glibc's own allocator (__libc_malloc and friends). */
#ifndef BENCH_MALLOC_COUNT_H
#define BENCH_MALLOC_COUNT_H

/* Allocations (malloc, calloc, realloc, memalign, posix_memalign,
 * aligned_alloc, valloc) made by any thread since the program started. */
unsigned long malloc_count(void);

#endif
