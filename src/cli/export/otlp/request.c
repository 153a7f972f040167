/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include "cli/export/otlp/json.h"
#include "cli/export/otlp/request.h"
#include "cli/export/otlp/wire.h"

typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest Request;
typedef Opentelemetry__Proto__Logs__V1__ResourceLogs ResourceLogs;
typedef Opentelemetry__Proto__Logs__V1__ScopeLogs ScopeLogs;
typedef Opentelemetry__Proto__Logs__V1__LogRecord LogRecord;
typedef Opentelemetry__Proto__Resource__V1__Resource Resource;
typedef Opentelemetry__Proto__Common__V1__InstrumentationScope Scope;

static bool same_resource(const struct queue_entry *a, const struct queue_entry *b)
{
	return a->resource_len == b->resource_len &&
	       memcmp(a->resource, b->resource, a->resource_len) == 0;
}

const char *request_content_type(enum request_encoding e)
{
	return e == REQUEST_JSON ? "application/json" : "application/x-protobuf";
}

/* Field numbers of the vendored proto/ (logs_service.proto, logs.proto,
 * common.proto). */
enum {
	REQUEST_RESOURCE_LOGS = 1,
	RESOURCE_LOGS_RESOURCE = 1,
	RESOURCE_LOGS_SCOPE_LOGS = 2,
	SCOPE_LOGS_SCOPE = 1,
	SCOPE_LOGS_LOG_RECORDS = 2,
	SCOPE_NAME = 1,
	SCOPE_VERSION = 2,
};

/* The protobuf body, put together from the queued bytes as they are:
 * each record and resource was packed once, when it was queued.  The
 * same bytes protobuf-c writes for the message tree (test_export checks
 * it), without unpacking and packing each record again. */
static int pack_protobuf(const struct queue *q, size_t n, uint8_t **body, size_t *len)
{
	static const char name[] = PACKAGE_NAME, version[] = PACKAGE_VERSION;
	size_t scope = wire_len_delimited(SCOPE_NAME, sizeof name - 1) +
		       wire_len_delimited(SCOPE_VERSION, sizeof version - 1);
	struct wire w = { 0 };

	for (size_t i = 0, end; i < n; i = end) {
		const struct queue_entry *e = queue_at(q, i);
		size_t records = 0, scope_logs, resource_logs;

		/* A run of records from e's resource: one ResourceLogs. */
		for (end = i; end < n && (end == i || same_resource(queue_at(q, end), e)); end++)
			records += wire_len_delimited(SCOPE_LOGS_LOG_RECORDS, queue_at(q, end)->record_len);
		scope_logs = wire_len_delimited(SCOPE_LOGS_SCOPE, scope) + records;
		resource_logs = wire_len_delimited(RESOURCE_LOGS_RESOURCE, e->resource_len) +
				wire_len_delimited(RESOURCE_LOGS_SCOPE_LOGS, scope_logs);
		wire_header(&w, REQUEST_RESOURCE_LOGS, resource_logs);
		wire_delimited(&w, RESOURCE_LOGS_RESOURCE, e->resource, e->resource_len);
		wire_header(&w, RESOURCE_LOGS_SCOPE_LOGS, scope_logs);
		wire_header(&w, SCOPE_LOGS_SCOPE, scope);
		wire_delimited(&w, SCOPE_NAME, name, sizeof name - 1);
		wire_delimited(&w, SCOPE_VERSION, version, sizeof version - 1);
		for (size_t j = i; j < end; j++)
			wire_delimited(&w, SCOPE_LOGS_LOG_RECORDS, queue_at(q, j)->record,
				       queue_at(q, j)->record_len);
	}
	if (w.nomem || (w.buf == NULL && (w.buf = malloc(1)) == NULL)) {
		free(w.buf);
		return -1;
	}
	*body = w.buf;
	*len = w.len;
	return 0;
}

/* The JSON body: json.c walks a protobuf-c message tree, so the records
 * are unpacked into one. */
static int pack_json(const struct queue *q, size_t n, uint8_t **body, size_t *len)
{
	static const ResourceLogs rl_init = OPENTELEMETRY__PROTO__LOGS__V1__RESOURCE_LOGS__INIT;
	static const ScopeLogs sl_init = OPENTELEMETRY__PROTO__LOGS__V1__SCOPE_LOGS__INIT;
	Request req = OPENTELEMETRY__PROTO__COLLECTOR__LOGS__V1__EXPORT_LOGS_SERVICE_REQUEST__INIT;
	Scope scope = OPENTELEMETRY__PROTO__COMMON__V1__INSTRUMENTATION_SCOPE__INIT;
	ResourceLogs *rl = calloc(n ? n : 1, sizeof *rl);
	ResourceLogs **rlp = calloc(n ? n : 1, sizeof *rlp);
	ScopeLogs *sl = calloc(n ? n : 1, sizeof *sl);
	ScopeLogs **slp = calloc(n ? n : 1, sizeof *slp);
	LogRecord **recs = calloc(n ? n : 1, sizeof *recs);
	Resource **res = calloc(n ? n : 1, sizeof *res);
	size_t runs = 0;
	int rc = -1;

	*body = NULL;
	if (rl == NULL || rlp == NULL || sl == NULL || slp == NULL || recs == NULL || res == NULL)
		goto out;
	scope.name = (char *)PACKAGE_NAME;
	scope.version = (char *)PACKAGE_VERSION;
	for (size_t i = 0; i < n; i++) {
		const struct queue_entry *e = queue_at(q, i);

		recs[i] = opentelemetry__proto__logs__v1__log_record__unpack(NULL, e->record_len, e->record);
		if (recs[i] == NULL)
			goto out;
		if (i > 0 && same_resource(e, queue_at(q, i - 1))) {
			slp[runs - 1]->n_log_records++;
			continue;
		}
		res[runs] = opentelemetry__proto__resource__v1__resource__unpack(NULL, e->resource_len,
										 e->resource);
		if (res[runs] == NULL)
			goto out;
		rl[runs] = rl_init;
		sl[runs] = sl_init;
		rlp[runs] = &rl[runs];
		slp[runs] = &sl[runs];
		rl[runs].resource = res[runs];
		rl[runs].n_scope_logs = 1;
		rl[runs].scope_logs = &slp[runs];
		sl[runs].scope = &scope;
		sl[runs].log_records = &recs[i];
		sl[runs].n_log_records = 1;
		runs++;
	}
	req.n_resource_logs = runs;
	req.resource_logs = rlp;
	if (json_encode(&req.base, body, len) < 0) {
		*body = NULL;
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < n && recs != NULL; i++)
		if (recs[i] != NULL)
			opentelemetry__proto__logs__v1__log_record__free_unpacked(recs[i], NULL);
	for (size_t i = 0; i < runs; i++)
		opentelemetry__proto__resource__v1__resource__free_unpacked(res[i], NULL);
	free(res);
	free(recs);
	free(slp);
	free(sl);
	free(rlp);
	free(rl);
	return rc;
}

int request_pack(const struct queue *q, size_t n, enum request_encoding enc, uint8_t **body,
		 size_t *len)
{
	*body = NULL;
	return enc == REQUEST_JSON ? pack_json(q, n, body, len) : pack_protobuf(q, n, body, len);
}
