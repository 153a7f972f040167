/* SPDX-License-Identifier: MIT */
/*
 * The configuration file's syntax, parsed from a buffer with no I/O, so
 * the parser can be unit-tested, fuzzed and reused by the ehsyslog tool
 * to validate a file.
 *
 *   # comment; blank lines are ignored
 *   provider = Syslog          # [A-Za-z0-9_], 1..EHS_PROVIDER_MAX bytes
 *   passthrough = yes          # yes|no|on|off|true|false|1|0
 *   disable = no               # same values
 *
 *   [program sshd]             # applies when the program's short name is sshd
 *   disable = yes
 *
 * Keys before the first section apply to every program; a section's keys
 * apply on top of them when its name matches.  Later lines win.  A line is
 * at most EHS_CONFIG_LINE_MAX bytes.  Any error makes the whole file
 * invalid: the caller then uses the defaults.
 */
#ifndef EHS_BRIDGE_CONFIG_PARSE_H
#define EHS_BRIDGE_CONFIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define EHS_PROVIDER_MAX 200
#define EHS_CONFIG_LINE_MAX 1024
#define EHS_DEFAULT_PROVIDER "Syslog"
/* The provider rule in words, for every message that names it. */
#define EHS_PROVIDER_RULE "1-200 characters of A-Z a-z 0-9 _"

struct ehs_config {
	char provider[EHS_PROVIDER_MAX + 1];
	bool passthrough;
	bool disable;
};

enum ehs_config_error {
	EHS_CONF_OK = 0,
	EHS_CONF_SYNTAX,	/* neither key = value, section nor comment */
	EHS_CONF_KEY,		/* unknown key */
	EHS_CONF_BOOL,		/* value not a boolean */
	EHS_CONF_PROVIDER,	/* provider empty, too long or bad character */
	EHS_CONF_SECTION,	/* section header malformed or empty name */
	EHS_CONF_LINE,		/* line too long or holds a NUL byte */
};

struct ehs_config_status {
	enum ehs_config_error error;
	unsigned line;		/* 1-based line of the error, 0 if none */
};

/* The defaults: provider Syslog, pass-through on, enabled. */
void ehs_config_defaults(struct ehs_config *c);

/* 0 if provider is 1..EHS_PROVIDER_MAX bytes of [A-Za-z0-9_], else -1. */
int ehs_provider_valid(const char *provider, size_t len);

/*
 * Sets key (provider, passthrough or disable, as in the file) to value
 * in *c.  Returns EHS_CONF_OK, or why value was refused (then *c is
 * unchanged).  The file's lines and the environment both go through it.
 */
enum ehs_config_error ehs_config_set(struct ehs_config *c, const char *key, size_t key_len,
				     const char *value, size_t value_len);

/*
 * Applies the file in buf[0..len) for program to *c (which holds the
 * values to start from).  On error *c is left unchanged and -1 returned
 * with *st telling where and why; 0 on success.  st may be NULL.
 */
int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_config *c, struct ehs_config_status *st);

/* "unknown key" and the like, for the tool's messages. */
const char *ehs_config_strerror(enum ehs_config_error e);

/* Parses yes|no|on|off|true|false|1|0 (exact, lower case). */
int ehs_parse_bool(const char *s, size_t len, bool *out);

#endif
