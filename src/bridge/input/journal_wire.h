/* SPDX-License-Identifier: MIT */
/*
 * A datagram a client sends to journald's native socket
 * (/run/systemd/journal/socket) taken apart into the record of the
 * sd_journal_sendv call that wrote it (bridge/record.h), so that it
 * becomes the same event.  A pure function of the bytes: no allocation,
 * no NUL assumed, any length; the record points into the datagram.
 *
 * sd_journal_sendv writes each field on its own, in call order:
 *
 *   KEY=value\n        a value without a newline (NUL bytes may be in it)
 *   KEY\n L value \n   any value: L its length, 64 bits little-endian,
 *                      then exactly L bytes
 *
 * What is not that is read as journald (systemd 252's journald-native.c)
 * reads it, so the event holds what the journal records:
 *
 *   - a line starting with '.' or '#' is skipped (control and comment);
 *   - a field whose name journald refuses (ehs_journal_key_valid) is
 *     skipped, and parsing goes on after it;
 *   - bytes after the last newline are ignored;
 *   - a binary field cut short (no room for L, fewer than L bytes left,
 *     or no '\n' after them) ends parsing: the fields before it count;
 *   - an empty line ends the entry; journald reads a next entry after
 *     it, which sd_journal_sendv never writes: it is not read here;
 *   - an entry journald drops whole gives nothing (returns -1): a binary
 *     length over EHS_JOURNAL_WIRE_DATA_MAX (weighed as soon as its 8
 *     bytes and one more are there), a field line after more than
 *     EHS_JOURNAL_WIRE_FIELDS_MAX fields kept (journald keeps 1025), or
 *     over EHS_JOURNAL_WIRE_ENTRY_MAX bytes as journald counts them.
 *
 * MESSAGE, PRIORITY and the others are taken as bridge/api/journal.h
 * says; an entry without MESSAGE is an empty message, as journald
 * records it.  Extras go in while they fit, by that header's rule.
 *
 * Out of scope: an empty datagram, and one whose fields come in a memfd
 * (SCM_RIGHTS, no bytes; libsystemd sends so what does not fit a
 * datagram): the caller has no bytes to give here.
 */
#ifndef EHS_BRIDGE_JOURNAL_WIRE_H
#define EHS_BRIDGE_JOURNAL_WIRE_H

#include <stddef.h>

#include "bridge/record.h"

/* journald's limits on an entry (DATA_SIZE_MAX, ENTRY_FIELD_COUNT_MAX,
 * ENTRY_SIZE_MAX). */
#define EHS_JOURNAL_WIRE_DATA_MAX (768u << 20)
#define EHS_JOURNAL_WIRE_FIELDS_MAX 1024u
#define EHS_JOURNAL_WIRE_ENTRY_MAX (770u << 20)

/* Parses bytes[0..len) into j.  Returns 0, or -1 when journald would
 * record no entry (no bytes, no field it keeps, or an entry it drops
 * whole): then j is not to be logged. */
int ehs_journal_wire_parse(struct ehs_journal *j, const char *bytes, size_t len);

/* The severity and facility (-1: openlog's) of the entry bytes[0..len)
 * as ehs_journal_level reads them, with ehs_journal_wire_parse's
 * verdict, in a few words of stack: whether its event is traced can be
 * asked before the record is built. */
int ehs_journal_wire_level(const char *bytes, size_t len, int *severity, int *facility);

#endif
