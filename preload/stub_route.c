/* SPDX-License-Identifier: MIT */
/*
 * Where the x86-64 entry stubs (syslog_stubs.S, error_stub.S) jump when
 * a call's byte says pass-through: the C wrappers until the first call
 * with something to do has read the configuration, glibc's functions
 * from then on (see stubs.h).
 */
#include "config.h"

#include "bridge/bridge.h"
#include "preload/real.h"
#include "preload/stubs.h"

#if EHS_STUBS
ehs_stub_fn ehs_stub_next[EHS_STUB_COUNT] = {
	[EHS_STUB_SYSLOG] = (ehs_stub_fn)ehs_full_syslog,
	[EHS_STUB_VSYSLOG] = (ehs_stub_fn)ehs_full_vsyslog,
	[EHS_STUB_SYSLOG_CHK] = (ehs_stub_fn)ehs_full___syslog_chk,
	[EHS_STUB_VSYSLOG_CHK] = (ehs_stub_fn)ehs_full___vsyslog_chk,
	[EHS_STUB_ERROR] = (ehs_stub_fn)ehs_full_error,
};

int ehs_stubs_routed;

/* Every byte in pass-through is marked in the table here; in replace
 * mode the bytes of priorities whose events cannot be written say
 * pass-through too (pri_table.h).  Cold: once per process. */
__attribute__((noinline, cold)) void ehs_stub_route(void)
{
	if (__atomic_load_n(&ehs_stubs_routed, __ATOMIC_ACQUIRE))
		return;
	ehs_real_init();
	for (int slot = 0; slot < EHS_STUB_COUNT; slot++) {
		ehs_stub_fn to = __atomic_load_n(&ehs_stub_glibc[slot], __ATOMIC_RELAXED);
		if (to)	/* else the C wrapper, which passes nothing on either */
			__atomic_store_n(&ehs_stub_next[slot], to, __ATOMIC_RELEASE);
	}
	if (ehs_passthrough())
		ehs_pri_table_pass_through();
	__atomic_store_n(&ehs_stubs_routed, 1, __ATOMIC_RELEASE);
}
#endif
