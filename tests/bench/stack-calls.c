/* SPDX-License-Identifier: MIT */
/*
 * The calls stack-depth measures (stack-calls.h): every family of
 * logging call the library interposes, each with the same short message.
 * Families that share the library's code are measured once: warnx for
 * vwarnx, warn for vwarn, err for errx, verr and verrx (err's exit
 * included), warnc for vwarnc and errc for verrc; syslog's other
 * fortified form, __vsyslog_chk, is __syslog_chk's code.  libbsd's,
 * GLib's and libsystemd's calls are the real ones without the library
 * (the program links those libraries); libsystemd's only where it was
 * found at build time (STACK_JOURNAL), and as sd-journal.h's macros call
 * them, in their _with_location forms.  The library's own API, ehs_event
 * and ehs_event_cached, only with the library: looked up where it is
 * preloaded, linked where the program is built over the writer's double.
 * The descriptor and credential calls it interposes too, one for each
 * code path (dup3 is dup2's, fcntl64 fcntl's, prlimit setrlimit's, the
 * other set*id, setgroups and capset setuid's, setfsgid setfsuid's).
 */
#include "config.h"

#include <dlfcn.h>
#include <err.h>
#include <error.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog.h>
#include <glib.h>
#ifdef STACK_JOURNAL
#include <systemd/sd-journal.h>
#endif

#include "../lib/syslog_sockets.h"
#include "stack-calls.h"

/* libbsd's, declared here: its headers' overlay would change libc's. */
void errc(int eval, int code, const char *fmt, ...) __attribute__((noreturn));
void warnc(int code, const char *fmt, ...);
/* glibc's fortified syslog, which <syslog.h> declares only under
 * _FORTIFY_SOURCE. */
void __syslog_chk(int pri, int flag, const char *fmt, ...);
/* glibc 2.34's, which older headers do not declare. */
int close_range(unsigned int first, unsigned int last, int flags);
void closefrom(int lowfd);

#define FMT "handler: request %d failed"

static int devlog_l, journal_l, tcp_l, udp_l;
static int devlog_c, devlog_u, journal_c, tcp_c;	/* devlog_u: not connected */
static int udp_u;	/* not connected either: sendto names 127.0.0.1:514 */
/* fclose's streams, opened before the fork: one for the warm-up, one
 * for the handler. */
static FILE *streams[2];
static struct sockaddr_un devlog_addr;
static socklen_t devlog_len;

/* GLib's writer function for the measured calls: the message alone,
 * with write(2).  GLib's default writer formats a time stamp and takes
 * some 12 KiB of stack itself, under which the library's frames would
 * not show. */
static GLogWriterOutput plain_writer(GLogLevelFlags level, const GLogField *fields,
				     gsize n, gpointer data)
{
	(void)level, (void)data;
	for (gsize i = 0; i < n; i++)
		if (strcmp(fields[i].key, "MESSAGE") == 0 && fields[i].length < 0) {
			(void)!write(2, fields[i].value, strlen(fields[i].value));
			(void)!write(2, "\n", 1);
		}
	return G_LOG_WRITER_HANDLED;
}

typedef int event_fn(int, const char *, const struct ehs_field *, unsigned);
typedef int event_cached_fn(struct ehs_event_cache *, int, const char *,
			    const struct ehs_field *, unsigned);
#ifdef STACK_TRACED
static event_fn *native_event = ehs_event;
static event_cached_fn *native_event_cached = ehs_event_cached;
#else
static event_fn *native_event;
static event_cached_fn *native_event_cached;
#endif

void stack_setup(void)
{
	g_log_set_writer_func(plain_writer, NULL, NULL);
#ifndef STACK_TRACED
	void *e = dlsym(RTLD_DEFAULT, "ehs_event"), *ec = dlsym(RTLD_DEFAULT, "ehs_event_cached");
	__builtin_memcpy(&native_event, &e, sizeof e);
	__builtin_memcpy(&native_event_cached, &ec, sizeof ec);
#endif
	struct sockaddr_in a = ss_loopback(514);
	devlog_l = ss_listen_unix(SS_DEVLOG);
	journal_l = ss_listen_unix(SS_JOURNAL);
	tcp_l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (tcp_l < 0 || bind(tcp_l, (struct sockaddr *)&a, sizeof a) < 0 || listen(tcp_l, 64) < 0)
		ss_die("tcp");
	devlog_len = ss_unix_addr(&devlog_addr, SS_DEVLOG);
	udp_l = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (udp_l < 0 || bind(udp_l, (struct sockaddr *)&a, sizeof a) < 0)
		ss_die("udp");
	udp_u = socket(AF_INET, SOCK_DGRAM, 0);
	if (udp_u < 0)
		ss_die("udp client");
	for (int i = 0; i < 2; i++)
		if (!(streams[i] = fdopen(dup(devlog_l), "r")))
			ss_die("streams");
}

void stack_drain(void)
{
	char b[4096];
	int c;
	while (recv(devlog_l, b, sizeof b, MSG_DONTWAIT) >= 0 ||
	       recv(journal_l, b, sizeof b, MSG_DONTWAIT) >= 0 ||
	       recv(udp_l, b, sizeof b, MSG_DONTWAIT) >= 0)
		;
	while ((c = accept(tcp_l, NULL, NULL)) >= 0) {
		while (recv(c, b, sizeof b, 0) > 0)
			;
		syscall(SYS_close, c);	/* not close(): a child's first is measured */
	}
}

void stack_connect(void)
{
	struct sockaddr_in a = ss_loopback(514);
	devlog_c = ss_client_unix(SS_DEVLOG);
	devlog_u = socket(AF_UNIX, SOCK_DGRAM, 0);
	journal_c = ss_client_unix(SS_JOURNAL);
	tcp_c = socket(AF_INET, SOCK_STREAM, 0);
	if (devlog_u < 0 || tcp_c < 0 || connect(tcp_c, (struct sockaddr *)&a, sizeof a) < 0)
		ss_die("clients");
}

static void call_syslog(void)
{
	syslog(LOG_ERR, FMT ": %m", 42);
}

static void vsyslog_of(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsyslog(LOG_ERR, fmt, ap);
	va_end(ap);
}

static void call_vsyslog(void)
{
	vsyslog_of(FMT ": %m", 42);
}

static void call_syslog_chk(void)
{
	__syslog_chk(LOG_ERR, 1, FMT ": %m", 42);
}

static void call_warnx(void)
{
	warnx(FMT, 42);
}

static void call_warn(void)
{
	warn(FMT, 42);
}

/* Exits 0: the run survived. */
static void call_err(void)
{
	err(0, FMT, 42);
}

static void call_warnc(void)
{
	warnc(EIO, FMT, 42);
}

static void call_errc(void)
{
	errc(0, EIO, FMT, 42);
}

static void call_error(void)
{
	error(0, 0, FMT, 42);
}

static void call_error_at_line(void)
{
	error_at_line(0, 0, "stack-calls.c", 42, FMT, 42);
}

#ifdef STACK_JOURNAL
static void call_sd_print(void)
{
	sd_journal_print(LOG_ERR, FMT, 42);
}

static void call_sd_send(void)
{
	sd_journal_send("MESSAGE=" FMT, 42, "PRIORITY=3", "REQUEST=42", NULL);
}

static void call_sd_perror(void)
{
	errno = EIO;
	sd_journal_perror("handler: request 42 failed");
}
#endif

static void call_g_log(void)
{
	g_log("stack", G_LOG_LEVEL_MESSAGE, FMT, 42);
}

static void call_g_log_structured(void)
{
	g_log_structured("stack", G_LOG_LEVEL_MESSAGE, "CODE_FILE", "stack-calls.c",
			 "CODE_LINE", "42", "REQUEST", "42", "MESSAGE", FMT, 42);
}

static bool native_present(void)
{
	return native_event && native_event_cached;
}

static const struct ehs_field request[] = {
	EHS_STRING("what", "request"), EHS_INT64("id", 42), EHS_ERRNO("error", EIO),
};

/* No head kept: built for the call. */
static void call_event(void)
{
	native_event(LOG_ERR, "handler", request, 3);
}

/* The head kept after the first call. */
static void call_event_cached(void)
{
	static struct ehs_event_cache cache;
	native_event_cached(&cache, LOG_ERR, "handler", request, 3);
}

/* What g_message and the like call under G_LOG_USE_STRUCTURED. */
static void call_g_log_structured_standard(void)
{
	g_log_structured_standard("stack", G_LOG_LEVEL_MESSAGE, "stack-calls.c", "42", "call",
				  FMT, 42);
}

static const char dg[] = "<11>handler: request 42 failed";
/* The same datagram in two parts, as a program that writes its header
 * apart sends it. */
static const struct iovec parts[] = {
	{ (void *)dg, 4 },
	{ (void *)(dg + 4), sizeof dg - 5 },
};

static void call_write(void)
{
	(void)!write(devlog_c, dg, sizeof dg - 1);
}

static void call_writev(void)
{
	(void)!writev(devlog_c, parts, 2);
}

static void call_send(void)
{
	(void)!send(devlog_c, dg, sizeof dg - 1, 0);
}

static void call_sendto(void)
{
	(void)!sendto(devlog_u, dg, sizeof dg - 1, 0, (struct sockaddr *)&devlog_addr, devlog_len);
}

static void call_sendmsg(void)
{
	struct msghdr m = { .msg_iov = (struct iovec *)parts, .msg_iovlen = 2 };
	(void)!sendmsg(devlog_c, &m, 0);
}

static void call_sendmmsg(void)
{
	struct mmsghdr v[2] = {
		{ .msg_hdr = { .msg_iov = (struct iovec *)parts, .msg_iovlen = 2 } },
		{ .msg_hdr = { .msg_iov = (struct iovec *)parts, .msg_iovlen = 2 } },
	};
	(void)!sendmmsg(devlog_c, v, 2, 0);
}

/* The close of a watched socket included. */
static void call_connect(void)
{
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	(void)!connect(s, (struct sockaddr *)&devlog_addr, devlog_len);
	close(s);
}

static void call_journal(void)
{
	static const char entry[] = "MESSAGE=handler: request 42 failed\nPRIORITY=3\n";
	(void)!write(journal_c, entry, sizeof entry - 1);
}

static void call_tcp(void)
{
	static const char frame[] = "<11>handler: request 42 failed\n";
	(void)!write(tcp_c, frame, sizeof frame - 1);
}

/* The descriptor and credential wrappers (preload/fd.c, creds.c): a
 * program makes them whether or not it logs.  Their warm-up makes the
 * call, then a syslog, so that the writer is open (where it can be) when
 * the handler's call comes, and the call has it to check or let go.
 * Not in the traced program: they need the real writer (preload/local.mk),
 * and it has libc's own. */
static bool wrapper_present(void)
{
#ifdef STACK_TRACED
	return false;
#else
	return true;
#endif
}

static void then_syslog(void (*call)(void))
{
	call();
	call_syslog();
}

/* A descriptor of the program's, closed: the library's check of its own
 * number and of a watched socket's. */
static void call_close(void)
{
	close(dup(devlog_l));
}

static void warm_close(void)
{
	then_syslog(call_close);
}

#define HIGH_FD 200	/* a number dup2 and close_range take */

/* dup3 is the same code (fd.c's dup_onto). */
static void call_dup2(void)
{
	(void)!dup2(devlog_l, HIGH_FD);
}

static void warm_dup2(void)
{
	then_syslog(call_dup2);
}

/* fcntl64 is the same code; the descriptor left open. */
static void call_fcntl_dupfd(void)
{
	(void)!fcntl(devlog_l, F_DUPFD_CLOEXEC, HIGH_FD + 1);
}

static void warm_fcntl_dupfd(void)
{
	then_syslog(call_fcntl_dupfd);
}

static void call_close_range(void)
{
	(void)!close_range(HIGH_FD, HIGH_FD, 0);
}

static void warm_close_range(void)
{
	then_syslog(call_close_range);
}

/* Above every descriptor the program has: closes nothing of its own. */
static void call_closefrom(void)
{
	closefrom(1000);
}

static void warm_closefrom(void)
{
	then_syslog(call_closefrom);
}

/* The next of the streams opened before the fork. */
static void call_fclose(void)
{
	static unsigned next;
	if (next < 2)
		fclose(streams[next++]);
}

static void warm_fclose(void)
{
	then_syslog(call_fclose);
}

/* The soft limit set to what it is: the writer still checks around it.
 * setrlimit64, prlimit and prlimit64 are the same code (fd.c's
 * set_limit). */
static void call_setrlimit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		(void)!setrlimit(RLIMIT_NOFILE, &rl);
}

static void warm_setrlimit(void)
{
	then_syslog(call_setrlimit);
}

/* To the uid it has: a success, which lets the writer's descriptor go.
 * setgid, seteuid, setegid, setre*id, setres*id, setgroups and capset are
 * the same code (creds.c's changed). */
static void call_setuid(void)
{
	(void)!setuid(getuid());
}

static void warm_setuid(void)
{
	then_syslog(call_setuid);
}

/* To the fsuid it has (no change); setfsgid is the same code. */
static void call_setfsuid(void)
{
	(void)!setfsuid(getuid());
}

static void warm_setfsuid(void)
{
	then_syslog(call_setfsuid);
}

/* A connect the library does not watch: an address's port is checked
 * against syslog_ports. */
static void call_connect_other(void)
{
	struct sockaddr_in a = ss_loopback(9);
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	(void)!connect(s, (struct sockaddr *)&a, sizeof a);
	close(s);
}

/* The close of a watched socket included, as for /dev/log. */
static void call_connect_tcp(void)
{
	struct sockaddr_in a = ss_loopback(514);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	(void)!connect(s, (struct sockaddr *)&a, sizeof a);
	close(s);
}

/* A UDP client that does not connect (Python's SysLogHandler): checked
 * by its address on every call. */
static void call_sendto_udp(void)
{
	struct sockaddr_in a = ss_loopback(514);
	(void)!sendto(udp_u, dg, sizeof dg - 1, 0, (struct sockaddr *)&a, sizeof a);
}

const struct stack_call stack_calls[] = {
	{ "syslog", call_syslog, call_syslog, false, NULL },
	{ "vsyslog", call_vsyslog, call_vsyslog, false, NULL },
	{ "__syslog_chk", call_syslog_chk, call_syslog_chk, false, NULL },
	{ "warnx", call_warnx, call_warnx, false, NULL },
	{ "warn", call_warn, call_warn, false, NULL },
	{ "err", call_err, call_warn, false, NULL },
	{ "warnc", call_warnc, call_warnc, false, NULL },
	{ "errc", call_errc, call_warnc, false, NULL },
	{ "error", call_error, call_error, false, NULL },
	{ "error_at_line", call_error_at_line, call_error_at_line, false, NULL },
#ifdef STACK_JOURNAL
	{ "sd_journal_print", call_sd_print, call_sd_print, false, NULL },
	{ "sd_journal_send", call_sd_send, call_sd_send, false, NULL },
	{ "sd_journal_perror", call_sd_perror, call_sd_perror, false, NULL },
#endif
	{ "g_log", call_g_log, call_g_log, false, NULL },
	{ "g_log_structured", call_g_log_structured, call_g_log_structured, false, NULL },
	{ "g_log_structured_standard", call_g_log_structured_standard,
	  call_g_log_structured_standard, false, NULL },
	{ "ehs_event", call_event, call_event, false, native_present },
	{ "ehs_event_cached", call_event_cached, call_event_cached, false, native_present },
	{ "write /dev/log", call_write, call_write, true, NULL },
	{ "writev /dev/log", call_writev, call_writev, true, NULL },
	{ "send /dev/log", call_send, call_send, true, NULL },
	{ "sendto /dev/log", call_sendto, call_sendto, true, NULL },
	{ "sendmsg /dev/log", call_sendmsg, call_sendmsg, true, NULL },
	{ "sendmmsg /dev/log", call_sendmmsg, call_sendmmsg, true, NULL },
	{ "connect /dev/log", call_connect, call_connect, false, NULL },
	{ "write journal", call_journal, call_journal, true, NULL },
	{ "write tcp", call_tcp, call_tcp, true, NULL },
	{ "connect tcp 514", call_connect_tcp, call_connect_tcp, false, NULL },
	{ "sendto udp 514", call_sendto_udp, call_sendto_udp, false, NULL },
	{ "connect udp 9", call_connect_other, call_connect_other, false, NULL },
	{ "close", call_close, warm_close, false, wrapper_present },
	{ "dup2", call_dup2, warm_dup2, false, wrapper_present },
	{ "fcntl F_DUPFD", call_fcntl_dupfd, warm_fcntl_dupfd, false, wrapper_present },
	{ "close_range", call_close_range, warm_close_range, false, wrapper_present },
	{ "closefrom", call_closefrom, warm_closefrom, false, wrapper_present },
	{ "fclose", call_fclose, warm_fclose, false, wrapper_present },
	{ "setrlimit", call_setrlimit, warm_setrlimit, false, wrapper_present },
	{ "setuid", call_setuid, warm_setuid, false, wrapper_present },
	{ "setfsuid", call_setfsuid, warm_setfsuid, false, wrapper_present },
};

const size_t stack_calls_n = sizeof stack_calls / sizeof stack_calls[0];
