/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include "cli/export/json.h"
#include "cli/export/request.h"

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

static int encode(const Request *req, enum request_encoding e, uint8_t **body, size_t *len)
{
	if (e == REQUEST_JSON)
		return json_encode(&req->base, body, len);
	*len = opentelemetry__proto__collector__logs__v1__export_logs_service_request__get_packed_size(req);
	*body = malloc(*len ? *len : 1);
	if (*body == NULL)
		return -1;
	opentelemetry__proto__collector__logs__v1__export_logs_service_request__pack(req, *body);
	return 0;
}

int request_pack(const struct queue *q, size_t n, enum request_encoding enc, uint8_t **body,
		 size_t *len)
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
	if (encode(&req, enc, body, len) < 0) {
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
