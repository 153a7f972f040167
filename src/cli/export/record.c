/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <eventheader/eventheader.h>

#include <ehsyslog/schema.h>

#include "opentelemetry/proto/logs/v1/logs.pb-c.h"

#include "cli/export/record.h"
#include "cli/export/severity.h"

typedef Opentelemetry__Proto__Common__V1__KeyValue KeyValue;
typedef Opentelemetry__Proto__Common__V1__AnyValue AnyValue;
typedef Opentelemetry__Proto__Logs__V1__LogRecord LogRecord;
typedef Opentelemetry__Proto__Resource__V1__Resource Resource;

static const KeyValue kv_init = OPENTELEMETRY__PROTO__COMMON__V1__KEY_VALUE__INIT;
static const AnyValue av_init = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__INIT;

/* Key-value pairs being put together, and the strings they point at. */
struct pairs {
	KeyValue *kv;
	AnyValue *av;
	KeyValue **list;
	size_t n, cap;
	char **owned;
	size_t owned_n;
	bool nomem;
};

static bool pairs_init(struct pairs *p, size_t cap)
{
	memset(p, 0, sizeof *p);
	p->kv = calloc(cap, sizeof *p->kv);
	p->av = calloc(cap, sizeof *p->av);
	p->list = calloc(cap, sizeof *p->list);
	p->owned = calloc(2 * cap, sizeof *p->owned);
	p->cap = cap;
	return p->kv != NULL && p->av != NULL && p->list != NULL && p->owned != NULL;
}

static void pairs_free(struct pairs *p)
{
	for (size_t i = 0; i < p->owned_n; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->list);
	free(p->av);
	free(p->kv);
}

/* A NUL-terminated copy that p frees. */
static char *pairs_own(struct pairs *p, const void *s, size_t n)
{
	char *c = malloc(n + 1);

	if (c == NULL) {
		p->nomem = true;
		return NULL;
	}
	memcpy(c, s, n);
	c[n] = '\0';
	p->owned[p->owned_n++] = c;
	return c;
}

static bool pairs_has(const struct pairs *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->kv[i].key, key) == 0)
			return true;
	return false;
}

/* The next pair's value, keyed key (which must outlive the packing);
 * NULL when key is there already: keys are unique (OTLP's common
 * README: MUST), and the first one given wins. */
static AnyValue *pairs_add(struct pairs *p, const char *key)
{
	KeyValue *kv;

	if (p->n == p->cap || key == NULL || pairs_has(p, key))
		return NULL;
	kv = &p->kv[p->n];
	*kv = kv_init;
	p->av[p->n] = av_init;
	kv->key = (char *)key;
	kv->value = &p->av[p->n];
	p->list[p->n] = kv;
	return &p->av[p->n++];
}

static void set_int(AnyValue *v, int64_t i)
{
	if (v == NULL)
		return;
	v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE;
	v->int_value = i;
}

/* A string if it is one protobuf accepts, else the bytes as they are. */
static void set_text(struct pairs *p, AnyValue *v, const void *s, size_t n)
{
	if (v == NULL)
		return;
	if (!record_utf8(s, n)) {
		v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE;
		v->bytes_value.data = (uint8_t *)s;
		v->bytes_value.len = n;
		return;
	}
	v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
	v->string_value = pairs_own(p, s, n);
	if (v->string_value == NULL)
		v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE__NOT_SET;
}

static void add_text(struct pairs *p, const char *key, const char *s)
{
	set_text(p, pairs_add(p, key), s, strlen(s));
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
 * elsewhere (message, severity) or not at all (part, parts). */
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
	AnyValue *v;

	if (key == NULL || (v = pairs_add(p, key)) == NULL)
		return;
	if (enc == EH_ENC_STRING_LENGTH16_CHAR8 || enc == EH_ENC_ZSTRING_CHAR8) {
		set_text(p, v, it->value, it->value_len);
	} else if (enc >= EH_ENC_VALUE8 && enc <= EH_ENC_VALUE64 && it->value_len <= 8) {
		uint64_t x = le_uint(it->value, it->value_len);
		unsigned bits = 8 * (unsigned)it->value_len;

		/* Signed fields (and errno, an int) sign-extend. */
		if ((it->format == EH_FMT_SIGNED_INT || it->format == EH_FMT_ERRNO) &&
		    bits < 64 && (x >> (bits - 1) & 1))
			x |= ~0ull << bits;
		set_int(v, (int64_t)x);
	} else {
		v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE;
		v->bytes_value.data = (uint8_t *)it->value;
		v->bytes_value.len = it->value_len;
	}
}

/* Packs m into *buf, growing it. */
static int pack_into(const ProtobufCMessage *m, uint8_t **buf, size_t *len, size_t *cap)
{
	size_t n = protobuf_c_message_get_packed_size(m);

	if (n > *cap) {
		uint8_t *b = realloc(*buf, n);

		if (b == NULL)
			return -1;
		*buf = b;
		*cap = n;
	}
	*len = protobuf_c_message_pack(m, *buf);
	return 0;
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
		add_text(p, key, v);
	return v != NULL;
}

/* The resource: the built-in pairs, then the user's (each key once). */
static int pack_resource(const struct record_context *ctx, struct pairs *p,
			 const void *service, size_t service_len,
			 const struct thread_process *proc, struct record_bytes *out)
{
	Resource res = OPENTELEMETRY__PROTO__RESOURCE__V1__RESOURCE__INIT;

	if (!add_user(ctx, p, "host.name"))
		add_text(p, "host.name", ctx->host);
	if (!add_user(ctx, p, "service.name"))
		set_text(p, pairs_add(p, "service.name"), service, service_len);
	if (!add_user(ctx, p, "process.pid") && proc != NULL)
		set_int(pairs_add(p, "process.pid"), proc->pid);
	if (!add_user(ctx, p, "process.executable.name") && proc != NULL && proc->executable[0])
		add_text(p, "process.executable.name", proc->executable);
	for (size_t i = 0; i < ctx->extra_count; i++)
		add_user(ctx, p, ctx->extra[i].key);
	if (p->nomem)
		return -1;
	res.n_attributes = p->n;
	res.attributes = p->list;
	return pack_into(&res.base, &out->resource, &out->resource_len, &out->resource_cap);
}

/* The resource's pairs: four, and the user's. */
#define RESOURCE_PAIRS 4

int record_pack(const struct record_context *ctx, const struct read_event *ev,
		const struct syslog_fields *f, const void *msg, size_t msg_len,
		const struct thread_process *proc, uint64_t observed_ns, struct record_bytes *out)
{
	LogRecord rec = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
	AnyValue body = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__INIT;
	struct eh_event_view view;
	struct eh_tracepoint tp;
	struct pairs attrs, rattrs;
	struct eh_cursor c;
	struct eh_item it;
	size_t fields = 0;
	int rc = -1;
	bool opened = eh_event_open(&view, ev->tracepoint, ev->data, ev->len) == 0;

	if (opened) {
		eh_cursor_init(&c, &view);
		while (eh_cursor_next(&c, &it) > 0)
			fields++;
	}
	/* thread, provider and event name: three more than the fields. */
	if (!pairs_init(&attrs, fields + 3) || !pairs_init(&rattrs, RESOURCE_PAIRS + ctx->extra_count))
		goto out;
	rec.time_unix_nano = ev->has_wall ? ev->wall_ns : 0;
	rec.observed_time_unix_nano = observed_ns;
	if (f != NULL && syslog_fields_complete(f)) {
		rec.severity_number = otlp_severity_number(f->severity);
		rec.severity_text = (char *)otlp_severity_text(f->severity);
		if (rec.severity_text == NULL)
			rec.severity_text = (char *)protobuf_c_empty_string;
	}
	set_text(&attrs, &body, msg, msg_len);
	rec.body = &body;
	if (ev->info.has_pid)
		set_int(pairs_add(&attrs, "thread.id"), ev->info.tid);
	if (eh_tracepoint_parse(ev->tracepoint, &tp) == 0)
		set_text(&attrs, pairs_add(&attrs, "eventheader.provider"), tp.provider, tp.provider_len);
	if (opened) {
		set_text(&attrs, pairs_add(&attrs, "eventheader.event_name"), view.event_name, view.name_len);
		eh_cursor_init(&c, &view);
		while (eh_cursor_next(&c, &it) > 0)
			if (it.kind == EH_ITEM_VALUE && it.depth == 0 &&
			    (it.encoding & EH_ENC_ARRAY_MASK) == 0)
				add_field(&attrs, &it);
	}
	if (attrs.nomem)
		goto out;
	rec.n_attributes = attrs.n;
	rec.attributes = attrs.list;
	if (pack_into(&rec.base, &out->record, &out->record_len, &out->record_cap) < 0)
		goto out;
	rc = pack_resource(ctx, &rattrs, opened ? view.event_name : "", opened ? view.name_len : 0,
			   proc, out);
out:
	pairs_free(&attrs);
	pairs_free(&rattrs);
	return rc;
}

int record_pack_own(const struct record_context *ctx, unsigned severity, const char *msg,
		    uint64_t now_ns, struct record_bytes *out)
{
	LogRecord rec = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
	AnyValue body = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__INIT;
	static const char service[] = "ehsyslog-export";
	struct thread_process self = { (uint32_t)getpid(), "ehsyslog" };
	struct pairs p;
	int rc = -1;

	if (!pairs_init(&p, RESOURCE_PAIRS + ctx->extra_count))
		goto out;
	rec.time_unix_nano = now_ns;
	rec.observed_time_unix_nano = now_ns;
	rec.severity_number = otlp_severity_number(severity);
	rec.severity_text = (char *)otlp_severity_text(severity);
	body.value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
	body.string_value = (char *)msg;
	rec.body = &body;
	if (pack_into(&rec.base, &out->record, &out->record_len, &out->record_cap) < 0)
		goto out;
	rc = pack_resource(ctx, &p, service, sizeof service - 1, &self, out);
out:
	pairs_free(&p);
	return rc;
}

void record_bytes_free(struct record_bytes *b)
{
	free(b->record);
	free(b->resource);
	memset(b, 0, sizeof *b);
}
