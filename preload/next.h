/* SPDX-License-Identifier: MIT */
/*
 * The real functions behind the wrappers that programs call whether or
 * not they log (fd.c, creds.c): each looked up alone at its first call,
 * since resolving them all at once (real.h) looks up libbsd's missing
 * symbols, which allocates.
 */
#ifndef EHS_PRELOAD_NEXT_H
#define EHS_PRELOAD_NEXT_H

#include <dlfcn.h>

/* The next definition of name after ours, looked up once; NULL if none.
 * Racing lookups store the same value. */
static inline void *ehs_next_fn(void **slot, const char *name)
{
	void *p = __atomic_load_n(slot, __ATOMIC_RELAXED);

	if (__builtin_expect(p == NULL, 0)) {
		p = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, p, __ATOMIC_RELAXED);
	}
	return p;
}

/* Declares var of function pointer type, the next definition of name
 * (slot caches it).  dlsym returns an object pointer; copying its bytes
 * is the conversion POSIX guarantees (as in real.c). */
#define NEXT(type, var, slot, name) \
	type var; \
	do { \
		void *p_ = ehs_next_fn(&(slot), (name)); \
		__builtin_memcpy(&var, &p_, sizeof p_); \
	} while (0)

#endif /* EHS_PRELOAD_NEXT_H */
