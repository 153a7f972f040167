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
 * The calls are stack-calls.c's.  Their sockets are in mount and network
 * namespaces of the program's own, where it binds /dev/log, journald's
 * socket and TCP 127.0.0.1:514: needs root; without it, exits 77 and
 * says so.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "../lib/syslog_sockets.h"
#include "stack-calls.h"

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

static int null_fd;	/* opened before /dev is a tmpfs */

static void call_none(void)
{
}

/* The kernel's signal frame: a handler that makes no call. */
static const struct stack_call none = { "none", call_none, call_none, false, NULL };

static void (*in_handler)(void);

static void on_signal(int sig)
{
	(void)sig;
	in_handler();
}

/* In a child: the call on an alternate stack of size bytes, after one on
 * the main stack when warm.  Whether it survived. */
static int survives(const struct stack_call *c, int warm, size_t size)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		ss_die("fork");
	if (pid == 0) {
		/* What err, error and GLib print.  Not dup2, whose first call
		 * (interposed) some rows measure; dup3 fails on equal numbers. */
		if (null_fd != 2 && syscall(SYS_dup3, null_fd, 2, 0) < 0)
			_exit(98);
		if (c->sends)
			stack_connect();
		if (warm)
			c->warm_up();
		stack_t ss = { .ss_sp = ss_guarded_stack(size), .ss_size = size };
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_ONSTACK;
		in_handler = c->call;
		if (!ss.ss_sp || sigaltstack(&ss, NULL) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0)
			_exit(98);
		raise(SIGUSR1);
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		ss_die("waitpid");
	stack_drain();
	if (WIFEXITED(st) && WEXITSTATUS(st) == 98)
		ss_die("child set-up");
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The smallest size, in steps of STEP, that survives; 0 if HIGH does not. */
static size_t smallest(const struct stack_call *c, int warm)
{
	size_t lo = LOW / STEP, hi = HIGH / STEP;	/* lo may fail, hi must survive */
	if (!survives(c, warm, hi * STEP))
		return 0;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (survives(c, warm, mid * STEP))
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
	stack_setup();
#ifdef STACK_TRACED
	ue_double_trace(discard, NULL);
#endif
	openlog("stack", 0, LOG_USER);
	size_t frame = smallest(&none, 0);
	if (!frame)
		ss_die("an empty handler");
	printf("signal frame\t-\t%zu\n", frame);
	for (size_t k = 0; k < stack_calls_n; k++)
		for (int warm = 0; warm < 2; warm++) {
			const struct stack_call *c = &stack_calls[k];
			size_t s = c->present && !c->present() ? 1 : smallest(c, warm);
			if (s == 1)
				printf("%s\t%s\t-\n", c->name, warm ? "warm" : "first");
			else if (s)
				printf("%s\t%s\t%zu\n", c->name, warm ? "warm" : "first", s - frame);
			else
				printf("%s\t%s\tover %d\n", c->name, warm ? "warm" : "first", HIGH);
		}
	return 0;
}
