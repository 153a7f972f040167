/* SPDX-License-Identifier: MIT */
/*
 * openlog/setlogmask state as the bridge sees it, and the rule that turns
 * an ident into an event name.  Kept without locks: each item is one
 * word read and written atomically, as a call racing with openlog in
 * glibc sees either the old or the new value too.
 */
#ifndef EHS_BRIDGE_IDENT_H
#define EHS_BRIDGE_IDENT_H

#include <stddef.h>

/* Longest event name the bridge writes, without its NUL. */
#define EHS_EVENT_NAME_MAX 255

/* Mirrors of glibc's openlog/closelog/setlogmask effects. */
void ehs_ident_openlog(const char *ident, int option, int facility);
void ehs_ident_closelog(void);
void ehs_ident_setlogmask(int mask);

/* The current mask (LOG_UPTO(LOG_DEBUG) until setlogmask changes it). */
int ehs_ident_mask(void);
/* openlog's facility as LOG_FAC bits (pri form, e.g. LOG_USER). */
int ehs_ident_facility(void);
/* openlog's ident, or NULL when none was given. */
const char *ehs_ident(void);

/*
 * Writes the event name for ident (NULL or "" means the program's short
 * name, then "unknown") into out: printable ASCII except ';' is kept,
 * every other byte becomes '_', and the name is cut at
 * EHS_EVENT_NAME_MAX bytes.  Returns its length.
 */
size_t ehs_event_name(char out[EHS_EVENT_NAME_MAX + 1], const char *ident);

#endif
