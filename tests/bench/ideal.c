/* bench-native: the native API's EHS_EMIT against an ideal producer of
 * the same events, for exact instruction counts (tests/bench/ideal.sh).
 *
 *   bench-native [-u] -n CALLS KIND
 *   bench-native-kernel [-w] -n CALLS KIND
 *
 * KIND is the call under test, each in a function of its own called
 * through a pointer the compiler cannot see through:
 *   empty    a function that does nothing: the loop's floor
 *   ideal2   the ideal producer of the two-field event (int64 value,
 *            string path = "/index.html"): an inline check of a static
 *            enable word, the head (EventHeader and metadata) as static
 *            bytes, the values stored into an iovec array, one writev()
 *   emit2    the same event through EHS_EMIT
 *   ideal8, emit8
 *            the same with eight fields (int64 value, string path,
 *            uint64 bytes, uint8 code, bool ok, errno err, string host,
 *            int64 ms)
 * Both kinds write to the same descriptor, /dev/null: EHS_EMIT through
 * the library's bridge over the writer's test double (tests/doubles/),
 * whose sink writev()s each event there with its write index, the ideal
 * producer by its own writev().  Before the loop the program checks that
 * the two write the same bytes, and that EHS_EMIT writes (or, with -u,
 * does not).  -u: nothing is traced (the double's enable bits clear, the
 * ideal producer's word 0).
 *
 * bench-native-kernel, the same source over the real writer (no -u),
 * runs where user_events work (tests/bench/guest-instructions.sh): the
 * library's writer registers the LOG_INFO tracepoint at the site's first
 * call and writes to its user_events_data; the ideal producer registers
 * the same event through ue_kernel_register() on a user_events_data of
 * its own, whose enable word is its word and whose write index starts
 * its events.  Before the loop the program enables the event in ftrace
 * and checks that one call of each producer lands in the trace buffer
 * (the bytes are compared by bench-native, over the same bridge).  -w:
 * at the end, a line on stderr says where the writer keeps its
 * descriptor and what RLIMIT_NOFILE the program saw.
 *
 * Prints the calls made.  Little-endian machines only (the ideal
 * producer stores its values as they lie in memory).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include <ehsyslog.h>

#ifdef BENCH_KERNEL
#include <eventheader/eventheader.h>

#include "kernel-tracepoint.h"
#else
#include "../doubles/user_events_double.h"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bench-native: the ideal producer stores values little-endian as they lie in memory"
#endif

static int out_fd = -1;		/* the ideal producer's: /dev/null, or its user_events_data */
static uint32_t write_index;	/* the writer's first 4 bytes */
/* Not constants: the compiler must not fold their lengths. */
static const char *volatile path_value = "/index.html";
static const char *volatile host_value = "www.example.org";

/* --- the ideal producer ---------------------------------------------------- */

/* Its enable word, as the kernel flips it: 1 traced, 0 not. */
static uint32_t ideal_enabled;

/* The heads, byte for byte what EHS_EMIT writes at LOG_INFO (checked
 * before the loop): flags, version, id, tag, opcode, level 4; the
 * metadata block's header (its size, kind 1); the event name and each
 * field's name, encoding and format. */
static const uint8_t head2[] =
	"\x07\x00\x00\x00\x00\x00\x00\x04"
	"\x16\x00\x01\x00"
	"request\0"
	"value\0\x85\x02"
	"path\0\x0a";
static const uint8_t head8[] =
	"\x07\x00\x00\x00\x00\x00\x00\x04"
	"\x39\x00\x01\x00"
	"request\0"
	"value\0\x85\x02"
	"path\0\x0a"
	"bytes\0\x05"
	"code\0\x02"
	"ok\0\x82\x07"
	"err\0\x84\x04"
	"host\0\x0a"
	"ms\0\x85\x02";

/* A string's 16-bit length, as a producer that never refuses one keeps
 * it: cut at 65535. */
static inline uint16_t len16(size_t len)
{
	return (uint16_t)(len > 0xffff ? 0xffff : len);
}

static inline __attribute__((always_inline))
int ideal_write(struct iovec *iov, int iovcnt)
{
	iov[0] = (struct iovec){ &write_index, sizeof write_index };
	return writev(out_fd, iov, iovcnt) < 0 ? -1 : 1;
}

/* Whether the ideal producer writes: inline, before any value is
 * computed, as EHS_EMIT checks its site. */
#define IDEAL_TRACED() __builtin_expect(__atomic_load_n(&ideal_enabled, __ATOMIC_RELAXED) != 0, 0)

static inline __attribute__((always_inline)) int ideal2(int64_t value, const char *path)
{
	uint8_t b[8 + 2];
	uint16_t pl = len16(strlen(path));
	memcpy(b, &value, 8);
	memcpy(b + 8, &pl, 2);
	struct iovec iov[4] = {
		[1] = { (void *)head2, sizeof head2 - 1 },
		[2] = { b, sizeof b },
		[3] = { (void *)path, pl },
	};
	return ideal_write(iov, 4);
}

static inline __attribute__((always_inline))
int ideal8(int64_t value, const char *path, uint64_t bytes, unsigned code, bool ok, int e,
	   const char *host, int64_t ms)
{
	uint8_t b[8 + 2 + 8 + 1 + 1 + 4 + 2 + 8];
	uint16_t pl = len16(strlen(path)), hl = len16(strlen(host));
	int32_t e32 = e;
	memcpy(b, &value, 8);
	memcpy(b + 8, &pl, 2);
	memcpy(b + 10, &bytes, 8);
	b[18] = (uint8_t)code;
	b[19] = ok;
	memcpy(b + 20, &e32, 4);
	memcpy(b + 24, &hl, 2);
	memcpy(b + 26, &ms, 8);
	struct iovec iov[7] = {
		[1] = { (void *)head8, sizeof head8 - 1 },
		[2] = { b, 10 },
		[3] = { (void *)path, pl },
		[4] = { b + 10, 16 },
		[5] = { (void *)host, hl },
		[6] = { b + 26, 8 },
	};
	return ideal_write(iov, 7);
}

/* --- the calls under test -------------------------------------------------- */

static int k_empty(unsigned long i)
{
	(void)i;
	return 0;
}

static int k_ideal2(unsigned long i)
{
	return IDEAL_TRACED() ? ideal2((int64_t)i, path_value) : 0;
}

static int k_emit2(unsigned long i)
{
	return EHS_EMIT(LOG_INFO, "request", EHS_INT64("value", (int64_t)i),
			EHS_STRING("path", path_value));
}

/* The eight fields' values from the loop counter, as k_emit8 has them. */
#define VALUES8(i) (int64_t)(i), path_value, (uint64_t)(i) * 3, (unsigned)((i) & 0xff), \
		   ((i) & 1) != 0, (int)((i) & 0x7f), host_value, (int64_t)(i) + 7

static int k_ideal8(unsigned long i)
{
	return IDEAL_TRACED() ? ideal8(VALUES8(i)) : 0;
}

/* The values written where EHS_EMIT is, so that, as there, none is
 * evaluated before the check. */
static int k_emit8(unsigned long i)
{
	return EHS_EMIT(LOG_INFO, "request", EHS_INT64("value", (int64_t)i),
			EHS_STRING("path", path_value), EHS_UINT64("bytes", (uint64_t)i * 3),
			EHS_UINT8("code", i & 0xff), EHS_BOOL("ok", (i & 1) != 0),
			EHS_ERRNO("err", (int)(i & 0x7f)), EHS_STRING("host", host_value),
			EHS_INT64("ms", (int64_t)i + 7));
}

static const struct kind {
	const char *name;
	int (*fn)(unsigned long);
	int (*twin)(unsigned long);	/* the other producer of the same event */
} kinds[] = {
	{ "empty", k_empty, NULL },
	{ "ideal2", k_ideal2, k_emit2 },
	{ "emit2", k_emit2, k_ideal2 },
	{ "ideal8", k_ideal8, k_emit8 },
	{ "emit8", k_emit8, k_ideal8 },
};

/* volatile: every call stays a real indirect call. */
static int (*volatile call)(unsigned long);

#ifdef BENCH_KERNEL
/* --- the check that both reach the trace buffer ---------------------------- */

/* Occurrences of name's events in ftrace's text, "...: NAME: fields". */
static int traced_lines(const char *name)
{
	char line[1024], pat[EH_NAME_MAX + 4];
	int n = 0;
	FILE *f = fopen(BENCH_TRACEFS "/trace", "re");

	if (!f)
		err(1, BENCH_TRACEFS "/trace");
	snprintf(pat, sizeof pat, ": %s:", name);
	while (fgets(line, sizeof line, f))
		n += strstr(line, pat) != NULL;
	fclose(f);
	return n;
}

/* Registers both producers' tracepoint, enables it, and checks that one
 * call of each is one event in the trace buffer. */
static void kernel_setup(const struct kind *k)
{
	char name[EH_NAME_MAX];

	bench_nofile_room();
	bench_info_tracepoint(name, sizeof name, LOG_USER);
	if (k->twin) {
		/* The library registers at its site's first call; the ideal
		 * producer, its word still 0, does nothing. */
		k->fn(0);
		k->twin(0);
	}
	out_fd = bench_register_own(name, &ideal_enabled, &write_index);
	bench_tracefs_enable(name);
	if (!(__atomic_load_n(&ideal_enabled, __ATOMIC_RELAXED) & 1))
		errx(1, "%s enabled in tracefs, but not the ideal producer's word", name);
	if (!k->twin)
		return;
	int t = open(BENCH_TRACEFS "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (t < 0)
		err(1, "clearing " BENCH_TRACEFS "/trace");
	close(t);
	int r = k->fn(12345), r2 = k->twin(12345), n = traced_lines(name);
	if (r != 1 || r2 != 1 || n != 2)
		errx(1, "%s returned %d, its twin %d, %d events of %s in the trace: want 1, 1, 2",
		     k->name, r, r2, n, name);
}
#else
/* --- the check that both write the same bytes ------------------------------ */

static uint8_t sunk[4096];
static size_t sunk_len;

/* The double's sink: each event (iov[0] the writer's) to out_fd. */
static int sink_out(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx;
	iov[0] = (struct iovec){ &write_index, sizeof write_index };
	return writev(out_fd, iov, iovcnt) < 0 ? -1 : 0;
}

/* One call of fn with out_fd a pipe: its bytes into sunk, sunk_len
 * bytes (0 when it wrote nothing).  Returns what fn returned. */
static int bytes_of(int (*fn)(unsigned long), unsigned long i)
{
	int p[2], saved = out_fd;
	if (pipe(p) != 0)
		err(1, "pipe");
	out_fd = p[1];
	int r = fn(i);
	out_fd = saved;
	close(p[1]);
	ssize_t n = read(p[0], sunk, sizeof sunk);
	if (n < 0)
		err(1, "reading the event back");
	sunk_len = (size_t)n;
	close(p[0]);
	return r;
}

static void check_same(const struct kind *k, bool traced)
{
	uint8_t first[sizeof sunk];
	int r = bytes_of(k->fn, 12345);
	size_t len = sunk_len;
	memcpy(first, sunk, len);
	int r2 = bytes_of(k->twin, 12345);
	if (r != (traced ? 1 : 0) || r2 != r)
		errx(1, "%s returned %d, its twin %d: want %d", k->name, r, r2, traced);
	if (len != sunk_len || memcmp(first, sunk, len) != 0)
		errx(1, "%s: %zu bytes written, its twin %zu, or other bytes", k->name, len,
		     sunk_len);
	if (traced != (len > sizeof write_index))
		errx(1, "%s: %zu bytes written %s", k->name, len,
		     traced ? "traced" : "untraced");
}

#endif

int main(int argc, char **argv)
{
	unsigned long calls = 0;
	bool traced = true, report_writer = false;
	int opt;

	while ((opt = getopt(argc, argv, "un:w")) != -1) {
		switch (opt) {
		case 'w': report_writer = true; break;
		case 'u': traced = false; break;
		case 'n': calls = strtoul(optarg, NULL, 10); break;
		default: goto usage;
		}
	}
	const struct kind *k = NULL;
	for (size_t j = 0; optind == argc - 1 && j < sizeof kinds / sizeof kinds[0]; j++)
		if (strcmp(argv[optind], kinds[j].name) == 0)
			k = &kinds[j];
	if (!k || calls == 0)
		goto usage;

	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
#ifdef BENCH_KERNEL
	if (!traced)
		errx(2, "-u: untraced calls are bench-native's");
	kernel_setup(k);
#else
	if (report_writer)
		errx(2, "-w: only bench-native-kernel has the real writer");
	out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (out_fd < 0)
		err(1, "/dev/null");
	ue_double_trace(traced ? sink_out : NULL, NULL);
	ideal_enabled = traced;
	if (k->twin)
		check_same(k, traced);
#endif

	/* Warm-up (lazy binding, the site's first call), then the calls. */
	call = k->fn;
	for (unsigned long i = 0; i < 100; i++)
		call(i);
	for (unsigned long i = 0; i < calls; i++)
		call(i);
#ifdef BENCH_KERNEL
	if (report_writer)
		bench_writer_report(out_fd);
#endif
	printf("%lu\n", calls);
	return fflush(stdout) == 0 ? 0 : 1;

usage:
	fprintf(stderr, "usage: bench-native [-u] [-w] -n CALLS empty|ideal2|emit2|ideal8|emit8\n");
	return 2;
}
