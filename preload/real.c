/* SPDX-License-Identifier: MIT */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include "preload/real.h"

#include <dlfcn.h>

static struct ehs_real real;
static int resolved;

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* dlsym returns an object pointer; copying its bytes into the function
 * pointer is the conversion POSIX guarantees for dlsym results. */
#define RESOLVE(field, name) do { \
	void *p_ = next(name); \
	__builtin_memcpy(&real.field, &p_, sizeof p_); \
} while (0)

static void resolve(void)
{
	RESOLVE(vsyslog, "vsyslog");
	RESOLVE(vsyslog_chk, "__vsyslog_chk");
	RESOLVE(openlog, "openlog");
	RESOLVE(closelog, "closelog");
	RESOLVE(setlogmask, "setlogmask");
	RESOLVE(verr, "verr");
	RESOLVE(verrx, "verrx");
	RESOLVE(vwarn, "vwarn");
	RESOLVE(vwarnx, "vwarnx");
	RESOLVE(error, "error");
	RESOLVE(error_at_line, "error_at_line");
	RESOLVE(verrc, "verrc");
	RESOLVE(vwarnc, "vwarnc");
	__atomic_store_n(&resolved, 1, __ATOMIC_RELEASE);
}

/* Runs at load: looks symbols up in memory, makes no syscall. */
__attribute__((constructor)) static void ehs_real_init(void)
{
	if (!__atomic_load_n(&resolved, __ATOMIC_ACQUIRE))
		resolve();
}

const struct ehs_real *ehs_real(void)
{
	if (__builtin_expect(!__atomic_load_n(&resolved, __ATOMIC_ACQUIRE), 0))
		resolve();
	return &real;
}
