/* SPDX-License-Identifier: MIT */
/*
 * Logging calls of every kind the library turns into events, for
 * probes.py: linked with the library, run while uprobes are on two of
 * its probe sites (L3 and L4).  Prints "logged" when done and waits for a
 * line on stdin, so the test can read the probes' semaphore in this
 * process before and after the tracer leaves.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <ehsyslog.h>

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
	memset(longmsg, 'x', sizeof longmsg - 1);
	syslog(LOG_NOTICE, "%s", longmsg);
	fputs("logged\n", stdout);
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		return 1;
	syslog(LOG_INFO, "after the tracer left");
	return 0;
}
