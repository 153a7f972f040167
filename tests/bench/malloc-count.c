/* Counting malloc: see malloc-count.h.  glibc exports its allocator under
 * __libc_* names precisely so that a replacement can forward to it. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

#include "malloc-count.h"

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);

/* The prototypes of the replaced functions come from here, not from
 * <stdlib.h>/<malloc.h>, whose attributes differ between glibc versions. */
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *memalign(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void *aligned_alloc(size_t, size_t);
void *valloc(size_t);

static atomic_ulong allocations;

static void counted(void)
{
	atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

unsigned long malloc_count(void)
{
	return atomic_load_explicit(&allocations, memory_order_relaxed);
}

void *malloc(size_t n)
{
	counted();
	return __libc_malloc(n);
}

void *calloc(size_t m, size_t n)
{
	counted();
	return __libc_calloc(m, n);
}

/* realloc(p, 0) frees and realloc(NULL, n) allocates: count only calls
 * that may hand out memory. */
void *realloc(void *p, size_t n)
{
	if (n != 0)
		counted();
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

void *memalign(size_t align, size_t n)
{
	counted();
	return __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	counted();
	return __libc_memalign(align, n);
}

void *valloc(size_t n)
{
	counted();
	return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	counted();
	p = __libc_memalign(align, n);
	if (p == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}
