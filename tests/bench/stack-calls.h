/* SPDX-License-Identifier: MIT */
/*
 * The calls tests/bench/stack-depth.c measures in a signal handler, one
 * of each family the library interposes (logging, descriptor and
 * credential calls), and the daemons' sockets they send to (bound in the
 * program's own namespaces).
 */
#ifndef TESTS_BENCH_STACK_CALLS_H
#define TESTS_BENCH_STACK_CALLS_H

#include <stdbool.h>
#include <stddef.h>

struct stack_call {
	const char *name;
	void (*call)(void);
	/* What a "warm" run makes first on the main stack: the call
	 * itself, unless it exits (err, errc: then the warning of its
	 * family, which shares its path up to the exit); for the descriptor
	 * and credential calls, the call and then a syslog. */
	void (*warm_up)(void);
	/* The call sends on the client sockets (stack_connect), which are
	 * connected before it on the main stack.  The other calls find
	 * none: a process's first connect to a syslog socket prepares the
	 * library (reads its configuration, opens the writer), and their
	 * "first" is to be the process's first call. */
	bool sends;
	/* NULL, or whether the call is there at all (the library's own
	 * API without the library, and the descriptor and credential
	 * wrappers in the traced program: not). */
	bool (*present)(void);
};

extern const struct stack_call stack_calls[];
extern const size_t stack_calls_n;

/* The daemons' sockets (/dev/log, journald's, TCP and UDP
 * 127.0.0.1:514), fclose's streams and GLib's writer function. */
void stack_setup(void);

/* Reads what the children sent, so that no send ever blocks. */
void stack_drain(void);

/* In a child: the client sockets the calls send on. */
void stack_connect(void);

#endif
