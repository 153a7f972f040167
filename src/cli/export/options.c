/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehsyslog/settings.h>

#include "cli/provider.h"
#include "cli/read_file.h"
#include "cli/options.h"
#include "cli/util.h"
#include "cli/export/options.h"

static const char usage[] =
	"Usage: ehsyslog export [OPTIONS]\n"
	"Send syslog events, as programs log them, to an OpenTelemetry collector\n"
	"as OTLP log records (OTLP/HTTP: POST ENDPOINT/v1/logs), until\n"
	"interrupted.  Follows the tracepoints as tail does (same private tracefs\n"
	"instance, same filters); ehsyslog(1), EXPORT, has the record's fields.\n"
	"\n"
	"  -e, --endpoint URL       the collector (default http://localhost:4318)\n"
	"      --logs-endpoint URL  post to URL as it is (no /v1/logs added);\n"
	"                           overrides --endpoint\n"
	"  -H, --header-file FILE   \"Name: value\" lines sent with every request\n"
	"                           (an Authorization token, kept off the command line)\n"
	"  -r, --resource KEY=VALUE add to every record's resource; may be repeated\n"
	"      --encoding E         protobuf (the default) or json\n"
	"      --compression C      none (the default) or gzip\n"
	"      --cacert FILE        trust this CA for https (default: the system's)\n"
	"      --cert FILE, --key FILE  client certificate and key for https\n"
	"      --batch-size N       records per request at most (default 512)\n"
	"      --batch-delay MS     a record waits at most MS for its batch (default 1000)\n"
	"      --batch-bytes N      a request's body at most N bytes (default 1048576,\n"
	"                           nginx's default limit); 0: no limit\n"
	"      --queue-size N       records held while the collector is away (default 10000)\n"
	"      --queue-bytes N      their bytes at most (default 67108864)\n"
	"      --queue-dir DIR      keep the queue in DIR too, for the next run\n"
	"      --request-timeout MS one request at most (default 10000)\n"
	"      --connect-timeout MS connecting at most (default 5000)\n"
	"      --backoff-initial MS first wait before a retry (default 500)\n"
	"      --backoff-max MS     longest wait between retries, Retry-After's too\n"
	"                           (default 30000)\n"
	"      --max-elapsed-time MS  a batch is retried this long at most, then\n"
	"                           dropped (default 300000); 0: retried until taken\n"
	"      --flush-timeout MS   after SIGTERM or SIGINT, sending what is queued\n"
	"                           takes at most MS (default 5000)\n"
	"  -t, --timeout SECONDS    exit after this many seconds\n"
	"  -P, --provider NAME      the provider to follow (default Syslog):\n"
	"                           " CLI_PROVIDER_RULE "\n"
	"  -s, --min-severity S     only events at least this severe\n"
	"  -f, --facility F[,F]     only these facilities; may be repeated\n"
	"  -p, --program NAME       only events of this program (event name)\n"
	"  -u, --uprobes[=LIB]      read the library's USDT probes through uprobe\n"
	"                           events, as tail does (the default where the kernel\n"
	"                           has no user_events); LIB: that copy of the library\n"
	"  -h, --help               show this help\n"
	"\n"
	"The [export] section of " EHSYSLOG_CONFIG_PATH " ($EHSYSLOG_CONFIG\n"
	"names another file) sets the same as KEY = VALUE lines, KEY being a long\n"
	"option above (not timeout or uprobes); the command line overrides them, and adds to\n"
	"the file's --resource and --facility.\n"
	"\n"
	"Retries 429, 502, 503, 504 and connection failures with exponential backoff\n"
	"and jitter (or as Retry-After says, from the backoff to --backoff-max);\n"
	"other answers, and answers over 64 KiB, drop the batch.  Records dropped\n"
	"(queue full, refused, given up) are counted, and a record saying how many\n"
	"follows once the collector is back; records a partial success rejects are\n"
	"counted the same way.  Each new failure, with the collector's message, goes\n"
	"to stderr once; ehsyslog status shows the last.\n"
	"At exit the counts go to stderr.  Exit status: 0 ok, 1 runtime error,\n"
	"2 usage error, 3 kernel with neither user_events nor uprobe events,\n"
	"4 permission denied.\n";

enum {
	OPT_CACERT = 256, OPT_CERT, OPT_KEY, OPT_BATCH_SIZE, OPT_BATCH_DELAY, OPT_QUEUE_SIZE,
	OPT_QUEUE_BYTES, OPT_REQUEST_TIMEOUT, OPT_CONNECT_TIMEOUT, OPT_BACKOFF_INITIAL,
	OPT_BACKOFF_MAX, OPT_FLUSH_TIMEOUT, OPT_ENCODING, OPT_COMPRESSION, OPT_LOGS_ENDPOINT,
	OPT_BATCH_BYTES, OPT_MAX_ELAPSED, OPT_QUEUE_DIR,
};

/* Every option that takes a value is also a key of the [export] section
 * of ehsyslog.conf(5), by its long name, handled by the same case of
 * apply(): a new option is a new key, with nothing else to keep in step.
 * Only --timeout is refused there (file_refuses). */
static const struct option longopts[] = {
	{ "endpoint", required_argument, NULL, 'e' },
	{ "logs-endpoint", required_argument, NULL, OPT_LOGS_ENDPOINT },
	{ "header-file", required_argument, NULL, 'H' },
	{ "resource", required_argument, NULL, 'r' },
	{ "cacert", required_argument, NULL, OPT_CACERT },
	{ "cert", required_argument, NULL, OPT_CERT },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "batch-size", required_argument, NULL, OPT_BATCH_SIZE },
	{ "batch-delay", required_argument, NULL, OPT_BATCH_DELAY },
	{ "batch-bytes", required_argument, NULL, OPT_BATCH_BYTES },
	{ "queue-size", required_argument, NULL, OPT_QUEUE_SIZE },
	{ "queue-bytes", required_argument, NULL, OPT_QUEUE_BYTES },
	{ "queue-dir", required_argument, NULL, OPT_QUEUE_DIR },
	{ "request-timeout", required_argument, NULL, OPT_REQUEST_TIMEOUT },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "backoff-initial", required_argument, NULL, OPT_BACKOFF_INITIAL },
	{ "backoff-max", required_argument, NULL, OPT_BACKOFF_MAX },
	{ "max-elapsed-time", required_argument, NULL, OPT_MAX_ELAPSED },
	{ "flush-timeout", required_argument, NULL, OPT_FLUSH_TIMEOUT },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "timeout", required_argument, NULL, 't' },
	{ "uprobes", optional_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	FILTER_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* A number option in 1..max (0 allowed with zero_ok) into *v.  where is
 * "export", or "export: FILE:LINE" for a key of the file. */
static bool number(const char *where, const char *name, const char *arg, unsigned long max,
		   bool zero_ok, unsigned long *v)
{
	if (cli_parse_ulong(arg, max, v) && (zero_ok || *v > 0))
		return true;
	fprintf(stderr, "ehsyslog %s: bad %s '%s'\n", where, name, arg);
	return false;
}

/* arg is the first (*v = 0) or the second (*v = 1) of two words. */
static bool one_of(const char *where, const char *name, const char *arg, const char *first,
		   const char *second, unsigned long *v)
{
	if (strcmp(arg, first) == 0 || strcmp(arg, second) == 0) {
		*v = strcmp(arg, second) == 0;
		return true;
	}
	fprintf(stderr, "ehsyslog %s: bad %s '%s' (%s or %s)\n", where, name, arg, first, second);
	return false;
}

static bool resource(struct export_options *o, char *arg, const char *where)
{
	char *eq = strchr(arg, '=');

	if (eq == NULL || eq == arg) {
		fprintf(stderr, "ehsyslog %s: bad resource '%s' (KEY=VALUE)\n", where, arg);
		return false;
	}
	if (o->resource_count == EXPORT_RESOURCE_MAX) {
		fprintf(stderr, "ehsyslog %s: more than %d resource pairs\n", where,
			EXPORT_RESOURCE_MAX);
		return false;
	}
	*eq = '\0';	/* ours to cut: argv, or a copy of the file's value */
	o->resource[o->resource_count++] = (struct record_pair){ arg, eq + 1 };
	return true;
}

/* --endpoint (*to is o->endpoint) or --logs-endpoint (o->logs_endpoint). */
static bool endpoint(const char **to, const char *arg, const char *where)
{
	if (strncmp(arg, "http://", 7) != 0 && strncmp(arg, "https://", 8) != 0) {
		fprintf(stderr, "ehsyslog %s: endpoint '%s' is not an http:// or https:// URL\n",
			where, arg);
		return false;
	}
	*to = arg;
	return true;
}

/* Applies option opt (getopt_long's value) with arg; false, after
 * saying why, for a bad value.  arg stays referenced: it must live as
 * long as o. */
static bool apply(struct export_options *o, int opt, char *arg, const char *where)
{
	unsigned long v;
	bool ok = true;

	switch (opt) {
	case 'e':
		return endpoint(&o->endpoint, arg, where);
	case OPT_LOGS_ENDPOINT:
		return endpoint(&o->logs_endpoint, arg, where);
	case 'H':
		o->http.header_file = arg;
		break;
	case 'r':
		return resource(o, arg, where);
	case OPT_CACERT:
		o->http.ca_file = arg;
		break;
	case OPT_CERT:
		o->http.cert_file = arg;
		break;
	case OPT_KEY:
		o->http.key_file = arg;
		break;
	case OPT_BATCH_SIZE:
		if ((ok = number(where, "batch size", arg, 1000000, false, &v)))
			o->send.batch_max = v;
		break;
	case OPT_BATCH_DELAY:
		if ((ok = number(where, "batch delay", arg, 3600000, true, &v)))
			o->send.delay_ms = (long)v;
		break;
	case OPT_BATCH_BYTES:
		if ((ok = number(where, "batch bytes", arg, SIZE_MAX / 2, true, &v)))
			o->send.batch_bytes = v;
		break;
	case OPT_QUEUE_SIZE:
		if ((ok = number(where, "queue size", arg, 100000000, false, &v)))
			o->queue_max = v;
		break;
	case OPT_QUEUE_BYTES:
		if ((ok = number(where, "queue bytes", arg, SIZE_MAX / 2, false, &v)))
			o->queue_bytes = v;
		break;
	case OPT_QUEUE_DIR:
		o->queue_dir = arg[0] != '\0' ? arg : NULL;	/* "": none, over the file's */
		break;
	case OPT_REQUEST_TIMEOUT:
		if ((ok = number(where, "request timeout", arg, 3600000, false, &v)))
			o->send.timeout_ms = (long)v;
		break;
	case OPT_CONNECT_TIMEOUT:
		if ((ok = number(where, "connect timeout", arg, 3600000, false, &v)))
			o->http.connect_timeout_ms = (long)v;
		break;
	case OPT_BACKOFF_INITIAL:
		if ((ok = number(where, "backoff", arg, 3600000, false, &v)))
			o->send.backoff_initial_ms = (long)v;
		break;
	case OPT_BACKOFF_MAX:
		if ((ok = number(where, "backoff", arg, 3600000, false, &v)))
			o->send.backoff_max_ms = (long)v;
		break;
	case OPT_MAX_ELAPSED:
		if ((ok = number(where, "max elapsed time", arg, 86400000, true, &v)))
			o->send.max_elapsed_ms = (long)v;
		break;
	case OPT_FLUSH_TIMEOUT:
		if ((ok = number(where, "flush timeout", arg, 3600000, true, &v)))
			o->flush_ms = (long)v;
		break;
	case OPT_ENCODING:
		if ((ok = one_of(where, "encoding", arg, "protobuf", "json", &v)))
			o->send.encoding = v ? REQUEST_JSON : REQUEST_PROTOBUF;
		break;
	case OPT_COMPRESSION:
		if ((ok = one_of(where, "compression", arg, "none", "gzip", &v)))
			o->send.gzip = v;
		break;
	case 't':
		return number(where, "timeout", arg, 1000000000, false, &o->run_seconds);
	case 'u':
		o->uprobes = true;
		o->uprobes_lib = arg;
		break;
	case 'P':
		/* As filter_option would refuse it, but without its "Try
		 * --help", which means nothing for a line of the file. */
		if (ehs_provider_valid(arg, strlen(arg)) != 0) {
			fprintf(stderr, "ehsyslog %s: invalid provider name '%s': must be "
				CLI_PROVIDER_RULE "\n", where, arg);
			return false;
		}
		return filter_option(&o->filter, opt, arg, where) == 1;
	default:
		return filter_option(&o->filter, opt, arg, where) == 1;
	}
	return ok;
}

void export_options_init(struct export_options *o)
{
	memset(o, 0, sizeof *o);
	o->endpoint = "http://localhost:4318";
	o->filter = (struct filter){ .provider = "Syslog", .min_severity = -1 };
	/* 300 s: the OpenTelemetry Collector's exporters' max_elapsed_time. */
	o->send = (struct sender_config){ .batch_max = 512, .batch_bytes = 1u << 20,
					  .delay_ms = 1000, .timeout_ms = 10000,
					  .backoff_initial_ms = 500, .backoff_max_ms = 30000,
					  .max_elapsed_ms = 300000 };
	o->http.connect_timeout_ms = 5000;
	o->queue_max = 10000;
	o->queue_bytes = 64u << 20;
	o->flush_ms = 5000;
}

/* --timeout makes a run that ends by itself: a service reading the file
 * would stop, which no one wants of a setting.  (--uprobes, whose value
 * is optional, is refused with the options that take none.) */
static bool file_refuses(const struct option *opt)
{
	return opt->has_arg != required_argument || strcmp(opt->name, "timeout") == 0;
}

struct file_walk {
	struct export_options *o;
	const char *path;
	int errors;
};

/* Keeps s until export_options_free; NULL when out of memory. */
static char *keep(struct export_options *o, const char *s, size_t len)
{
	char *copy, **grown;

	grown = realloc(o->kept, (o->kept_count + 1) * sizeof *o->kept);
	if (grown == NULL)
		return NULL;
	o->kept = grown;
	copy = strndup(s, len);
	if (copy != NULL)
		o->kept[o->kept_count++] = copy;
	return copy;
}

static int file_pair(void *ctx, unsigned line, const char *key, size_t key_len,
		     const char *value, size_t value_len)
{
	struct file_walk *w = ctx;
	const struct option *opt;
	char where[PATH_MAX + 64];
	char *arg;

	snprintf(where, sizeof where, "export: %s:%u", w->path, line);
	for (opt = longopts; opt->name != NULL; opt++)
		if (strlen(opt->name) == key_len && memcmp(opt->name, key, key_len) == 0)
			break;
	if (opt->name != NULL && file_refuses(opt)) {
		fprintf(stderr, "ehsyslog %s: '%s' is for the command line only\n", where, opt->name);
		w->errors++;
		return 0;
	}
	if (opt->name == NULL) {
		fprintf(stderr, "ehsyslog %s: unknown key '%.*s' in [export] "
			"(the long options of ehsyslog export that take a value)\n",
			where, (int)key_len, key);
		w->errors++;
		return 0;
	}
	arg = keep(w->o, value, value_len);
	if (arg == NULL) {
		fprintf(stderr, "ehsyslog %s: out of memory\n", where);
		return -ENOMEM;
	}
	if (!apply(w->o, opt->val, arg, where))
		w->errors++;
	return 0;
}

int export_options_load(struct export_options *o, const char *path)
{
	struct file_walk w = { o, path, 0 };
	struct ehs_config_status st;
	struct stat sb;
	char *text;
	size_t len;
	int rc;

	rc = cli_read_file(path, 0, EXPORT_CONFIG_MAX, &text, &len, &sb);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0) {
		fprintf(stderr, "ehsyslog export: cannot read %s: %s\n", path, strerror(-rc));
		return rc;
	}
	rc = ehs_config_section(text, len, "export", file_pair, &w, &st);
	free(text);
	if (rc == -1) {
		fprintf(stderr, "ehsyslog export: %s:%u: %s\n", path, st.line,
			ehs_config_strerror(st.error));
		w.errors++;
	} else if (rc < 0) {
		return rc;
	}
	return w.errors;
}

int export_options_parse(struct export_options *o, int argc, char **argv, const char *config)
{
	struct given {
		int opt;
		char *arg;
	} *given;
	struct cli_options opts = CLI_OPTIONS("export", ":e:H:r:t:uh" FILTER_SHORT_OPTIONS,
					       longopts, usage);
	size_t n = 0, len;
	int opt, rc;

	export_options_init(o);
	/* The command line first, only collected: --help and its mistakes
	 * come before the file's; then the file; then the command line
	 * applied on top of it. */
	given = calloc((size_t)argc + 1, sizeof *given);
	if (given == NULL) {
		fprintf(stderr, "ehsyslog export: out of memory\n");
		return CLI_EXIT_RUNTIME;
	}
	while ((opt = cli_option(&opts, argc, argv)) >= 0)
		given[n++] = (struct given){ opt, optarg };
	if (opt == CLI_OPTIONS_EXIT) {
		free(given);
		return opts.exit;
	}
	if (optind != argc) {
		free(given);
		return cli_usage_error("export", "unexpected argument '%s'", argv[optind]);
	}
	if (config != NULL && (rc = export_options_load(o, config)) != 0) {
		rc = rc < 0 ? cli_exit_for_errno(-rc) : CLI_EXIT_USAGE;
		goto out;
	}
	rc = CLI_EXIT_USAGE;
	for (size_t i = 0; i < n; i++)
		if (!apply(o, given[i].opt, given[i].arg, "export")) {
			/* apply's messages serve the file's lines too, so
			 * the command line's hint is added here. */
			cli_usage_hint("export");
			goto out;
		}
	/* The OTLP exporter rule: the signal's path goes after the base URL;
	 * a signal's own URL is used as it is. */
	len = strlen(o->endpoint);
	while (len > 0 && o->endpoint[len - 1] == '/')
		len--;
	if (o->logs_endpoint != NULL ? asprintf(&o->url, "%s", o->logs_endpoint) < 0
	    : asprintf(&o->url, "%.*s/v1/logs", (int)len, o->endpoint) < 0) {
		o->url = NULL;
		fprintf(stderr, "ehsyslog export: out of memory\n");
		rc = CLI_EXIT_RUNTIME;
		goto out;
	}
	o->http.url = o->url;
	o->http.content_type = request_content_type(o->send.encoding);
	o->http.content_encoding = o->send.gzip ? "gzip" : NULL;
	rc = -1;
out:
	free(given);
	if (rc != -1)
		export_options_free(o);
	return rc;
}

void export_options_free(struct export_options *o)
{
	free(o->url);
	o->url = NULL;
	for (size_t i = 0; i < o->kept_count; i++)
		free(o->kept[i]);
	free(o->kept);
	o->kept = NULL;
	o->kept_count = 0;
}
