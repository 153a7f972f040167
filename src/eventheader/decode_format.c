/* SPDX-License-Identifier: MIT */
/*
 * Decoder output forms: one event as a JSON object in the shape of
 * Microsoft's perf-decode, or as one line of text for people.  Both walk
 * the fields with the cursor; they differ in punctuation and escaping
 * only, which struct eh_out carries.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eventheader/decode.h"

/* Key of a field or meta item: "name": in JSON, name= in text.  The
 * field tag is shown as perf-decode shows it. */
static void put_key(struct eh_out *o, const char *name, uint16_t tag)
{
	if (o->json)
		eh_out_char(o, '"');
	eh_out_utf8(o, (const uint8_t *)name, strlen(name));
	if (tag)
		eh_out_printf(o, ";tag=0x%X", (unsigned)tag);
	eh_out_str(o, o->json ? "\":" : "=");
}

static void put_sep(struct eh_out *o, bool *need_sep, bool element)
{
	if (*need_sep)
		eh_out_char(o, element || o->json ? ',' : ' ');
	*need_sep = true;
}

static void put_meta_uint(struct eh_out *o, bool *need_sep, const char *key, uint64_t v)
{
	put_sep(o, need_sep, false);
	put_key(o, key, 0);
	eh_out_printf(o, "%" PRIu64, v);
}

static void put_meta_hex(struct eh_out *o, bool *need_sep, const char *key, uint64_t v)
{
	char tmp[24];

	put_sep(o, need_sep, false);
	put_key(o, key, 0);
	snprintf(tmp, sizeof tmp, "0x%" PRIX64, v);
	eh_out_word(o, tmp);
}

static void put_meta_uuid(struct eh_out *o, bool *need_sep, const char *key, const uint8_t *u)
{
	put_sep(o, need_sep, false);
	put_key(o, key, 0);
	if (o->json)
		eh_out_char(o, '"');
	eh_out_uuid(o, u);
	if (o->json)
		eh_out_char(o, '"');
}

static void put_meta(struct eh_out *o, const struct eh_event_view *ev,
		     const struct eh_record_info *info)
{
	const struct eventheader *h = &ev->header;
	bool need_sep = false;

	if (info && info->has_time) {
		put_sep(o, &need_sep, false);
		put_key(o, "time", 0);
		if (o->json)
			eh_out_char(o, '"');
		eh_out_time(o, (int64_t)(info->time_ns / 1000000000u), true,
			     (uint32_t)(info->time_ns % 1000000000u));
		if (o->json)
			eh_out_char(o, '"');
	}
	if (info && info->has_cpu) {
		put_sep(o, &need_sep, false);
		put_key(o, "cpu", 0);
		eh_out_printf(o, "%d", info->cpu);
	}
	if (info && info->has_pid) {
		put_meta_uint(o, &need_sep, "pid", info->pid);
		put_meta_uint(o, &need_sep, "tid", info->tid);
	}
	if (h->id)
		put_meta_uint(o, &need_sep, "id", h->id);
	if (h->version)
		put_meta_uint(o, &need_sep, "version", h->version);
	put_meta_uint(o, &need_sep, "level", h->level);
	if (ev->keyword)
		put_meta_hex(o, &need_sep, "keyword", ev->keyword);
	if (h->opcode)
		put_meta_uint(o, &need_sep, "opcode", h->opcode);
	if (h->tag)
		put_meta_hex(o, &need_sep, "tag", h->tag);
	if (ev->activity_id)
		put_meta_uuid(o, &need_sep, "activity", ev->activity_id);
	if (ev->related_id)
		put_meta_uuid(o, &need_sep, "relatedActivity", ev->related_id);
}

/* The entry of fields for the top-level scalar it, or NULL. */
static const struct eh_field_value *field_value(const struct eh_item *it,
						const struct eh_field_value *fields, size_t n)
{
	if (it->kind != EH_ITEM_VALUE || it->depth != 0 || it->is_element)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(fields[i].name, it->name) == 0)
			return &fields[i];
	return NULL;
}

static long decode(const char *tracepoint_name, const void *data, size_t len,
		   const struct eh_record_info *info, unsigned flags,
		   const struct eh_field_value *fields, size_t n_fields,
		   char *out, size_t cap, bool json)
{
	const struct eh_field_value *fv;
	struct eh_event_view ev;
	struct eh_cursor c;
	struct eh_item it;
	struct eh_out o;
	bool need_sep = false;
	int r;

	if (!out && cap)
		return EH_E_INVAL;
	eh_out_init(&o, out, cap, json);
	r = eh_event_open(&ev, tracepoint_name, data, len);
	if (r < 0)
		return r;
	/* From here an error leaves out holding "" (finish or below). */

	if (json)
		eh_out_char(&o, '{');
	if (flags & EH_DECODE_NAME) {
		if (json)
			eh_out_str(&o, "\"n\":\"");
		eh_out_utf8(&o, (const uint8_t *)ev.provider, ev.provider_len);
		eh_out_char(&o, ':');
		eh_out_utf8(&o, (const uint8_t *)ev.event_name,
			    ev.name_len + ev.attributes_len);
		if (json)
			eh_out_char(&o, '"');
		need_sep = true;
	}

	eh_cursor_init(&c, &ev);
	while ((r = eh_cursor_next(&c, &it)) > 0 && !o.full) {
		switch (it.kind) {
		case EH_ITEM_ARRAY_END:
			eh_out_char(&o, ']');
			need_sep = true;
			continue;
		case EH_ITEM_STRUCT_END:
			eh_out_char(&o, '}');
			need_sep = true;
			continue;
		default:
			break;
		}
		if ((fv = field_value(&it, fields, n_fields)) != NULL) {
			if (fv->value == NULL)
				continue;
			it.value = fv->value;
			it.value_len = fv->len;
		}
		put_sep(&o, &need_sep, it.is_element);
		if (!it.is_element)
			put_key(&o, it.name, it.tag);
		if (it.kind == EH_ITEM_VALUE) {
			eh_out_value(&o, &it);
		} else {
			eh_out_char(&o, it.kind == EH_ITEM_ARRAY_BEGIN ? '[' : '{');
			need_sep = false;
		}
	}
	if (r < 0) {
		if (cap)
			out[0] = '\0';
		return r;
	}

	if (flags & EH_DECODE_META) {
		if (json) {
			if (need_sep)
				eh_out_char(&o, ',');
			eh_out_str(&o, "\"meta\":{");
		} else {
			eh_out_str(&o, need_sep ? " [" : "[");
		}
		put_meta(&o, &ev, info);
		eh_out_char(&o, json ? '}' : ']');
	}
	if (json)
		eh_out_char(&o, '}');
	return eh_out_finish(&o);
}

long eh_decode_json(const char *tracepoint_name, const void *data, size_t len,
		    const struct eh_record_info *info, unsigned flags,
		    char *out, size_t cap)
{
	return decode(tracepoint_name, data, len, info, flags, NULL, 0, out, cap, true);
}

long eh_decode_json_with(const char *tracepoint_name, const void *data, size_t len,
			 const struct eh_record_info *info, unsigned flags,
			 const struct eh_field_value *fields, size_t n_fields,
			 char *out, size_t cap)
{
	return decode(tracepoint_name, data, len, info, flags, fields, n_fields,
		      out, cap, true);
}

long eh_decode_text(const char *tracepoint_name, const void *data, size_t len,
		    const struct eh_record_info *info, unsigned flags,
		    char *out, size_t cap)
{
	return decode(tracepoint_name, data, len, info, flags, NULL, 0, out, cap, false);
}
