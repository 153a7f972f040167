/* SPDX-License-Identifier: MIT */
/*
 * Memory a program needs only once it traces, mapped at first use
 * rather than kept in .bss: the library's .bss must end within the page
 * that holds the end of its data, or loading it costs every program one
 * more mmap at start-up (tests/preload/startup_syscalls.sh).
 */
#ifndef EHS_COMMON_MAP_ONCE_H
#define EHS_COMMON_MAP_ONCE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>

/* *slot, mapped zeroed (size bytes) by the first caller; NULL when the
 * mapping fails.  Lock-free and async-signal-safe: a caller that loses
 * the race unmaps its own.  errno kept. */
static inline void *ehs_map_once(void **slot, size_t size)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *none = NULL;
	int saved = errno;

	if (p)
		return p;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		errno = saved;
		return NULL;
	}
	if (!__atomic_compare_exchange_n(slot, &none, p, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(p, size);	/* another thread's won */
		p = none;
	}
	errno = saved;
	return p;
}

#endif
