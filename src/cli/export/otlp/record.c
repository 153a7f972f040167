/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eventheader/eventheader.h>

#include <ehsyslog/schema.h>

#include "cli/export/otlp/record.h"
#include "cli/export/otlp/severity.h"
#include "cli/export/otlp/wire.h"

/* Field numbers of the vendored proto/ (logs.proto, common.proto,
 * resource.proto). */
enum {
	LOG_TIME = 1,
	LOG_SEVERITY_NUMBER = 2,
	LOG_SEVERITY_TEXT = 3,
	LOG_BODY = 5,
	LOG_ATTRIBUTES = 6,
	LOG_OBSERVED_TIME = 11,
	RESOURCE_ATTRIBUTES = 1,
	KEY_VALUE_KEY = 1,
	KEY_VALUE_VALUE = 2,
	ANY_STRING = 1,
	ANY_INT = 3,
	ANY_BYTES = 7,
};

/* One AnyValue: an int, or n bytes as a string or as bytes. */
struct value {
	unsigned field;	/* ANY_STRING, ANY_INT or ANY_BYTES */
	int64_t i;
	const void *s;
	size_t n;
};

static struct value int_value(int64_t i)
{
	return (struct value){ ANY_INT, i, NULL, 0 };
}

/* A string if it is one protobuf accepts, else the bytes as they are. */
static struct value text_value(const void *s, size_t n)
{
	return (struct value){ record_utf8(s, n) ? ANY_STRING : ANY_BYTES, 0, s, n };
}

static size_t value_size(const struct value *v)
{
	return v->field == ANY_INT ? wire_len_varint(ANY_INT, (uint64_t)v->i)
				   : wire_len_delimited(v->field, v->n);
}

/* v as the message field `field`.  A oneof member that is set is
 * written even when empty or 0, as protobuf writes it. */
static void put_value(struct wire *w, unsigned field, const struct value *v)
{
	wire_header(w, field, value_size(v));
	if (v->field == ANY_INT)
		wire_varint(w, ANY_INT, (uint64_t)v->i);
	else
		wire_delimited(w, v->field, v->s, v->n);
}

/* The KeyValue pairs of one message's attributes field, written as they
 * come; the keys written so far, to keep each once. */
struct pairs {
	struct wire *w;
	unsigned field;
	const char **keys;	/* stack at first, then the heap */
	size_t n, cap;
	const char *stack[32];
	bool nomem;
};

static void pairs_init(struct pairs *p, struct wire *w, unsigned field)
{
	p->w = w;
	p->field = field;
	p->keys = p->stack;
	p->n = 0;
	p->cap = sizeof p->stack / sizeof p->stack[0];
	p->nomem = false;
}

static void pairs_free(struct pairs *p)
{
	if (p->keys != p->stack)
		free(p->keys);
}

/* Room for one more key; false (nomem set) when memory runs out. */
static bool pairs_room(struct pairs *p)
{
	const char **k;

	if (p->n < p->cap)
		return true;
	k = malloc(2 * p->cap * sizeof *k);
	if (k == NULL) {
		p->nomem = true;
		return false;
	}
	memcpy(k, p->keys, p->n * sizeof *k);
	pairs_free(p);
	p->keys = k;
	p->cap *= 2;
	return true;
}

/* Each event's few keys are compared with every key before them: the
 * first byte, compared inline, spares most of the calls to strcmp, whose
 * setup costs more than these short keys' comparison. */
static bool pairs_has(const struct pairs *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->keys[i][0] == key[0] && strcmp(p->keys[i], key) == 0)
			return true;
	return false;
}

/* Writes the pair key = v unless key is there already: keys are unique
 * (OTLP's common README: MUST), and the first one given wins.  An empty
 * key is left out of the KeyValue, as proto3 leaves out "". */
static void pairs_put(struct pairs *p, const char *key, struct value v)
{
	size_t klen, size;

	if (key == NULL || pairs_has(p, key) || !pairs_room(p))
		return;
	p->keys[p->n++] = key;
	klen = strlen(key);
	size = (klen ? wire_len_delimited(KEY_VALUE_KEY, klen) : 0) +
	       wire_len_delimited(KEY_VALUE_VALUE, value_size(&v));
	wire_header(p->w, p->field, size);
	if (klen)
		wire_delimited(p->w, KEY_VALUE_KEY, key, klen);
	put_value(p->w, KEY_VALUE_VALUE, &v);
}

static void put_text(struct pairs *p, const char *key, const char *s)
{
	pairs_put(p, key, text_value(s, strlen(s)));
}

bool record_utf8(const uint8_t *s, size_t n)
{
	uint32_t cp;

	for (size_t i = 0, len; i < n; i += len)
		if (s[i] == 0 || (len = eh_utf8_decode(s + i, n - i, &cp)) == 0)
			return false;
	return true;
}

static uint64_t le_uint(const uint8_t *v, size_t n)
{
	uint64_t x = 0;

	for (size_t i = n; i > 0; i--)
		x = x << 8 | v[i - 1];
	return x;
}

/* The OTLP key of a schema field, NULL for those the record carries
 * elsewhere (message, severity; unit, in the resource) or not at all
 * (part, parts). */
static const char *schema_key(int k)
{
	switch (k) {
	case EHS_FIELD_FACILITY:
		return "syslog.facility";
	case EHS_FIELD_ERRNO:
		return "errno";
	case EHS_FIELD_FILE:
		return "code.file.path";
	case EHS_FIELD_LINE:
		return "code.line.number";
	default:
		return NULL;
	}
}

/* The OTLP key of any other field: the semantic conventions' name where
 * one fits, else the field's own. */
static const char *extra_key(const char *name)
{
	if (strcmp(name, "CODE_FUNC") == 0)
		return "code.function.name";
	return name;
}

/* One top-level field of the event as an attribute. */
static void add_field(struct pairs *p, const struct eh_item *it)
{
	unsigned enc = it->encoding & EH_ENC_VALUE_MASK;
	int k = ehs_schema_find(it->name);
	const char *key = k >= 0 ? schema_key(k) : extra_key(it->name);

	if (key == NULL)
		return;
	if (enc == EH_ENC_STRING_LENGTH16_CHAR8 || enc == EH_ENC_ZSTRING_CHAR8) {
		pairs_put(p, key, text_value(it->value, it->value_len));
	} else if (enc >= EH_ENC_VALUE8 && enc <= EH_ENC_VALUE64 && it->value_len <= 8) {
		uint64_t x = le_uint(it->value, it->value_len);
		unsigned bits = 8 * (unsigned)it->value_len;

		/* Signed fields (and errno, an int) sign-extend. */
		if ((it->format == EH_FMT_SIGNED_INT || it->format == EH_FMT_ERRNO) &&
		    bits < 64 && (x >> (bits - 1) & 1))
			x |= ~0ull << bits;
		pairs_put(p, key, int_value((int64_t)x));
	} else {
		pairs_put(p, key, (struct value){ ANY_BYTES, 0, it->value, it->value_len });
	}
}

/* A wire writing over the buffer kept in *buf, and the buffer given
 * back with what was written: reused from record to record. */
static struct wire wire_over(uint8_t *buf, size_t cap)
{
	return (struct wire){ buf, 0, cap, false };
}

/* The value --resource gives key: the last given, as the command
 * line's come after the configuration file's; NULL when none does. */
static const char *user_value(const struct record_context *ctx, const char *key)
{
	const char *v = NULL;

	for (size_t i = 0; i < ctx->extra_count; i++)
		if (strcmp(ctx->extra[i].key, key) == 0)
			v = ctx->extra[i].value;
	return v;
}

/* The pair --resource gives key, if it gives one (true then): before
 * a built-in pair of key, it replaces that. */
static bool add_user(const struct record_context *ctx, struct pairs *p, const char *key)
{
	const char *v = user_value(ctx, key);

	if (v != NULL)
		put_text(p, key, v);
	return v != NULL;
}

/* Appends n bytes at *k if they fit before end. */
static bool key_put(uint8_t **k, const uint8_t *end, const void *p, size_t n)
{
	if (n > (size_t)(end - *k))
		return false;
	memcpy(*k, p, n);
	*k += n;
	return true;
}

/* The resource's pairs that the event gives: its name (the service) and
 * its unit field, if it has one. */
struct event_resource {
	const void *service, *unit;
	size_t service_len, unit_len;
};

/* What the resource is packed from (the host, the --resource pairs, the
 * process, the event's), as bytes into key; their length, or 0 when they
 * do not fit (then it is packed each time).  Strings are kept with their
 * NUL, or their length before them, so that equal keys pack to equal
 * bytes. */
static size_t resource_key(uint8_t key[RECORD_RESOURCE_KEY_MAX], const struct record_context *ctx,
			   const struct event_resource *er, const struct thread_process *proc)
{
	const uint8_t *end = key + RECORD_RESOURCE_KEY_MAX;
	uint32_t pid = proc != NULL ? proc->pid : 0;
	uint8_t has = proc != NULL, *k = key;
	bool ok = key_put(&k, end, &ctx->extra_count, sizeof ctx->extra_count) &&
		  key_put(&k, end, ctx->host, strlen(ctx->host) + 1);

	for (size_t i = 0; ok && i < ctx->extra_count; i++)
		ok = key_put(&k, end, ctx->extra[i].key, strlen(ctx->extra[i].key) + 1) &&
		     key_put(&k, end, ctx->extra[i].value, strlen(ctx->extra[i].value) + 1);
	ok = ok && key_put(&k, end, &has, 1) && key_put(&k, end, &pid, sizeof pid) &&
	     (proc == NULL || key_put(&k, end, proc->executable, strlen(proc->executable) + 1)) &&
	     key_put(&k, end, &er->unit_len, sizeof er->unit_len) &&
	     key_put(&k, end, er->unit, er->unit_len) &&
	     key_put(&k, end, er->service, er->service_len);
	return ok ? (size_t)(k - key) : 0;
}

/* The resource: the built-in pairs, then the user's (each key once). */
static int pack_resource(const struct record_context *ctx, const struct event_resource *er,
			 const struct thread_process *proc, struct record_bytes *out)
{
	uint8_t key[RECORD_RESOURCE_KEY_MAX];
	size_t key_len = resource_key(key, ctx, er, proc);
	struct wire w;
	struct pairs p;

	if (key_len != 0 && key_len == out->resource_key_len &&
	    memcmp(key, out->resource_key, key_len) == 0)
		return 0;	/* the bytes there are this resource's */
	w = wire_over(out->resource, out->resource_cap);
	pairs_init(&p, &w, RESOURCE_ATTRIBUTES);
	if (!add_user(ctx, &p, "host.name"))
		put_text(&p, "host.name", ctx->host);
	if (!add_user(ctx, &p, "service.name"))
		pairs_put(&p, "service.name", text_value(er->service, er->service_len));
	if (!add_user(ctx, &p, "process.pid") && proc != NULL)
		pairs_put(&p, "process.pid", int_value(proc->pid));
	if (!add_user(ctx, &p, "process.executable.name") && proc != NULL && proc->executable[0])
		put_text(&p, "process.executable.name", proc->executable);
	if (!add_user(ctx, &p, RECORD_UNIT_KEY) && er->unit_len)
		pairs_put(&p, RECORD_UNIT_KEY, text_value(er->unit, er->unit_len));
	for (size_t i = 0; i < ctx->extra_count; i++)
		add_user(ctx, &p, ctx->extra[i].key);
	pairs_free(&p);
	out->resource = w.buf;
	out->resource_cap = w.cap;
	out->resource_len = w.len;
	out->resource_key_len = 0;
	if (p.nomem || w.nomem)
		return -1;
	memcpy(out->resource_key, key, key_len);
	out->resource_key_len = key_len;
	return 0;
}

/* A LogRecord's fields before its attributes, in field-number order;
 * proto3 leaves out those at their default (0, ""). */
static void put_record_head(struct wire *w, uint64_t time_ns, unsigned severity_number,
			    const char *severity_text, const struct value *body)
{
	if (time_ns != 0)
		wire_fixed64(w, LOG_TIME, time_ns);
	if (severity_number != 0)
		wire_varint(w, LOG_SEVERITY_NUMBER, severity_number);
	if (severity_text != NULL && severity_text[0] != '\0')
		wire_delimited(w, LOG_SEVERITY_TEXT, severity_text, strlen(severity_text));
	put_value(w, LOG_BODY, body);
}

static void give_back_record(struct record_bytes *out, const struct wire *w)
{
	out->record = w->buf;
	out->record_cap = w->cap;
	out->record_len = w->len;
}

int record_pack(const struct record_context *ctx, const struct read_event *ev,
		const struct syslog_fields *f, const void *msg, size_t msg_len,
		const struct thread_process *proc, uint64_t observed_ns, struct record_bytes *out)
{
	struct wire w = wire_over(out->record, out->record_cap);
	struct value body = text_value(msg, msg_len);
	uint64_t time_ns = ev->has_wall ? ev->wall_ns : 0;
	struct eh_event_view view;
	struct eh_tracepoint tp;
	struct pairs attrs;
	struct eh_cursor c;
	struct eh_item it;
	struct event_resource er = { "", "", 0, 0 };
	bool nomem, opened = eh_event_open(&view, ev->tracepoint, ev->data, ev->len) == 0;

	if (f != NULL && syslog_fields_complete(f))
		put_record_head(&w, time_ns, otlp_severity_number(f->severity),
				otlp_severity_text(f->severity), &body);
	else
		put_record_head(&w, time_ns, 0, NULL, &body);
	pairs_init(&attrs, &w, LOG_ATTRIBUTES);
	if (ev->info.has_pid)
		pairs_put(&attrs, "thread.id", int_value(ev->info.tid));
	/* The view parsed the tracepoint's name already: parsed again only
	 * for an event it could not open. */
	if (opened)
		pairs_put(&attrs, "eventheader.provider", text_value(view.provider, view.provider_len));
	else if (eh_tracepoint_parse(ev->tracepoint, &tp) == 0)
		pairs_put(&attrs, "eventheader.provider", text_value(tp.provider, tp.provider_len));
	if (opened) {
		pairs_put(&attrs, "eventheader.event_name", text_value(view.event_name, view.name_len));
		eh_cursor_init(&c, &view);
		while (eh_cursor_next(&c, &it) > 0) {
			if (it.kind != EH_ITEM_VALUE || it.depth != 0 ||
			    (it.encoding & EH_ENC_ARRAY_MASK) != 0)
				continue;
			add_field(&attrs, &it);
			if (ehs_schema_find(it.name) == EHS_FIELD_UNIT &&
			    (it.encoding & EH_ENC_VALUE_MASK) == EH_ENC_STRING_LENGTH16_CHAR8) {
				er.unit = it.value;
				er.unit_len = it.value_len;
			}
		}
		er.service = view.event_name;
		er.service_len = view.name_len;
	}
	nomem = attrs.nomem;
	pairs_free(&attrs);
	if (observed_ns != 0)
		wire_fixed64(&w, LOG_OBSERVED_TIME, observed_ns);
	give_back_record(out, &w);
	if (nomem || w.nomem)
		return -1;
	return pack_resource(ctx, &er, proc, out);
}

int record_pack_own(const struct record_context *ctx, unsigned severity, const char *msg,
		    uint64_t now_ns, struct record_bytes *out)
{
	static const char service[] = "ehsyslog-export";
	struct thread_process self = { (uint32_t)getpid(), "ehsyslog" };
	struct wire w = wire_over(out->record, out->record_cap);
	/* export's own text: a string as it is */
	struct value body = { ANY_STRING, 0, msg, strlen(msg) };

	put_record_head(&w, now_ns, otlp_severity_number(severity), otlp_severity_text(severity),
			&body);
	if (now_ns != 0)
		wire_fixed64(&w, LOG_OBSERVED_TIME, now_ns);
	give_back_record(out, &w);
	if (w.nomem)
		return -1;
	const struct event_resource er = { service, "", sizeof service - 1, 0 };
	return pack_resource(ctx, &er, &self, out);
}

void record_bytes_free(struct record_bytes *b)
{
	free(b->record);
	free(b->resource);
	memset(b, 0, sizeof *b);
}
