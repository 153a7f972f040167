/* SPDX-License-Identifier: MIT */
#include "config.h"

/* glibc's fortify wrappers would clash with the definitions here. */
#undef _FORTIFY_SOURCE

#include "preload/real.h"
#include "preload/stubs.h"

#include <dlfcn.h>

struct ehs_real ehs_real_fns;
int ehs_real_done;

/* dlsym returns an object pointer; copying its bytes into the function
 * pointer is the conversion POSIX guarantees for dlsym results.  Every
 * thread that gets here stores the same values, so racing resolvers are
 * harmless; each store is atomic so readers never see half a pointer. */
#define STORE_FN(dst, p) do { \
	__typeof__(dst) f_; \
	__builtin_memcpy(&f_, &(p), sizeof f_); \
	__atomic_store_n(&(dst), f_, __ATOMIC_RELAXED); \
} while (0)

#define RESOLVE(field, name) do { \
	void *p_ = dlsym(RTLD_NEXT, name); \
	STORE_FN(ehs_real_fns.field, p_); \
} while (0)

#if EHS_STUBS
ehs_stub_fn ehs_stub_glibc[EHS_STUB_COUNT];

static void resolve_stub(int slot, const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	STORE_FN(ehs_stub_glibc[slot], p);
}
#endif

void ehs_real_resolve(void)
{
#if EHS_STUBS
	resolve_stub(EHS_STUB_SYSLOG, "syslog");
	resolve_stub(EHS_STUB_VSYSLOG, "vsyslog");
	resolve_stub(EHS_STUB_SYSLOG_CHK, "__syslog_chk");
	resolve_stub(EHS_STUB_VSYSLOG_CHK, "__vsyslog_chk");
	resolve_stub(EHS_STUB_ERROR, "error");
#endif
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
	RESOLVE(glib.logv, "g_logv");
	RESOLVE(glib.log_structured_array, "g_log_structured_array");
	RESOLVE(glib.strdup_vprintf, "g_strdup_vprintf");
	RESOLVE(glib.vsnprintf, "g_vsnprintf");
	RESOLVE(glib.malloc_n, "g_malloc_n");
	RESOLVE(glib.free, "g_free");
	RESOLVE(sd_printv, "sd_journal_printv");
	RESOLVE(sd_printv_loc, "sd_journal_printv_with_location");
	RESOLVE(sd_sendv, "sd_journal_sendv");
	RESOLVE(sd_sendv_loc, "sd_journal_sendv_with_location");
	RESOLVE(sd_perror, "sd_journal_perror");
	RESOLVE(sd_perror_loc, "sd_journal_perror_with_location");
	__atomic_store_n(&ehs_real_done, 1, __ATOMIC_RELEASE);
}

