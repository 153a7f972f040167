/* SPDX-License-Identifier: MIT */
/*
 * The fields of the library's syslog events (ehsyslog(1), libehsyslog(7)):
 * their names, EventHeader encodings and formats, in their order on the
 * wire.  Defined here once for what writes the events (the bridge), what
 * maps other calls onto them (GLib's and the journal's fields, which may
 * not take these names) and what reads them (the ehsyslog tool).
 *
 * Every event has message, severity, facility and errno; error_at_line's
 * events add file and line, and a message too long for one event goes
 * out in parts that add part and parts (1-based, both 16 bits).  The
 * events of a process that runs in a systemd service add unit, its name
 * (the same in every event of the process).  Extra fields (GLib's, the
 * journal's) come after all of these.
 *
 * Header only: no symbol of the library is needed to use it.
 */
#ifndef EHSYSLOG_SCHEMA_H
#define EHSYSLOG_SCHEMA_H

#include <stdint.h>
#include <string.h>

#include <eventheader/eventheader.h>
#include <ehsyslog/settings.h>

/* The keyword of facility's tracepoints: its own bit for the 24
 * facilities syslog names, 0 for the numbers above (ehs_keyword). */
static inline uint64_t ehs_facility_keyword(unsigned facility)
{
	return facility < EHS_FACILITIES ? UINT64_C(1) << facility : 0;
}

#define EHS_FIELD_NAME_MESSAGE "message"
#define EHS_FIELD_NAME_SEVERITY "severity"
#define EHS_FIELD_NAME_FACILITY "facility"
#define EHS_FIELD_NAME_ERRNO "errno"
#define EHS_FIELD_NAME_FILE "file"
#define EHS_FIELD_NAME_LINE "line"
#define EHS_FIELD_NAME_PART "part"
#define EHS_FIELD_NAME_PARTS "parts"
#define EHS_FIELD_NAME_UNIT "unit"

/* Which events have a field: every one, those with a file and line, the
 * parts of a split message, those of a process in a service. */
#define EHS_FIELD_ALWAYS 0u
#define EHS_FIELD_WITH_FILE 1u
#define EHS_FIELD_SPLIT 2u
#define EHS_FIELD_IN_UNIT 4u

/* X(id, encoding, format, when) for each field, in wire order; the name
 * is EHS_FIELD_NAME_##id. */
#define EHS_SCHEMA_FIELDS(X) \
	X(MESSAGE, EH_ENC_STRING_LENGTH16_CHAR8, 0, EHS_FIELD_ALWAYS) \
	X(SEVERITY, EH_ENC_VALUE8, 0, EHS_FIELD_ALWAYS) \
	X(FACILITY, EH_ENC_VALUE8, 0, EHS_FIELD_ALWAYS) \
	X(ERRNO, EH_ENC_VALUE32, EH_FMT_ERRNO, EHS_FIELD_ALWAYS) \
	X(FILE, EH_ENC_STRING_LENGTH16_CHAR8, 0, EHS_FIELD_WITH_FILE) \
	X(LINE, EH_ENC_VALUE32, 0, EHS_FIELD_WITH_FILE) \
	X(PART, EH_ENC_VALUE16, 0, EHS_FIELD_SPLIT) \
	X(PARTS, EH_ENC_VALUE16, 0, EHS_FIELD_SPLIT) \
	X(UNIT, EH_ENC_STRING_LENGTH16_CHAR8, 0, EHS_FIELD_IN_UNIT)

enum ehs_field {
#define EHS_FIELD_ENUM_(id, enc, fmt, when) EHS_FIELD_##id,
	EHS_SCHEMA_FIELDS(EHS_FIELD_ENUM_)
#undef EHS_FIELD_ENUM_
	EHS_FIELD_COUNT
};

struct ehs_schema_field {
	const char *name;
	uint8_t encoding;	/* enum eh_encoding */
	uint8_t format;		/* enum eh_format */
	uint8_t when;		/* EHS_FIELD_ALWAYS, _WITH_FILE or _SPLIT */
};

/* Indexed by enum ehs_field. */
static const struct ehs_schema_field ehs_schema[EHS_FIELD_COUNT] = {
#define EHS_FIELD_ROW_(id, enc, fmt, when) \
	[EHS_FIELD_##id] = { EHS_FIELD_NAME_##id, (uint8_t)(enc), (uint8_t)(fmt), (when) },
	EHS_SCHEMA_FIELDS(EHS_FIELD_ROW_)
#undef EHS_FIELD_ROW_
};

/* The field named name, or -1 when it is not one of the schema's.
 * Readers call it for each field of each event: the first byte, compared
 * inline, spares most calls to strcmp. */
static inline int ehs_schema_find(const char *name)
{
	for (int i = 0; i < EHS_FIELD_COUNT; i++)
		if (name[0] == ehs_schema[i].name[0] && strcmp(name, ehs_schema[i].name) == 0)
			return i;
	return -1;
}

#endif
