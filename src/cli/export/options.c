/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/provider.h"
#include "cli/util.h"
#include "cli/export/options.h"

static const char usage[] =
	"usage: ehsyslog export [OPTIONS]\n"
	"Send syslog events, as programs log them, to an OpenTelemetry collector\n"
	"as OTLP log records (OTLP/HTTP: POST ENDPOINT/v1/logs), until\n"
	"interrupted.  Follows the tracepoints as tail does (same private tracefs\n"
	"instance, same filters); ehsyslog(1), EXPORT, has the record's fields.\n"
	"\n"
	"  -e, --endpoint URL       the collector (default http://localhost:4318)\n"
	"  -H, --header-file FILE   \"Name: value\" lines sent with every request\n"
	"                           (an Authorization token, kept off the command line)\n"
	"  -r, --resource KEY=VALUE add to every record's resource; may be repeated\n"
	"      --encoding E         protobuf (the default) or json\n"
	"      --compression C      none (the default) or gzip\n"
	"      --cacert FILE        trust this CA for https (default: the system's)\n"
	"      --cert FILE, --key FILE  client certificate and key for https\n"
	"      --batch-size N       records per request at most (default 512)\n"
	"      --batch-delay MS     a record waits at most MS for its batch (default 1000)\n"
	"      --queue-size N       records held while the collector is away (default 10000)\n"
	"      --queue-bytes N      their bytes at most (default 67108864)\n"
	"      --request-timeout MS one request at most (default 10000)\n"
	"      --connect-timeout MS connecting at most (default 5000)\n"
	"      --backoff-initial MS first wait before a retry (default 500)\n"
	"      --backoff-max MS     longest wait between retries (default 30000)\n"
	"      --flush-timeout MS   after SIGTERM or SIGINT, sending what is queued\n"
	"                           takes at most MS (default 5000)\n"
	"  -t, --timeout SECONDS    exit after this many seconds\n"
	"  -P, --provider NAME      the provider to follow (default Syslog):\n"
	"                           " CLI_PROVIDER_RULE "\n"
	"  -s, --min-severity S     only events at least this severe\n"
	"  -f, --facility F[,F]     only these facilities; may be repeated\n"
	"  -p, --program NAME       only events of this program (event name)\n"
	"  -h, --help               show this help\n"
	"\n"
	"Retries 429, 502, 503, 504 and connection failures with exponential backoff\n"
	"(or as Retry-After says); records that find the queue full are dropped and\n"
	"counted, and a record saying how many follows once the collector is back;\n"
	"records a partial success rejects are counted the same way.\n"
	"At exit the counts go to stderr.  Exit status: 0 ok, 1 runtime error,\n"
	"2 usage error, 3 kernel without user_events, 4 permission denied.\n";

enum {
	OPT_CACERT = 256, OPT_CERT, OPT_KEY, OPT_BATCH_SIZE, OPT_BATCH_DELAY, OPT_QUEUE_SIZE,
	OPT_QUEUE_BYTES, OPT_REQUEST_TIMEOUT, OPT_CONNECT_TIMEOUT, OPT_BACKOFF_INITIAL,
	OPT_BACKOFF_MAX, OPT_FLUSH_TIMEOUT, OPT_ENCODING, OPT_COMPRESSION,
};

/* A number option in 1..max (0 allowed with zero_ok) into *v. */
static bool number(const char *name, const char *arg, unsigned long max, bool zero_ok,
		   unsigned long *v)
{
	if (cli_parse_ulong(arg, max, v) && (zero_ok || *v > 0))
		return true;
	fprintf(stderr, "ehsyslog export: bad %s '%s'\n", name, arg);
	return false;
}

/* arg is the first (*v = 0) or the second (*v = 1) of two words. */
static bool one_of(const char *name, const char *arg, const char *first, const char *second,
		   unsigned long *v)
{
	if (strcmp(arg, first) == 0 || strcmp(arg, second) == 0) {
		*v = strcmp(arg, second) == 0;
		return true;
	}
	fprintf(stderr, "ehsyslog export: bad %s '%s' (%s or %s)\n", name, arg, first, second);
	return false;
}

static bool resource(struct export_options *o, char *arg)
{
	char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg) {
		fprintf(stderr, "ehsyslog export: bad resource '%s' (KEY=VALUE)\n", arg);
		return false;
	}
	if (o->resource_count == EXPORT_RESOURCE_MAX) {
		fprintf(stderr, "ehsyslog export: more than %d --resource\n", EXPORT_RESOURCE_MAX);
		return false;
	}
	*eq = '\0';	/* argv is ours to cut */
	o->resource[o->resource_count++] = (struct record_pair){ arg, eq + 1 };
	return true;
}

int export_options_parse(struct export_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "endpoint", required_argument, NULL, 'e' },
		{ "header-file", required_argument, NULL, 'H' },
		{ "resource", required_argument, NULL, 'r' },
		{ "cacert", required_argument, NULL, OPT_CACERT },
		{ "cert", required_argument, NULL, OPT_CERT },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "batch-size", required_argument, NULL, OPT_BATCH_SIZE },
		{ "batch-delay", required_argument, NULL, OPT_BATCH_DELAY },
		{ "queue-size", required_argument, NULL, OPT_QUEUE_SIZE },
		{ "queue-bytes", required_argument, NULL, OPT_QUEUE_BYTES },
		{ "request-timeout", required_argument, NULL, OPT_REQUEST_TIMEOUT },
		{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
		{ "backoff-initial", required_argument, NULL, OPT_BACKOFF_INITIAL },
		{ "backoff-max", required_argument, NULL, OPT_BACKOFF_MAX },
		{ "flush-timeout", required_argument, NULL, OPT_FLUSH_TIMEOUT },
		{ "encoding", required_argument, NULL, OPT_ENCODING },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		FILTER_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *endpoint = "http://localhost:4318";
	unsigned long v;
	size_t len;
	int opt, rc;

	memset(o, 0, sizeof *o);
	o->filter = (struct filter){ .provider = "Syslog", .min_severity = -1 };
	o->send = (struct sender_config){ .batch_max = 512, .delay_ms = 1000, .timeout_ms = 10000,
					  .backoff_initial_ms = 500, .backoff_max_ms = 30000 };
	o->http.connect_timeout_ms = 5000;
	o->queue_max = 10000;
	o->queue_bytes = 64u << 20;
	o->flush_ms = 5000;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "e:H:r:t:h" FILTER_SHORT_OPTIONS, longopts, NULL)) != -1) {
		bool ok = true;

		switch (opt) {
		case 'e':
			endpoint = optarg;
			break;
		case 'H':
			o->http.header_file = optarg;
			break;
		case 'r':
			ok = resource(o, optarg);
			break;
		case OPT_CACERT:
			o->http.ca_file = optarg;
			break;
		case OPT_CERT:
			o->http.cert_file = optarg;
			break;
		case OPT_KEY:
			o->http.key_file = optarg;
			break;
		case OPT_BATCH_SIZE:
			if ((ok = number("batch size", optarg, 1000000, false, &v)))
				o->send.batch_max = v;
			break;
		case OPT_BATCH_DELAY:
			if ((ok = number("batch delay", optarg, 3600000, true, &v)))
				o->send.delay_ms = (long)v;
			break;
		case OPT_QUEUE_SIZE:
			if ((ok = number("queue size", optarg, 100000000, false, &v)))
				o->queue_max = v;
			break;
		case OPT_QUEUE_BYTES:
			if ((ok = number("queue bytes", optarg, SIZE_MAX / 2, false, &v)))
				o->queue_bytes = v;
			break;
		case OPT_REQUEST_TIMEOUT:
			if ((ok = number("request timeout", optarg, 3600000, false, &v)))
				o->send.timeout_ms = (long)v;
			break;
		case OPT_CONNECT_TIMEOUT:
			if ((ok = number("connect timeout", optarg, 3600000, false, &v)))
				o->http.connect_timeout_ms = (long)v;
			break;
		case OPT_BACKOFF_INITIAL:
			if ((ok = number("backoff", optarg, 3600000, false, &v)))
				o->send.backoff_initial_ms = (long)v;
			break;
		case OPT_BACKOFF_MAX:
			if ((ok = number("backoff", optarg, 3600000, false, &v)))
				o->send.backoff_max_ms = (long)v;
			break;
		case OPT_FLUSH_TIMEOUT:
			if ((ok = number("flush timeout", optarg, 3600000, true, &v)))
				o->flush_ms = (long)v;
			break;
		case OPT_ENCODING:
			if ((ok = one_of("encoding", optarg, "protobuf", "json", &v)))
				o->send.encoding = v ? REQUEST_JSON : REQUEST_PROTOBUF;
			break;
		case OPT_COMPRESSION:
			if ((ok = one_of("compression", optarg, "none", "gzip", &v)))
				o->send.gzip = v;
			break;
		case 't':
			ok = number("timeout", optarg, 1000000000, false, &o->run_seconds);
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			rc = filter_option(&o->filter, opt, optarg, "export");
			if (rc == 1)
				break;
			if (rc == 0)
				fputs(usage, stderr);
			return CLI_EXIT_USAGE;
		}
		if (!ok)
			return CLI_EXIT_USAGE;
	}
	if (optind != argc) {
		fprintf(stderr, "ehsyslog export: unexpected argument '%s'\n", argv[optind]);
		return CLI_EXIT_USAGE;
	}
	if (strncmp(endpoint, "http://", 7) != 0 && strncmp(endpoint, "https://", 8) != 0) {
		fprintf(stderr, "ehsyslog export: endpoint '%s' is not an http:// or https:// URL\n",
			endpoint);
		return CLI_EXIT_USAGE;
	}
	/* The OTLP exporter rule: the signal's path goes after the base URL. */
	len = strlen(endpoint);
	while (len > 0 && endpoint[len - 1] == '/')
		len--;
	if (asprintf(&o->url, "%.*s/v1/logs", (int)len, endpoint) < 0) {
		o->url = NULL;
		fprintf(stderr, "ehsyslog export: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	o->http.url = o->url;
	o->http.content_type = request_content_type(o->send.encoding);
	o->http.content_encoding = o->send.gzip ? "gzip" : NULL;
	return -1;
}

void export_options_free(struct export_options *o)
{
	free(o->url);
	o->url = NULL;
}
