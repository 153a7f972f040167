/* SPDX-License-Identifier: MIT */
/*
 * One call, one event, with the socket interception active
 * (tests/e2e/clients.sh): sd_journal_print (when built with libsystemd),
 * g_log with GLib's journald writer, then syslog, once each.  Each is
 * caught as a call and then, inside libsystemd, GLib or libc, writes its
 * datagram to journald's socket or to /dev/log: that datagram must not
 * make a second event.  Exit status 0 when every call was made.
 * "clients_calls has-journal" prints whether sd_journal_print is among
 * them (yes when built with libsystemd, no otherwise).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <glib.h>

#ifdef E2E_HAVE_LIBSYSTEMD
/* The plain function, not the macro that adds CODE_FILE and the like. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>
#endif

int main(int argc, char **argv)
{
	/* "has-journal": whether it was built with libsystemd. */
	if (argc > 1 && strcmp(argv[1], "has-journal") == 0) {
#ifdef E2E_HAVE_LIBSYSTEMD
		puts("yes");
#else
		puts("no");
#endif
		return 0;
	}
#ifdef E2E_HAVE_LIBSYSTEMD
	int r = sd_journal_print(LOG_ERR, "one journal call");
	if (r < 0) {
		fprintf(stderr, "clients_calls: sd_journal_print: %d\n", r);
		return 1;
	}
#endif
	/* GLib's default writer prints to stderr unless stderr is the
	 * journal's; this one sends the journal a datagram. */
	g_log_set_writer_func(g_log_writer_journald, NULL, NULL);
	g_log("clientsdom", G_LOG_LEVEL_WARNING, "one glib call");

	openlog("callsid", LOG_PID, LOG_LOCAL6);
	syslog(LOG_WARNING, "one syslog call");
	closelog();
	return 0;
}
