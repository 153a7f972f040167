/* SPDX-License-Identifier: MIT */
/*
 * A test double of the writer (include/ehsyslog/user_events.h): the
 * bridge's unit tests link it instead of src/user_events/, so they see
 * the events the bridge writes without a kernel with user_events.
 *
 * It acts as the kernel and a tracer together: ue_double_trace() starts
 * or stops "tracing" every tracepoint and enabler at once, flipping their
 * enable bits as the kernel would, and a traced write goes to the
 * function given there.  Nothing is opened and no syscall is made.
 */
#ifndef EHS_TESTS_USER_EVENTS_DOUBLE_H
#define EHS_TESTS_USER_EVENTS_DOUBLE_H

#include <stdbool.h>
#include <sys/uio.h>

#include <ehsyslog/user_events.h>

/* Receives each written event as ue_tracepoint_write did: iov[0] the
 * writer's (left empty by the caller), then the event's bytes. */
typedef int (*ue_double_fn)(void *ctx, struct iovec *iov, int iovcnt);

/*
 * With fn: every tracepoint and enabler counts as traced from now on (those
 * registered already get their enable bit set), and writes go to fn(ctx,
 * ...).  With NULL: nothing is traced and bits are cleared.  Meant to be
 * called while no other thread logs; writes from signal handlers and
 * threads afterwards are fine.
 */
void ue_double_trace(ue_double_fn fn, void *ctx);

/* With fail, registrations from now on fail as on a kernel without
 * user_events: the word stays 0, ue_tracepoint_registered says false and
 * enablers fail.  Those made before stay.  Without: they work again. */
void ue_double_fail(bool fail);

#endif
