/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/format/format_plan.h"

#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <string.h>
#include <sys/auxv.h>

#include "common/map_once.h"

/* A size of UINTPTR_MAX: the span not read yet (no real one is that big). */
uintptr_t ehs_fmt_ro_start, ehs_fmt_ro_size = UINTPTR_MAX;
struct ehs_fmt_plan *ehs_fmt_plans;

/*
 * The executable's longest run of consecutive read-only PT_LOAD
 * segments (with the usual layout, its headers, text and read-only data:
 * everything before the writable segment).  Its program headers come from
 * the auxiliary vector, which needs no lock and no call into the dynamic
 * linker; their load address from PT_PHDR.  Without PT_PHDR, no span.
 * Threads that race here compute the same span.  The size is stored
 * last: a thread that sees it sees the start.
 */
static void read_span(void)
{
	int saved = errno;	/* getauxval sets it for a type it lacks */
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t n = ph ? getauxval(AT_PHNUM) : 0;
	uintptr_t bias = 0, lo = 0, best_lo = 0, best_size = 0;
	bool have_bias = false, in_run = false;

	for (size_t k = 0; k < n; k++)
		if (ph[k].p_type == PT_PHDR) {
			bias = (uintptr_t)ph - (uintptr_t)ph[k].p_vaddr;
			have_bias = true;
		}
	for (size_t k = 0; have_bias && k < n; k++) {
		if (ph[k].p_type != PT_LOAD)
			continue;
		if (ph[k].p_flags & PF_W) {
			in_run = false;
			continue;
		}
		uintptr_t start = bias + (uintptr_t)ph[k].p_vaddr;
		if (!in_run) {
			lo = start;
			in_run = true;
		}
		uintptr_t end = start + (uintptr_t)ph[k].p_memsz;
		if (end - lo > best_size) {
			best_lo = lo;
			best_size = end - lo;
		}
	}
	__atomic_store_n(&ehs_fmt_ro_start, best_lo, __ATOMIC_RELAXED);
	__atomic_store_n(&ehs_fmt_ro_size, best_size, __ATOMIC_RELEASE);
	errno = saved;
}

/* Splits fmt into pieces; false when it has anything but literal text
 * and the bare conversions, or too many pieces. */
static bool parse(struct ehs_fmt_plan *e, const char *fmt)
{
	const char *run = fmt;
	for (unsigned k = 0; k < EHS_FMT_PIECES; k++) {
		const char *pct = strchrnul(run, '%');
		size_t literal = (size_t)(pct - run);
		if (literal > UINT16_MAX)
			return false;
		char conv = *pct ? pct[1] : '\0';
		if (*pct && conv != 'd' && conv != 's' && conv != 'm' && conv != '%')
			return false;
		e->piece[k].literal = (uint16_t)literal;
		e->piece[k].conv = conv;
		if (!conv)	/* pct: the NUL; 16 bytes readable past it */
			return (uintptr_t)pct + 1 + 16 - ehs_fmt_ro_start <= ehs_fmt_ro_size;
		run = pct + 2;
	}
	return false;
}

const struct ehs_fmt_plan *ehs_format_plan_slow(const char *fmt)
{
	/* A thread that sees the span half stored comes here too: only a
	 * format in the span as read below ever gets a plan. */
	uintptr_t size = __atomic_load_n(&ehs_fmt_ro_size, __ATOMIC_ACQUIRE);
	if (size == UINTPTR_MAX) {
		read_span();
		size = __atomic_load_n(&ehs_fmt_ro_size, __ATOMIC_ACQUIRE);
	}
	if ((uintptr_t)fmt - __atomic_load_n(&ehs_fmt_ro_start, __ATOMIC_RELAXED) >= size)
		return NULL;
	struct ehs_fmt_plan *all = ehs_map_once((void **)&ehs_fmt_plans,
						sizeof *all << EHS_FMT_SLOTS_LOG2);
	if (!all)
		return NULL;
	/* The first format to claim a slot keeps it; its plan is built by
	 * the claimer, and used by others once it says ready.  A slot held
	 * is only read: a format that lost its slot costs no locked
	 * instruction at each call. */
	struct ehs_fmt_plan *e = &all[ehs_fmt_slot(fmt)];
	const char *holder = __atomic_load_n(&e->fmt, __ATOMIC_ACQUIRE);
	if (holder || !__atomic_compare_exchange_n(&e->fmt, &holder, fmt, false,
						   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return holder == fmt &&
		       __atomic_load_n(&e->state, __ATOMIC_ACQUIRE) == EHS_FMT_READY ? e : NULL;
	int state = parse(e, fmt) ? EHS_FMT_READY : EHS_FMT_NONE;
	__atomic_store_n(&e->state, state, __ATOMIC_RELEASE);
	return state == EHS_FMT_READY ? e : NULL;
}
