/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/config/config_load.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bridge/schema.h"
#include "bridge/unit.h"
#include "common/syscall.h"

#ifndef EHS_CONFIG_PATH
#define EHS_CONFIG_PATH "/etc/ehsyslog.conf"
#endif

#define CONFIG_FILE_MAX (1u << 20)

/* Read inline by ehs_config_load; written here only. */
int ehs_config_state_word = EHS_CONFIG_UNREAD;
struct ehs_mode_word ehs_mode_word;
/* While READING: the process whose thread reads (0 for an instant after
 * the state changes), and whether this thread is that reader. */
static pid_t reader;
static __thread bool reading_here __attribute__((tls_model("initial-exec")));
/* The configuration read, for what the preload layer asks per call:
 * written before the state is published, read only after. */
static struct ehs_config loaded;

/* Errors after which the file may well be readable at a later call:
 * the process or the system out of descriptors or memory, a signal. */
static bool transient(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM || err == EINTR ||
	       err == EAGAIN || err == ENOBUFS;
}

static enum ehs_config_file failed(void)
{
	return transient(errno) ? EHS_CONFIG_FILE_RETRY : EHS_CONFIG_FILE_ABSENT;
}

/* Reads the len bytes of fd into pages of their own and parses them.
 * Read, not mapped: a file truncated while mapped would raise SIGBUS in
 * the program.  Anonymous pages, not malloc: the program's allocator is
 * not ours to use. */
static enum ehs_config_file parse_fd(struct ehs_config *c, int fd, size_t len,
				     const char *program)
{
	char *m = mmap(NULL, len + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return EHS_CONFIG_FILE_RETRY;
	enum ehs_config_file r = EHS_CONFIG_FILE_APPLIED;
	size_t got = 0;
	ssize_t n = 0;
	while (got < len && ((n = read(fd, m + got, len - got)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	if (n < 0)
		r = failed();
	else if (got != len || read(fd, m + got, 1) != 0)
		r = EHS_CONFIG_FILE_RETRY;	/* changed size meanwhile: being written */
	else if (ehs_config_parse(m, len, program, c, NULL) < 0)
		r = EHS_CONFIG_FILE_INVALID;
	munmap(m, len + 1);
	return r;
}

enum ehs_config_file ehs_config_apply_file(struct ehs_config *c, const char *path,
					   const char *program)
{
	/* The link, if the path ends in one, is followed: what is checked is
	 * the file opened, on its descriptor. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return failed();
	struct stat st;
	enum ehs_config_file r;
	if (fstat(fd, &st) < 0)
		r = failed();
	else if (!S_ISREG(st.st_mode))
		r = EHS_CONFIG_FILE_ABSENT;
	else if ((size_t)st.st_size > CONFIG_FILE_MAX ||
		 ehs_config_distrust((unsigned)st.st_uid, (unsigned)st.st_mode))
		r = EHS_CONFIG_FILE_REFUSED;
	else
		r = parse_fd(c, fd, (size_t)st.st_size, program);
	ehs_syscall(SYS_close, fd);	/* not close(): in the library, preload/fd.c's wrapper */
	return r;
}

/* Each setting's environment variable. */
static const struct {
	const char *name;
	const char *key;
} env_settings[] = {
	{ "EHSYSLOG_PROVIDER", "provider" },
	{ "EHSYSLOG_PASSTHROUGH", "passthrough" },
	{ "EHSYSLOG_DISABLE", "disable" },
	{ "EHSYSLOG_SYSLOG_PORTS", "syslog_ports" },
	{ "EHSYSLOG_REMOTE_SYSLOG", "remote_syslog" },
	{ "EHSYSLOG_STDIO", "stdio" },
};

#define ENV_SETTINGS (sizeof env_settings / sizeof env_settings[0])

void ehs_config_apply_env(struct ehs_config *c, ehs_config_refused_fn *refused, void *ctx)
{
	for (size_t i = 0; i < ENV_SETTINGS; i++) {
		const char *v = secure_getenv(env_settings[i].name);
		if (!v)
			continue;
		enum ehs_config_error e = ehs_config_set(c, env_settings[i].key,
							 strlen(env_settings[i].key), v, strlen(v));
		if (e != EHS_CONF_OK && refused)
			refused(ctx, env_settings[i].name, v, e);
	}
}

bool ehs_config_replace_early(void)
{
	int m = ehs_config_mode();
	if (m != EHS_MODE_UNREAD)
		return m == EHS_MODE_REPLACE;
	const char *v = secure_getenv("EHSYSLOG_PASSTHROUGH");
	bool pass = true;
	return v && ehs_parse_bool(v, strlen(v), &pass) == 0 && !pass;
}

bool ehs_config_env_known(const char *name)
{
	if (strcmp(name, "EHSYSLOG_CONFIG") == 0)
		return true;
	for (size_t i = 0; i < ENV_SETTINGS; i++)
		if (strcmp(name, env_settings[i].name) == 0)
			return true;
	return false;
}

/* The file: EHSYSLOG_CONFIG's (not in secure execution), else the
 * default. */
static const char *config_path(void)
{
	const char *path = secure_getenv("EHSYSLOG_CONFIG");
	return path && *path ? path : EHS_CONFIG_PATH;
}

/* Set by ehs_config_settle: a file not readable now is not waited for. */
static bool settled;

static enum ehs_config_state read_config(void)
{
	struct ehs_config c;
	ehs_config_defaults(&c);
	/* The process's own, read where the file is: a field of every
	 * event, known before the first. */
	ehs_unit_read();

	bool retry = ehs_config_apply_file(&c, config_path(), program_invocation_short_name) ==
		     EHS_CONFIG_FILE_RETRY;
	ehs_config_apply_env(&c, NULL, NULL);
	/* The environment's disable wins over any file: no need to wait. */
	bool wait = !c.disable && !__atomic_load_n(&settled, __ATOMIC_RELAXED);
	if (retry && wait)
		return EHS_CONFIG_RETRY;

	enum ehs_config_state s = EHS_CONFIG_ON;
	int names = c.disable ? 0 : ehs_tracepoints_init(c.provider);
	if (names == -1 && wait)
		return EHS_CONFIG_RETRY;	/* no memory for the names, for now */
	if (c.disable || names < 0) {
		ehs_tracepoints_off();
		s = EHS_CONFIG_OFF;
	}
	/* Disabled, the library makes no event, so replace mode would only
	 * lose the messages: the calls pass through, as ehsyslog.conf(5)
	 * says. */
	bool pass = c.passthrough || s == EHS_CONFIG_OFF;
	__atomic_store_n(&ehs_mode_word.mode, pass ? EHS_MODE_PASS : EHS_MODE_REPLACE,
			 __ATOMIC_RELEASE);
	loaded = c;
	return s;
}

/* The coarse clock in milliseconds: a read of the vDSO's page, no
 * system call, for a retry's pace. */
static int64_t now_ms(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) < 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* When the next try may read a file that could not be read. */
static int64_t retry_at;

/* Another thread is reading the configuration, which takes microseconds:
 * wait for it, or the first events of every other thread of a program
 * that starts logging from several threads at once are lost.  Never
 * waits where nobody would finish: in a signal handler that interrupted
 * this thread's own reading, or in a child forked while another thread
 * read (the reader is the parent's, or the fork came before it noted its
 * pid); both log no event, as a call before the first read does. */
static enum ehs_config_state wait_for_reader(void)
{
	int s;

	if (reading_here)
		return EHS_CONFIG_READING;
	pid_t self = getpid();
	for (unsigned unknown = 0;
	     (s = __atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE)) == EHS_CONFIG_READING;
	     sched_yield()) {
		pid_t r = __atomic_load_n(&reader, __ATOMIC_RELAXED);
		if (r != 0 ? r != self : ++unknown > 100000)
			break;
	}
	return (enum ehs_config_state)s;
}

enum ehs_config_state ehs_config_load_slow(void)
{
	int expected = __atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE);
	if (expected == EHS_CONFIG_RETRY &&
	    now_ms() < __atomic_load_n(&retry_at, __ATOMIC_RELAXED))
		return EHS_CONFIG_RETRY;
	if (expected != EHS_CONFIG_RETRY)
		expected = EHS_CONFIG_UNREAD;
	/* Unread, or its pause over: one thread reads, the others wait
	 * for it. */
	if (!__atomic_compare_exchange_n(&ehs_config_state_word, &expected,
					 EHS_CONFIG_READING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
		return expected == EHS_CONFIG_READING ? wait_for_reader()
						     : (enum ehs_config_state)expected;
	__atomic_store_n(&reader, getpid(), __ATOMIC_RELAXED);
	reading_here = true;

	/* open/read are cancellation points: a cancelled reader would leave
	 * the state READING for good. */
	int old_cancel;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old_cancel);
	int saved = errno;
	int s = read_config();
	if (s == EHS_CONFIG_RETRY)
		__atomic_store_n(&retry_at, now_ms() + EHS_CONFIG_RETRY_MS, __ATOMIC_RELAXED);
	errno = saved;
	reading_here = false;
	__atomic_store_n(&ehs_config_state_word, s, __ATOMIC_RELEASE);
	pthread_setcancelstate(old_cancel, NULL);
	return (enum ehs_config_state)s;
}

void ehs_config_retry_now(void)
{
	__atomic_store_n(&retry_at, INT64_MIN, __ATOMIC_RELAXED);
}

void ehs_config_settle(void)
{
	__atomic_store_n(&settled, true, __ATOMIC_RELAXED);
	ehs_config_retry_now();
	(void)ehs_config_load();
}

bool ehs_config_passthrough(void)
{
	int m = ehs_config_mode();
	if (m == EHS_MODE_UNREAD) {
		if (ehs_config_load() < EHS_CONFIG_ON)
			return true;
		m = ehs_config_mode();
	}
	return m == EHS_MODE_PASS;
}

/* The configuration read, reading it first; *defaults filled and
 * returned where it cannot be read (see wait_for_reader). */
static const struct ehs_config *loaded_config(struct ehs_config *defaults)
{
	if (ehs_config_load() >= EHS_CONFIG_ON)
		return &loaded;
	ehs_config_defaults(defaults);
	return defaults;
}

bool ehs_config_remote_syslog(void)
{
	struct ehs_config defaults;
	return loaded_config(&defaults)->remote_syslog;
}

static bool has_port(const struct ehs_config *c, unsigned port)
{
	for (unsigned i = 0; i < c->nports; i++)
		if (c->ports[i] == port)
			return true;
	return false;
}

/* Before the file is read, only a port of the defaults or the environment
 * reads it: a connect() elsewhere (DNS, a database) makes no system call
 * of ours, as a seccomp filter that forbids openat once the program runs
 * requires.  A port that only the file names counts once something else
 * read it (the first logging call). */
bool ehs_config_syslog_port(unsigned port)
{
	if (__atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE) < EHS_CONFIG_ON) {
		struct ehs_config early;
		ehs_config_defaults(&early);
		ehs_config_apply_env(&early, NULL, NULL);
		if (!has_port(&early, port))
			return false;
	}
	struct ehs_config defaults;
	return has_port(loaded_config(&defaults), port);
}

unsigned ehs_config_stdio(bool read_file)
{
	if (__atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE) >= EHS_CONFIG_ON)
		return loaded.stdio;
	/* Read for this key alone, the configuration left unread: it is
	 * the first logging call's to read, after whatever the program did
	 * to its environment before it. */
	struct ehs_config c;
	ehs_config_defaults(&c);
	if (read_file)
		(void)ehs_config_apply_file(&c, config_path(), program_invocation_short_name);
	ehs_config_apply_env(&c, NULL, NULL);
	return c.stdio;
}

void ehs_config_switch_off(void)
{
	__atomic_store_n(&ehs_mode_word.mode, EHS_MODE_PASS, __ATOMIC_RELEASE);
	__atomic_store_n(&ehs_config_state_word, EHS_CONFIG_OFF, __ATOMIC_RELEASE);
}
