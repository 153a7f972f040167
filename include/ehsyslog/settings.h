/* SPDX-License-Identifier: MIT */
/*
 * libehsyslog's settings and schema, for tools that check or report what
 * the library does (the ehsyslog tool's config, status, register and
 * run): the same parser, rules and mappings the library applies, so that
 * a tool never accepts what the library would ignore.
 *
 * The configuration file (ehsyslog.conf(5)):
 *
 *   # comment; blank lines are ignored
 *   provider = Syslog          # [A-Za-z0-9_], 1..EHS_PROVIDER_MAX bytes
 *   passthrough = yes          # yes|no|on|off|true|false|1|0
 *   disable = no               # same values
 *   syslog_ports = 514 601     # 1..EHS_SYSLOG_PORTS_MAX ports 1..65535,
 *                              # separated by blanks and/or commas
 *   remote_syslog = no         # boolean: also datagrams to other hosts
 *   stdio = none               # stdout, stderr, both or none, or several
 *                              # separated by commas: output captured
 *                              # wherever it goes (not a terminal's)
 *
 *   [program sshd]             # applies when the program's short name is sshd
 *   disable = yes
 *
 *   [export]                   # ehsyslog export's: key = value lines
 *   endpoint = https://collector:4318   # the library only checks the syntax
 *
 * Keys before the first section apply to every program; a section's keys
 * apply on top of them when its name matches.  The keys of [export] are
 * the tool's (ehs_config_section): the library skips them.  Later lines win.  A line is
 * at most EHS_CONFIG_LINE_MAX bytes.  Any error makes the whole file
 * invalid: the library then uses the defaults.  The environment
 * (EHSYSLOG_PROVIDER, EHSYSLOG_PASSTHROUGH, EHSYSLOG_DISABLE,
 * EHSYSLOG_SYSLOG_PORTS, EHSYSLOG_REMOTE_SYSLOG, EHSYSLOG_STDIO) applies
 * on top of the file.
 *
 * A datagram or stream a program sends itself to a syslog port (UDP or
 * TCP) makes events when it goes to a loopback address, or to any
 * address with remote_syslog on.
 *
 * None of these functions is called on the library's logging path.  All
 * are thread-safe; none allocates or locks; errno is preserved.
 */
#ifndef EHSYSLOG_SETTINGS_H
#define EHSYSLOG_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EHS_API
#define EHS_API __attribute__((visibility("default")))
#endif

#define EHS_PROVIDER_MAX 200
#define EHS_CONFIG_LINE_MAX 1024
#define EHS_DEFAULT_PROVIDER "Syslog"
/* The provider rule in words, for every message that names it. */
#define EHS_PROVIDER_RULE "1-200 characters of A-Z a-z 0-9 _"
/* At most this many syslog ports: the preload layer checks each. */
#define EHS_SYSLOG_PORTS_MAX 8

struct ehs_config {
	char provider[EHS_PROVIDER_MAX + 1];
	bool passthrough;
	bool disable;
	bool remote_syslog;	/* syslog ports at any address, not loopback only */
	unsigned nports;	/* 1..EHS_SYSLOG_PORTS_MAX */
	uint16_t ports[EHS_SYSLOG_PORTS_MAX];	/* host byte order */
	unsigned stdio;		/* streams captured: 1 << 1 stdout, 1 << 2 stderr */
};

enum ehs_config_error {
	EHS_CONF_OK = 0,
	EHS_CONF_SYNTAX,	/* neither key = value, section nor comment */
	EHS_CONF_KEY,		/* unknown key */
	EHS_CONF_BOOL,		/* value not a boolean */
	EHS_CONF_PROVIDER,	/* provider empty, too long or bad character */
	EHS_CONF_SECTION,	/* section header malformed or empty name */
	EHS_CONF_LINE,		/* line too long or holds a NUL byte */
	EHS_CONF_PORTS,		/* syslog_ports not 1..8 ports 1..65535 */
	EHS_CONF_STDIO,		/* stdio not stdout, stderr, both, none */
};

struct ehs_config_status {
	enum ehs_config_error error;
	unsigned line;		/* 1-based line of the error, 0 if none */
};

/* Sets *c to the defaults: provider Syslog, pass-through on, enabled,
 * syslog ports 514 and 601 at loopback addresses only.
 * Async-signal-safe. */
EHS_API void ehs_config_defaults(struct ehs_config *c);

/* 0 if provider[0..len) is 1..EHS_PROVIDER_MAX bytes of [A-Za-z0-9_],
 * the rule EHSYSLOG_PROVIDER and the file's provider key must meet, else
 * -1.  Async-signal-safe. */
EHS_API int ehs_provider_valid(const char *provider, size_t len);

/*
 * Applies the file in buf[0..len) (no I/O: the caller reads it) for
 * program (its short name; NULL: the global keys only) to *c, which holds
 * the values to start from.  Returns 0; or -1 at the first error, *c then
 * unchanged and *st (unless NULL) telling the line and why.
 * Async-signal-safe.
 */
EHS_API int ehs_config_parse(const char *buf, size_t len, const char *program,
			     struct ehs_config *c, struct ehs_config_status *st);

/* Called for each key = value line of a section, key and value trimmed
 * (not NUL-terminated: they point into the caller's buffer).  line is
 * 1-based.  A nonzero return stops the walk. */
typedef int ehs_config_pair_fn(void *ctx, unsigned line, const char *key, size_t key_len,
			       const char *value, size_t value_len);

/*
 * Walks the lines of every section [section] ("export") of the file in
 * buf[0..len), in order, calling fn for each key = value, so that a tool
 * reads its section with the library's own rules for lines, comments and
 * blanks.  Returns 0; fn's nonzero return; or -1 at a line of the
 * section that is too long or not key = value, *st (unless NULL) then
 * telling the line and why.  What lies outside the section is left to
 * ehs_config_parse.  Async-signal-safe.
 */
EHS_API int ehs_config_section(const char *buf, size_t len, const char *section,
			       ehs_config_pair_fn *fn, void *ctx, struct ehs_config_status *st);

/* "unknown key" and the like: constant English text for e. */
EHS_API const char *ehs_config_strerror(enum ehs_config_error e);

/* Called for each variable whose value the library ignores, and why. */
typedef void ehs_config_refused_fn(void *ctx, const char *name, const char *value,
				   enum ehs_config_error why);

/*
 * Applies the environment variables to *c as the library does, through
 * secure_getenv() (so nothing under secure execution).  refused, if not
 * NULL, hears of each value left out.  Not async-signal-safe (getenv).
 */
EHS_API void ehs_config_apply_env(struct ehs_config *c, ehs_config_refused_fn *refused,
				  void *ctx);

/*
 * Why the library ignores a configuration file whose owner is uid and
 * whose st_mode is mode ("not owned by root", "writable by group or
 * others"), or NULL when it reads it.  Every process applies this rule
 * to the file it opened.  Async-signal-safe.
 */
EHS_API const char *ehs_config_distrust(unsigned uid, unsigned mode);

/* True if the bridge's configuration reads the environment variable name
 * (EHSYSLOG_CONFIG and one per setting).  Async-signal-safe. */
EHS_API bool ehs_config_env_known(const char *name);

/*
 * Which of standard output and error a stdio value (the key's, or
 * EHSYSLOG_STDIO's) names: "stdout", "stderr", "both" or "none", or
 * several of them separated by commas, as bits 1 << 1 and 1 << 2
 * (1 << descriptor) in *bits; "" names none.  Returns 0, or -1 for a
 * value with any other word, which the library ignores whole.
 * Async-signal-safe.
 */
EHS_API int ehs_stdio_streams(const char *value, unsigned *bits);

/*
 * The schema: a syslog call of severity s and facility f goes to the
 * tracepoint "<provider>_L<ehs_severity_level(s)>K<ehs_keyword(f)>"
 * (keyword in hex, as eh_tracepoint_name() writes it).  Facilities
 * 0..EHS_FACILITIES-1 have a keyword of their own; 24..127 share
 * keyword 0, one more slot per level.
 */
#define EHS_FACILITIES 24
#define EHS_FACILITY_SLOTS (EHS_FACILITIES + 1)
#define EHS_LEVELS 5

/* EMERG, ALERT, CRIT -> 1; ERR -> 2; WARNING -> 3; NOTICE, INFO -> 4;
 * DEBUG -> 5.  severity is masked to 0..7.  Async-signal-safe. */
EHS_API unsigned ehs_severity_level(int severity);

/* 1 << facility for 0..EHS_FACILITIES-1, 0 beyond.  Async-signal-safe. */
EHS_API uint64_t ehs_keyword(unsigned facility);

#ifdef __cplusplus
}
#endif

#endif /* EHSYSLOG_SETTINGS_H */
