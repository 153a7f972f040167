/* bench-call: times one logging call in a loop and counts the heap
 * allocations it makes.
 *
 *   bench-call [-t THREADS] [-s BYTES] [-m MILLISECONDS | -n CALLS] [-w] KIND
 *
 * KIND is the call under test:
 *   syslog      syslog(LOG_INFO, "request %d done in %d ms", i, j)
 *   syslog_chk  the same through __syslog_chk, as _FORTIFY_SOURCE builds do
 *   vsyslog, vsyslog_chk
 *               the same through vsyslog or __vsyslog_chk, from a variadic
 *               helper that makes the va_list
 *   warn, warnx warn("request %d done in %d ms", i, j), with stderr sent
 *               to /dev/null while the calls are timed
 *   writev      a bare writev() to /dev/null of the bytes one such event
 *               has on the wire, in the iovec shape a writer uses
 *   tracef      LTTng-UST tracef() with the same format (only in the
 *               bench-call-lttng build)
 *   g_log, g_log_structured, g_log_structured_standard,
 *   g_log_structured_array
 *               GLib's calls at G_LOG_LEVEL_WARNING, domain "bench", the
 *               same format (the array: the formatted message), GLib's
 *               stderr sent to /dev/null (only in the bench-call-glib
 *               build)
 *   journal_print, journal_send, journal_sendv
 *               sd_journal_print(LOG_INFO, FORMAT...), sd_journal_send
 *               with MESSAGE= and PRIORITY=6, sd_journal_sendv of the same
 *               two fields, each through sd-journal.h's location macros
 *               (the _with_location functions): only in the
 *               bench-call-journal build, linked with libsystemd
 *   empty       a call, through a pointer the compiler cannot see through,
 *               to a variadic function that does nothing: what the loop
 *               and an out-of-line call cost, the floor under every figure
 *   empty_v     the vsyslog kinds' floor: the same helper calling, through
 *               a pointer, a function that takes a va_list and does nothing
 *   empty_chk, empty_vchk  the same two floors with the _chk forms'
 *               extra flag argument, so each entry point is measured over
 *               a call that passes exactly its arguments
 * and the calls the library interposes for the syslog sockets programs
 * open themselves (preload/socket.c), which every other write and send
 * goes through too:
 *   write_devnull   write() of 100 bytes to /dev/null: what any write
 *                   pays, nothing watched (the interposer's jump alone)
 *   write_devnull_watching
 *                   the same, after a socket connected to /dev/log
 *                   (kept open, never written to): every write then
 *                   takes the watched path
 *   write_devnull_stale
 *                   the same on the number a /dev/log socket had before
 *                   the program closed it (/dev/null reopened there)
 *   write_devnull_high
 *                   write_devnull_watching with /dev/null at number 2000
 *                   (RLIMIT_NOFILE raised for it): past the watch bits
 *   getppid         a bare getppid() system call (syscall(2)): the unit
 *                   the uprobe transport's traced cost is counted in
 *   send_socketpair send() of 100 bytes, MSG_DONTWAIT, on one end of an
 *                   AF_UNIX datagram socketpair whose other end's queue
 *                   is filled first, so that every timed send is turned
 *                   away alike (EAGAIN): a constant path
 *   logger_dgram    what util-linux logger does: a datagram socket
 *                   connected to /dev/log, sendmsg() of 3 iovecs (header
 *                   "<156>Nov 26 05:00:00 ", tag "bench: ", the message)
 *   python_dgram    what Python's SysLogHandler does: the same socket,
 *                   send() of "<12>bench: " the message and a NUL
 * and, in the bench-call-traced build (which then links the socket calls
 * too, in replace mode: the datagrams become events, never sent), the
 * sink writev()ing each event to /dev/null:
 *   logger_dgram_traced, python_dgram_traced
 *                   the same two datagrams, traced
 * and, in the bench-call-traced build (linked with the interposer's
 * wrappers and the bridge over the writer's test double, tests/doubles/,
 * which makes every tracepoint count as traced and hands each event to
 * this program; pass-through off, so that the real syslog stays out),
 * the traced syslog path as a program takes it, from its own syslog()
 * call on (the preload wrapper included; in this build the syslog and
 * warn kinds above go through the wrappers too):
 *   traced_nowrite  format, encode and build the iovecs; the sink only
 *                   adds up their lengths: the user-space work alone
 *   traced_devnull  the same, the sink writev()s the event (with its
 *                   4-byte write index) to /dev/null: the whole call
 *   traced_one_d, traced_s, traced_m
 *                   the same whole call for a message of about the same
 *                   length with one conversion: the format's text with
 *                   the numbers and the padding written in and one %d
 *                   left; "%s" of the whole message; the whole message
 *                   written in, then ": %m" with errno ENOENT.  Those
 *                   formats are made at start-up, in writable memory:
 *                   searched at every call
 *   traced_one_d_literal
 *                   traced_one_d's format of -s 100 as a string literal,
 *                   as programs have it (-s 100 only)
 *   writev_event    a bare writev() to /dev/null of exactly the iovecs of
 *                   the first event traced_devnull sends
 * and, in the bench-call-kernel build (the wrappers and the bridge over
 * the real writer),
 * on a kernel with user_events (run as root), against a real tracepoint
 * that this program enables through tracefs, so that ftrace records
 * every event:
 *   kernel_traced   the traced syslog path, the bridge's writer writing
 *                   to user_events_data
 *   kernel_writev   a bare writev() of the bytes of the first event
 *                   kernel_traced would send, to the same tracepoint
 *                   (registered again, with the same name and fields, on
 *                   a descriptor of this program's own)
 *   traced_one_d, traced_one_d_literal, traced_s, traced_m, empty
 *                   as above, the writer writing to user_events_data
 * (-w: at the end, a line on stderr says where the writer keeps its
 * descriptor and what RLIMIT_NOFILE the program saw; ld's --wrap of the
 * writer, traced.mk, adds its own instructions to every traced kind's
 * call: __wrap_ue_tracepoint_write's or _sized's, which instruction counts
 * take out)
 * and, in the bench-call-traced build again, the native API:
 *   native_cached   a preformatted native event through EHS_EVENT(), the
 *                   call site's cache holding its metadata: the message
 *                   (as the syslog kinds format it, once, before the
 *                   loop), the request number and the ms as fields; the
 *                   sink only adds up the iovecs' lengths
 *   native_uncached the same event through ehs_event(), which builds
 *                   the metadata on every call
 *   native_emit     the same event through EHS_EMIT(), which checks the
 *                   tracepoint and encodes the values at the call site
 *
 * -s BYTES pads the message to about BYTES bytes (the formatted text, as
 * the format's "%s" tail); 0, the default, logs the plain format.
 * -t THREADS runs the loop in that many threads at once; -t 0 runs it in
 * the main thread, with no other (valgrind's arm64 tool under qemu-user,
 * scripts/bench --arch arm64, hangs in pthread_create).
 * -m MILLISECONDS is the least time the measured batch must take: the
 * batch size doubles from 1000 calls until one batch lasts that long, so
 * a 2 ns call and a 8 us call are both timed over a meaningful interval.
 * -n CALLS runs exactly one batch of CALLS per thread instead (for
 * instruction counts: the difference between two CALLS values is the cost
 * of the extra calls alone).
 *
 * Prints one line: "<ns per call> <allocations per call> <calls>", where
 * ns per call is the wall time of the last batch divided by the calls of
 * one thread (so with 2 threads on 2 idle cores it stays the 1-thread
 * figure if the calls do not contend) and allocations per call counts
 * every thread's calls. */
#include <err.h>
#include <stdarg.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#ifdef BENCH_LTTNG
#include <lttng/tracef.h>
#endif
#ifdef BENCH_GLIB
#include <glib.h>
#endif

#ifdef BENCH_JOURNAL
#include <systemd/sd-journal.h>
#endif

#include "malloc-count.h"

#ifdef BENCH_TRACED
#include <ehsyslog/settings.h>
#include <ehsyslog/user_events.h>
#include <eventheader/eventheader.h>

#include <ehsyslog.h>

#ifdef BENCH_KERNEL
#include "../doubles/writer_wrap.h"
#include "kernel-tracepoint.h"
#else
#include "../doubles/user_events_double.h"
#endif
#endif

/* The fortified entry point that -D_FORTIFY_SOURCE=2 programs import
 * instead of syslog (glibc >= 2.3.4); declared here so that this file can
 * call both forms without depending on how it is itself compiled. */
void __syslog_chk(int pri, int flag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void __vsyslog_chk(int pri, int flag, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#define FORMAT "request %d done in %d ms%s"
/* traced_one_d's format at -s 100 as the string literal a program has:
 * the same message, from a format with a plan (format_plan.h). */
#define ONE_D_LITERAL \
	"request %d done in 67 ms bcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopq"

enum kind {
	K_SYSLOG, K_SYSLOG_CHK, K_WARN, K_WARNX, K_WRITEV, K_TRACEF,
	K_TRACED_NOWRITE, K_TRACED_DEVNULL, K_TRACED_ONE_D, K_TRACED_ONE_D_LITERAL, K_TRACED_S,
	K_TRACED_M, K_WRITEV_EVENT,
	K_KERNEL_TRACED, K_KERNEL_WRITEV, K_NATIVE_CACHED, K_NATIVE_UNCACHED, K_NATIVE_EMIT, K_EMPTY,
	K_VSYSLOG, K_VSYSLOG_CHK, K_EMPTY_V, K_EMPTY_CHK, K_EMPTY_VCHK,
	K_WRITE_DEVNULL, K_WRITE_DEVNULL_WATCHING, K_WRITE_DEVNULL_STALE, K_WRITE_DEVNULL_HIGH,
	K_SEND_SOCKETPAIR, K_GETPPID,
	K_LOGGER_DGRAM, K_PYTHON_DGRAM, K_LOGGER_DGRAM_TRACED, K_PYTHON_DGRAM_TRACED,
	K_G_LOG, K_G_LOG_STRUCTURED, K_G_LOG_STANDARD, K_G_LOG_ARRAY,
	K_JOURNAL_PRINT, K_JOURNAL_SEND, K_JOURNAL_SENDV,
	K_STDOUT_WRITE, K_STDOUT_PRINTF,
};

static const char *const kind_names[] = {
	[K_SYSLOG] = "syslog", [K_SYSLOG_CHK] = "syslog_chk",
	[K_WARN] = "warn", [K_WARNX] = "warnx",
	[K_WRITEV] = "writev", [K_TRACEF] = "tracef",
	[K_TRACED_NOWRITE] = "traced_nowrite",
	[K_TRACED_DEVNULL] = "traced_devnull",
	[K_TRACED_ONE_D] = "traced_one_d",
	[K_TRACED_ONE_D_LITERAL] = "traced_one_d_literal",
	[K_TRACED_S] = "traced_s",
	[K_TRACED_M] = "traced_m",
	[K_WRITEV_EVENT] = "writev_event",
	[K_KERNEL_TRACED] = "kernel_traced",
	[K_KERNEL_WRITEV] = "kernel_writev",
	[K_NATIVE_CACHED] = "native_cached",
	[K_NATIVE_UNCACHED] = "native_uncached",
	[K_NATIVE_EMIT] = "native_emit",
	[K_EMPTY] = "empty",
	[K_VSYSLOG] = "vsyslog", [K_VSYSLOG_CHK] = "vsyslog_chk",
	[K_EMPTY_V] = "empty_v",
	[K_EMPTY_CHK] = "empty_chk",
	[K_EMPTY_VCHK] = "empty_vchk",
	[K_WRITE_DEVNULL] = "write_devnull",
	[K_WRITE_DEVNULL_WATCHING] = "write_devnull_watching",
	[K_WRITE_DEVNULL_STALE] = "write_devnull_stale",
	[K_WRITE_DEVNULL_HIGH] = "write_devnull_high",
	[K_SEND_SOCKETPAIR] = "send_socketpair", [K_GETPPID] = "getppid",
	[K_LOGGER_DGRAM] = "logger_dgram", [K_PYTHON_DGRAM] = "python_dgram",
	[K_LOGGER_DGRAM_TRACED] = "logger_dgram_traced",
	[K_PYTHON_DGRAM_TRACED] = "python_dgram_traced",
	[K_G_LOG] = "g_log", [K_G_LOG_STRUCTURED] = "g_log_structured",
	[K_G_LOG_STANDARD] = "g_log_structured_standard",
	[K_G_LOG_ARRAY] = "g_log_structured_array",
	[K_JOURNAL_PRINT] = "journal_print", [K_JOURNAL_SEND] = "journal_send",
	[K_JOURNAL_SENDV] = "journal_sendv",
	[K_STDOUT_WRITE] = "stdout_write", [K_STDOUT_PRINTF] = "stdout_printf",
};

static void empty_call(int pri, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void empty_call(int pri, const char *fmt, ...)
{
	(void)pri;
	(void)fmt;
}

/* volatile: the call stays a real indirect call, never inlined away. */
static void (*volatile empty_fn)(int, const char *, ...) = empty_call;

static void empty_vcall(int pri, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void empty_vcall(int pri, const char *fmt, va_list ap)
{
	(void)pri;
	(void)fmt;
	(void)ap;
}

static void (*volatile empty_vfn)(int, const char *, va_list) = empty_vcall;

static void empty_chk_call(int pri, int flag, const char *fmt, ...)
{
	(void)pri;
	(void)flag;
	(void)fmt;
}

static void (*volatile empty_chk_fn)(int, int, const char *, ...) = empty_chk_call;

static void empty_vchk_call(int pri, int flag, const char *fmt, va_list ap)
{
	(void)pri;
	(void)flag;
	(void)fmt;
	(void)ap;
}

static void (*volatile empty_vchk_fn)(int, int, const char *, va_list) = empty_vchk_call;

/* The vsyslog kinds and their floor: one helper, so that its own
 * instructions are the same in each and cancel out. */
static void __attribute__((noinline, format(printf, 2, 3)))
with_va_list(int k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (k == K_VSYSLOG)
		vsyslog(LOG_INFO, fmt, ap);
	else if (k == K_VSYSLOG_CHK)
		__vsyslog_chk(LOG_INFO, 1, fmt, ap);
	else if (k == K_EMPTY_VCHK)
		empty_vchk_fn(LOG_INFO, 1, fmt, ap);
	else
		empty_vfn(LOG_INFO, fmt, ap);
	va_end(ap);
}

static enum kind kind;

/* The kinds that write a line to standard output. */
static bool stdout_kind(void)
{
	return kind == K_STDOUT_WRITE || kind == K_STDOUT_PRINTF;
}
static const char *pad = "";	/* the "%s" tail that makes -s BYTES */
static int null_fd = -1;
/* The stdout kinds' line and the pad that makes printf's the same. */
static char line[101], line_pad[100];
static size_t line_len;
static unsigned long batch;	/* calls per thread in the current batch */
static pthread_barrier_t start_line, finish_line;

/* The event writev sends: sized like the library's event for the plain
 * message (write index, EventHeader, metadata with the ident and four
 * field names, payload: counted message, severity, facility, errno). */
static char event_head[4 + 8 + 48];
static char event_tail[2 + 4];
static char message[65536 + 64];
/* traced_one_d's and traced_m's formats: message with one conversion. */
static char one_d_format[sizeof(message) + 8], m_format[sizeof(message) + 8];

/* The socket kinds' descriptor (the /dev/log socket, or the socketpair's
 * sending end) and their datagrams. */
static int sock_fd = -1;
static const char logger_header[] = "<156>Nov 26 05:00:00 ";
static const char logger_tag[] = "bench: ";
static size_t message_len;
static char python_dgram[sizeof("<12>bench: ") + sizeof(message)];
static size_t python_len;

#ifdef BENCH_TRACED
/* Room for the first event: the writer takes at most UE_EVENT_MAX bytes
 * after the write index, and the bridge hands it fewer than 16 iovecs
 * (capture_first checks both). */
#define CAPTURE_IOV 16
static uint32_t write_index;
static struct iovec event_iov[CAPTURE_IOV];
static int event_iovcnt;
static char event_bytes[sizeof(write_index) + UE_EVENT_MAX];

/* Keeps a copy of the first event, iovec by iovec, for writev_event
 * and kernel_writev. */
static void capture_first(struct iovec *iov, int iovcnt)
{
	size_t used = 0;

	if (event_iovcnt != 0)
		return;
	if (iovcnt > CAPTURE_IOV)
		errx(1, "captured event in %d iovecs, more than %d", iovcnt, CAPTURE_IOV);
	iov[0].iov_base = &write_index;
	iov[0].iov_len = sizeof(write_index);
	for (int k = 0; k < iovcnt; k++) {
		if (iov[k].iov_len > sizeof(event_bytes) - used)
			errx(1, "captured event larger than %zu bytes", sizeof(event_bytes));
		memcpy(event_bytes + used, iov[k].iov_base, iov[k].iov_len);
		event_iov[k].iov_base = event_bytes + used;
		event_iov[k].iov_len = iov[k].iov_len;
		used += iov[k].iov_len;
	}
	event_iovcnt = iovcnt;
}

#ifdef BENCH_KERNEL
static struct ue_tracepoint *event_tp;	/* the first event's tracepoint */

/* Out of line, so that the wrapper's other calls are a test and a jump. */
static __attribute__((noinline, cold)) void capture_kernel(struct ue_tracepoint *tp,
							   struct iovec *iov, int iovcnt)
{
	capture_first(iov, iovcnt);
	event_tp = tp;
}

/* The real writer, seen through ld's --wrap (traced.mk): the first event
 * is copied on its way, the rest pass straight on. */
int __wrap_ue_tracepoint_write(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt)
{
	if (__builtin_expect(event_iovcnt == 0, 0))
		capture_kernel(tp, iov, iovcnt);
	return __real_ue_tracepoint_write(tp, iov, iovcnt);
}

int __wrap_ue_tracepoint_write_sized(struct ue_tracepoint *tp, struct iovec *iov, int iovcnt,
				     size_t size)
{
	if (__builtin_expect(event_iovcnt == 0, 0))
		capture_kernel(tp, iov, iovcnt);
	return __real_ue_tracepoint_write_sized(tp, iov, iovcnt, size);
}
#else
/* What the writer's double hands each event to. */
static int sink_nowrite(void *ctx, struct iovec *iov, int iovcnt)
{
	size_t total = 0;

	(void)ctx;
	for (int k = 1; k < iovcnt; k++)
		total += iov[k].iov_len;
	return (int)total;
}

static int sink_devnull(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	iov[0].iov_base = &write_index;
	iov[0].iov_len = sizeof(write_index);
	return writev(null_fd, iov, iovcnt) < 0 ? -1 : 0;
}

static int sink_capture(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	capture_first(iov, iovcnt);
	return 0;
}

static unsigned long sink_events;

static int sink_count(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	(void)iov;
	(void)iovcnt;
	sink_events++;
	return 0;
}
#endif

/* The wrappers linked into this program read the configuration at
 * their first call: replace mode, so that a traced call is the library's
 * work alone, never glibc's syslog to /dev/log as well.  Not for the
 * stdout kinds, whose line goes on to the kernel as a service's does
 * (replace mode would answer it without the write). */
static void traced_setup(void)
{
	if (!stdout_kind() && setenv("EHSYSLOG_PASSTHROUGH", "no", 1) != 0)
		err(1, "setenv");
}

#ifdef BENCH_KERNEL
static int kernel_fd = -1;	/* kernel_writev's own user_events_data */
static uint32_t kernel_enable;	/* its enable word */
static ssize_t kernel_bytes;	/* what one bare write must return */

static void log_once(unsigned long i);

/* The first call of the kind, or of syslog: what registers the
 * tracepoint the kind writes to. */
static void kernel_first_call(void)
{
	if (stdout_kind())
		log_once(0);
	else
		syslog(LOG_INFO, FORMAT, 12345, 67, pad);
}

/* The library registers its tracepoint at the first call; enable it,
 * check that the next call writes there and that the kernel said so in
 * the enable word, and for kernel_writev register the same event once
 * more on a descriptor of our own.  Every kind logs at LOG_INFO from a
 * program that never called openlog: the same tracepoint, at facility
 * user; the stdout kinds' lines at daemon, as journald has them (with
 * EHSYSLOG_STDIO=stdout in the environment, so that standard output on
 * /dev/null is a log). */
static void kernel_setup(void)
{
	char name[EH_NAME_MAX];
	struct ue_status st;

	bench_nofile_room();
	bench_info_tracepoint(name, sizeof(name), stdout_kind() ? LOG_DAEMON : LOG_USER);
	kernel_first_call();
	ue_status(&st);
	if (st.state != UE_STATUS_OK || st.registered == 0)
		errx(1, "no user_events tracepoint: %s (errno %d)",
		     ue_status_string(st.state), st.error);
	bench_tracefs_enable(name);
	kernel_first_call();
	if (event_iovcnt == 0)
		errx(1, "the bridge wrote nothing to %s (another provider in the configuration file?)",
		     name);
	if (strcmp(event_tp->name, name) != 0)
		errx(1, "enabled %s, but the bridge wrote to %s", name, event_tp->name);
	if (__atomic_load_n(&event_tp->state, __ATOMIC_RELAXED) != UE_STATE_ENABLED)
		errx(1, "%s enabled in tracefs, but its enable word is %#x",
		     name, event_tp->state);
	if (kind != K_KERNEL_WRITEV)
		return;

	kernel_fd = bench_register_own(name, &kernel_enable, &write_index);
	if (!(__atomic_load_n(&kernel_enable, __ATOMIC_RELAXED) & 1))
		errx(1, "%s registered again, but not enabled", name);
	event_iov[0].iov_base = &write_index;
	kernel_bytes = 0;
	for (int k = 0; k < event_iovcnt; k++)
		kernel_bytes += (ssize_t)event_iov[k].iov_len;
}
#endif
#endif

#ifdef BENCH_JOURNAL
static void log_journal(int a, int b)
{
	static const struct iovec fields[] = {
		{ (void *)"MESSAGE=request 1 done in 2 ms", 30 },
		{ (void *)"PRIORITY=6", 10 },
	};
	switch (kind) {
	case K_JOURNAL_PRINT:
		sd_journal_print(LOG_INFO, FORMAT, a, b, pad);
		break;
	case K_JOURNAL_SEND:
		sd_journal_send("MESSAGE=" FORMAT, a, b, pad, "PRIORITY=6", NULL);
		break;
	default:
		sd_journal_sendv(fields, 2);
		break;
	}
}
#endif

#ifdef BENCH_TRACED
/* Its own function, so that the call site's inline code does not weigh
 * on the other kinds' loop. */
static __attribute__((noinline)) void native_emit(int a, int b)
{
	if (EHS_EMIT(LOG_INFO, "request", EHS_STRING("message", message),
		     EHS_INT64("request", a), EHS_UINT8("ms", b)) != 1)
		errx(1, "the native event was not written");
}
#endif

static void log_once(unsigned long i)
{
	int a = (int)i, b = (int)(i & 127);

	switch (kind) {
	case K_SYSLOG:
		syslog(LOG_INFO, FORMAT, a, b, pad);
		break;
	case K_SYSLOG_CHK:
		__syslog_chk(LOG_INFO, 1, FORMAT, a, b, pad);
		break;
	case K_WARN:
		warn(FORMAT, a, b, pad);
		break;
	case K_WARNX:
		warnx(FORMAT, a, b, pad);
		break;
	case K_GETPPID:
		/* The cheapest system call there is: the unit a traced call's
		 * kernel work is counted in. */
		(void)syscall(SYS_getppid);
		break;
	case K_WRITEV: {
		/* The formatting is the traced call's business: this is only
		 * the cost of handing the finished bytes to the kernel. */
		uint16_t len = (uint16_t)strlen(message);
		struct iovec iov[4] = {
			{ event_head, sizeof(event_head) },
			{ &len, sizeof(len) },
			{ message, len },
			{ event_tail, sizeof(event_tail) },
		};
		if (writev(null_fd, iov, 4) < 0)
			err(1, "writev");
		break;
	}
	case K_JOURNAL_PRINT:
	case K_JOURNAL_SEND:
	case K_JOURNAL_SENDV:
#ifdef BENCH_JOURNAL
		log_journal(a, b);
#endif
		break;
	case K_TRACEF:
#ifdef BENCH_LTTNG
		tracef(FORMAT, a, b, pad);
#endif
		break;
	case K_G_LOG:
#ifdef BENCH_GLIB
		g_log("bench", G_LOG_LEVEL_WARNING, FORMAT, a, b, pad);
#endif
		break;
	case K_G_LOG_STRUCTURED:
#ifdef BENCH_GLIB
		g_log_structured("bench", G_LOG_LEVEL_WARNING, "CODE_FUNC", "log_once",
				 "MESSAGE", FORMAT, a, b, pad);
#endif
		break;
	case K_G_LOG_STANDARD:
#ifdef BENCH_GLIB
		g_log_structured_standard("bench", G_LOG_LEVEL_WARNING, "bench-call.c", "1",
					  "log_once", FORMAT, a, b, pad);
#endif
		break;
	case K_G_LOG_ARRAY: {
#ifdef BENCH_GLIB
		const GLogField fields[] = {
			{ "MESSAGE", message, -1 },
			{ "PRIORITY", "4", -1 },
			{ "GLIB_DOMAIN", "bench", -1 },
		};
		g_log_structured_array(G_LOG_LEVEL_WARNING, fields, G_N_ELEMENTS(fields));
#endif
		break;
	}
	case K_TRACED_NOWRITE:
	case K_TRACED_DEVNULL:
#ifdef BENCH_TRACED
		syslog(LOG_INFO, FORMAT, a, b, pad);
#endif
		break;
	/* Formats made at start-up, each with one conversion, as checked
	 * there: not literals, hence the pragma. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
	case K_TRACED_ONE_D:
		syslog(LOG_INFO, one_d_format, a);
		break;
	case K_TRACED_M:
		errno = ENOENT;
		syslog(LOG_INFO, m_format);
		break;
#pragma GCC diagnostic pop
	case K_TRACED_ONE_D_LITERAL:
		syslog(LOG_INFO, ONE_D_LITERAL, a);
		break;
	case K_TRACED_S:
		syslog(LOG_INFO, "%s", message);
		break;
	case K_WRITEV_EVENT:
#ifdef BENCH_TRACED
		if (writev(null_fd, event_iov, event_iovcnt) < 0)
			err(1, "writev");
#endif
		break;
	case K_KERNEL_TRACED:
#ifdef BENCH_KERNEL
		syslog(LOG_INFO, FORMAT, a, b, pad);
#endif
		break;
	case K_KERNEL_WRITEV:
#ifdef BENCH_KERNEL
		if (writev(kernel_fd, event_iov, event_iovcnt) != kernel_bytes)
			err(1, "writev to user_events_data");
#endif
		break;
	case K_NATIVE_CACHED:
	case K_NATIVE_UNCACHED:
#ifdef BENCH_TRACED
	{
		struct ehs_field f[] = {
			EHS_STRING("message", message),
			EHS_INT64("request", a),
			EHS_UINT8("ms", b),
		};
		int r = kind == K_NATIVE_CACHED ? EHS_EVENT(LOG_INFO, "request", f, 3)
						: ehs_event(LOG_INFO, "request", f, 3);
		if (r != 1)
			errx(1, "the native event was not written: %d", r);
	}
#endif
		break;
	case K_NATIVE_EMIT:
#ifdef BENCH_TRACED
		native_emit(a, b);
#endif
		break;
	case K_WRITE_DEVNULL:
	case K_WRITE_DEVNULL_WATCHING:
	case K_WRITE_DEVNULL_STALE:
	case K_WRITE_DEVNULL_HIGH:
		if (write(null_fd, message, 100) != 100)
			err(1, "write");
		break;
	case K_STDOUT_WRITE:	/* a service's line, standard output on /dev/null */
		if (write(1, line, line_len) != (ssize_t)line_len)
			err(1, "write to stdout");
		break;
	case K_STDOUT_PRINTF:	/* the same line, printf's */
		if (printf(FORMAT "\n", a, b, line_pad) < 0)
			err(1, "printf");
		break;
	case K_SEND_SOCKETPAIR:
		if (send(sock_fd, message, 100, MSG_DONTWAIT) >= 0)
			errx(1, "send on a full socketpair went through");
		if (errno != EAGAIN)
			err(1, "send on a full socketpair");
		break;
	case K_LOGGER_DGRAM:
	case K_LOGGER_DGRAM_TRACED: {
		struct iovec iov[3] = {
			{ (void *)logger_header, sizeof(logger_header) - 1 },
			{ (void *)logger_tag, sizeof(logger_tag) - 1 },
			{ message, message_len },
		};
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 3 };
		if (sendmsg(sock_fd, &msg, 0) < 0)
			err(1, "sendmsg to /dev/log");
		break;
	}
	case K_PYTHON_DGRAM:
	case K_PYTHON_DGRAM_TRACED:
		if (send(sock_fd, python_dgram, python_len, 0) < 0)
			err(1, "send to /dev/log");
		break;
	case K_EMPTY:
		empty_fn(LOG_INFO, FORMAT, a, b, pad);
		break;
	case K_EMPTY_CHK:
		empty_chk_fn(LOG_INFO, 1, FORMAT, a, b, pad);
		break;
	case K_VSYSLOG:
	case K_VSYSLOG_CHK:
	case K_EMPTY_V:
	case K_EMPTY_VCHK:
		with_va_list(kind, FORMAT, a, b, pad);
		break;
	}
}

/* A datagram socket connected to /dev/log, as logger and Python's
 * handler open it; the run's listener (devlog-listener) must be up,
 * except in replace mode, where the library makes the connect succeed. */
static int connect_devlog(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)&a, sizeof(a)) != 0)
		err(1, "connecting to /dev/log (is a listener up?)");
	return fd;
}

/* The socket kinds' descriptors, before the warm-up. */
static void socket_setup(void)
{
	int sv[2], fd;
	unsigned long n;
	struct rlimit rl;

	switch (kind) {
	case K_WRITE_DEVNULL_STALE:
		fd = connect_devlog();
		if (close(fd) != 0 || (null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) != fd)
			errx(1, "/dev/null not reopened at the socket's number %d", fd);
		break;
	case K_WRITE_DEVNULL_HIGH:
		sock_fd = connect_devlog();
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			err(1, "getrlimit");
		if (rl.rlim_cur <= 2000) {
			rl.rlim_cur = 2048;
			if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
				err(1, "RLIMIT_NOFILE 2048");
		}
		if ((null_fd = fcntl(null_fd, F_DUPFD_CLOEXEC, 2000)) < 2000)
			err(1, "/dev/null at 2000");
		break;
	case K_WRITE_DEVNULL_WATCHING:
	case K_LOGGER_DGRAM:
	case K_PYTHON_DGRAM:
	case K_LOGGER_DGRAM_TRACED:
	case K_PYTHON_DGRAM_TRACED:
		sock_fd = connect_devlog();
		break;
	case K_SEND_SOCKETPAIR:
		/* The receiving end is never read: fill its queue, so that
		 * every timed send meets it full. */
		if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0)
			err(1, "socketpair");
		for (n = 0; n < (1UL << 20); n++)
			if (send(sv[0], message, 100, MSG_DONTWAIT) < 0)
				break;
		if (n == (1UL << 20) || errno != EAGAIN)
			err(1, "filling the socketpair");
		sock_fd = sv[0];
		break;
	default:
		break;
	}
}

static void *run_batch(void *unused)
{
	(void)unused;
	for (;;) {
		pthread_barrier_wait(&start_line);
		if (batch == 0)
			return NULL;
		for (unsigned long i = 0; i < batch; i++)
			log_once(i);
		pthread_barrier_wait(&finish_line);
	}
}

/* One batch of `batch` calls in each thread, or in this one (-t 0). */
static void one_batch(unsigned long threads)
{
	if (threads == 0) {
		for (unsigned long i = 0; i < batch; i++)
			log_once(i);
		return;
	}
	pthread_barrier_wait(&start_line);
	pthread_barrier_wait(&finish_line);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static unsigned long parse(const char *s, unsigned long max, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v > max)
		errx(2, "bad %s: %s", what, s);
	return v;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench-call [-t THREADS] [-s BYTES] [-m MS | -n CALLS] "
		"[-w] KIND (see the source's first comment)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long threads = 1, bytes = 0, min_ms = 100, fixed = 0;
	bool report_writer = false;
	pthread_t tid[64];
	char *padding;
	int opt;
	size_t k;

	while ((opt = getopt(argc, argv, "t:s:m:n:w")) != -1) {
		switch (opt) {
		case 'w': report_writer = true; break;
		case 't': threads = parse(optarg, 64, "thread count"); break;
		case 's': bytes = parse(optarg, 65536, "message size"); break;
		case 'm': min_ms = parse(optarg, 60000, "duration"); break;
		case 'n': fixed = parse(optarg, 1UL << 40, "call count"); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	for (k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (strcmp(argv[optind], kind_names[k]) == 0)
			break;
	if (k == sizeof(kind_names) / sizeof(kind_names[0]))
		usage();
	kind = (enum kind)k;
#ifndef BENCH_LTTNG
	if (kind == K_TRACEF)
		errx(2, "tracef: this build has no LTTng-UST (use bench-call-lttng)");
#endif
#ifndef BENCH_GLIB
	if (kind >= K_G_LOG && kind <= K_G_LOG_ARRAY)
		errx(2, "%s: only in the bench-call-glib build", kind_names[kind]);
#endif
#ifndef BENCH_JOURNAL
	if (kind >= K_JOURNAL_PRINT && kind <= K_JOURNAL_SENDV)
		errx(2, "%s: this build has no libsystemd (use bench-call-journal)",
		     kind_names[kind]);
#endif
#ifdef BENCH_KERNEL
	if (kind != K_KERNEL_TRACED && kind != K_KERNEL_WRITEV && kind != K_EMPTY &&
	    !stdout_kind() && (kind < K_TRACED_ONE_D || kind > K_TRACED_M))
		errx(2, "%s: not in the bench-call-kernel build", kind_names[kind]);
#else
	if (kind == K_KERNEL_TRACED || kind == K_KERNEL_WRITEV)
		errx(2, "%s: only in the bench-call-kernel build", kind_names[kind]);
#ifndef BENCH_TRACED
	if ((kind >= K_TRACED_NOWRITE && kind <= K_NATIVE_EMIT) ||
	    kind == K_LOGGER_DGRAM_TRACED || kind == K_PYTHON_DGRAM_TRACED)
		errx(2, "%s: only in the bench-call-traced build", kind_names[kind]);
#endif
#endif

	/* Pad with a printable pattern so that the formatted message is
	 * about `bytes` long: the plain format prints 24..32 characters. */
	if (bytes > 32) {
		padding = malloc(bytes - 32 + 2);
		if (padding == NULL)
			err(1, "malloc");
		padding[0] = ' ';
		for (k = 1; k < bytes - 32 + 1; k++)
			padding[k] = (char)('a' + k % 26);
		padding[k] = '\0';
		pad = padding;
	}
	snprintf(message, sizeof(message), FORMAT, 12345, 67, pad);
	/* The stdout kinds' 100-byte line: the message cut to 99, a newline. */
	line_len = (size_t)snprintf(line, sizeof line, "%.99s\n", message);
	snprintf(line_pad, sizeof line_pad, "%.*s", 99 - (int)strlen("request 12345 done in 67 ms"),
		 pad);
	message_len = strlen(message);
	snprintf(one_d_format, sizeof(one_d_format), "request %%d done in 67 ms%s", pad);
	if (kind == K_TRACED_ONE_D_LITERAL && strcmp(one_d_format, ONE_D_LITERAL) != 0)
		errx(2, "traced_one_d_literal: the message of -s 100 only");
	snprintf(m_format, sizeof(m_format), "%s: %%m", message);
	python_len = (size_t)snprintf(python_dgram, sizeof(python_dgram), "<12>bench: %s", message) + 1;
	memcpy(event_head, "\0\0\0\0\x07\x01\0\0\0\0\0\x04", 12);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		err(1, "/dev/null");
	/* The stdout kinds write to standard output, on /dev/null from before
	 * the first line (the one the library looks at) until the report. */
	int saved_stdout = -1;
	if (stdout_kind()) {
		saved_stdout = dup(1);
		if (saved_stdout < 0 || dup2(null_fd, 1) < 0)
			err(1, "redirecting stdout");
	}
#ifdef BENCH_TRACED
	traced_setup();
#endif
#ifdef BENCH_KERNEL
	kernel_setup();
#elif defined(BENCH_TRACED)
	ue_double_trace(sink_capture, NULL);
	syslog(LOG_INFO, FORMAT, 12345, 67, pad);
	if (event_iovcnt == 0)
		errx(1, "the bridge traced nothing: is the library disabled?");
	ue_double_trace(kind >= K_TRACED_DEVNULL && kind <= K_TRACED_M ? sink_devnull : sink_nowrite,
			NULL);
#endif
	socket_setup();
#if defined(BENCH_TRACED) && !defined(BENCH_KERNEL)
	/* The datagrams must become events: one, counted, before the sink
	 * that writes them to /dev/null. */
	if (kind == K_LOGGER_DGRAM_TRACED || kind == K_PYTHON_DGRAM_TRACED) {
		ue_double_trace(sink_count, NULL);
		log_once(0);
		if (sink_events != 1)
			errx(1, "%s: %lu events for one datagram (socket calls not linked?)",
			     kind_names[kind], sink_events);
		ue_double_trace(sink_devnull, NULL);
	}
#endif

	if (threads > 0 &&
	    (pthread_barrier_init(&start_line, NULL, (unsigned)threads + 1) != 0 ||
	     pthread_barrier_init(&finish_line, NULL, (unsigned)threads + 1) != 0))
		errx(1, "pthread_barrier_init failed");
	for (k = 0; k < threads; k++)
		if (pthread_create(&tid[k], NULL, run_batch, NULL) != 0)
			errx(1, "pthread_create failed");

	/* warn() writes to stderr: time it against /dev/null, as a program
	 * whose stderr nobody reads, but keep our own errors visible. */
	int saved_stderr = -1;
	if (kind == K_WARN || kind == K_WARNX || kind >= K_G_LOG) {
		saved_stderr = dup(2);
		if (saved_stderr < 0 || dup2(null_fd, 2) < 0)
			err(1, "redirecting stderr");
	}

	/* Warm-up: lazy binding, the library's first-call set-up, openlog's
	 * connection, page faults of the message buffers. */
	batch = 100;
	one_batch(threads);

	double ns;
	unsigned long allocs;
	for (batch = fixed ? fixed : 1000;; batch *= 2) {
		unsigned long before = malloc_count();
		double t0 = now_ns();
		one_batch(threads);
		ns = now_ns() - t0;
		allocs = malloc_count() - before;
		if (fixed || ns >= (double)min_ms * 1e6 || batch >= (1UL << 40))
			break;
	}
	unsigned long calls = batch;
	if (saved_stderr >= 0 && dup2(saved_stderr, 2) < 0)
		return 1;
	if (saved_stdout >= 0 && (fflush(stdout) != 0 || dup2(saved_stdout, 1) < 0))
		return 1;
	batch = 0;
	if (threads > 0)
		pthread_barrier_wait(&start_line);
	for (k = 0; k < threads; k++)
		pthread_join(tid[k], NULL);

#ifdef BENCH_KERNEL
	if (report_writer)
		bench_writer_report(kernel_fd);
#else
	if (report_writer)
		errx(2, "-w: only in the bench-call-kernel build");
#endif
	printf("%.3f %.4f %lu\n", ns / (double)calls,
	       (double)allocs / ((double)calls * (double)(threads > 0 ? threads : 1)), calls);
	return fflush(stdout) == 0 ? 0 : 1;
}
