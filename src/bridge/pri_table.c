/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/pri_table.h"

#include <stddef.h>
#include <syslog.h>

#include "bridge/ident.h"
#include "bridge/schema.h"

_Static_assert(offsetof(struct ehs_pri_table, off) == EHS_PRI_OFF_AT, "pri_table.h");
_Static_assert(EHS_PRI_MAX == (LOG_PRIMASK | LOG_FACMASK), "pri_table.h");

/* Initialised data: the offsets start at 0, at this word. */
struct ehs_pri_table ehs_pri_table = { .full = 1 };

/* Set once filled, so that openlog refills only a table in use. */
static int filled;

static void point(int pri)
{
	unsigned facility = (unsigned)pri >> 3;
	if (!facility)
		facility = (unsigned)ehs_ident_facility() >> 3;
	const struct ue_tracepoint *tp = ehs_tracepoint(pri & LOG_PRIMASK, facility);
	int32_t off = (int32_t)((const char *)&tp->state - (const char *)&ehs_pri_table);
	__atomic_store_n(&ehs_pri_table.off[pri], off, __ATOMIC_RELAXED);
}

void ehs_pri_table_fill(void)
{
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		point(pri);
	__atomic_store_n(&filled, 1, __ATOMIC_RELAXED);
}

void ehs_pri_table_clear(void)
{
	__atomic_store_n(&filled, 0, __ATOMIC_RELAXED);
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		__atomic_store_n(&ehs_pri_table.off[pri], 0, __ATOMIC_RELAXED);
}

void ehs_pri_table_facility_changed(void)
{
	if (!__atomic_load_n(&filled, __ATOMIC_RELAXED))
		return;
	for (int pri = 0; pri <= LOG_PRIMASK; pri++)
		point(pri);
}
