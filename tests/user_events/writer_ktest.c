/* SPDX-License-Identifier: MIT */
/*
 * The writer against a kernel with user_events (run as root in the test
 * guest through scripts/kernel-test): registration, enable words, events
 * read back byte for byte from a private ftrace instance, fork, exec, a
 * descriptor stolen by the program, permissions, the size limit, more
 * enable bits for one event (enablers).
 */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

#include "eventheader/eventheader.h"
#include "ehsyslog/user_events.h"
#include "user_events/abi.h"
#include "user_events/internal.h"
#include "../user_events/nosyscall.h"
#include "../lib/kernel_files.h"

static const char *self_exe;

/* ---- events built by hand (independent of the builder) --------------- */

/* eventheader + metadata block "Ev\0" "msg\0" 0x0a + u16 length + text. */
static size_t make_event(uint8_t *buf, size_t cap, unsigned level, const char *text,
			 size_t text_len)
{
	static const uint8_t meta[] = { 'E', 'v', 0, 'm', 's', 'g', 0, 0x0a };
	size_t n = 0;

	/* no Check assertion: the exec'd and setpriv'd children use this too */
	if (8 + 4 + sizeof meta + 2 + text_len > cap)
		abort();
	buf[n++] = EH_FLAGS_LE64_EXT;
	buf[n++] = 0;	/* version */
	buf[n++] = 0x34;	/* id 0x1234 */
	buf[n++] = 0x12;
	buf[n++] = 0;	/* tag */
	buf[n++] = 0;
	buf[n++] = EH_OPCODE_INFO;
	buf[n++] = (uint8_t)level;
	buf[n++] = sizeof meta;
	buf[n++] = 0;
	buf[n++] = EH_EXT_METADATA;
	buf[n++] = 0;
	memcpy(buf + n, meta, sizeof meta);
	n += sizeof meta;
	buf[n++] = (uint8_t)text_len;
	buf[n++] = (uint8_t)(text_len >> 8);
	memcpy(buf + n, text, text_len);
	return n + text_len;
}

/* Writes ev in two iovecs after the writer's reserved one. */
static int write_event(struct ue_tracepoint *tp, const uint8_t *ev, size_t len)
{
	struct iovec iov[3] = {
		{ (void *)"junk", 4 },	/* the writer must overwrite it */
		{ (void *)ev, 8 },
		{ (void *)(ev + 8), len - 8 },
	};

	return ue_tracepoint_write(tp, iov, 3);
}

/* The same through ue_tracepoint_write_sized, the length given. */
static int write_event_sized(struct ue_tracepoint *tp, const uint8_t *ev, size_t len)
{
	struct iovec iov[3] = {
		{ (void *)"junk", 4 },
		{ (void *)ev, 8 },
		{ (void *)(ev + 8), len - 8 },
	};

	return ue_tracepoint_write_sized(tp, iov, 3, len);
}

/* ---- reading back ----------------------------------------------------- */

struct rec {
	char name[EH_NAME_MAX];
	int pid;
	unsigned long long ts;
	size_t len;	/* bytes after the 8-byte common header */
	uint8_t data[UE_EVENT_MAX + 64];
};

static struct rec recs[64];
static int nrecs;

static int collect(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct tep_handle *tep = ctx;
	struct rec *r;

	(void)cpu;
	if (nrecs == (int)(sizeof recs / sizeof recs[0]) || record->size < 8)
		return 0;
	r = &recs[nrecs++];
	snprintf(r->name, sizeof r->name, "%s", event->name);
	r->pid = tep_data_pid(tep, record);
	r->ts = record->ts;
	r->len = (size_t)record->size - 8;
	if (r->len > sizeof r->data)
		r->len = sizeof r->data;
	memcpy(r->data, (uint8_t *)record->data + 8, r->len);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Reads (and consumes) the instance's buffer into recs, oldest first. */
static int read_back(struct tracefs_instance *inst)
{
	const char *systems[] = { "user_events", NULL };
	struct tep_handle *tep = tracefs_local_events_system(NULL, systems);

	ck_assert_ptr_nonnull(tep);
	nrecs = 0;
	ck_assert_int_eq(tracefs_iterate_raw_events(tep, inst, NULL, 0, collect, tep), 0);
	tep_free(tep);
	qsort(recs, (size_t)nrecs, sizeof recs[0], by_time);
	return nrecs;
}

/* The record holds exactly ev, then at most 7 bytes of padding. */
static void assert_record(const struct rec *r, const char *name, int pid,
			  const uint8_t *ev, size_t len)
{
	ck_assert_str_eq(r->name, name);
	ck_assert_int_eq(r->pid, pid);
	ck_assert_uint_ge(r->len, len);
	ck_assert_uint_lt(r->len - len, 8);
	ck_assert_mem_eq(r->data, ev, len);
}

static struct tracefs_instance *instance(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_create(name);

	ck_assert_ptr_nonnull(inst);
	return inst;
}

static void instance_done(struct tracefs_instance *inst)
{
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}

/* Enables tp's event and waits (1 s at most) for the kernel to set the
 * bit: where the enable word's page must be faulted in first, the kernel
 * sets it from a work queue, after the write to tracefs has returned. */
static void enable(struct tracefs_instance *inst, struct ue_tracepoint *tp)
{
	const struct timespec ms = { 0, 1000000 };

	ck_assert_int_eq(tracefs_event_enable(inst, "user_events", tp->name), 0);
	for (int i = 0; i < 1000 && __atomic_load_n(&tp->state, __ATOMIC_RELAXED) == 0; i++)
		nanosleep(&ms, NULL);
	ck_assert_uint_eq(__atomic_load_n(&tp->state, __ATOMIC_RELAXED), UE_STATE_ENABLED);
	ck_assert(ue_tracepoint_active(tp));
}

/* ---- tracefs files ------------------------------------------------------ */

static char *slurp(const char *path)
{
	static char buf[16384];

	return kf_read(path, buf, sizeof buf);
}

/* Is name a line of user_events_status (possibly with " # ..." after)? */
static bool status_lists(const char *name)
{
	int listed = kf_status_lists(name);

	ck_assert_int_ge(listed, 0);
	return listed;
}

/* An auto-deleted event may go away a little after its last user. */
static bool eventually_gone(const char *name)
{
	for (int i = 0; i < 100; i++) {
		if (!status_lists(name))
			return true;
		usleep(10000);
	}
	return false;
}

/* ---- tests -------------------------------------------------------------- */

START_TEST(registration_visible)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K1");
	static const char *const fields[] = {
		"\tfield:u8 eventheader_flags;\toffset:8;\tsize:1;",
		"\tfield:u8 version;\toffset:9;\tsize:1;",
		"\tfield:u16 id;\toffset:10;\tsize:2;",
		"\tfield:u16 tag;\toffset:12;\tsize:2;",
		"\tfield:u8 opcode;\toffset:14;\tsize:1;",
		"\tfield:u8 level;\toffset:15;\tsize:1;",
	};
	struct ue_status st;
	const char *format;
	int fd;

	ck_assert(!status_lists("WriterKT_L4K1"));
	ck_assert(!ue_tracepoint_active(&tp));
	ck_assert_uint_eq(tp.state, 0);
	ck_assert(status_lists("WriterKT_L4K1"));
	format = slurp(TRACING "/events/user_events/WriterKT_L4K1/format");
	ck_assert_ptr_nonnull(format);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		ck_assert_msg(strstr(format, fields[i]), "no \"%s\" in %s", fields[i], format);
	ck_assert_ptr_null(strstr(format, "offset:16;"));

	ue_status(&st);
	ck_assert_int_eq(st.state, UE_STATUS_OK);
	ck_assert_str_eq(st.path, TRACING "/user_events_data");
	ck_assert_uint_eq(st.registered, 1);
	ck_assert_uint_eq(st.failed, 0);
	fd = user_events_fd();
	ck_assert_int_ge(fd, 900);
	ck_assert_int_eq(fcntl(fd, F_GETFD), FD_CLOEXEC);

	ue_close();
	ck_assert(eventually_gone("WriterKT_L4K1"));
	ck_assert_int_eq(user_events_fd(), -1);
	ue_status(&st);
	ck_assert_int_eq(st.state, UE_STATUS_UNUSED);
	ck_assert_uint_eq(st.registered, 0);
	ck_assert_uint_eq(tp.state, UE_STATE_UNREGISTERED);
}
END_TEST

START_TEST(enable_flips_word)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L5K2");
	struct tracefs_instance *inst;

	ck_assert_int_eq(ue_tracepoint_register(&tp, 0), 0);
	ck_assert_uint_eq(tp.state, 0);
	ck_assert_int_eq(kf_enable("WriterKT_L5K2", 1), 0);
	ck_assert_uint_eq(tp.state, UE_STATE_ENABLED);
	ck_assert(ue_tracepoint_active(&tp));
	ck_assert(status_lists("WriterKT_L5K2"));
	ck_assert_int_eq(kf_enable("WriterKT_L5K2", 0), 0);
	ck_assert_uint_eq(tp.state, 0);
	ck_assert(!ue_tracepoint_active(&tp));

	inst = instance("writer_kt_flip");
	enable(inst, &tp);
	ck_assert_int_eq(tracefs_event_disable(inst, "user_events", "WriterKT_L5K2"), 0);
	ck_assert_uint_eq(tp.state, 0);
	instance_done(inst);
}
END_TEST

START_TEST(events_read_back_exactly)
{
	static struct ue_tracepoint tps[3] = {
		UE_TRACEPOINT_INIT("WriterKT_L1K1"),
		UE_TRACEPOINT_INIT("WriterKT_L4K2"),
		UE_TRACEPOINT_INIT("WriterKT_L5K800000Gkt"),
	};
	static const unsigned levels[3] = { 1, 4, 5 };
	static uint8_t ev[9][128];
	size_t len[9];
	struct tracefs_instance *inst = instance("writer_kt_back");

	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(ue_tracepoint_register(&tps[i], 0), 0);
		enable(inst, &tps[i]);
	}
	for (int i = 0; i < 9; i++) {
		char text[64];
		int n = snprintf(text, sizeof text, "event %d on %s", i, tps[i % 3].name);

		len[i] = make_event(ev[i], sizeof ev[i], levels[i % 3], text, (size_t)n);
		ck_assert(ue_tracepoint_active(&tps[i % 3]));
		/* Every other one sized by the caller, which leaves errno
		 * alone as the summing call does. */
		errno = EXDEV;
		if (i % 2)
			ck_assert_int_eq(write_event_sized(&tps[i % 3], ev[i], len[i]), 0);
		else
			ck_assert_int_eq(write_event(&tps[i % 3], ev[i], len[i]), 0);
		ck_assert_int_eq(errno, EXDEV);
	}
	ck_assert_int_eq(read_back(inst), 9);
	for (int i = 0; i < 9; i++) {
		static const char *const meta[3] = {
			"\"level\":1,\"keyword\":\"0x1\"",
			"\"level\":4,\"keyword\":\"0x2\"",
			"\"level\":5,\"keyword\":\"0x800000\"",
		};
		char want[256], got[512];

		assert_record(&recs[i], tps[i % 3].name, getpid(), ev[i], len[i]);
		/* and the decoder reads back the fields that were written,
		 * pad bytes of the ftrace record included */
		snprintf(want, sizeof want,
			 "{\"n\":\"%s:Ev\",\"msg\":\"event %d on %s\",\"meta\":{\"id\":4660,%s}}",
			 "WriterKT", i, tps[i % 3].name, meta[i % 3]);
		ck_assert_int_gt(eh_decode_json(tps[i % 3].name, recs[i].data, recs[i].len, NULL,
						EH_DECODE_DEFAULT, got, sizeof got), 0);
		ck_assert_str_eq(got, want);
	}
	instance_done(inst);
}
END_TEST

static void idle_checks(void *arg)
{
	struct ue_tracepoint *tp = arg;
	uint8_t ev[16] = { EH_FLAGS_LE64, 0, 0, 0, 0, 0, 0, 4 };

	for (int i = 0; i < 10000; i++) {
		if (ue_tracepoint_active(tp) || write_event(tp, ev, sizeof ev) != 0)
			abort();
	}
}

static void traced_write(void *arg)
{
	uint8_t ev[16] = { EH_FLAGS_LE64, 0, 0, 0, 0, 0, 0, 4 };

	if (ue_tracepoint_active(arg))
		write_event(arg, ev, sizeof ev);
}

static void traced_writes(void *arg)
{
	for (int i = 0; i < 100; i++)
		traced_write(arg);
}

START_TEST(disabled_costs_no_syscall)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L3K4");
	struct tracefs_instance *inst;

	ck_assert(!ue_tracepoint_active(&tp));	/* registers */
	ck_assert_int_eq(syscalls_made(idle_checks, &tp), 0);
	inst = instance("writer_kt_idle");
	enable(inst, &tp);
	/* a traced event costs its writev and nothing else */
	ck_assert_int_eq(syscalls_made(traced_write, &tp), 1);
	ck_assert_int_eq(syscalls_made(traced_writes, &tp), 100);
	ck_assert_int_eq(tracefs_event_disable(inst, "user_events", tp.name), 0);
	ck_assert_int_eq(syscalls_made(idle_checks, &tp), 0);
	instance_done(inst);
}
END_TEST

#define SYSLOG_TP "Syslog_L4K800000"	/* LOG_LOCAL7 | LOG_INFO */
#define SYSLOG_CALLS 50

static void traced_syslogs(void *arg)
{
	(void)arg;
	for (int i = 0; i < SYSLOG_CALLS; i++)
		syslog(LOG_LOCAL7 | LOG_INFO, "request %d done", i);
}

/* The whole path of libehsyslog.so, replace mode: a traced syslog() is
 * its writev and nothing else, wrappers of close() and the like included. */
START_TEST(traced_syslog_one_syscall)
{
	struct tracefs_instance *inst;

	setenv("EHSYSLOG_PASSTHROUGH", "0", 1);
	syslog(LOG_LOCAL7 | LOG_INFO, "registers");
	inst = instance("writer_kt_syslog");
	ck_assert_int_eq(tracefs_event_enable(inst, "user_events", SYSLOG_TP), 0);
	syslog(LOG_LOCAL7 | LOG_INFO, "warm");
	ck_assert_int_eq(syscalls_made(traced_syslogs, NULL), SYSLOG_CALLS);
	ck_assert_int_eq(read_back(inst), 1 + SYSLOG_CALLS);
	instance_done(inst);
}
END_TEST

START_TEST(fork_child_writes_with_its_pid)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K8");
	struct tracefs_instance *inst;
	uint8_t ev[2][64];
	size_t len[2];
	int status;
	pid_t pid;

	ck_assert(!ue_tracepoint_active(&tp));
	inst = instance("writer_kt_fork");
	enable(inst, &tp);
	len[0] = make_event(ev[0], sizeof ev[0], 4, "from the child", 14);
	len[1] = make_event(ev[1], sizeof ev[1], 4, "from the parent", 15);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(ue_tracepoint_active(&tp) && write_event(&tp, ev[0], len[0]) == 0 ? 0 : 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(write_event(&tp, ev[1], len[1]), 0);
	ck_assert_int_eq(read_back(inst), 2);
	assert_record(&recs[0], tp.name, pid, ev[0], len[0]);
	assert_record(&recs[1], tp.name, getpid(), ev[1], len[1]);
	instance_done(inst);
}
END_TEST

/* The exec'd image: argv = exec-child NAME OLD_FD. */
static int exec_child(char **argv)
{
	struct ue_tracepoint tp = UE_TRACEPOINT_INIT(argv[2]);
	uint8_t ev[64];
	size_t len = make_event(ev, sizeof ev, 4, "after exec", 10);

	if (fcntl(atoi(argv[3]), F_GETFD) != -1 || errno != EBADF)
		return 2;	/* the descriptor leaked across exec */
	if (tp.state != UE_STATE_UNREGISTERED || !ue_tracepoint_active(&tp))
		return 3;
	if (write_event(&tp, ev, len) != 0)
		return 4;
	ue_tracepoint_unregister(&tp);	/* tp lives on this stack */
	return 0;
}

START_TEST(exec_registers_again)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K10");
	struct tracefs_instance *inst;
	uint8_t ev[2][64];
	size_t len[2];
	char fdnum[16];
	int status;
	pid_t pid;

	ck_assert(!ue_tracepoint_active(&tp));
	inst = instance("writer_kt_exec");
	enable(inst, &tp);
	len[0] = make_event(ev[0], sizeof ev[0], 4, "after exec", 10);
	len[1] = make_event(ev[1], sizeof ev[1], 4, "parent still", 12);
	snprintf(fdnum, sizeof fdnum, "%d", user_events_fd());
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execl(self_exe, self_exe, "exec-child", tp.name, fdnum, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	/* both processes registered the same name; the parent still works */
	ck_assert_int_eq(write_event(&tp, ev[1], len[1]), 0);
	ck_assert_int_eq(read_back(inst), 2);
	assert_record(&recs[0], tp.name, pid, ev[0], len[0]);
	assert_record(&recs[1], tp.name, getpid(), ev[1], len[1]);
	instance_done(inst);
}
END_TEST

/* The program's side, in a child: Check's own descriptors die with
 * close_range.  Returns 0 or the number of the step that went wrong. */
static int steal(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3])
{
	char file[] = "/tmp/writer_kt_app.XXXXXX";
	struct ue_status st;
	struct stat sb;
	int old, fd;

	if (write_event(tp, ev[0], len[0]) != 0)
		return 1;
	old = user_events_fd();
	fd = mkstemp(file);
	if (old <= 2 || fd < 0)
		return 2;
	/* The program closes everything, then its files take the numbers. */
	if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
		return 3;
	do {
		fd = open(file, O_RDWR | O_APPEND);
		if (fd < 0)
			return 4;
	} while (fd < old);
	if (fd != old || !ue_tracepoint_active(tp))	/* the kernel still flips the word */
		return 5;
	if (write_event(tp, ev[1], len[1]) != 0 || write_event(tp, ev[2], len[2]) != 0)
		return 6;
	if (stat(file, &sb) != 0 || sb.st_size != 0)
		return 7;
	ue_status(&st);
	if (st.state != UE_STATUS_OK || st.registered != 1 || user_events_fd() <= old)
		return 8;
	/* Closing must not close the program's file either. */
	ue_close();
	if (fcntl(old, F_GETFD) != 0)
		return 9;
	if (stat(file, &sb) != 0 || sb.st_size != 0)
		return 10;
	unlink(file);
	return 0;
}

START_TEST(stolen_descriptor_never_written)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K20");
	struct tracefs_instance *inst;
	uint8_t ev[3][64];
	size_t len[3];
	int status;
	pid_t pid;

	ck_assert(!ue_tracepoint_active(&tp));
	inst = instance("writer_kt_steal");
	enable(inst, &tp);
	for (int i = 0; i < 3; i++) {
		char text[16];
		int n = snprintf(text, sizeof text, "event %d", i);

		len[i] = make_event(ev[i], sizeof ev[i], 2, text, (size_t)n);
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(steal(&tp, ev, len));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(read_back(inst), 3);
	for (int i = 0; i < 3; i++)
		assert_record(&recs[i], tp.name, pid, ev[i], len[i]);
	instance_done(inst);
}
END_TEST

START_TEST(dup2_over_descriptor)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K40");
	char file[] = "/tmp/writer_kt_dup.XXXXXX";
	struct tracefs_instance *inst;
	uint8_t ev[64];
	size_t len = make_event(ev, sizeof ev, 2, "after dup2", 10);
	struct stat sb;
	int fd, old;

	ck_assert(!ue_tracepoint_active(&tp));
	inst = instance("writer_kt_dup2");
	enable(inst, &tp);
	old = user_events_fd();
	fd = mkstemp(file);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(dup2(fd, old), old);
	ck_assert_int_eq(write_event(&tp, ev, len), 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	ck_assert_int_eq(sb.st_size, 0);
	ck_assert_int_eq(read_back(inst), 1);
	assert_record(&recs[0], tp.name, getpid(), ev, len);
	unlink(file);
	instance_done(inst);
}
END_TEST

/* ---- the descriptor at the soft RLIMIT_NOFILE ------------------------
 * Where soft < hard the writer keeps its descriptor at the number equal
 * to the soft limit, which open(), dup2() and F_DUPFD cannot reach: no
 * check per write.  Where it cannot (soft == hard), each traced write
 * checks the descriptor with fstat first. */

#define SOFT_LIMIT 1024
#define HARD_LIMIT 4096

static void set_nofile(rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };

	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
}

/* Fixtures, run in each test's process before it logs. */
static void limit_below_hard(void)
{
	set_nofile(SOFT_LIMIT, HARD_LIMIT);
}

static void limit_at_hard(void)
{
	set_nofile(SOFT_LIMIT, SOFT_LIMIT);
}

/* The program closes everything with a raw syscall, then its file takes
 * every number it can have: by open() (by_dup2 false) or, as a daemon
 * redirecting its descriptors does, by dup2() over each.  Our number is
 * never one of them, and no byte of ours reaches the file, neither while
 * every number is taken (the event is lost) nor after the program frees
 * some (the writer opens and registers again).  Returns 0 or the step. */
static int fill_every_number(struct ue_tracepoint *tp, uint8_t ev[3][64],
			     const size_t len[3], bool by_dup2)
{
	char file[] = "/tmp/writer_kt_fill.XXXXXX";
	struct ue_status st;
	struct stat sb;
	int old, fd, last = -1;

	if (write_event(tp, ev[0], len[0]) != 0)
		return 1;
	old = user_events_fd();
	fd = mkstemp(file);
	if (old <= 2 || fd < 0)
		return 2;
	if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
		return 3;
	if (by_dup2) {
		last = open(file, O_RDWR | O_APPEND);
		for (int i = 4; i < SOFT_LIMIT && last == i - 1; i++)
			last = dup2(3, i);
		errno = 0;
		if (dup2(3, old) != -1 || errno != EBADF)
			return 4;	/* the kernel refuses our number */
		errno = 0;
		if (syscall(SYS_dup3, 3, old, 0) != -1 || errno != EBADF)
			return 4;
	} else {
		while ((fd = open(file, O_RDWR | O_APPEND)) >= 0) {
			if (fd == old)
				return 4;	/* the program has our number */
			last = fd;
		}
		if (errno != EMFILE)
			return 4;
	}
	if (last != SOFT_LIMIT - 1 || old < SOFT_LIMIT)
		return 5;
	/* Every number taken: the writer cannot open another descriptor,
	 * and must not write where its old one was. */
	write_event(tp, ev[1], len[1]);
	if (stat(file, &sb) != 0 || sb.st_size != 0)
		return 6;
	if (close_range(SOFT_LIMIT / 2, SOFT_LIMIT - 1, 0) != 0)
		return 7;
	usleep(2 * UE_RETRY_INTERVAL_MS * 1000);	/* the writer's retry interval */
	if (write_event(tp, ev[2], len[2]) != 0)
		return 8;
	if (stat(file, &sb) != 0 || sb.st_size != 0)
		return 9;
	ue_status(&st);
	if (st.state != UE_STATUS_OK || st.registered != 1 || user_events_fd() != SOFT_LIMIT)
		return 10;
	unlink(file);
	return 0;
}

typedef int (*events_child)(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3]);

/* Registers and enables tp in instance name, runs child in a forked
 * process with three events made for it, then reads back exactly the
 * events whose bit is set in arrived, in order, with the child's pid. */
static void events_in_child(struct ue_tracepoint *tp, const char *name, events_child child,
			    unsigned arrived)
{
	struct tracefs_instance *inst;
	uint8_t ev[3][64];
	size_t len[3];
	int status, n = 0;
	pid_t pid;

	ck_assert(!ue_tracepoint_active(tp));	/* registers it */
	inst = instance(name);
	enable(inst, tp);
	for (int i = 0; i < 3; i++) {
		char text[16];
		int k = snprintf(text, sizeof text, "event %d", i);

		len[i] = make_event(ev[i], sizeof ev[i], 2, text, (size_t)k);
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child(tp, ev, len));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	for (int i = 0; i < 3; i++)
		n += (arrived >> i) & 1;
	ck_assert_int_eq(read_back(inst), n);
	for (int i = 0, r = 0; i < 3; i++)
		if (arrived >> i & 1)
			assert_record(&recs[r++], tp->name, pid, ev[i], len[i]);
	instance_done(inst);
}

static int fill_by_open(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3])
{
	return fill_every_number(tp, ev, len, false);
}

static int fill_by_dup2(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3])
{
	return fill_every_number(tp, ev, len, true);
}

START_TEST(number_out_of_reach_of_open)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K80");

	/* event 1 is lost while every number is the program's */
	events_in_child(&tp, "writer_kt_fill_open", fill_by_open, 0x5);
}
END_TEST

/* A daemon that calls syscall(SYS_close_range), then dup2() of its
 * own file over every descriptor. */
START_TEST(daemon_dup2_over_every_number)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L3K80");

	events_in_child(&tp, "writer_kt_fill_dup2", fill_by_dup2, 0x5);
}
END_TEST

/* The program raises its soft limit past our number, through libc: the
 * writer moves its descriptor to the new limit first, so that a raw
 * close and the program's opens still never reach it.  Returns 0 or the
 * step. */
static int raise_limit(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3])
{
	char file[] = "/tmp/writer_kt_raise.XXXXXX";
	struct rlimit rl = { 2048, HARD_LIMIT };
	struct stat sb;
	int old, fd;

	if (write_event(tp, ev[0], len[0]) != 0)
		return 1;
	old = user_events_fd();
	if (old != SOFT_LIMIT)
		return 2;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || user_events_fd() != 2048 ||
	    fcntl(old, F_GETFD) != -1)
		return 3;
	rl.rlim_cur = 3000;
	if (prlimit(0, RLIMIT_NOFILE, &rl, NULL) != 0 || user_events_fd() != 3000)
		return 4;
	if (write_event(tp, ev[1], len[1]) != 0)
		return 5;
	/* As in stolen_descriptor_never_written, at our old number. */
	fd = mkstemp(file);
	if (fd < 0 || syscall(SYS_close, user_events_fd()) != 0)
		return 6;
	do {
		fd = open(file, O_RDWR | O_APPEND);
		if (fd < 0)
			return 7;
	} while (fd < old);
	if (fd != old || write_event(tp, ev[2], len[2]) != 0)
		return 8;
	if (stat(file, &sb) != 0 || sb.st_size != 0)
		return 9;
	if (user_events_fd() != 3000)	/* opened again at the limit */
		return 10;
	unlink(file);
	return 0;
}

START_TEST(raised_limit_moves_descriptor)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K100");

	events_in_child(&tp, "writer_kt_raise", raise_limit, 0x7);
}
END_TEST

/* Where the descriptor cannot sit at the limit (soft == hard here, after
 * the program raised it), each traced write checks it: fstat + writev. */
START_TEST(limit_at_hard_checks_each_write)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L3K100");
	struct tracefs_instance *inst;

	ck_assert(!ue_tracepoint_active(&tp));	/* registers it */
	inst = instance("writer_kt_at_hard");
	enable(inst, &tp);
	ck_assert_int_eq(user_events_fd(), SOFT_LIMIT);
	ck_assert_int_eq(syscalls_made(traced_write, &tp), 1);
	set_nofile(HARD_LIMIT, HARD_LIMIT);
	ck_assert_int_eq(user_events_fd(), SOFT_LIMIT);	/* cannot move: stays */
	ck_assert_int_eq(syscalls_made(traced_write, &tp), 2);
	ck_assert_int_eq(read_back(inst), 2);
	instance_done(inst);
}
END_TEST

/* The same after a raise: the original stealing, unchanged, is caught by
 * that fstat. */
static int steal_at_hard(struct ue_tracepoint *tp, uint8_t ev[3][64], const size_t len[3])
{
	struct rlimit rl = { HARD_LIMIT, HARD_LIMIT };

	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 20;
	return steal(tp, ev, len);
}

START_TEST(stolen_after_limit_raised_to_hard)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K200");

	events_in_child(&tp, "writer_kt_steal_hard", steal_at_hard, 0x7);
}
END_TEST

/* argv = nonroot-child: what a user without access sees. */
static int nonroot_child(void)
{
	struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K80");
	uint8_t ev[64];
	size_t len = make_event(ev, sizeof ev, 4, "nobody", 6);
	struct ue_status st;

	errno = EXDEV;
	if (ue_tracepoint_active(&tp) || errno != EXDEV || tp.state != 0)
		return 2;
	if (write_event(&tp, ev, len) != 0)
		return 3;
	ue_status(&st);
	if (st.state != UE_STATUS_NO_PERMISSION || st.error != EACCES)
		return 4;
	ue_tracepoint_unregister(&tp);	/* tp lives on this stack */
	return 0;
}

START_TEST(nonroot_is_silent_noop)
{
	const char *top = getenv("top_srcdir");
	char cmd[3 * PATH_MAX + 128], out[256];
	FILE *p;
	size_t n;

	/* A copy nobody can run, wherever the build tree lies. */
	snprintf(cmd, sizeof cmd, "'%s/tests/as-nobody' --stage '%s' -- '%s' nonroot-child 2>&1",
		 top ? top : ".", self_exe, self_exe);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(pclose(p), 0);
}
END_TEST

START_TEST(size_limit)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K100");
	static uint8_t ev[UE_EVENT_MAX + 1];
	static char text[UE_EVENT_MAX];
	struct tracefs_instance *inst;
	struct ue_status st;
	size_t len;

	ck_assert(!ue_tracepoint_active(&tp));
	inst = instance("writer_kt_size");
	enable(inst, &tp);
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (char)('a' + i % 26);
	/* the largest event: header 8 + block 4 + meta 8 + count 2 + text */
	len = make_event(ev, sizeof ev, 4, text, UE_EVENT_MAX - 22);
	ck_assert_uint_eq(len, UE_EVENT_MAX);
	ck_assert_int_eq(write_event(&tp, ev, len), 0);
	ck_assert_int_eq(write_event_sized(&tp, ev, len), 0);
	len = make_event(ev, sizeof ev, 4, text, UE_EVENT_MAX - 21);
	ck_assert_int_eq(write_event(&tp, ev, len), -EMSGSIZE);
	ck_assert_int_eq(write_event_sized(&tp, ev, len), -EMSGSIZE);
	ue_status(&st);
	ck_assert_uint_eq(st.oversize, 2);
	ck_assert_int_eq(read_back(inst), 2);
	len = make_event(ev, sizeof ev, 4, text, UE_EVENT_MAX - 22);
	assert_record(&recs[0], tp.name, getpid(), ev, len);
	assert_record(&recs[1], tp.name, getpid(), ev, len);
	instance_done(inst);
}
END_TEST

START_TEST(provider_tracepoints)
{
	struct ue_provider *p = ue_provider_open("WriterKTProv", "Gkt");
	struct ue_tracepoint *tp, *tp2;
	struct tracefs_instance *inst;
	uint8_t ev[64];
	size_t len = make_event(ev, sizeof ev, 3, "provider", 8);

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(ue_provider_open("Bad:Name", NULL));
	tp = ue_provider_tracepoint(p, 3, 0x10);
	ck_assert_ptr_nonnull(tp);
	ck_assert_str_eq(tp->name, "WriterKTProv_L3K10Gkt");
	ck_assert_ptr_eq(ue_provider_tracepoint(p, 3, 0x10), tp);
	tp2 = ue_provider_tracepoint(p, 5, 0);
	ck_assert_str_eq(tp2->name, "WriterKTProv_L5K0Gkt");
	ck_assert_ptr_null(ue_provider_tracepoint(p, 0, 1));
	ck_assert(!ue_tracepoint_active(tp));
	inst = instance("writer_kt_prov");
	enable(inst, tp);
	ck_assert_int_eq(write_event(tp, ev, len), 0);
	ck_assert_int_eq(read_back(inst), 1);
	assert_record(&recs[0], "WriterKTProv_L3K10Gkt", getpid(), ev, len);
	instance_done(inst);
	ue_provider_close(p);
	/* the descriptor holds the event until it is closed */
	ue_close();
	ck_assert(eventually_gone("WriterKTProv_L3K10Gkt"));
}
END_TEST

START_TEST(persistent_registration)
{
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L4K200");
	const char *name = "WriterKT_L4K200";
	int fd;

	ck_assert_int_eq(ue_tracepoint_register(&tp, UE_PERSIST), 0);
	ck_assert_int_eq(ue_tracepoint_register(&tp, UE_PERSIST), 0);	/* held already */
	ue_close();
	usleep(100000);
	ck_assert(status_lists(name));
	/* clean up: delete it by name */
	fd = open(TRACING "/user_events_data", O_WRONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, UE_ABI_IOCSDEL, name), 0);
	close(fd);
	ck_assert(eventually_gone(name));
}
END_TEST

static void *first_use(void *arg)
{
	return (void *)(uintptr_t)ue_tracepoint_active(arg);
}

START_TEST(threads_register_once)
{
	static struct ue_tracepoint tps[2] = {
		UE_TRACEPOINT_INIT("WriterKT_L1K400"), UE_TRACEPOINT_INIT("WriterKT_L2K400"),
	};
	pthread_t th[16];
	struct ue_status st;

	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, first_use, &tps[i % 2]), 0);
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	ue_status(&st);
	ck_assert_uint_eq(st.registered, 2);
	ck_assert_uint_eq(st.failed, 0);
	ck_assert(status_lists("WriterKT_L1K400"));
	ck_assert(status_lists("WriterKT_L2K400"));
}
END_TEST

/* Waits (1 s at most) for *word to read want: the kernel may set a bit
 * from a work queue (see enable()). */
static uint32_t word_becomes(const uint32_t *word, uint32_t want)
{
	const struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 1000 && __atomic_load_n(word, __ATOMIC_RELAXED) != want; i++)
		nanosleep(&ms, NULL);
	return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static void toggle(const char *name, int on)
{
	ck_assert_int_eq(kf_enable(name, on), 0);
}

static struct ue_enabler *enabler_again;

/* No Check assertion: a passing one writes to Check's pipe. */
static void add_again(void *arg)
{
	if (ue_enabler_add(arg, enabler_again) != 0)
		abort();
}

START_TEST(enablers_follow_their_events)
{
	/* Two events' bits in one word, as the priority table has them. */
	static struct ue_tracepoint a = UE_TRACEPOINT_INIT("WriterKT_L4K20");
	static struct ue_tracepoint b = UE_TRACEPOINT_INIT("WriterKT_L3K20");
	static uint32_t word = 0x101;
	static struct ue_enabler ea = { &word, 0, 0, NULL }, eb = { &word, 8, 0, NULL };

	/* Registering an enabler registers its tracepoint first; the kernel
	 * then clears the bits of the untraced events. */
	ck_assert_int_eq(ue_enabler_add(&a, &ea), 0);
	ck_assert_uint_eq(word, 0x100);
	ck_assert_uint_eq(a.state, 0);
	ck_assert(status_lists("WriterKT_L4K20"));
	ck_assert_int_eq(ue_enabler_add(&b, &eb), 0);
	ck_assert_uint_eq(word, 0);
	enabler_again = &ea;
	ck_assert_int_eq(syscalls_made(add_again, &a), 0);

	/* Each bit follows its own event, like the state words. */
	toggle("WriterKT_L4K20", 1);
	ck_assert_uint_eq(word_becomes(&word, 0x1), 0x1);
	ck_assert_uint_eq(a.state, UE_STATE_ENABLED);
	toggle("WriterKT_L3K20", 1);
	ck_assert_uint_eq(word_becomes(&word, 0x101), 0x101);
	toggle("WriterKT_L4K20", 0);
	ck_assert_uint_eq(word_becomes(&word, 0x100), 0x100);

	/* Removed: the bit is set again (ask) and the kernel leaves it. */
	ue_enabler_remove(&eb);
	ck_assert_uint_eq(word, 0x100);
	toggle("WriterKT_L3K20", 0);
	ck_assert_uint_eq(b.state, 0);
	ck_assert_uint_eq(word, 0x100);
	ck_assert_int_eq(ue_enabler_add(&b, &eb), 0);
	ck_assert_uint_eq(word, 0);

	/* ue_close lets every enabler go with its bit set. */
	ue_close();
	ck_assert_uint_eq(word, 0x101);
	ck_assert(eventually_gone("WriterKT_L4K20"));
	ck_assert(eventually_gone("WriterKT_L3K20"));
	ck_assert_int_eq(ue_enabler_add(&a, &ea), 0);
	ck_assert_uint_eq(word, 0x100);
	ue_close();
}
END_TEST

START_TEST(enabler_of_a_failed_tracepoint)
{
	/* The kernel refuses the name: the enabler fails with its
	 * tracepoint and its bit is cleared (nothing to do) until
	 * ue_retry(), which sets it again. */
	static struct ue_tracepoint bad = UE_TRACEPOINT_INIT("WriterKT:bad");
	static uint32_t word = 0x1u << 5;
	static struct ue_enabler e = { &word, 5, 0, NULL };

	ck_assert_int_lt(ue_enabler_add(&bad, &e), 0);
	ck_assert_uint_eq(word, 0);
	ck_assert_uint_eq(bad.state, 0);
	ck_assert_int_eq(ue_enabler_add(&bad, &e), -ENOTCONN);
	ck_assert_int_eq(ue_retry(), 0);
	ck_assert_uint_eq(word, 0x1u << 5);
	ue_close();
}
END_TEST

START_TEST(forked_child_keeps_its_enablers)
{
	/* The kernel copies the registrations into the child: its copy of
	 * the word follows the event too. */
	static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("WriterKT_L2K20");
	static uint32_t word = 0x1;
	static struct ue_enabler e = { &word, 0, 0, NULL };
	int fds[2], status;
	char c;
	pid_t pid;

	ck_assert_int_eq(ue_enabler_add(&tp, &e), 0);
	ck_assert_uint_eq(word, 0);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(2);
		_exit(word_becomes(&word, 0x1) == 0x1 ? 0 : 1);
	}
	close(fds[0]);
	toggle("WriterKT_L2K20", 1);
	ck_assert_int_eq(write(fds[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	toggle("WriterKT_L2K20", 0);
	close(fds[1]);
	ue_close();
}
END_TEST

int main(int argc, char **argv)
{
	static char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	Suite *s;
	TCase *tc;
	if (n <= 0)
		return 99;
	exe[n] = '\0';
	self_exe = exe;
	if (argc == 4 && strcmp(argv[1], "exec-child") == 0)
		return exec_child(argv);
	if (argc == 2 && strcmp(argv[1], "nonroot-child") == 0)
		return nonroot_child();
	if (kf_skip_unless_usable())
		return 77;
	s = suite_create("user_events writer in the kernel");
	tc = tcase_create("kernel");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, limit_below_hard, NULL);
	tcase_add_test(tc, registration_visible);
	tcase_add_test(tc, enable_flips_word);
	tcase_add_test(tc, events_read_back_exactly);
	tcase_add_test(tc, disabled_costs_no_syscall);
	tcase_add_test(tc, fork_child_writes_with_its_pid);
	tcase_add_test(tc, exec_registers_again);
	tcase_add_test(tc, traced_syslog_one_syscall);
	tcase_add_test(tc, number_out_of_reach_of_open);
	tcase_add_test(tc, daemon_dup2_over_every_number);
	tcase_add_test(tc, raised_limit_moves_descriptor);
	tcase_add_test(tc, limit_at_hard_checks_each_write);
	tcase_add_test(tc, stolen_after_limit_raised_to_hard);
	tcase_add_test(tc, nonroot_is_silent_noop);
	tcase_add_test(tc, size_limit);
	tcase_add_test(tc, provider_tracepoints);
	tcase_add_test(tc, persistent_registration);
	tcase_add_test(tc, threads_register_once);
	tcase_add_test(tc, enablers_follow_their_events);
	tcase_add_test(tc, enabler_of_a_failed_tracepoint);
	tcase_add_test(tc, forked_child_keeps_its_enablers);
	suite_add_tcase(s, tc);
	/* Our number reachable (soft == hard): the per-write fstat path. */
	tc = tcase_create("limit at hard");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, limit_at_hard, NULL);
	tcase_add_test(tc, stolen_descriptor_never_written);
	tcase_add_test(tc, dup2_over_descriptor);
	suite_add_tcase(s, tc);
	return check_run(s);
}
