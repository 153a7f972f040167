/* SPDX-License-Identifier: MIT */
/* ehsyslog status: what stands between a program's syslog call and a
 * tracer, in one report. */
#include "config.h"

#include "cli/commands.h"
#include "cli/names.h"
#include "cli/paths.h"
#include "cli/preload/preload_file.h"
#include "cli/preload/preload_list.h"
#include "cli/preload/preload_unit.h"
#include "cli/provider.h"
#include "cli/read_file.h"
#include "cli/admin/settings.h"
#include "cli/admin/status_uprobes.h"
#include "cli/export/state.h"
#include "cli/stale.h"
#include "cli/transport.h"
#include "cli/user_events_access.h"
#include "cli/options.h"
#include "cli/util.h"

#include <ehsyslog/settings.h>
#include <ehsyslog/user_events.h>
#include <eventheader/eventheader.h>

/* stravis only; NetBSD's argument order for the strn* family. */
#define LIBBSD_NETBSD_VIS 1
#include <bsd/vis.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char status_usage[] =
	"Usage: ehsyslog status [--program NAME]\n"
	"Report whether this kernel has user_events and this user may write\n"
	"them, which tracepoints of the configured provider exist and who\n"
	"enabled them, whether the library is preloaded system-wide, which\n"
	"services preload it ('preload enable --unit'), and the\n"
	"configuration a program would get.  Lists the tracefs instances left\n"
	"behind by tails that were killed, which 'ehsyslog cleanup' removes,\n"
	"and each running 'ehsyslog export' with its counters (or the counters\n"
	"one left behind when it was killed: stale).  Says which transport this\n"
	"kernel offers (user_events, uprobes, none), and lists the library's\n"
	"uprobe events defined, where each is enabled, and those that readers\n"
	"now gone defined.\n"
	"\n"
	"  -p, --program NAME  show the configuration for program NAME (its\n"
	"                      short name), with its per-program settings\n"
	"  -h, --help          print this help and exit\n"
	"\n"
	"The configuration shown includes the EHSYSLOG_* variables of this\n"
	"environment, as a program started from it would see them.  Each value\n"
	"the library would ignore is listed as \"ignored\", with the reason: a\n"
	"line of a malformed file (the whole file is then ignored), a variable\n"
	"whose value breaks the rule, an EHSYSLOG_* name the library does not read.\n"
	"Exit status: 0 events can be recorded (user_events usable, or a kernel\n"
	"with uprobe events only), 1 error, 2 usage error, 3 kernel with neither\n"
	"user_events nor uprobe events, 4 permission denied.\n";

/* Whether this user may write events: 0, or the exit code (printed).
 * A kernel without user_events but with uprobe events is not an error:
 * the library's events go to its probes there (transport:, below). */
static int report_access(const char *cmd, const struct cli_user_events_probe *p,
			 enum cli_transport t)
{
	if (!p->tracefs)
		puts("user_events:   unavailable (no tracefs)");
	else if (p->rc == 0)
		printf("user_events:   available: %s is writable by this user\n", p->data);
	else if (p->rc == CLI_EXIT_NO_USER_EVENTS)
		printf("user_events:   unavailable: %s\n", p->why);
	else if (p->hidden && p->kernel == 0)
		/* A kernel with uprobe events, which this user cannot read
		 * either: the exit code is permission's (p->why). */
		printf("user_events:   unavailable: this kernel has no user_events (%s)\n",
		       p->evidence);
	else if (p->hidden && p->kernel == 1)
		printf("user_events:   unusable: %s: %s (this kernel has user_events: %s)\n", p->data,
		       strerror(p->err), p->evidence);
	else if (p->hidden)
		/* Behind tracefs' 0700 a missing file and a forbidden one
		 * look alike: say so rather than guess. */
		printf("user_events:   unusable: %s: %s; whether this kernel has user_events "
		       "cannot be told by this user (%s; root can tell: sudo ehsyslog status)\n",
		       p->data, strerror(p->err), p->evidence);
	else
		printf("user_events:   unusable: %s: %s\n", p->data, strerror(p->err));
	if (p->rc == CLI_EXIT_NO_USER_EVENTS && t == CLI_TRANSPORT_UPROBES)
		return 0;
	if (p->rc != 0)
		cli_error(cmd, "%s", p->why);
	return p->rc;
}

/* One line of user_events_status: "Name[ # Used by ftrace perf other]". */
static void report_tracepoint(char *line, const char *provider)
{
	struct eh_tracepoint tp;
	char *comment = strstr(line, " # ");
	const char *facility = NULL, *facility_word = "", *users = "";
	int fac;

	if (comment) {
		*comment = '\0';
		users = comment + 3;
		if (strncmp(users, "Used by ", 8) == 0)
			users += 8;
	}
	if (eh_tracepoint_parse(line, &tp) != 0 || tp.provider_len != strlen(provider) ||
	    memcmp(tp.provider, provider, tp.provider_len) != 0)
		return;
	for (fac = 0; fac < SYSLOG_FACILITY_COUNT; fac++)
		if (tp.keyword == syslog_facility_keyword((unsigned)fac))
			facility = syslog_facility_name(fac);
	if (tp.keyword == syslog_facility_keyword(SYSLOG_FACILITY_COUNT))
		facility = "facilities 24..127";
	else if (facility)
		facility_word = "facility ";
	printf("  %-24s level %u, keyword 0x%" PRIx64 " (%s%s)  %s%s\n", line, tp.level, tp.keyword,
	       facility_word, facility ? facility : "not one named facility",
	       comment ? "enabled by " : "not enabled", users);
}

static void report_tracepoints(const char *tracing, const char *provider)
{
	char path[PATH_MAX], *text, *line, *save = NULL;
	struct stat st;
	size_t len;
	int rc;

	if (!tracing)
		return;
	printf("tracepoints:   provider %s\n", provider);
	snprintf(path, sizeof path, "%s/user_events_status", tracing);
	rc = cli_read_file(path, 0, 16 * 1024 * 1024, &text, &len, &st);
	if (rc < 0) {
		printf("  cannot read %s: %s\n", path, strerror(-rc));
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* The trailer: "Active: N", "Busy: N". */
		if (strncmp(line, "Active: ", 8) == 0 || strncmp(line, "Busy: ", 6) == 0)
			printf("  %s\n", line);
		else
			report_tracepoint(line, provider);
	}
	free(text);
}

static void report_stale(const char *name, int err, void *ctx)
{
	const char *tracing = ctx;

	(void)err;
	printf("stale:         %s/instances/%s, left by a tail that is gone: "
	       "remove it with 'ehsyslog cleanup'\n", tracing, name);
}

/* Instances of killed tails, which keep programs traced for nobody. */
static void report_stale_instances(const char *tracing)
{
	int rc;

	if (!tracing)
		return;
	rc = stale_instances(tracing, false, report_stale, (void *)tracing);
	if (rc < 0)
		printf("stale:         cannot look for stale instances in %s/instances: %s\n",
		       tracing, strerror(-rc));
}

static void print_unit(const char *unit, const char *path, void *ctx)
{
	(void)path;
	printf("%s %s", *(int *)ctx ? "," : "preload units:", unit);
	*(int *)ctx = 1;
}

/* The services "preload enable --unit" gave a drop-in, on one line. */
static void report_units(void)
{
	int printed = 0, n = preload_unit_list(print_unit, &printed);

	if (n > 0)
		putchar('\n');
	else if (n == 0)
		printf("preload units: none (no NAME.service.d/%s in %s)\n", PRELOAD_UNIT_DROP_IN,
		       cli_systemd_dir());
	else
		printf("preload units: cannot read %s: %s\n", cli_systemd_dir(), strerror(-n));
}

static void report_preload(const char *cmd)
{
	struct preload_file f = { .lock_fd = -1 };
	const char *lib = cli_library_path(), *path = cli_ld_so_preload_path();

	if (preload_file_read(cmd, &f, path) == 0)
		printf("preload:       %s: %s is %slisted in %s\n",
		       preload_list_has(f.text, f.len, lib) ? "enabled" : "disabled", lib,
		       preload_list_has(f.text, f.len, lib) ? "" : "not ", path);
	preload_file_release(&f);
	report_units();
}

/* A value shown in a report line: bytes a terminal would act on escaped. */
static void print_visible(FILE *out, const char *s)
{
	char *v = NULL;

	if (stravis(&v, s, VIS_CSTYLE | VIS_NL | VIS_TAB | VIS_OCTAL) < 0) {
		fputs("(not shown: out of memory)", out);
		return;
	}
	fputs(v, out);
	free(v);
}

/* A Unix time as "2026-11-28T11:22:06Z". */
static void print_time(unsigned long long t)
{
	time_t when = (time_t)t;
	struct tm tm;
	char text[32];

	if (gmtime_r(&when, &tm) == NULL || strftime(text, sizeof text, "%FT%TZ", &tm) == 0)
		printf("%llu", t);
	else
		fputs(text, stdout);
}

static void print_export(void *ctx, const char *path, enum export_state_kind kind,
			 const struct export_state *s, const char *why)
{
	(void)ctx;
	if (kind == EXPORT_STATE_BAD) {
		printf("export:        %s: not used: %s\n", path, why);
		return;
	}
	if (kind == EXPORT_STATE_RUNNING)
		printf("export:        running, pid %ld, to ", s->pid);
	else
		printf("export:        stale: %s: its pid %ld is gone (killed?; "
		       "'ehsyslog cleanup' removes it); it last said: to ", path, s->pid);
	print_visible(stdout, s->endpoint);
	printf("\n  collector    %s\n", strcmp(s->collector, "ok") == 0 ? "ok (takes records)"
					: strcmp(s->collector, "failing") == 0 ? "failing (retrying)"
					: strcmp(s->collector, "dropping") == 0
					? "dropping (every batch since the last one taken was dropped)"
					: strcmp(s->collector, "idle") == 0 ? "idle (nothing sent yet)"
					: "?");
	if (s->answer_time != 0) {
		if (s->answer != 0)
			printf("  last answer  HTTP %llu at ", s->answer);
		else
			fputs("  last answer  none, at ", stdout);
		print_time(s->answer_time);
		putchar('\n');
	}
	if (s->message[0] != '\0') {
		fputs("  message      ", stdout);
		print_visible(stdout, s->message);
		putchar('\n');
	}
	printf("  records      %llu sent, %llu dropped (queue full or refused), %llu unsent\n",
	       s->sent, s->dropped, s->unsent);
	/* An older export's file has no reasons: nothing to show then. */
	if (s->queue_full + s->refused + s->rejected + s->given_up != 0)
		printf("  dropped      %llu queue full, %llu refused, %llu rejected in a partial "
		       "success, %llu given up after retries\n",
		       s->queue_full, s->refused, s->rejected, s->given_up);
	if (s->drop[0] != '\0') {
		fputs("  last drop    ", stdout);
		print_time(s->drop_time);
		fputs(": ", stdout);
		print_visible(stdout, s->drop);
		putchar('\n');
	}
	printf("  lost         %llu event%s by the trace buffer\n", s->lost, s->lost == 1 ? "" : "s");
	if (s->error[0] != '\0') {
		fputs("  last error   ", stdout);
		print_visible(stdout, s->error);
		putchar('\n');
	}
}

/* Each export's counters, as it published them (cli/export/state.h). */
static void report_exports(void)
{
	const char *dir = cli_runtime_dir();
	int n = export_state_each(dir, print_export, NULL);

	if (n == 0 || n == -ENOENT)
		printf("export:        not running (no export-PID.state in %s)\n", dir);
	else if (n < 0)
		printf("export:        cannot read %s: %s\n", dir, strerror(-n));
}

/* What the library would ignore, one "  ignored" line each, collected
 * while the configuration is read and printed after its values. */
struct ignored {
	const char *path;
	FILE *lines;
};

static void ignored_file_error(void *ctx, unsigned line, const char *message)
{
	struct ignored *ig = ctx;

	fprintf(ig->lines, "  ignored      %s:%u: %s\n", ig->path, line, message);
}

static void ignored_variable(void *ctx, const char *name, const char *value,
			     enum ehs_config_error why)
{
	struct ignored *ig = ctx;

	fprintf(ig->lines, "  ignored      %s=", name);
	print_visible(ig->lines, value);
	fprintf(ig->lines, ": %s\n", ehs_config_strerror(why));
}

/* Variables the bridge's configuration does not read, but not ignored
 * either: the tool's own (paths.c) and the writer's EHSYSLOG_TRACEFS. */
static bool tool_variable(const char *name)
{
	static const char *const names[] = {
		"EHSYSLOG_LIBRARY", "EHSYSLOG_LD_SO_PRELOAD", "EHSYSLOG_TRACEFS",
		"EHSYSLOG_SYSTEMD_DIR", "EHSYSLOG_SYSTEMCTL", "EHSYSLOG_RUNTIME_DIR",
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* EHSYSLOG_* variables the library does not read at all: likely typos. */
static void ignored_unknown_variables(struct ignored *ig)
{
	static const char prefix[] = "EHSYSLOG_";

	for (char **e = environ; *e; e++) {
		size_t len = strcspn(*e, "=");
		char *name;

		if (strncmp(*e, prefix, sizeof prefix - 1) != 0)
			continue;
		name = strndup(*e, len);
		if (!name)
			return;
		if (!ehs_config_env_known(name) && !tool_variable(name)) {
			fputs("  ignored      ", ig->lines);
			print_visible(ig->lines, name);
			fputs(": not a variable the library reads\n", ig->lines);
		}
		free(name);
	}
}

/* Prints the configuration program would get into *s, then every
 * setting the library would ignore, and why. */
static void report_config(const char *program, struct ehs_config *s, bool writable)
{
	struct cli_config_file file;
	const char *path = cli_config_path(), *why, *named = getenv("EHSYSLOG_CONFIG");
	struct ignored ig = { .path = path };
	char *ignored_text = NULL;
	size_t ignored_len = 0;
	int rc;

	ig.lines = open_memstream(&ignored_text, &ignored_len);
	if (!ig.lines)
		ig.lines = stdout;	/* out of memory: printed early, but printed */
	ehs_config_defaults(s);
	rc = cli_config_apply(&file, path, program, s, ignored_file_error, &ig);
	why = rc == 0 && file.found ? ehs_config_distrust(file.st.st_uid, file.st.st_mode) : NULL;
	if (why)
		ehs_config_defaults(s);	/* the library does not read it */
	if (named && !*named)
		fputs("  ignored      EHSYSLOG_CONFIG=: empty, so the default file applies\n",
		      ig.lines);
	ehs_config_apply_env(s, ignored_variable, &ig);
	ignored_unknown_variables(&ig);
	if (ig.lines != stdout)
		fclose(ig.lines);

	printf("configuration: %s", path);
	if (rc < 0)
		printf(" unreadable (%s): defaults apply", strerror(-rc));
	else if (!file.found)
		printf(" absent: defaults apply");
	else if (why)
		printf(" %s: ignored, defaults apply", why);
	else if (file.errors)
		printf(" has %d error%s (see ehsyslog config check): ignored, defaults apply",
		       file.errors, file.errors == 1 ? "" : "s");
	printf("\n");
	printf("  program      %s\n", program ? program : "(any: global settings)");
	printf("  provider     %s\n", s->provider);
	/* The library passes every call through where it writes no event:
	 * replace mode then changes nothing, which is worth knowing before
	 * counting on it. */
	if (s->passthrough)
		printf("  passthrough  yes\n");
	else if (s->disable)
		printf("  passthrough  no (replace mode), but events are off: the calls pass through\n");
	else if (!writable)
		printf("  passthrough  no (replace mode), but no event can be written here by this "
		       "user: the calls pass through\n");
	else
		printf("  passthrough  no (replace mode)\n");
	printf("  disabled     %s\n", s->disable ? "yes" : "no");
	printf("  syslog ports");
	for (unsigned i = 0; i < s->nports; i++)
		printf(" %u", s->ports[i]);
	printf("\n");
	printf("  remote       %s\n", s->remote_syslog ? "yes (syslog ports at any address)"
							   : "no (syslog ports at loopback only)");
	static const char *const stdio[] = { "none (journal streams only)", "stdout", "stderr",
					     "stdout, stderr" };
	printf("  stdio        %s\n", stdio[(s->stdio >> 1) & 3]);
	if (ignored_text)
		fputs(ignored_text, stdout);
	free(ignored_text);
}

int cmd_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "program", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *program = NULL;
	char tracing[PATH_MAX] = "";
	struct cli_user_events_probe probe;
	bool have_tracing;
	enum cli_transport transport;
	struct ehs_config s;
	struct cli_options opts = CLI_OPTIONS(cmd, ":p:h", options, status_usage);
	int c, rc;

	while ((c = cli_option(&opts, argc, argv)) >= 0) {
		switch (c) {
		case 'p':
			program = optarg;
			break;
		}
	}
	if (c == CLI_OPTIONS_EXIT)
		return opts.exit;
	if (optind < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);

	/* Once, for every line that needs it. */
	transport = cli_transport(tracing, sizeof tracing);
	have_tracing = tracing[0] != '\0';
	cli_user_events_probe(&probe);
	rc = report_access(cmd, &probe, transport);
	report_config(program, &s, probe.rc == 0);
	if (probe.rc != CLI_EXIT_NO_USER_EVENTS)
		report_tracepoints(have_tracing ? tracing : NULL, s.provider);
	status_uprobes(transport, tracing);
	report_stale_instances(have_tracing ? tracing : NULL);
	report_exports();
	report_preload(cmd);
	if (fflush(stdout) != 0 && rc == 0)
		rc = CLI_EXIT_RUNTIME;
	return rc;
}
