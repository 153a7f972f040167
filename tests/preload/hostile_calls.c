/* SPDX-License-Identifier: MIT */
/*
 * Socket calls that programs get wrong, each in a child process of its
 * own, in mount and network namespaces where this program binds the
 * daemons' sockets itself: /dev/log, journald's socket, UDP and TCP
 * 127.0.0.1:514.  Prints one transcript: for each case what the calls
 * returned, errno, how the child ended, and every byte each listener
 * received.  tests/preload/hostile.sh runs it with and without the
 * library (and linked over the writer's double, tracing everything:
 * hostile_calls_traced) and requires the same transcript.
 *
 * Needs root (the namespaces); without it, exits 77 and says so.
 */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/syslog_sockets.h"

#ifdef HOSTILE_TRACED
#include "../doubles/user_events_double.h"

static unsigned long events;

static int count_events(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	events++;
	return 0;
}
#endif

/* The bad calls are the point: gcc need not warn about them. */
#pragma GCC diagnostic ignored "-Wnonnull"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define DEVLOG SS_DEVLOG
#define JOURNAL SS_JOURNAL
#define BAD ((void *)16)	/* below mmap_min_addr: never mapped */

static int devlog, journal, udp, tcp;

static void listeners(void)
{
	devlog = ss_listen_unix(DEVLOG);
	journal = ss_listen_unix(JOURNAL);
	struct sockaddr_in a = ss_loopback(514);
	udp = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (udp < 0 || tcp < 0 || bind(udp, (struct sockaddr *)&a, sizeof a) < 0 ||
	    bind(tcp, (struct sockaddr *)&a, sizeof a) < 0 || listen(tcp, 8) < 0)
		ss_die("udp/tcp");
}

/* A client of TCP 127.0.0.1:514. */
static int client_tcp(void)
{
	struct sockaddr_in a = ss_loopback(514);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof a) < 0)
		ss_die("tcp");
	return c;
}

/* One call's outcome, as the transcript shows it. */
static void result(const char *call, long r)
{
	if (r < 0)
		printf("  %s = %ld errno %d\n", call, r, errno);
	else
		printf("  %s = %ld\n", call, r);
	fflush(stdout);
}

static void msg_of(struct msghdr *m, struct iovec *iov, size_t n)
{
	memset(m, 0, sizeof *m);
	m->msg_iov = iov;
	m->msg_iovlen = n;
}

/* The cases: each runs in its own child. */

static void bad_sendmsg_header(void)
{
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	result("sendmsg(unconnected, 16)", sendmsg(s, BAD, 0));
	int c = ss_client_unix(DEVLOG);
	result("sendmsg(devlog, 16)", sendmsg(c, BAD, 0));
}

static void bad_sendmmsg_vector(void)
{
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	result("sendmmsg(unconnected, 16)", sendmmsg(s, BAD, 1, 0));
	int c = ss_client_unix(DEVLOG);
	result("sendmmsg(devlog, 16)", sendmmsg(c, BAD, 1, 0));
}

static void bad_buffers(void)
{
	int c = ss_client_unix(DEVLOG), j = ss_client_unix(JOURNAL), t = client_tcp();
	result("write(devlog, NULL, 10)", write(c, NULL, 10));
	result("send(journal, 16, 10)", send(j, BAD, 10, 0));
	result("write(tcp, 16, 10)", write(t, BAD, 10));
	result("send(devlog, 16, 0)", send(c, BAD, 0, 0));
}

static void bad_iovecs(void)
{
	int c = ss_client_unix(DEVLOG), j = ss_client_unix(JOURNAL), t = client_tcp();
	struct iovec v[2] = { { "<13>iov: a", 10 }, { BAD, 5 } };
	result("writev(devlog, one bad iovec)", writev(c, v, 2));
	result("writev(journal, one bad iovec)", writev(j, v, 2));
	result("writev(tcp, one bad iovec)", writev(t, v, 2));
	result("writev(devlog, 16, 2)", writev(c, BAD, 2));
	struct iovec huge[2] = { { "<13>x: y", SSIZE_MAX }, { "z", SSIZE_MAX } };
	result("writev(devlog, 2 x SSIZE_MAX)", writev(c, huge, 2));
	struct iovec over[2] = { { "<13>x: y", SSIZE_MAX }, { "z", 2 } };
	result("writev(devlog, SSIZE_MAX + 2)", writev(c, over, 2));
	result("writev(devlog, -1 iovecs)", writev(c, v, -1));
	result("writev(devlog, IOV_MAX + 1)", writev(c, v, IOV_MAX + 1));
}

static void bad_messages(void)
{
	int c = ss_client_unix(DEVLOG);
	struct iovec good = { "<13>mm: good", 12 }, bad = { BAD, 4 };
	struct mmsghdr v[2];
	msg_of(&v[0].msg_hdr, &good, 1);
	msg_of(&v[1].msg_hdr, &bad, 1);
	result("sendmmsg(devlog, second bad)", sendmmsg(c, v, 2, 0));
	struct msghdr m;
	msg_of(&m, BAD, 1);
	result("sendmsg(devlog, bad iovec array)", sendmsg(c, &m, 0));
	struct iovec big = { "<13>", (size_t)4 << 30 };
	msg_of(&v[0].msg_hdr, &big, 1);
	result("sendmmsg(devlog, 4 GiB iovec)", sendmmsg(c, v, 1, 0));
}

static void bad_addresses(void)
{
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	result("sendto(unconnected, 16)",
	       sendto(s, "<13>to: x", 9, 0, BAD, sizeof(struct sockaddr_un)));
	struct iovec v = { "<13>to: y", 9 };
	struct msghdr m;
	msg_of(&m, &v, 1);
	m.msg_name = BAD;
	m.msg_namelen = sizeof(struct sockaddr_un);
	result("sendmsg(named 16)", sendmsg(s, &m, 0));
	struct sockaddr_un a;
	result("sendto(name too long)", sendto(s, "<13>to: z", 9, 0, (struct sockaddr *)&a,
					      (socklen_t)sizeof(struct sockaddr_storage) + 1));
}

static void too_large(void)
{
	size_t n = 300000;
	char *big = malloc(n);
	if (!big)
		ss_die("malloc");
	memset(big, 'x', n);
	memcpy(big, "<13>big: ", 9);
	int c = ss_client_unix(DEVLOG);
	result("write(devlog, 300000 bytes)", write(c, big, n));
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	result("sendto(udp, 70000 bytes)", sendto(u, big, 70000, 0, (struct sockaddr *)&a, sizeof a));
	free(big);
}

/* What well-formed clients send: the listeners get every byte. */
static void good_clients(void)
{
	int c = ss_client_unix(DEVLOG), j = ss_client_unix(JOURNAL), t = client_tcp();
	result("write(devlog)", write(c, "<13>good: one", 13));
	result("send(journal)", send(j, "MESSAGE=two\nPRIORITY=5\n", 23, 0));
	result("write(tcp)", write(t, "16 <13>good: three", 18));
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = ss_loopback(514);
	result("sendto(udp)", sendto(u, "<13>good: four", 14, 0, (struct sockaddr *)&a, sizeof a));
	struct sockaddr_in nowhere = a;
	nowhere.sin_port = htons(515);
	result("sendto(udp, nobody)",
	       sendto(u, "<13>good: five", 14, 0, (struct sockaddr *)&nowhere, sizeof nowhere));
	/* A second connect of a connected stream fails: it stays what it was. */
	struct sockaddr_in again = ss_loopback(514);
	result("connect(tcp again)", connect(t, (struct sockaddr *)&again, sizeof again));
	result("write(tcp after EISCONN)", write(t, "\n<13>good: six\n", 15));
}

/* A crash handler that logs, on an 8 KiB alternate stack (SIGSTKSZ; the
 * signal frame takes about 3 KiB on machines with wide vector registers,
 * and libc's first write about 3 more, binding the symbol): a write to
 * each kind of watched socket, the first ones of the process.  Traced,
 * the events are built within the 2 KiB stack budget
 * (tests/preload/stack_budget.sh), so the traced run has the same stack. */
#define HANDLER_STACK 8192
static int handler_fds[3];

static void on_signal(int sig)
{
	(void)sig;
	static const char dgram[] = "<10>crash: handler", frame[] = "19 <10>crash: handler";
	long r0 = write(handler_fds[0], dgram, sizeof dgram - 1);
	long r1 = write(handler_fds[1], "MESSAGE=crash\n", 14);
	long r2 = write(handler_fds[2], frame, sizeof frame - 1);
	char line[96];
	int n = snprintf(line, sizeof line, "  handler writes = %ld %ld %ld\n", r0, r1, r2);
	if (n > 0)
		(void)!write(1, line, (size_t)n);
}

static void small_stack_handler(void)
{
	handler_fds[0] = ss_client_unix(DEVLOG);
	handler_fds[1] = ss_client_unix(JOURNAL);
	handler_fds[2] = client_tcp();
	stack_t ss = { .ss_sp = ss_guarded_stack(HANDLER_STACK), .ss_size = HANDLER_STACK };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	if (!ss.ss_sp || sigaltstack(&ss, NULL) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0)
		ss_die("sigaltstack");
	raise(SIGUSR1);
}

/* systemd's SystemCallFilter= and container runtimes forbid system calls
 * once a program runs: here openat, open and getpid kill it.  A connect()
 * to a port that is not syslog's must not make any of them. */
static void seccomp_no_open(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getpid, 2, 0),
#ifdef __NR_open
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 1, 0),
#else
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 1, 0),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		ss_die("seccomp");
	struct sockaddr_in dns = ss_loopback(514);
	dns.sin_port = htons(53);
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	result("connect(udp 127.0.0.1:53)", connect(u, (struct sockaddr *)&dns, sizeof dns));
	result("send(udp 127.0.0.1:53)", send(u, "q", 1, 0));
	int t = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 db = { .sin6_family = AF_INET6, .sin6_port = htons(5432),
				   .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	result("connect(tcp [::1]:5432)", connect(t, (struct sockaddr *)&db, sizeof db));
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "bad sendmsg header", bad_sendmsg_header },
	{ "bad sendmmsg vector", bad_sendmmsg_vector },
	{ "bad buffers", bad_buffers },
	{ "bad iovecs", bad_iovecs },
	{ "bad messages", bad_messages },
	{ "bad addresses", bad_addresses },
	{ "too large", too_large },
	{ "good clients", good_clients },
	{ "handler on a small stack", small_stack_handler },
	{ "seccomp: no openat, a connect elsewhere", seccomp_no_open },
};

/* Prints the bytes a datagram or stream brought, escaped, cut at 48. */
static void show(const char *who, const char *b, ssize_t n)
{
	printf("  %s got %zd:", who, n);
	for (ssize_t i = 0; i < n && i < 48; i++)
		printf(b[i] >= 32 && b[i] < 127 && b[i] != '\\' ? "%c" : "\\x%02x",
		       (unsigned char)b[i]);
	printf("\n");
}

static void drain(const char *who, int s)
{
	static char b[1 << 17];
	ssize_t n;
	while ((n = recv(s, b, sizeof b, MSG_DONTWAIT | MSG_TRUNC)) >= 0)
		show(who, b, n);
}

/* Each connection the case made to TCP 514: all it sent until its close. */
static void drain_tcp(void)
{
	int c;
	while ((c = accept(tcp, NULL, NULL)) >= 0) {
		static char b[1 << 17];
		ssize_t n, total = 0;
		while ((n = recv(c, b + total, sizeof b - (size_t)total, 0)) > 0)
			total += n;
		show("tcp", b, total);
		close(c);
	}
}

/* With an argument, runs only the case of that name (to debug it). */
int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("SKIP: hostile_calls needs root for its mount and network namespaces\n");
		return 77;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ss_namespaces();
	listeners();
#ifdef HOSTILE_TRACED
	ue_double_trace(count_events, NULL);
#endif
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
			continue;
		printf("%s\n", cases[i].name);
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0)
			ss_die("fork");
		if (pid == 0) {
			cases[i].run();
			fflush(stdout);
			_exit(0);
		}
		int status;
		if (waitpid(pid, &status, 0) < 0)
			ss_die("waitpid");
		if (WIFSIGNALED(status))
			printf("  killed by signal %d\n", WTERMSIG(status));
		else if (WEXITSTATUS(status))
			printf("  exit %d\n", WEXITSTATUS(status));
		drain("devlog", devlog);
		drain("journal", journal);
		drain("udp", udp);
		drain_tcp();
	}
	return 0;
}
