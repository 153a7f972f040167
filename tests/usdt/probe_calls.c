/* SPDX-License-Identifier: MIT */
/*
 * Logging calls of every kind the library turns into events, for
 * probes.py: linked with the library, run while uprobes are on two of
 * its probe sites (L3 and L4).  Prints "logged" when done and waits for a
 * line on stdin, so the test can read the probes' semaphore in this
 * process before and after the tracer leaves.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <ehsyslog.h>

/* A native call's result as a line: "NAME RESULT" and errno's name. */
static void outcome(const char *name, int rc)
{
	printf("%s %d%s\n", name, rc, rc >= 0 ? "" : errno == E2BIG ? " E2BIG" : " other");
}

int main(void)
{
	static char longmsg[3001];
	char line[16];

	openlog("usdtdemo", 0, LOG_LOCAL0);
	for (int sev = 0; sev < 8; sev++)
		syslog(sev, "severity %d", sev);
	syslog(LOG_DAEMON | LOG_WARNING, "daemon facility");
	warnx("warned %d", 7);
	EHS_EMIT(LOG_INFO, "native_event", EHS_STRING("path", "/a/b"), EHS_INT64("code", 42));
	/* Through a cache, twice: filled, then read; a facility of its own. */
	for (int i = 0; i < 2; i++) {
		const struct ehs_field f[] = { EHS_INT64("round", i) };
		EHS_EVENT(LOG_DAEMON | LOG_WARNING, "native_cached", f, 1);
	}
	/* Native events are never split: one too big for a probe site's
	 * arguments is refused while its level's site is traced, uncached
	 * and cached; at a level nobody traces it is not refused; one that
	 * fits is written. */
	static char blob[2001];
	memset(blob, 'y', sizeof blob - 1);
	const struct ehs_field big[] = { EHS_STRING("blob", blob) };
	outcome("big", ehs_event(LOG_INFO, "native_big", big, 1));
	for (int i = 0; i < 2; i++)
		outcome("big cached", EHS_EVENT(LOG_INFO, "native_big_cached", big, 1));
	outcome("big untraced", ehs_event(LOG_DEBUG, "native_big", big, 1));
	blob[1000] = '\0';
	outcome("fits", ehs_event(LOG_INFO, "native_fits", big, 1));
	memset(longmsg, 'x', sizeof longmsg - 1);
	syslog(LOG_NOTICE, "%s", longmsg);
	fputs("logged\n", stdout);
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		return 1;
	syslog(LOG_INFO, "after the tracer left");
	return 0;
}
