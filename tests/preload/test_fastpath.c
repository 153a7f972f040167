/* SPDX-License-Identifier: MIT */
/*
 * The untraced fast path of the syslog wrappers (replace mode): after the
 * first call every further one makes no syscall, allocates nothing,
 * leaves errno alone and never reaches the real syslog.  Also the
 * tracepoint table's states: "not registered" until the first call reads
 * the configuration, every word 0 when the library is disabled; and the
 * priority table's bytes, set until each priority's first call.  Links
 * the wrappers and the bridge like test_calls, over the writer's test
 * double, which traces nothing until a test says so: the words and bytes
 * drop to 0 at registration, the idle state of a tracepoint nobody
 * records (pri_table_ktest sees the real kernel keep the
 * bytes).
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <error.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/pri_table.h"
#include "preload/stubs.h"
#include "bridge/schema.h"
#include "../user_events/nosyscall.h"
#include "../doubles/user_events_double.h"

#ifdef __SANITIZE_ADDRESS__
/* This test counts syscalls and allocations and replaces malloc, all of
 * which the ASan runtime does itself. */
int main(void)
{
	puts("SKIP: not meaningful in an ASan build");
	return 77;
}
#else

void __syslog_chk(int pri, int flag, const char *fmt, ...);
void __vsyslog_chk(int pri, int flag, const char *fmt, va_list ap);

/* Every allocation of the process is counted here. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *memalign(size_t align, size_t n);
static unsigned long allocations;

void *malloc(size_t n)
{
	__atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	__atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	__atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
	return __libc_realloc(p, n);
}

void *memalign(size_t align, size_t n)
{
	__atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
	return __libc_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	return memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	void *p = memalign(align, n);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

static void call_vsyslog(int chk, int pri, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (chk)
		__vsyslog_chk(pri, 1, fmt, ap);
	else
		vsyslog(pri, fmt, ap);
	va_end(ap);
}

#define ROUNDS 1000

/* Every form, at priorities with and without a facility. */
static void log_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		syslog(LOG_INFO, "request %d done in %d ms", i, i & 63);
		syslog(LOG_DAEMON | LOG_ERR, "daemon %s %m", "x");
		__syslog_chk(LOG_LOCAL7 | LOG_DEBUG, 1, "chk %d", i);
		call_vsyslog(0, LOG_WARNING, "v %d", i);
		call_vsyslog(1, LOG_AUTH | LOG_NOTICE, "vchk %d", i);
	}
}

/* The tracepoints the calls of log_many use. */
static const struct {
	int severity;
	unsigned facility;
	const char *name;
} used[] = {
	{ LOG_INFO, 1, "Syslog_L4K2" }, { LOG_ERR, 3, "Syslog_L2K8" },
	{ LOG_DEBUG, 23, "Syslog_L5K800000" }, { LOG_WARNING, 1, "Syslog_L3K2" },
	{ LOG_NOTICE, 4, "Syslog_L4K10" },
};

static int stderr_copy = -1;
static char stderr_path[] = "/tmp/ehs-fastpath-XXXXXX";

/* stderr into a file, so that anything the real syslog prints (openlog's
 * LOG_PERROR) can be counted. */
static void capture_stderr(void)
{
	strcpy(stderr_path, "/tmp/ehs-fastpath-XXXXXX");	/* again at each capture */
	int fd = mkstemp(stderr_path);
	ck_assert_int_ge(fd, 0);
	stderr_copy = dup(2);
	ck_assert_int_ge(dup2(fd, 2), 0);
	close(fd);
}

static off_t stderr_bytes(void)
{
	struct stat st;
	ck_assert_int_eq(fstat(2, &st), 0);
	dup2(stderr_copy, 2);
	close(stderr_copy);
	unlink(stderr_path);
	return st.st_size;
}

/* What went to stderr since capture_stderr, NUL-terminated. */
static void stderr_text(char *buf, size_t cap)
{
	ssize_t n = pread(2, buf, cap - 1, 0);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	(void)stderr_bytes();
}

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	unsetenv("EHSYSLOG_DISABLE");
	unsetenv("EHSYSLOG_PROVIDER");
	ue_double_trace(NULL, NULL);
}

START_TEST(table_starts_unregistered)
{
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++) {
		ck_assert_uint_eq(ehs_table[i].state, UE_STATE_UNREGISTERED);
		ck_assert_ptr_null(ehs_table[i].name);
	}
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		ck_assert_uint_eq(ehs_pri_table.full[pri], EHS_PRI_TRACED);
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_UNREAD);
}
END_TEST

START_TEST(replace_mode_untraced_does_nothing)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	openlog("fastpath", LOG_PERROR, LOG_USER);
	/* The first calls read the configuration and try to register. */
	log_many(NULL);
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	for (unsigned i = 0; i < sizeof used / sizeof used[0]; i++) {
		struct ue_tracepoint *tp = ehs_tracepoint(used[i].severity, used[i].facility);
		ck_assert_str_eq(tp->name, used[i].name);
		if (tp->state != 0)
			ck_abort_msg("%s is traced: cannot test the untraced path", tp->name);
	}

	capture_stderr();
	/* Read both before asserting: Check's assertions allocate. */
	unsigned long before = allocations;
	errno = EILSEQ;
	log_many(NULL);
	int err = errno;
	unsigned long made = allocations - before;
	ck_assert_int_eq(err, EILSEQ);
	ck_assert_uint_eq(made, 0);
	ck_assert_int_eq(syscalls_made(log_many, NULL), 0);
	/* openlog's LOG_PERROR would have copied each call to stderr. */
	ck_assert_int_eq(stderr_bytes(), 0);
}
END_TEST

START_TEST(pass_mode_reaches_real_syslog)
{
	/* The counterpart of the test above: the same calls in pass-through
	 * mode do reach the real syslog (LOG_PERROR prints each of them). */
	setenv("EHSYSLOG_PASSTHROUGH", "1", 1);
	openlog("fastpath", LOG_PERROR, LOG_USER);
	log_many(NULL);
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_PASS);
	capture_stderr();
	syslog(LOG_INFO, "one line");
	ck_assert_int_eq(stderr_bytes(), (off_t)strlen("fastpath: one line\n"));
}
END_TEST

START_TEST(disabled_zeroes_every_word)
{
	setenv("EHSYSLOG_DISABLE", "1", 1);
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");
	/* Disabled, replace mode would only drop the messages: they pass. */
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_PASS);
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++) {
		ck_assert_uint_eq(ehs_table[i].state, 0);
		ck_assert_ptr_null(ehs_table[i].name);	/* never named, never registered */
	}
	/* The byte of a priority called says pass-through, with the stubs. */
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_STUBS ? EHS_PRI_PASS : EHS_PRI_TRACED);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_EMERG],	/* never called */
			  EHS_STUBS ? EHS_PRI_TRACED | EHS_PRI_PASS : EHS_PRI_TRACED);
}
END_TEST

static unsigned events;

static int count_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	events++;
	return 0;
}

START_TEST(priority_table_arms_each_priority_at_its_first_call)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");	/* reads the configuration */
	syslog(LOG_MAIL | LOG_ERR, "first");
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	/* Registered, untraced: clear, as the tracepoint's word.
	 * Every other priority waits for its first call. */
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++) {
		bool called = pri == LOG_INFO || pri == (LOG_MAIL | LOG_ERR);
		ck_assert_uint_eq(ehs_pri_table.full[pri], EHS_STUBS && called ? 0 : EHS_PRI_TRACED);
	}
	if (EHS_STUBS) {
		ck_assert_int_eq(ehs_pri_table_idle(LOG_INFO), ehs_syslog_idle(LOG_INFO));
		ck_assert_int_eq(ehs_pri_table_idle(LOG_MAIL | LOG_ERR),
				 ehs_syslog_idle(LOG_MAIL | LOG_ERR));
	}
	ck_assert_int_eq(ehs_pri_table_idle(EHS_PRI_MAX + 1), 0);
	ck_assert_int_eq(ehs_pri_table_idle(-1), 0);
	/* openlog moves the facility: the priorities without one register
	 * again at their next call, the others keep their registration
	 * (the writer's double keeps it, as the kernel does: pri_table_ktest
	 * holds the real writer to it). */
	openlog("fastpath", 0, LOG_LOCAL3);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_PRI_TRACED);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_MAIL | LOG_ERR], EHS_STUBS ? 0 : EHS_PRI_TRACED);
	syslog(LOG_INFO, "again");
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_STUBS ? 0 : EHS_PRI_TRACED);
}
END_TEST

/* With count_sink tracing, whose events the full path always writes. */
static void stray_priorities_take_the_full_path(void)
{
	/* Stray bits: glibc's complaint, then the call, both on the full path. */
	events = 0;
	syslog(0x10000 | LOG_INFO, "stray");
	ck_assert_uint_eq(events, 2);
	/* A 32-bit priority whose register's upper half is not zero (the
	 * ABI leaves it undefined): a stub that indexed the table with all
	 * of rdi would read 16 GiB past it.  It takes the full path, which
	 * reads only the low half: one event, no complaint about stray bits. */
	events = 0;
	void (*wide)(long, const char *, ...) =
		(void (*)(long, const char *, ...))(void (*)(void))syslog;
	wide((1L << 32) | LOG_INFO, "upper half");
	ck_assert_uint_eq(events, 1);
}

START_TEST(entry_points_decide_on_the_table)
{
	/* Both words traced, so the full path writes every call that
	 * reaches it; with the stubs the entry points still return, before
	 * it, where the byte is 0 (without them the word decides).  One
	 * with the kernel's enable bit takes the full path. */
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");
	struct ue_tracepoint *off = ehs_tracepoint(LOG_INFO, 1);
	struct ue_tracepoint *on = ehs_tracepoint(LOG_ERR, 1);
	ue_double_trace(count_sink, NULL);
	__atomic_store_n(&off->state, UE_STATE_ENABLED, __ATOMIC_RELAXED);
	__atomic_store_n(&on->state, UE_STATE_ENABLED, __ATOMIC_RELAXED);
	__atomic_store_n(&ehs_pri_table.full[LOG_INFO], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&ehs_pri_table.full[LOG_ERR], EHS_PRI_TRACED, __ATOMIC_RELAXED);
	events = 0;
	syslog(LOG_INFO, "untraced");
	__syslog_chk(LOG_INFO, 1, "untraced");
	call_vsyslog(0, LOG_INFO, "untraced");
	call_vsyslog(1, LOG_INFO, "untraced");
	ck_assert_uint_eq(events, EHS_STUBS && ehs_pri_table_idle(LOG_INFO) ? 0 : 4);
	events = 0;
	syslog(LOG_ERR, "traced");
	__syslog_chk(LOG_ERR | LOG_USER, 1, "traced");
	call_vsyslog(0, LOG_ERR, "traced");
	call_vsyslog(1, LOG_ERR, "traced");
	ck_assert_uint_eq(events, 4);
	stray_priorities_take_the_full_path();
	ue_double_trace(NULL, NULL);
}
END_TEST

/* The four entry points at pri, each with arguments of its own and %m,
 * and the lines openlog's LOG_PERROR makes glibc print for them. */
static void log_four(int pri)
{
	errno = EILSEQ;
	syslog(pri, "syslog %d %s %m", 1, "two");
	__syslog_chk(pri, 1, "syslog_chk %d %s", 3, "four");
	call_vsyslog(0, pri, "vsyslog %d %s", 5, "six");
	call_vsyslog(1, pri, "vsyslog_chk %ld %s", 7L, "eight");
}

static void four_lines(char *buf, size_t cap)
{
	int n = snprintf(buf, cap,
			 "fastpath: syslog 1 two %s\n"
			 "fastpath: syslog_chk 3 four\n"
			 "fastpath: vsyslog 5 six\n"
			 "fastpath: vsyslog_chk 7 eight\n", strerror(EILSEQ));
	ck_assert(n > 0 && (size_t)n < cap);
}

/* Pass-through with LOG_PERROR, the configuration read, every
 * tracepoint traced, severity's byte traced or not, events counted and
 * stderr captured. */
static void pass_mode_counting(int severity, bool traced)
{
	setenv("EHSYSLOG_PASSTHROUGH", "1", 1);
	openlog("fastpath", LOG_PERROR, LOG_USER);
	syslog(LOG_INFO, "first");
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_PASS);
	ue_double_trace(count_sink, NULL);
	__atomic_store_n(&ehs_tracepoint(severity, 1)->state, UE_STATE_ENABLED, __ATOMIC_RELAXED);
	__atomic_store_n(&ehs_pri_table.full[severity],
			 EHS_PRI_PASS | (traced ? EHS_PRI_TRACED : 0), __ATOMIC_RELAXED);
	events = 0;
	capture_stderr();
}

START_TEST(pass_mode_untraced_goes_straight_to_glibc)
{
	/* The word traced makes the C wrappers write an event for every
	 * call; in pass-through the stubs jump to glibc's own functions
	 * before them where the byte says untraced, and glibc prints each call with its
	 * arguments as they were given. */
	char got[1024], want[1024];
	pass_mode_counting(LOG_INFO, false);
	log_four(LOG_INFO);
	ue_double_trace(NULL, NULL);
	stderr_text(got, sizeof got);
	four_lines(want, sizeof want);
	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(events, EHS_STUBS ? 0 : 4);
}
END_TEST

START_TEST(pass_mode_traced_still_emits)
{
	/* The word with the kernel's enable bit, a priority with stray
	 * bits and one whose register's upper half is not zero all take
	 * the C wrappers: an event each (two for the stray bits: glibc's
	 * complaint and the call), and the call still goes on to glibc. */
	char got[1024], want[1024];
	pass_mode_counting(LOG_ERR, true);
	log_four(LOG_ERR);
	ck_assert_uint_eq(events, 4);
	stray_priorities_take_the_full_path();
	ue_double_trace(NULL, NULL);
	stderr_text(got, sizeof got);
	four_lines(want, sizeof want);
	ck_assert_ptr_nonnull(strstr(got, want));
	ck_assert_ptr_nonnull(strstr(got, "fastpath: stray\n"));
	ck_assert_ptr_nonnull(strstr(got, "fastpath: upper half\n"));
}
END_TEST

START_TEST(error_untraced_goes_straight_to_glibc)
{
	/* error() at a priority whose byte says untraced: with the stubs,
	 * glibc's error() prints the call as given, and no event is written
	 * (the word is traced, so the C wrapper writes one); with the byte
	 * traced, an event and the same kind of line. */
	char got[1024], want[1024];
	pass_mode_counting(LOG_WARNING, false);
	errno = EILSEQ;
	error(0, ENOENT, "error %d %s", 1, "two");
	ck_assert_uint_eq(events, EHS_STUBS ? 0 : 1);
	__atomic_store_n(&ehs_pri_table.full[LOG_WARNING], EHS_PRI_PASS | EHS_PRI_TRACED,
			 __ATOMIC_RELAXED);
	events = 0;
	error(0, 0, "traced %d", 3);
	ck_assert_uint_eq(events, 1);
	ue_double_trace(NULL, NULL);
	stderr_text(got, sizeof got);
	int n = snprintf(want, sizeof want, "%s: error 1 two: %s\n%s: traced 3\n",
			 program_invocation_name, strerror(ENOENT), program_invocation_name);
	ck_assert(n > 0 && (size_t)n < sizeof want);
	ck_assert_str_eq(got, want);
}
END_TEST

#if EHS_STUBS
START_TEST(stubs_go_on_to_glibc_functions)
{
	/* The C wrappers until the first call reads the configuration,
	 * then in pass-through glibc's own: the _chk forms to the _chk
	 * forms. */
	static const struct {
		int slot;
		const char *name;
		ehs_stub_fn wrapper;
	} slots[] = {
		{ EHS_STUB_SYSLOG, "syslog", (ehs_stub_fn)ehs_full_syslog },
		{ EHS_STUB_VSYSLOG, "vsyslog", (ehs_stub_fn)ehs_full_vsyslog },
		{ EHS_STUB_SYSLOG_CHK, "__syslog_chk", (ehs_stub_fn)ehs_full___syslog_chk },
		{ EHS_STUB_VSYSLOG_CHK, "__vsyslog_chk", (ehs_stub_fn)ehs_full___vsyslog_chk },
		{ EHS_STUB_ERROR, "error", (ehs_stub_fn)ehs_full_error },
	};
	for (unsigned i = 0; i < sizeof slots / sizeof slots[0]; i++)
		ck_assert(ehs_stub_next[slots[i].slot] == slots[i].wrapper);
	setenv("EHSYSLOG_PASSTHROUGH", "1", 1);
	syslog(LOG_INFO, "first");
	for (unsigned i = 0; i < sizeof slots / sizeof slots[0]; i++) {
		void *p = dlsym(RTLD_NEXT, slots[i].name);
		ck_assert_ptr_nonnull(p);
		ehs_stub_fn glibc;
		memcpy(&glibc, &p, sizeof p);
		ck_assert_msg(ehs_stub_next[slots[i].slot] == glibc, "%s", slots[i].name);
	}
	/* Every byte says pass-through; the one called is untraced. */
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		ck_assert_uint_eq(ehs_pri_table.full[pri] & EHS_PRI_PASS, EHS_PRI_PASS);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_PRI_PASS);
}
END_TEST

START_TEST(stubs_return_in_replace_mode)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");
	/* No byte says pass-through: the stubs' ret is a direct one. */
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		ck_assert_uint_eq(ehs_pri_table.full[pri] & EHS_PRI_PASS, 0);
	ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], 0);
	/* Routed to glibc all the same, for the bytes of priorities whose
	 * events cannot be written (replace_mode_passes_without_a_writer). */
	void *p = dlsym(RTLD_NEXT, "syslog");
	ehs_stub_fn glibc;
	memcpy(&glibc, &p, sizeof p);
	ck_assert(ehs_stub_next[EHS_STUB_SYSLOG] == glibc);
}
END_TEST
#endif

/* Replace mode where no event can be written (the registrations fail, as
 * on a kernel without user_events): every form reaches the real syslog,
 * which LOG_PERROR shows, instead of dropping the message; with the
 * stubs, the bytes of the priorities called say pass-through. */
START_TEST(replace_mode_passes_without_a_writer)
{
	ue_double_fail(true);
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	openlog("fastpath", LOG_PERROR, LOG_USER);
	log_many(NULL);	/* the first calls: the configuration, failed registrations */
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	if (EHS_STUBS) {
		ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], EHS_PRI_PASS);
		ck_assert_uint_eq(ehs_pri_table.full[LOG_DAEMON | LOG_ERR], EHS_PRI_PASS);
		ck_assert_uint_eq(ehs_pri_table.full[LOG_EMERG], EHS_PRI_TRACED);	/* never called */
	}
	capture_stderr();
	syslog(LOG_INFO, "one %d", 1);
	__syslog_chk(LOG_LOCAL7 | LOG_DEBUG, 1, "two %d", 2);
	call_vsyslog(0, LOG_WARNING, "three %d", 3);
	call_vsyslog(1, LOG_AUTH | LOG_NOTICE, "four %d", 4);
	char text[256];
	stderr_text(text, sizeof text);
	ck_assert_str_eq(text, "fastpath: one 1\nfastpath: two 2\nfastpath: three 3\n"
			       "fastpath: four 4\n");
	ue_double_fail(false);
	/* Registered again (openlog lets the facility-less ones go): replace
	 * mode's byte again, the call dropped. */
	openlog("fastpath", LOG_PERROR, LOG_LOCAL3);
	syslog(LOG_INFO, "registers again");
	if (EHS_STUBS)
		ck_assert_uint_eq(ehs_pri_table.full[LOG_INFO], 0);
	capture_stderr();
	syslog(LOG_INFO, "dropped");
	ck_assert_int_eq(stderr_bytes(), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bridge fast path");
	TCase *tc = tcase_create("fastpath");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, table_starts_unregistered);
	tcase_add_test(tc, replace_mode_untraced_does_nothing);
	tcase_add_test(tc, pass_mode_reaches_real_syslog);
	tcase_add_test(tc, disabled_zeroes_every_word);
	tcase_add_test(tc, replace_mode_passes_without_a_writer);
	tcase_add_test(tc, priority_table_arms_each_priority_at_its_first_call);
	tcase_add_test(tc, entry_points_decide_on_the_table);
	tcase_add_test(tc, pass_mode_untraced_goes_straight_to_glibc);
	tcase_add_test(tc, pass_mode_traced_still_emits);
	tcase_add_test(tc, error_untraced_goes_straight_to_glibc);
#if EHS_STUBS
	tcase_add_test(tc, stubs_go_on_to_glibc_functions);
	tcase_add_test(tc, stubs_return_in_replace_mode);
#endif
	suite_add_tcase(s, tc);
	return check_run(s);
}

#endif /* __SANITIZE_ADDRESS__ */
