/* SPDX-License-Identifier: MIT */
/*
 * A shared object with the library's USDT probe contract and nothing
 * else (tests/cli/uprobe_define.sh): provider ehsyslog, probes critical, error, warning,
 * info and verbose (levels 1..5),
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

#define SEMAPHORE(probe) \
	__attribute__((section(".probes"), used)) volatile unsigned short ehsyslog_##probe##_semaphore

SEMAPHORE(critical);
SEMAPHORE(error);
SEMAPHORE(warning);
SEMAPHORE(info);
SEMAPHORE(verbose);

#define FIRE(n, probe)							\
	case n:								\
		if (ehsyslog_##probe##_semaphore)			\
			STAP_PROBE6(ehsyslog, probe, message, name, severity, \
				    facility, err, event);		\
		return ehsyslog_##probe##_semaphore

int tiny_fire(int level, const char *message, const char *name, int severity, int facility,
	      int err, const char *event);

/* Fires level's probe if a tracer enabled it; returns its semaphore. */
UNOPTIMISED int tiny_fire(int level, const char *message, const char *name, int severity,
			  int facility, int err, const char *event)
{
	switch (level) {
	FIRE(1, critical);
	FIRE(2, error);
	FIRE(3, warning);
	FIRE(4, info);
	FIRE(5, verbose);
	}
	return -1;
}
