/* SPDX-License-Identifier: MIT */
/* The native structured-event API of <ehsyslog.h>. */
#include "config.h"

#include <ehsyslog.h>

#include <errno.h>
#include <string.h>
#include <syslog.h>

#include <eventheader/eventheader.h>

#include "bridge/bridge.h"
#include "bridge/ident.h"
#include "bridge/schema.h"

/* Names of up to EHS_FIELDS_MAX fields of any sensible length. */
#define NATIVE_META_MAX 2048

static unsigned facility_of(int priority)
{
	int fac = priority & LOG_FACMASK;
	return (unsigned)LOG_FAC(fac ? fac : ehs_ident_facility());
}

EHS_API bool ehs_enabled(int priority)
{
	if (ehs_busy)
		return false;
	int saved = errno;
	bool on = ehs_traced(LOG_PRI(priority), facility_of(priority)) != NULL;
	errno = saved;
	return on;
}

static int field_meta(struct eh_meta *m, const struct ehs_field *f)
{
	switch (f->type) {
	case EHS_FIELD_STRING:
		return eh_meta_field(m, f->name, EH_ENC_STRING_LENGTH16_CHAR8, 0, 0, 0);
	case EHS_FIELD_INT64:
		return eh_meta_field(m, f->name, EH_ENC_VALUE64, EH_FMT_SIGNED_INT, 0, 0);
	case EHS_FIELD_UINT64:
		return eh_meta_field(m, f->name, EH_ENC_VALUE64, 0, 0, 0);
	case EHS_FIELD_ERRNO:
		return eh_meta_field(m, f->name, EH_ENC_VALUE32, EH_FMT_ERRNO, 0, 0);
	case EHS_FIELD_BOOL:
		return eh_meta_field(m, f->name, EH_ENC_VALUE8, EH_FMT_BOOLEAN, 0, 0);
	}
	return EH_E_INVAL;
}

static int field_payload(struct eh_buf *p, const struct ehs_field *f)
{
	switch (f->type) {
	case EHS_FIELD_STRING: {
		const char *s = f->v.s ? f->v.s : "";
		return eh_payload_str8(p, s, strlen(s));
	}
	case EHS_FIELD_INT64:
		return eh_payload_u64(p, (uint64_t)f->v.i);
	case EHS_FIELD_UINT64:
		return eh_payload_u64(p, f->v.u);
	case EHS_FIELD_ERRNO:
		return eh_payload_u32(p, (uint32_t)(int32_t)f->v.i);
	case EHS_FIELD_BOOL:
		return eh_payload_u8(p, f->v.u ? 1 : 0);
	}
	return EH_E_INVAL;
}

static int write_event(struct ue_tracepoint *tp, int severity, const char *event_name,
		       const struct ehs_field *fields, unsigned nfields)
{
	char name[EHS_EVENT_NAME_MAX + 1];
	uint8_t meta_buf[NATIVE_META_MAX], payload_buf[EHS_EVENT_MAX];
	struct eh_meta m;
	struct eh_buf p;

	ehs_event_name(name, event_name);
	eh_meta_init(&m, meta_buf, sizeof meta_buf, name);
	eh_buf_init(&p, payload_buf, sizeof payload_buf);
	for (unsigned i = 0; i < nfields; i++) {
		if (!fields[i].name || !fields[i].name[0] ||
		    field_meta(&m, &fields[i]) == EH_E_INVAL ||
		    field_payload(&p, &fields[i]) == EH_E_INVAL)
			return -EINVAL;
	}
	if (eh_meta_finish(&m) < 0 || p.err)
		return -E2BIG;

	struct eh_prefix prefix;
	struct eventheader h = { .level = (uint8_t)ehs_level(severity) };
	struct iovec iov[1 + EH_EVENT_IOV] = { { NULL, 0 } };
	long total = eh_event_iov(&prefix, &h, NULL, NULL, &m, p.data, p.len, iov + 1);
	if (total < 0)
		return -EINVAL;
	if (total > EHS_EVENT_MAX)
		return -E2BIG;
	ehs_sink_fn sink;
	void *ctx;
	ehs_sink_for(tp, &sink, &ctx);
	sink(ctx, iov, 1 + EH_EVENT_IOV);
	return 1;
}

EHS_API int ehs_event(int priority, const char *event_name,
		      const struct ehs_field *fields, unsigned nfields)
{
	int saved = errno;
	if ((nfields && !fields) || nfields > EHS_FIELDS_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (ehs_busy)
		return 0;
	ehs_busy = 1;
	int r = 0;
	struct ue_tracepoint *tp = ehs_traced(LOG_PRI(priority), facility_of(priority));
	if (tp)
		r = write_event(tp, LOG_PRI(priority), event_name, fields, nfields);
	ehs_busy = 0;
	if (r < 0) {
		errno = -r;
		return -1;
	}
	errno = saved;
	return r;
}
