/* SPDX-License-Identifier: MIT */
/*
 * The process's configuration: read once, on the first logging call,
 * from the file (EHSYSLOG_CONFIG or EHS_CONFIG_PATH) and then the
 * environment (EHSYSLOG_PROVIDER, EHSYSLOG_PASSTHROUGH, EHSYSLOG_DISABLE,
 * EHSYSLOG_SYSLOG_PORTS, EHSYSLOG_REMOTE_SYSLOG, EHSYSLOG_STDIO), all through
 * secure_getenv so setuid programs ignore them.  A file that cannot be
 * read for now (no descriptor or memory free, a signal) is read again by
 * a later call, at most once per EHS_CONFIG_RETRY_MS: until then no
 * event is made and every call passes through, like the calls before
 * the first read.
 */
#ifndef EHS_BRIDGE_CONFIG_LOAD_H
#define EHS_BRIDGE_CONFIG_LOAD_H

#include <stdbool.h>

#include "bridge/config/config_parse.h"
#include "common/hidden.h"

enum ehs_config_state {
	EHS_CONFIG_UNREAD = 0,
	EHS_CONFIG_READING,	/* another thread is reading it */
	EHS_CONFIG_RETRY,	/* the file could not be read yet: as UNREAD, rate-limited */
	EHS_CONFIG_ON,		/* events enabled */
	EHS_CONFIG_OFF,		/* disabled: pass through only */
};

/* How long a file that could not be read waits for its next try. */
#define EHS_CONFIG_RETRY_MS 100

/* What a syslog call that no tracer records does next: read on every
 * call, so it is a word of its own cache line, written once. */
enum ehs_mode {
	EHS_MODE_UNREAD = 0,	/* configuration not read yet: take the full path */
	EHS_MODE_PASS,		/* go on to the real function */
	EHS_MODE_REPLACE,	/* return */
};

struct ehs_mode_word {
	int mode;
} __attribute__((aligned(64)));

extern EHS_HIDDEN struct ehs_mode_word ehs_mode_word;

static inline int ehs_config_mode(void)
{
	return __atomic_load_n(&ehs_mode_word.mode, __ATOMIC_RELAXED);
}

/* An enum ehs_config_state, written once it is read. */
extern EHS_HIDDEN int ehs_config_state_word;

/* Reads the configuration (ehs_config_load's slow path). */
enum ehs_config_state ehs_config_load_slow(void);

/* Reads the configuration unless done; returns the state.  While another
 * thread is reading, waits for it; returns EHS_CONFIG_READING only where
 * waiting could never end (see config.c).  Once read: one load. */
static inline enum ehs_config_state ehs_config_load(void)
{
	int s = __atomic_load_n(&ehs_config_state_word, __ATOMIC_ACQUIRE);
	if (__builtin_expect(s >= EHS_CONFIG_ON, 1))
		return (enum ehs_config_state)s;
	return ehs_config_load_slow();
}

/* Lets the next call read a file that could not be read without waiting
 * for the pause (openlog's).  No system call. */
void ehs_config_retry_now(void);

/* Reads the configuration now unless done, and takes the defaults for
 * good where the file cannot be read now (EHS_CONFIG_RETRY never
 * follows): for a caller about to lose the right to open files. */
void ehs_config_settle(void);

/* Pass through to the real syslog?  True until the configuration is read. */
bool ehs_config_passthrough(void);

/* Whether replace mode is on, as far as can be told without reading the
 * file: the mode once read, else the environment's EHSYSLOG_PASSTHROUGH
 * (which overrides the file; `ehsyslog run --replace` sets it).  No
 * system call: for a call that must decide before anything read the
 * configuration, and must not read it for a destination that is not
 * syslog's (a named send). */
bool ehs_config_replace_early(void);

/* Replace mode, for a call that may be answered by the library instead
 * of the kernel (a syslog send, a log stream's line): the mode once
 * read, ehs_config_replace_early before.  One load once read. */
static inline bool ehs_config_replacing(void)
{
	int m = ehs_config_mode();
	if (__builtin_expect(m != EHS_MODE_UNREAD, 1))
		return m == EHS_MODE_REPLACE;
	return ehs_config_replace_early();
}

/*
 * For datagrams and streams a program sends to syslog itself: whether a
 * syslog port at an address other than loopback makes events too, and
 * whether port (host byte order) is a syslog port.  Each reads the
 * configuration unless done (the defaults where it cannot be read); once
 * read: async-signal-safe, no allocation, no lock.
 */
bool ehs_config_remote_syslog(void);
bool ehs_config_syslog_port(unsigned port);

/* The output streams the stdio key and EHSYSLOG_STDIO name, as bits
 * 1 << descriptor: the configuration's once read; before that, with
 * read_file, the file's (read for this key alone: the configuration
 * stays unread, for the first logging call) and the environment's, else
 * the environment's alone.  No allocation, no lock. */
unsigned ehs_config_stdio(bool read_file);

/* What became of the file ehs_config_apply_file was given. */
enum ehs_config_file {
	EHS_CONFIG_FILE_APPLIED,
	EHS_CONFIG_FILE_ABSENT,		/* or unreadable for good, or not a regular file */
	EHS_CONFIG_FILE_REFUSED,	/* larger than 1 MiB, or ehs_config_distrust's */
	EHS_CONFIG_FILE_INVALID,	/* an error in it: ignored as a whole */
	EHS_CONFIG_FILE_RETRY,		/* not readable now (EMFILE, ENOMEM, EINTR...) */
};

/* Applies the file at path to c; c is unchanged unless the result is
 * EHS_CONFIG_FILE_APPLIED. */
enum ehs_config_file ehs_config_apply_file(struct ehs_config *c, const char *path,
					   const char *program);

/* ehs_config_apply_env() and ehs_config_env_known(), which the tool's
 * status report uses too, are in <ehsyslog/settings.h>. */

/* Turns the library off for the rest of the process, as `disable = yes`
 * does, without a system call: every call passes through.  For a
 * process whose seccomp filter forbids what the library does (preload/seccomp.c). */
void ehs_config_switch_off(void);

#endif
