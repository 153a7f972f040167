/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/pri_table.h"

#include <stddef.h>
#include <syslog.h>

#include "bridge/ident.h"
#include "bridge/schema.h"

_Static_assert(offsetof(struct ehs_pri_table, limit) == EHS_PRI_LIMIT_AT, "pri_table.h");
_Static_assert(offsetof(struct ehs_pri_table, off) == EHS_PRI_OFF_AT, "pri_table.h");
_Static_assert(offsetof(struct ehs_pri_table, pass_off) == EHS_PRI_PASS_OFF_AT, "pri_table.h");
_Static_assert(EHS_PRI_MAX == (LOG_PRIMASK | LOG_FACMASK), "pri_table.h");

/* Initialised data: the offsets start at 0, at this word. */
struct ehs_pri_table ehs_pri_table = { .full = 1, .limit = EHS_PRI_MAX + 1 };

/* The table in use once filled (off or pass_off), so that openlog
 * refills only that one. */
static int32_t *filled;

static void point(int32_t *offs, int pri)
{
	unsigned facility = (unsigned)pri >> 3;
	if (!facility)
		facility = (unsigned)ehs_ident_facility() >> 3;
	const struct ue_tracepoint *tp = ehs_tracepoint(pri & LOG_PRIMASK, facility);
	int32_t off = (int32_t)((const char *)&tp->state - (const char *)&ehs_pri_table);
	__atomic_store_n(&offs[pri], off, __ATOMIC_RELAXED);
}

void ehs_pri_table_fill(bool passthrough)
{
	int32_t *offs = passthrough ? ehs_pri_table.pass_off : ehs_pri_table.off;
	/* pass_off's entries still at 0 send the calls that see the new
	 * limit to the full path until they are filled. */
	if (passthrough)
		__atomic_store_n(&ehs_pri_table.limit, 0, __ATOMIC_RELAXED);
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		point(offs, pri);
	__atomic_store_n(&filled, offs, __ATOMIC_RELAXED);
}

void ehs_pri_table_facility_changed(void)
{
	int32_t *offs = __atomic_load_n(&filled, __ATOMIC_RELAXED);
	if (!offs)
		return;
	for (int pri = 0; pri <= LOG_PRIMASK; pri++)
		point(offs, pri);
}
