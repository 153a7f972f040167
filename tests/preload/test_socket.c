/* SPDX-License-Identifier: MIT */
/*
 * The socket calls of programs that send syslog themselves, on the host:
 * this program links the interposer's socket wrappers and the bridge over
 * the writer's test double.  Each test runs in a mount and network
 * namespace of its own, with tmpfs on /dev and /run and the loopback
 * device up, so that it binds /dev/log, journald's socket and 127.0.0.1's
 * syslog ports itself: what the daemon receives is checked byte for byte
 * next to the events.  Needs root (the namespaces); without it, exits 77
 * and says so.
 */
#include "config.h"

#include <check.h>

/* The bad calls are the point: gcc need not warn about them. */
#pragma GCC diagnostic ignored "-Wnonnull"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <eventheader/eventheader.h>

#include "../bridge/capture.h"
#include "event_fields.h"
#include "bridge/socket/socket.h"
#include "../user_events/nosyscall.h"
#include "../lib/syslog_sockets.h"

static struct capture cap;

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	unsetenv("EHSYSLOG_PASSTHROUGH");
	unsetenv("EHSYSLOG_REMOTE_SYSLOG");
	unsetenv("EHSYSLOG_SYSLOG_PORTS");
	ss_namespaces();
	memset(&cap, 0, sizeof cap);
	ue_double_trace(capture_sink, &cap);
}

static int listen_inet(int type, unsigned port)
{
	struct sockaddr_in a = ss_loopback(port);
	int s = socket(AF_INET, type, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	if (type == SOCK_STREAM)
		ck_assert_int_eq(listen(s, 4), 0);
	return s;
}

/* A check that the daemon's next datagram is exactly want[0..len). */
static void received(int s, const void *want, size_t len)
{
	char got[4096];
	ssize_t n = recv(s, got, sizeof got, MSG_DONTWAIT);
	ck_assert_int_eq(n, (ssize_t)len);
	ck_assert_mem_eq(got, want, len);
}

static void nothing_received(int s)
{
	char got[16];
	ck_assert_int_eq(recv(s, got, sizeof got, MSG_DONTWAIT), -1);
	ck_assert_int_eq(errno, EAGAIN);
}

/* A check of event i: its name, severity, facility and message. */
static void event_is(unsigned i, const char *name, unsigned severity, unsigned facility,
		     const char *message)
{
	struct evf_event ev;
	evf_decode_captured(&cap, i, &ev);
	ck_assert_str_eq(ev.name, name);
	ck_assert_uint_eq(evf_num(&ev, "severity"), severity);
	ck_assert_uint_eq(evf_num(&ev, "facility"), facility);
	evf_str_eq(&ev, "message", message);
}

#define LOGGER_HEAD "<156>Nov 26 05:00:00 "
#define LOGGER_TAG "sh_logger: "
#define LOGGER_MSG "from logger"

/* util-linux logger: connect("/dev/log"), then sendmsg of the header,
 * tag and message in iovecs of their own. */
START_TEST(logger_sendmsg)
{
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	struct iovec iov[] = {
		{ (void *)LOGGER_HEAD, sizeof LOGGER_HEAD - 1 },
		{ (void *)LOGGER_TAG, sizeof LOGGER_TAG - 1 },
		{ (void *)LOGGER_MSG, sizeof LOGGER_MSG - 1 },
	};
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = 3 };
	const char whole[] = LOGGER_HEAD LOGGER_TAG LOGGER_MSG;
	errno = EDOM;
	ck_assert_int_eq(sendmsg(c, &m, 0), (ssize_t)sizeof whole - 1);
	ck_assert_int_eq(errno, EDOM);
	received(d, whole, sizeof whole - 1);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "sh_logger", LOG_WARNING, LOG_LOCAL3 >> 3, LOGGER_MSG);
}
END_TEST

/* Python's SysLogHandler: connect, then send with a trailing NUL. */
START_TEST(python_send)
{
	static const char dg[] = "<12>py_app: handler says hi\0";
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert_int_eq(send(c, dg, sizeof dg - 1, 0), (ssize_t)sizeof dg - 1);
	received(d, dg, sizeof dg - 1);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "py_app", LOG_WARNING, 1, "handler says hi");
}
END_TEST

/* write, writev, an unconnected sendto and sendmmsg: one event a datagram. */
START_TEST(every_call)
{
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert_int_eq(write(c, "<11>w: one", 10), 10);
	struct iovec v[] = { { (void *)"<11>wv: ", 8 }, { (void *)"two", 3 } };
	ck_assert_int_eq(writev(c, v, 2), 11);
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a;
	socklen_t alen = ss_unix_addr(&a, "/dev/log");
	ck_assert_int_eq(sendto(u, "<11>st: three", 13, 0, (struct sockaddr *)&a, alen), 13);
	struct iovec m0 = { (void *)"<11>mm: four", 12 }, m1 = { (void *)"<11>mm: five", 12 };
	struct mmsghdr mm[2] = { { .msg_hdr = { .msg_iov = &m0, .msg_iovlen = 1 } },
				 { .msg_hdr = { .msg_iov = &m1, .msg_iovlen = 1 } } };
	ck_assert_int_eq(sendmmsg(c, mm, 2, 0), 2);
	received(d, "<11>w: one", 10);
	received(d, "<11>wv: two", 11);
	received(d, "<11>st: three", 13);
	received(d, "<11>mm: four", 12);
	received(d, "<11>mm: five", 12);
	ck_assert_uint_eq(cap.count, 5);
	event_is(0, "w", LOG_ERR, 1, "one");
	event_is(1, "wv", LOG_ERR, 1, "two");
	event_is(2, "st", LOG_ERR, 1, "three");
	event_is(3, "mm", LOG_ERR, 1, "four");
	event_is(4, "mm", LOG_ERR, 1, "five");
}
END_TEST

/* Replace mode: nothing reaches the daemon, every call returns its byte
 * count, and a /dev/log nobody listens on still connects. */
START_TEST(replace_mode)
{
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert_int_eq(send(c, "<14>r: kept", 11, 0), 11);
	nothing_received(d);
	close(d);
	unlink("/dev/log");
	int c2 = ss_client_unix("/dev/log");	/* nobody there: ENOENT, made 0 */
	struct iovec v[] = { { (void *)"<14>r2: ", 8 }, { (void *)"gone", 4 } };
	ck_assert_int_eq(writev(c2, v, 2), 12);
	ck_assert_uint_eq(cap.count, 2);
	event_is(0, "r", LOG_INFO, 1, "kept");
	event_is(1, "r2", LOG_INFO, 1, "gone");
	close(c);
	close(c2);
}
END_TEST

/* Replace mode answers only what the kernel would have taken whole; the
 * rest gets the kernel's own answer, which the same call on a socket
 * nobody watches shows. */
START_TEST(replace_mode_results_are_the_kernels)
{
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	int o = ss_listen_unix("/run/other");
	int p = ss_client_unix("/run/other");
	static char big[300000];
	memset(big, 'x', sizeof big);
	memcpy(big, "<13>big: ", 9);
	struct iovec huge[2] = { { big, SSIZE_MAX }, { big, SSIZE_MAX } };
	struct iovec over[2] = { { big, SSIZE_MAX }, { big, 2 } };
	struct iovec bad[2] = { { big, 9 }, { (void *)16, 4 } };
	struct iovec four_gib = { big, (size_t)4 << 30 };
	struct mmsghdr mm = { .msg_hdr = { .msg_iov = &four_gib, .msg_iovlen = 1 } };
#define SAME(call_on)                                                                   \
	do {                                                                            \
		errno = 0;                                                              \
		long want = (long)(call_on(p)), want_errno = errno;                     \
		errno = 0;                                                              \
		long got = (long)(call_on(c));                                          \
		ck_assert_msg(got == want && errno == want_errno,                       \
			      "%s: %ld errno %d, the kernel's: %ld errno %ld", #call_on, got, \
			      errno, want, want_errno);                                 \
	} while (0)
#define WRITEV_HUGE(fd) writev(fd, huge, 2)
#define WRITEV_OVER(fd) writev(fd, over, 2)
#define WRITEV_BAD(fd) writev(fd, bad, 2)
#define WRITE_BIG(fd) write(fd, big, sizeof big)
#define WRITE_NULL(fd) write(fd, NULL, 10)
#define SEND_BAD(fd) send(fd, (void *)16, 10, 0)
#define SENDMMSG_4GIB(fd) sendmmsg(fd, &mm, 1, 0)
#define SENDMSG_BAD(fd) sendmsg(fd, (void *)16, 0)
	SAME(WRITE_BIG);
#ifndef __SANITIZE_ADDRESS__	/* ASan's interceptors check the pointers first, and abort */
	SAME(WRITEV_HUGE);
	SAME(WRITEV_OVER);
	SAME(WRITEV_BAD);
	SAME(WRITE_NULL);
	SAME(SEND_BAD);
	SAME(SENDMMSG_4GIB);
	SAME(SENDMSG_BAD);
#endif
	nothing_received(d);
	ck_assert_uint_eq(cap.count, 0);
	/* What it takes whole is kept: its count, its event. */
	ck_assert_int_eq(write(c, big, 1000), 1000);
	nothing_received(d);
	ck_assert_uint_eq(cap.count, 1);
	(void)o;
}
END_TEST

/* Replace mode: a failed connect() leaves a watched socket watched; one
 * made to succeed leaves errno alone; a message carrying a descriptor
 * (journald's memfd) and a sendmmsg's message to another destination go
 * to the kernel, in order, with the kept ones answered here. */
START_TEST(replace_mode_edges)
{
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int l = listen_inet(SOCK_STREAM, 514);
	int t = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	ck_assert_int_eq(connect(t, (struct sockaddr *)&a, sizeof a), 0);
	int s = accept(l, NULL, NULL);
	ck_assert_int_eq(connect(t, (struct sockaddr *)&a, sizeof a), -1);
	ck_assert_int_eq(errno, EISCONN);
	ck_assert_int_eq(write(t, "<13>tcp: kept\n", 14), 14);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "tcp", LOG_NOTICE, 1, "kept");
	char got[16];
	ck_assert_int_eq(recv(s, got, sizeof got, MSG_DONTWAIT), -1);

	errno = EDOM;
	int c = ss_client_unix("/dev/log");	/* nobody there: made to succeed */
	ck_assert_int_eq(errno, EDOM);

	int j = ss_listen_unix("/run/systemd/journal/socket");
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un ja;
	int pair[2];
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr m = { .msg_control = control.buf, .msg_controllen = sizeof control.buf };
	m.msg_name = &ja;
	m.msg_namelen = ss_unix_addr(&ja, "/run/systemd/journal/socket");
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &pair[0], sizeof(int));
	ck_assert_int_eq(sendmsg(u, &m, 0), 0);
	ck_assert_int_eq(recv(j, got, sizeof got, MSG_DONTWAIT), 0);	/* journald gets it */

	int o = ss_listen_unix("/run/other");
	struct sockaddr_un oa;
	struct iovec syslog_msg = { (void *)"<13>mm: kept", 12 }, other = { (void *)"other", 5 };
	struct mmsghdr mm[2] = { { .msg_hdr = { .msg_iov = &syslog_msg, .msg_iovlen = 1 } },
				 { .msg_hdr = { .msg_iov = &other, .msg_iovlen = 1 } } };
	mm[1].msg_hdr.msg_name = &oa;
	mm[1].msg_hdr.msg_namelen = ss_unix_addr(&oa, "/run/other");
	int uc = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un da;
	ck_assert_int_eq(connect(uc, (struct sockaddr *)&da, ss_unix_addr(&da, "/dev/log")), 0);
	ck_assert_int_eq(sendmmsg(uc, mm, 2, 0), 2);
	ck_assert_uint_eq(mm[0].msg_len, 12);
	ck_assert_uint_eq(mm[1].msg_len, 5);
	received(o, "other", 5);
	ck_assert_uint_eq(cap.count, 2);
	event_is(1, "mm", LOG_NOTICE, 1, "kept");
	close(c);
}
END_TEST

/* A signal handler that sends while its thread is inside the library
 * (one level of nesting, as for syslog()): its send on a watched socket
 * is answered as any other, event and replace mode included; a named
 * send from inside (libsystemd's own, under a call passed on) makes none. */
START_TEST(nested_sends)
{
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int c = ss_client_unix("/dev/log");	/* nobody there: made to succeed */
	ehs_busy = 1;
	ck_assert_int_eq(write(c, "<14>inner: kept", 15), 15);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "inner", LOG_INFO, 1, "kept");
	int j = ss_listen_unix("/run/systemd/journal/socket");
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a;
	static const char dg[] = "MESSAGE=from libsystemd\n";
	ck_assert_int_eq(sendto(u, dg, sizeof dg - 1, 0, (struct sockaddr *)&a,
				ss_unix_addr(&a, "/run/systemd/journal/socket")), (ssize_t)sizeof dg - 1);
	ehs_busy = 0;
	received(j, dg, sizeof dg - 1);
	ck_assert_uint_eq(cap.count, 1);
}
END_TEST

/* Replace mode from the environment (ehsyslog run --replace): a named
 * send before anything read the configuration (Python's UDP handler,
 * journald's native clients, often a process's only message) is kept. */
START_TEST(replace_mode_before_the_configuration)
{
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int d = ss_listen_unix("/dev/log");
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a;
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_UNREAD);
	ck_assert_int_eq(sendto(u, "<14>first: only", 15, 0, (struct sockaddr *)&a,
				ss_unix_addr(&a, "/dev/log")), 15);
	nothing_received(d);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "first", LOG_INFO, 1, "only");
}
END_TEST

/* Replace mode where no event can be written (registrations fail, as on
 * a kernel without user_events): the daemon gets every byte. */
START_TEST(replace_mode_without_a_writer)
{
	ue_double_fail(true);
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert_int_eq(send(c, "<14>r: sent", 11, 0), 11);
	received(d, "<14>r: sent", 11);
	ck_assert_uint_eq(cap.count, 0);
	ue_double_fail(false);
}
END_TEST

/* Numbers from 1024 up: a watched one there is counted, so that a call on
 * another costs a load while none is, and found while one is. */
START_TEST(high_numbers)
{
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert(ehs_sock_maybe_watched(c));
	ck_assert(!ehs_sock_maybe_watched(2000));
	int high = fcntl(c, F_DUPFD, 2000);
	ck_assert_int_ge(high, 2000);
	struct sockaddr_un a;
	ck_assert_int_eq(connect(high, (struct sockaddr *)&a, ss_unix_addr(&a, "/dev/log")), 0);
	ck_assert(ehs_sock_maybe_watched(3000));
	ck_assert_int_eq(write(high, "<11>hi: gh", 10), 10);
	received(d, "<11>hi: gh", 10);
	ck_assert_uint_eq(cap.count, 1);
	/* A connect elsewhere lets the watch go, and the count with it. */
	int o = ss_listen_unix("/run/other");
	ck_assert_int_eq(connect(high, (struct sockaddr *)&a, ss_unix_addr(&a, "/run/other")), 0);
	ck_assert(!ehs_sock_maybe_watched(3000));
	ck_assert_int_eq(write(high, "<11>hi: gh", 10), 10);
	received(o, "<11>hi: gh", 10);
	ck_assert_uint_eq(cap.count, 1);
}
END_TEST

/* A watched number closed behind libc's back and taken by a file: its
 * writes are the file's, untouched. */
START_TEST(stale_number)
{
	int d = ss_listen_unix("/dev/log");
	int c = ss_client_unix("/dev/log");
	ck_assert_int_eq(syscall(SYS_close, c), 0);
	int f = open("/run/plain", O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(f, c);
	ck_assert_int_eq(write(f, "<11>not: a datagram", 19), 19);
	ck_assert_uint_eq(cap.count, 0);
	setenv("EHSYSLOG_PASSTHROUGH", "no", 1);	/* not kept either */
	ck_assert_int_eq(pwrite(f, "x", 1, 0), 1);
	ck_assert_int_eq(write(f, "<11>y", 5), 5);
	ck_assert_int_eq(lseek(f, 0, SEEK_END), 24);
	ck_assert_uint_eq(cap.count, 0);
	nothing_received(d);
}
END_TEST

/* Other descriptors: no event, whatever they carry. */
START_TEST(other_descriptors)
{
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	int d = ss_listen_unix("/run/not-syslog");
	int c = ss_client_unix("/run/not-syslog");
	ck_assert_int_eq(write(p[1], "<11>x: y", 8), 8);
	ck_assert_int_eq(send(c, "<11>x: y", 8, 0), 8);
	received(d, "<11>x: y", 8);
	ck_assert_uint_eq(cap.count, 0);
}
END_TEST

/* UDP to 127.0.0.1:514 without connecting (Python's SysLogHandler()); a
 * remote address only with remote_syslog. */
START_TEST(udp_loopback_and_remote)
{
	int d = listen_inet(SOCK_DGRAM, 514);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	ck_assert_int_eq(sendto(u, "<134>udp: hello", 15, 0, (struct sockaddr *)&a, sizeof a), 15);
	received(d, "<134>udp: hello", 15);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "udp", LOG_INFO, LOG_LOCAL0 >> 3, "hello");

	a.sin_addr.s_addr = htonl(0x0a000001);	/* 10.0.0.1: unreachable here */
	sendto(u, "<134>far: away", 14, 0, (struct sockaddr *)&a, sizeof a);
	ck_assert_uint_eq(cap.count, 1);
	a = ss_loopback(515);
	sendto(u, "<134>port: other", 16, 0, (struct sockaddr *)&a, sizeof a);
	ck_assert_uint_eq(cap.count, 1);
}
END_TEST

START_TEST(udp_remote_opt_in)
{
	setenv("EHSYSLOG_REMOTE_SYSLOG", "yes", 1);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	a.sin_addr.s_addr = htonl(0x0a000001);
	sendto(u, "<134>far: away", 14, 0, (struct sockaddr *)&a, sizeof a);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "far", LOG_INFO, LOG_LOCAL0 >> 3, "away");
}
END_TEST

static int tcp_fd;

/* A 3000-byte message in two iovecs, as a logger writes a frame. */
static void long_writev(void *arg)
{
	(void)arg;
	static char body[3000];
	memset(body, 'x', sizeof body);
	memcpy(body, "<13>long: ", 10);
	struct iovec v[2] = { { body, 1000 }, { body + 1000, 2000 } };
	if (writev(tcp_fd, v, 2) != 3000)
		abort();
}

/* Nobody traces: a long message in several iovecs to a watched stream
 * costs the program's own writev and nothing more (no parse, no mapping
 * per call: the gathering pages are kept). */
START_TEST(untraced_long_stream_costs_no_syscall)
{
	ue_double_trace(NULL, NULL);
	int l = listen_inet(SOCK_STREAM, 514);
	tcp_fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	ck_assert_int_eq(connect(tcp_fd, (struct sockaddr *)&a, sizeof a), 0);
	long_writev(NULL);	/* the first: the tracepoint's check, the pages */
	ck_assert_int_eq(syscalls_made(long_writev, NULL), 1);
	ck_assert_uint_eq(cap.count, 0);
	(void)l;
}
END_TEST

/* A port the file alone names counts once the file was read: a connect()
 * elsewhere reads nothing (no system call of ours under a seccomp
 * filter); the environment's ports count at once. */
START_TEST(file_ports_after_the_first_call)
{
	FILE *f = fopen("/run/ehsyslog.conf", "w");
	ck_assert_ptr_nonnull(f);
	fputs("syslog_ports = 6514\n", f);
	ck_assert_int_eq(fclose(f), 0);
	setenv("EHSYSLOG_CONFIG", "/run/ehsyslog.conf", 1);
	int d = listen_inet(SOCK_DGRAM, 6514);
	struct sockaddr_in a = ss_loopback(6514);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_eq(connect(u, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(send(u, "<13>early: x", 12, 0), 12);
	received(d, "<13>early: x", 12);
	ck_assert_uint_eq(cap.count, 0);
	syslog(LOG_INFO, "reads the file");
	ck_assert_uint_eq(cap.count, 1);
	ck_assert_int_eq(connect(u, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(send(u, "<13>late: y", 11, 0), 11);
	received(d, "<13>late: y", 11);
	ck_assert_uint_eq(cap.count, 2);
	event_is(1, "late", LOG_NOTICE, 1, "y");
}
END_TEST

START_TEST(env_ports_at_once)
{
	setenv("EHSYSLOG_SYSLOG_PORTS", "6514", 1);
	int d = listen_inet(SOCK_DGRAM, 6514);
	struct sockaddr_in a = ss_loopback(6514);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_eq(connect(u, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(send(u, "<13>env: z", 10, 0), 10);
	received(d, "<13>env: z", 10);
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "env", LOG_NOTICE, 1, "z");
}
END_TEST

/* TCP to 601: octet-counted frames, two in one send and one across two
 * sends (two messages: no bytes are kept between calls). */
START_TEST(tcp_frames)
{
	int l = listen_inet(SOCK_STREAM, 601);
	int t = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = ss_loopback(601);
	ck_assert_int_eq(connect(t, (struct sockaddr *)&a, sizeof a), 0);
	int s = accept(l, NULL, NULL);
	static const char two[] = "12 <13>a: first13 <13>b: second";
	ck_assert_int_eq(send(t, two, sizeof two - 1, 0), (ssize_t)sizeof two - 1);
	static const char nl[] = "<13>c: third\n<13>d: fourth\n";
	ck_assert_int_eq(write(t, nl, sizeof nl - 1), (ssize_t)sizeof nl - 1);
	char got[128];
	size_t want = sizeof two - 1 + sizeof nl - 1, at = 0;
	while (at < want) {
		ssize_t n = recv(s, got + at, sizeof got - at, 0);
		ck_assert_int_gt(n, 0);
		at += (size_t)n;
	}
	ck_assert_mem_eq(got, two, sizeof two - 1);
	ck_assert_uint_eq(cap.count, 4);
	event_is(0, "a", LOG_NOTICE, 1, "first");
	event_is(1, "b", LOG_NOTICE, 1, "second");
	event_is(2, "c", LOG_NOTICE, 1, "third");
	event_is(3, "d", LOG_NOTICE, 1, "fourth");
}
END_TEST

/* journald's native protocol without libsystemd: one text and one
 * binary field (the length form), addressed with sendmsg. */
START_TEST(journal_native)
{
	static const char dg[] = "MESSAGE=native hello\nPRIORITY=4\nSYSLOG_IDENTIFIER=rusty\n"
				 "BLOB\n\x05\0\0\0\0\0\0\0a\nb\0c\n";
	int d = ss_listen_unix("/run/systemd/journal/socket");
	int u = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a;
	struct iovec v = { (void *)dg, sizeof dg - 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
	m.msg_name = &a;
	m.msg_namelen = ss_unix_addr(&a, "/run/systemd/journal/socket");
	ck_assert_int_eq(sendmsg(u, &m, 0), (ssize_t)sizeof dg - 1);
	received(d, dg, sizeof dg - 1);
	ck_assert_uint_eq(cap.count, 1);
	struct evf_event ev;
	evf_decode_captured(&cap, 0, &ev);
	ck_assert_str_eq(ev.name, "rusty");
	evf_str_eq(&ev, "message", "native hello");
	ck_assert_uint_eq(evf_num(&ev, "severity"), 4);
	evf_bytes_eq(&ev, "BLOB", EH_ENC_STRING_LENGTH16_CHAR8, "a\nb\0c", 5);
}
END_TEST

/* syslog() itself: one event, however glibc reaches the daemon. */
START_TEST(syslog_once)
{
	int d = ss_listen_unix("/dev/log");
	openlog("once", 0, LOG_USER);
	syslog(LOG_ERR, "just one");
	closelog();
	ck_assert_uint_eq(cap.count, 1);
	event_is(0, "once", LOG_ERR, 1, "just one");
	close(d);
}
END_TEST

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: test_socket needs root for its mount and network namespaces\n");
		return 77;
	}
	Suite *s = suite_create("socket");
	TCase *tc = tcase_create("calls");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, logger_sendmsg);
	tcase_add_test(tc, python_send);
	tcase_add_test(tc, every_call);
	tcase_add_test(tc, replace_mode);
	tcase_add_test(tc, replace_mode_results_are_the_kernels);
	tcase_add_test(tc, replace_mode_edges);
	tcase_add_test(tc, replace_mode_without_a_writer);
	tcase_add_test(tc, replace_mode_before_the_configuration);
	tcase_add_test(tc, nested_sends);
	tcase_add_test(tc, stale_number);
	tcase_add_test(tc, high_numbers);
	tcase_add_test(tc, other_descriptors);
	tcase_add_test(tc, udp_loopback_and_remote);
	tcase_add_test(tc, udp_remote_opt_in);
	tcase_add_test(tc, untraced_long_stream_costs_no_syscall);
	tcase_add_test(tc, file_ports_after_the_first_call);
	tcase_add_test(tc, env_ports_at_once);
	tcase_add_test(tc, tcp_frames);
	tcase_add_test(tc, journal_native);
	tcase_add_test(tc, syslog_once);
	suite_add_tcase(s, tc);
	return check_run(s);
}
