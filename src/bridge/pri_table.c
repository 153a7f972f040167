/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/pri_table.h"

#include <stdbool.h>
#include <syslog.h>

#include <ehsyslog/user_events.h>

#include "bridge/config_load.h"
#include "common/map_once.h"
#include "bridge/ident.h"
#include "bridge/schema.h"

_Static_assert(EHS_PRI_MAX == (LOG_PRIMASK | LOG_FACMASK), "pri_table.h");

/* Initialised data, 1 KiB: every priority starts on the full path. */
union ehs_pri_table ehs_pri_table = { .full = { [0 ... EHS_PRI_MAX] = EHS_PRI_TRACED } };

/* Each byte's registration, 24 KiB mapped at the first registration:
 * as bss they would cost every program a mapping at start-up, logging
 * or not, and in initialised data 1024 relocations. */
struct ue_enabler *ehs_pri_enablers;

static struct ue_enabler *enablers_get(void)
{
	return ehs_map_once((void **)&ehs_pri_enablers,
			    (EHS_PRI_MAX + 1) * sizeof *ehs_pri_enablers);
}

/* The top bit of byte pri%4 of its word, whatever the byte order. */
static unsigned bit_of(int pri)
{
	unsigned byte = (unsigned)pri % 4;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	byte = 3 - byte;
#endif
	return 8 * byte + 7;
}

void ehs_pri_table_pass_through(void)
{
	for (unsigned i = 0; i < sizeof ehs_pri_table.word / sizeof ehs_pri_table.word[0]; i++)
		__atomic_or_fetch(&ehs_pri_table.word[i], 0x01010101u * EHS_PRI_PASS,
				  __ATOMIC_RELEASE);
}

void ehs_pri_table_arm_slow(int pri)
{
	if ((unsigned)pri > EHS_PRI_MAX)
		return;
	if (ehs_config_load() != EHS_CONFIG_ON) {
		__atomic_and_fetch(&ehs_pri_table.word[pri / 4], ~(1u << bit_of(pri)),
				   __ATOMIC_RELEASE);
		return;
	}
	struct ue_enabler *all = enablers_get();
	if (!all)
		return;	/* no memory: the top bit stays set, each call asks in C */
	struct ue_enabler *e = &all[pri];
	/* Stored by every thread that gets here first, with the same values. */
	if (!__atomic_load_n(&e->word, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&e->bit, (uint8_t)bit_of(pri), __ATOMIC_RELAXED);
		__atomic_store_n(&e->word, &ehs_pri_table.word[pri / 4], __ATOMIC_RELEASE);
	}
	for (;;) {
		int openlog_facility = ehs_ident_facility();
		unsigned facility = (unsigned)pri >> 3;
		if (!facility)
			facility = (unsigned)openlog_facility >> 3;
		ue_enabler_add(ehs_tracepoint(pri & LOG_PRIMASK, facility), e);
		/* An openlog meanwhile may have let the registration go
		 * before it was made: then it is for the old facility. */
		if (pri > LOG_PRIMASK || ehs_ident_facility() == openlog_facility)
			return;
		ue_enabler_remove(e);
	}
}

void ehs_pri_table_facility_changed(void)
{
	struct ue_enabler *all = __atomic_load_n(&ehs_pri_enablers, __ATOMIC_ACQUIRE);
	for (int pri = 0; all && pri <= LOG_PRIMASK; pri++)
		ue_enabler_remove(&all[pri]);
}
