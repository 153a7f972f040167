/* SPDX-License-Identifier: MIT */
/*
 * Classic BPF as seccomp runs it: a filter's verdict on one system call,
 * so that the library can tell, once a program installed a filter,
 * whether the calls it would make later are allowed.
 */
#ifndef EHS_PRELOAD_CBPF_H
#define EHS_PRELOAD_CBPF_H

#include <stdint.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

/* What filter f[0..n) returns for d (SECCOMP_RET_*, with its data bits).
 * An instruction seccomp would have refused, a load outside d, a jump
 * past the end or a fall off it give 0, SECCOMP_RET_KILL_THREAD: a
 * filter this cannot read is taken to forbid. */
uint32_t ehs_cbpf_run(const struct sock_filter *f, unsigned n, const struct seccomp_data *d);

/* True for the actions under which the call is made as asked. */
static inline int ehs_cbpf_allows(uint32_t ret)
{
	uint32_t action = ret & SECCOMP_RET_ACTION_FULL;
	return action == SECCOMP_RET_ALLOW || action == SECCOMP_RET_LOG;
}

#endif
