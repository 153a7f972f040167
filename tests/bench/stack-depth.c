/* SPDX-License-Identifier: MIT */
/*
 * How much stack a logging call takes from a signal handler: for each
 * call, the smallest sigaltstack (in steps of STEP bytes) on which a
 * handler that makes it survives, found by bisection in child processes,
 * less the same for a handler that makes no call (the kernel's signal
 * frame).  "first" is the process's first call of its kind, made in the
 * handler; "warm" follows one made before.  tests/bench/stack-depth.sh
 * runs it without the library, with it preloaded (nothing traced here)
 * and as stack-depth-traced, linked over the writer's double with every
 * tracepoint traced, and prints the table.
 *
 * The sockets' calls run in mount and network namespaces of the
 * program's own, where it binds /dev/log, journald's socket and TCP
 * 127.0.0.1:514: needs root; without it, exits 77 and says so.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "../lib/syslog_sockets.h"

#ifdef STACK_TRACED
#include "../doubles/user_events_double.h"

static int discard(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	return 0;
}
#endif

#define STEP 128
#define LOW 512
#define HIGH (256 * 1024)

static int devlog_l, journal_l, tcp_l;
static int devlog_c, journal_c, tcp_c;
static int null_fd;	/* opened before /dev is a tmpfs */

static void listeners(void)
{
	struct sockaddr_in a = ss_loopback(514);
	devlog_l = ss_listen_unix(SS_DEVLOG);
	journal_l = ss_listen_unix(SS_JOURNAL);
	tcp_l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (tcp_l < 0 || bind(tcp_l, (struct sockaddr *)&a, sizeof a) < 0 || listen(tcp_l, 64) < 0)
		ss_die("tcp");
}

/* What the children sent: read, so that no send ever blocks. */
static void drain(void)
{
	char b[4096];
	int c;
	while (recv(devlog_l, b, sizeof b, MSG_DONTWAIT) >= 0 ||
	       recv(journal_l, b, sizeof b, MSG_DONTWAIT) >= 0)
		;
	while ((c = accept(tcp_l, NULL, NULL)) >= 0) {
		while (recv(c, b, sizeof b, 0) > 0)
			;
		close(c);
	}
}

static void connect_clients(void)
{
	struct sockaddr_in a = ss_loopback(514);
	devlog_c = ss_client_unix(SS_DEVLOG);
	journal_c = ss_client_unix(SS_JOURNAL);
	tcp_c = socket(AF_INET, SOCK_STREAM, 0);
	if (tcp_c < 0 || connect(tcp_c, (struct sockaddr *)&a, sizeof a) < 0)
		ss_die("tcp client");
}

static void call_none(void)
{
}

static void call_syslog(void)
{
	syslog(LOG_ERR, "handler: request %d failed: %m", 42);
}

static void call_warn(void)
{
	warnx("handler: request %d failed", 42);
}

static void call_error(void)
{
	error(0, 0, "handler: request %d failed", 42);
}

static void call_devlog(void)
{
	static const char dg[] = "<11>handler: request 42 failed";
	(void)!write(devlog_c, dg, sizeof dg - 1);
}

static void call_journal(void)
{
	static const char dg[] = "MESSAGE=handler: request 42 failed\nPRIORITY=3\n";
	(void)!write(journal_c, dg, sizeof dg - 1);
}

static void call_tcp(void)
{
	static const char frame[] = "<11>handler: request 42 failed\n";
	(void)!write(tcp_c, frame, sizeof frame - 1);
}

static const struct {
	const char *name;
	void (*call)(void);
} calls[] = {
	{ "none", call_none },
	{ "syslog", call_syslog },
	{ "warnx", call_warn },
	{ "error", call_error },
	{ "write /dev/log", call_devlog },
	{ "write journal", call_journal },
	{ "write tcp", call_tcp },
};

static void (*in_handler)(void);

static void on_signal(int sig)
{
	(void)sig;
	in_handler();
}

/* In a child: the call on an alternate stack of size bytes, after one on
 * the main stack when warm.  Whether it survived. */
static int survives(size_t k, int warm, size_t size)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		ss_die("fork");
	if (pid == 0) {
		if (dup2(null_fd, 2) < 0)	/* warnx and error print there */
			_exit(98);
		connect_clients();
		if (warm)
			calls[k].call();
		stack_t ss = { .ss_sp = ss_guarded_stack(size), .ss_size = size };
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_ONSTACK;
		in_handler = calls[k].call;
		if (!ss.ss_sp || sigaltstack(&ss, NULL) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0)
			_exit(98);
		raise(SIGUSR1);
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		ss_die("waitpid");
	drain();
	if (WIFEXITED(st) && WEXITSTATUS(st) == 98)
		ss_die("child set-up");
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The smallest size, in steps of STEP, that survives; 0 if HIGH does not. */
static size_t smallest(size_t k, int warm)
{
	size_t lo = LOW / STEP, hi = HIGH / STEP;	/* lo may fail, hi must survive */
	if (!survives(k, warm, hi * STEP))
		return 0;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (survives(k, warm, mid * STEP))
			hi = mid;
		else
			lo = mid;
	}
	return hi * STEP;
}

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: stack-depth needs root for its mount and network namespaces\n");
		return 77;
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		ss_die("/dev/null");
	ss_namespaces();
	listeners();
#ifdef STACK_TRACED
	ue_double_trace(discard, NULL);
#endif
	openlog("stack", 0, LOG_USER);
	size_t frame = smallest(0, 0);
	if (!frame)
		ss_die("an empty handler");
	printf("signal frame\t-\t%zu\n", frame);
	for (size_t k = 1; k < sizeof calls / sizeof calls[0]; k++)
		for (int warm = 0; warm < 2; warm++) {
			size_t s = smallest(k, warm);
			if (s)
				printf("%s\t%s\t%zu\n", calls[k].name, warm ? "warm" : "first",
				       s - frame);
			else
				printf("%s\t%s\tover %d\n", calls[k].name, warm ? "warm" : "first",
				       HIGH);
		}
	return 0;
}
