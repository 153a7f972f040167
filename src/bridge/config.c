/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/config_load.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge/bridge.h"
#include "bridge/schema.h"

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

void ehs_config_apply_file(struct ehs_config *c, const char *path,
			   const char *program, bool secure)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size <= CONFIG_FILE_MAX &&
	    !(secure && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))))) {
		/* Read, not mapped: a file truncated while mapped would
		 * raise SIGBUS in the program.  Anonymous pages, not malloc:
		 * the program's allocator is not ours to use. */
		size_t len = (size_t)st.st_size, got = 0;
		char *m = mmap(NULL, len + 1, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			ssize_t n;
			while (got < len && ((n = read(fd, m + got, len - got)) > 0 ||
					     (n < 0 && errno == EINTR)))
				if (n > 0)
					got += (size_t)n;
			/* A file that changed size meanwhile is not trusted. */
			if (got == len && read(fd, m + got, 1) == 0)
				ehs_config_parse(m, len, program, c, NULL);
			munmap(m, len + 1);
		}
	}
	close(fd);
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

static enum ehs_config_state read_config(void)
{
	struct ehs_config c;
	ehs_config_defaults(&c);

	bool secure = getauxval(AT_SECURE) != 0;
	const char *path = secure_getenv("EHSYSLOG_CONFIG");
	if (!path || !*path)
		path = EHS_CONFIG_PATH;
	ehs_config_apply_file(&c, path, program_invocation_short_name, secure);
	ehs_config_apply_env(&c, NULL, NULL);

	enum ehs_config_state s = EHS_CONFIG_ON;
	if (c.disable || ehs_tracepoints_init(c.provider) < 0) {
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

/* Another thread is reading the configuration, which takes microseconds:
 * wait for it, or the first events of every other thread of a program
 * that starts logging from several threads at once are lost.  Never
 * waits where nobody would finish: in a signal handler that interrupted
 * this thread's own reading, or in a child forked while another thread
 * read (the reader is the parent's, or the fork came before it noted its
 * pid); both log no event, as before. */
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
	int expected = EHS_CONFIG_UNREAD;
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
	errno = saved;
	reading_here = false;
	__atomic_store_n(&ehs_config_state_word, s, __ATOMIC_RELEASE);
	pthread_setcancelstate(old_cancel, NULL);
	return (enum ehs_config_state)s;
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
