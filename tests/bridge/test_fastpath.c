/* SPDX-License-Identifier: MIT */
/*
 * The untraced fast path of the syslog wrappers (replace mode): after the
 * first call every further one makes no syscall, allocates nothing,
 * leaves errno alone and never reaches the real syslog.  Also the
 * tracepoint table's states: "not registered" until the first call reads
 * the configuration, every word 0 when the library is disabled.  Links
 * the wrappers and the bridge like test_calls, with no test sink set, so
 * the writer runs for real (on a host without user_events its
 * registration fails and the words drop to 0, which is the idle state a
 * tracepoint nobody records has too).
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
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

static void setup(void)
{
	setenv("EHSYSLOG_CONFIG", "/nonexistent/ehsyslog.conf", 1);
	unsetenv("EHSYSLOG_DISABLE");
	unsetenv("EHSYSLOG_PROVIDER");
	ehs_test_sink = NULL;
}

START_TEST(table_starts_unregistered)
{
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++) {
		ck_assert_uint_eq(ehs_table[i].state, UE_STATE_UNREGISTERED);
		ck_assert_ptr_null(ehs_table[i].name);
	}
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
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	for (unsigned i = 0; i < EHS_LEVELS * EHS_FACILITY_SLOTS; i++) {
		ck_assert_uint_eq(ehs_table[i].state, 0);
		ck_assert_ptr_null(ehs_table[i].name);	/* never named, never registered */
	}
	ck_assert_int_eq(syscalls_made(log_many, NULL), 0);
}
END_TEST

static unsigned events;

static int count_sink(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	events++;
	return 0;
}

/* The offset the table holds for a tracepoint's enable word. */
static int32_t offset_of(int severity, unsigned facility)
{
	return (int32_t)((const char *)&ehs_tracepoint(severity, facility)->state -
			 (const char *)&ehs_pri_table);
}

START_TEST(priority_table_follows_the_tracepoints)
{
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");	/* reads the configuration */
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_REPLACE);
	/* Every priority, stray bits aside, at its own tracepoint's word;
	 * those without a facility at openlog's. */
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++) {
		unsigned facility = (unsigned)pri >> 3;
		ck_assert_int_eq(ehs_pri_table.off[pri], offset_of(pri & 7, facility ? facility : 1));
		ck_assert_int_eq(ehs_pri_table_idle(pri), ehs_syslog_idle(pri));
	}
	ck_assert_int_eq(ehs_pri_table_idle(EHS_PRI_MAX + 1), 0);
	ck_assert_int_eq(ehs_pri_table_idle(-1), 0);
	openlog("fastpath", 0, LOG_LOCAL3);
	ck_assert_int_eq(ehs_pri_table.off[LOG_ERR], offset_of(LOG_ERR, 19));
	ck_assert_int_eq(ehs_pri_table.off[LOG_ERR | LOG_MAIL], offset_of(LOG_ERR, 2));
}
END_TEST

START_TEST(entry_points_decide_on_the_table)
{
	/* A test sink makes the full path write every call; the entry
	 * points still return, before it, where the word is 0.  A word
	 * with the kernel's enable bit takes the full path. */
	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_INFO, "first");
	struct ue_tracepoint *off = ehs_tracepoint(LOG_INFO, 1);
	struct ue_tracepoint *on = ehs_tracepoint(LOG_ERR, 1);
	__atomic_store_n(&off->state, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&on->state, UE_STATE_ENABLED, __ATOMIC_RELAXED);
	ehs_test_sink = count_sink;
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
	/* Stray bits: glibc's complaint, then the call, both on the full path. */
	events = 0;
	syslog(0x10000 | LOG_INFO, "stray");
	ck_assert_uint_eq(events, 2);
	/* A 32-bit priority whose register's upper half is not zero (the
	 * ABI leaves it undefined): a stub that indexed the table with all
	 * of rdi would read 16 GiB past it.  It takes the full path, which
	 * reads only the low half: one event, no complaint about stray bits. */
	events = 0;
	void (*wide)(long, const char *, ...) = (void (*)(long, const char *, ...))syslog;
	wide((1L << 32) | LOG_INFO, "upper half");
	ck_assert_uint_eq(events, 1);
	ehs_test_sink = NULL;
}
END_TEST

START_TEST(pass_mode_leaves_the_table_empty)
{
	setenv("EHSYSLOG_PASSTHROUGH", "1", 1);
	syslog(LOG_INFO, "first");
	ck_assert_int_eq(ehs_config_mode(), EHS_MODE_PASS);
	for (int pri = 0; pri <= EHS_PRI_MAX; pri++)
		ck_assert_int_eq(ehs_pri_table.off[pri], 0);
	openlog("fastpath", 0, LOG_LOCAL3);
	ck_assert_int_eq(ehs_pri_table.off[LOG_ERR], 0);
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
	tcase_add_test(tc, priority_table_follows_the_tracepoints);
	tcase_add_test(tc, entry_points_decide_on_the_table);
	tcase_add_test(tc, pass_mode_leaves_the_table_empty);
	suite_add_tcase(s, tc);
	return check_run(s);
}

#endif /* __SANITIZE_ADDRESS__ */
