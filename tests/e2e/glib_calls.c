/* SPDX-License-Identifier: MIT */
/*
 * A GLib program for the GLib e2e test (tests/e2e/glib.sh): "calls"
 * makes every GLib logging call the library catches, "error" calls
 * g_error (GLib aborts).  Built against Debian's libglib2.0-dev; run
 * with and without the library preloaded.
 */
#define _GNU_SOURCE
#include <glib.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "glib_calls.h"

static FILE *expect_fp;

static void hex(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(expect_fp, "%02x", ((const unsigned char *)p)[i]);
}

void want(int severity, const char *name, const char *file, unsigned line,
	  const char *msg, const struct want_extra *extra, size_t nextra)
{
	int saved = errno;
	if (!expect_fp)
		return;
	fprintf(expect_fp, "%d\t%s\t%s\t%u\t%d\t", severity,
		name ? name : program_invocation_short_name, file ? file : "-", line, saved);
	hex(msg, strlen(msg));
	fputc('\t', expect_fp);
	if (!nextra)
		fputc('-', expect_fp);
	for (size_t i = 0; i < nextra; i++) {
		fprintf(expect_fp, "%s%s=%c:", i ? "," : "", extra[i].key,
			extra[i].binary ? 'b' : 's');
		hex(extra[i].value, extra[i].len);
	}
	fputc('\n', expect_fp);
	if (fflush(expect_fp) != 0)
		abort();
	errno = saved;
}

#define DOMAIN_EXTRA(d) { "GLIB_DOMAIN", d, sizeof d - 1, 0 }

static void plain_calls(void)
{
	char msg[200];

	/* The macros without G_LOG_USE_STRUCTURED: g_log, no domain. */
	errno = ENOENT;
	want(LOG_NOTICE, NULL, NULL, 0, "message 1", NULL, 0);
	g_message("message %d", 1);
	errno = EAGAIN;
	snprintf(msg, sizeof msg, "warning %s", strerror(EAGAIN));
	want(LOG_WARNING, NULL, NULL, 0, msg, NULL, 0);
	g_warning("warning %m");
	errno = 0;
	want(LOG_ERR, NULL, NULL, 0, "critical 2.50", NULL, 0);
	g_critical("critical %.2f", 2.5);
	want(LOG_DEBUG, NULL, NULL, 0, "debug x", NULL, 0);
	g_debug("debug %c", 'x');
	want(LOG_INFO, NULL, NULL, 0, "info -3", NULL, 0);
	g_info("info %d", -3);

	/* g_log with a domain: the event's name and GLIB_DOMAIN. */
	static const struct want_extra dom[] = { DOMAIN_EXTRA("glibtest-dom") };
	want(LOG_WARNING, "glibtest-dom", NULL, 0, "with domain 42", dom, 1);
	g_log("glibtest-dom", G_LOG_LEVEL_WARNING, "with domain %d", 42);
	/* Two level bits: GLib writes the message twice, highest bit first. */
	want(LOG_INFO, "glibtest-dom", NULL, 0, "two levels", dom, 1);
	want(LOG_NOTICE, "glibtest-dom", NULL, 0, "two levels", dom, 1);
	g_log("glibtest-dom", G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, "two %s", "levels");
	/* A user-defined level: NOTICE. */
	want(LOG_NOTICE, "glibtest-dom", NULL, 0, "user level", dom, 1);
	g_log("glibtest-dom", 1 << G_LOG_LEVEL_USER_SHIFT, "user level");
}

static void structured_calls(void)
{
	/* g_log_structured: string pairs up to MESSAGE, whose value is a
	 * format for the arguments after it. */
	static const struct want_extra s[] = {
		DOMAIN_EXTRA("glibtest-s"),
		{ "CODE_FUNC", "some_func", 9, 0 },
		{ "MY_FIELD", "my value", 8, 0 },
	};
	want(LOG_ERR, "glibtest-s", "some/file.c", 77, "structured 7 x", s, 3);
	g_log_structured("glibtest-s", G_LOG_LEVEL_CRITICAL, "CODE_FILE", "some/file.c",
			 "CODE_LINE", "77", "CODE_FUNC", "some_func", "MY_FIELD", "my value",
			 "MESSAGE", "structured %d %s", 7, "x");

	/* 70 pairs: past the 64 fields forwarded from the stack (GLib's
	 * allocator takes over); the event keeps its first 32 extras. */
#define PAIR(n) "F" #n, "v" #n
#define TEN(d) PAIR(d##0), PAIR(d##1), PAIR(d##2), PAIR(d##3), PAIR(d##4), \
	PAIR(d##5), PAIR(d##6), PAIR(d##7), PAIR(d##8), PAIR(d##9)
	struct want_extra many[32] = { DOMAIN_EXTRA("glibtest-many") };
	static char keys[31][4], values[31][4];
	for (int i = 0; i < 31; i++) {
		snprintf(keys[i], sizeof keys[i], "F%d", 10 + i);
		snprintf(values[i], sizeof values[i], "v%d", 10 + i);
		many[1 + i] = (struct want_extra){ keys[i], values[i], 3, 0 };
	}
	want(LOG_WARNING, "glibtest-many", NULL, 0, "many 70", many, 32);
	g_log_structured("glibtest-many", G_LOG_LEVEL_WARNING, TEN(1), TEN(2), TEN(3), TEN(4),
			 TEN(5), TEN(6), TEN(7), "MESSAGE", "many %d", 70);

	/* g_log_structured_array: counted values, one of them binary. */
	static const char blob[] = { 0x00, 0x01, (char)0xff, 'z' };
	static const GLogField fields[] = {
		{ "MESSAGE", "array message", -1 },
		{ "PRIORITY", "4", -1 },
		{ "GLIB_DOMAIN", "glibtest-a", -1 },
		{ "CODE_FILE", "arr.c", -1 },
		{ "CODE_LINE", "5", -1 },
		{ "BLOB", blob, sizeof blob },
		{ "COUNTED", "abcdef", 3 },
	};
	static const struct want_extra a[] = {
		DOMAIN_EXTRA("glibtest-a"),
		{ "BLOB", blob, sizeof blob, 1 },
		{ "COUNTED", "abc", 3, 0 },
	};
	errno = EINTR;
	want(LOG_WARNING, "glibtest-a", "arr.c", 5, "array message", a, 3);
	g_log_structured_array(G_LOG_LEVEL_WARNING, fields, G_N_ELEMENTS(fields));
}

int main(int argc, char **argv)
{
	const char *path = getenv("E2E_EXPECT");
	if (path && !(expect_fp = fopen(path, "a")))
		return 99;
	if (argc == 2 && strcmp(argv[1], "calls") == 0) {
		plain_calls();
		structured_macros();
		structured_calls();
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "error") == 0) {
		want(LOG_CRIT, NULL, NULL, 0, "fatal 9", NULL, 0);
		g_error("fatal %d", 9);
	}
	fprintf(stderr, "usage: glib_calls calls|error\n");
	return 2;
}
