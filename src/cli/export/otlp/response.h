/* SPDX-License-Identifier: MIT */
/*
 * The body of an answer.  A 200's is an ExportLogsServiceResponse, in the
 * encoding the request was sent in.  Its partial_success says how many
 * records the collector rejected and, perhaps, why (the OTLP
 * specification, "OTLP/HTTP Response", "Partial Success"); an empty body
 * or an empty partial_success is full success.  An error answer's is a
 * google.rpc.Status ("Failures"), whose message says why.
 */
#ifndef EHSYSLOG_CLI_EXPORT_RESPONSE_H
#define EHSYSLOG_CLI_EXPORT_RESPONSE_H

#include <stddef.h>
#include <stdint.h>

#include "cli/export/otlp/request.h"

struct response {
	unsigned long long rejected;	/* rejected_log_records; negative read as 0 */
	char message[512];	/* error_message, cut to fit, control bytes as '?' */
};

/* Reads body[0..len) into r.  0, or -1 (r zeroed) when the body is not an
 * ExportLogsServiceResponse in encoding e. */
int response_parse(const uint8_t *body, size_t len, enum request_encoding e, struct response *r);

/* The message of an error answer's body into r->message (r->rejected
 * 0), read as its content_type says: application/x-protobuf or
 * application/json, a google.rpc.Status; text/plain, its first line;
 * none (""), encoding e, which the specification has the server answer
 * in.  0, or -1 (r zeroed) for a body that is none of these, or empty. */
int response_error(const uint8_t *body, size_t len, const char *content_type,
		   enum request_encoding e, struct response *r);

#endif
