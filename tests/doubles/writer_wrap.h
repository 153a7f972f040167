/*
 * ld's --wrap=ue_tracepoint_write and --wrap=ue_tracepoint_write_sized:
 * the names a test program defines (__wrap_...) to see each event on its
 * way to the writer, and those it calls to pass it on (__real_...).  The
 * program links with both options (tests/bench/traced.mk,
 * tests/bridge/native_site.mk).
 */
#ifndef EHS_TESTS_WRITER_WRAP_H
#define EHS_TESTS_WRITER_WRAP_H

#include <stddef.h>
#include <sys/uio.h>

struct ue_tracepoint;

int __real_ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt);
int __wrap_ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt);
int __real_ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size);
int __wrap_ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size);

#endif
