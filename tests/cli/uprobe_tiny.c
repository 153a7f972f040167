/* SPDX-License-Identifier: MIT */
/*
 * A shared object with the library's USDT probe contract and nothing
 * else (tests/cli/uprobe_define.sh): provider ehsyslog, probes L1..L5,
 * six arguments message, name, severity, facility, errno, event.  Unlike
 * the library, each probe has a semaphore of its own, and the probes are
 * compiled without optimisation, so that the note places the arguments
 * in memory (-4@-20(%rbp)) rather than in registers: the tool must
 * translate whatever the note says.  Called from Python through ctypes.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#if defined(__clang__)
#define UNOPTIMISED __attribute__((optnone, noinline))
#else
#define UNOPTIMISED __attribute__((optimize("O0"), noinline))
#endif

#define SEMAPHORE(n) \
	__attribute__((section(".probes"), used)) volatile unsigned short ehsyslog_L##n##_semaphore

SEMAPHORE(1);
SEMAPHORE(2);
SEMAPHORE(3);
SEMAPHORE(4);
SEMAPHORE(5);

#define FIRE(n)								\
	case n:								\
		if (ehsyslog_L##n##_semaphore)				\
			STAP_PROBE6(ehsyslog, L##n, message, name, severity, \
				    facility, err, event);		\
		return ehsyslog_L##n##_semaphore

int tiny_fire(int level, const char *message, const char *name, int severity, int facility,
	      int err, const char *event);

/* Fires level's probe if a tracer enabled it; returns its semaphore. */
UNOPTIMISED int tiny_fire(int level, const char *message, const char *name, int severity,
			  int facility, int err, const char *event)
{
	switch (level) {
	FIRE(1);
	FIRE(2);
	FIRE(3);
	FIRE(4);
	FIRE(5);
	}
	return -1;
}
