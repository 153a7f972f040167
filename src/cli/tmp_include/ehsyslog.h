/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY: the part of the bridge API the cli-admin branch assumes,
 * until branch "bridge" lands include/ehsyslog.h (which then takes
 * precedence).  The lead deletes src/cli/tmp_include/ at merge.
 */
#ifndef EHSYSLOG_H
#define EHSYSLOG_H

#include <stdbool.h>
#include <stddef.h>

#define EHS_PROVIDER_MAX 128

/* What the library does in one program. */
struct ehs_settings {
	char provider[EHS_PROVIDER_MAX];
	bool passthrough;
	bool disabled;
};

/* Built-in defaults: provider "Syslog", pass-through on, enabled. */
void ehs_settings_default(struct ehs_settings *s);

/* Called once per error, line counted from 1. */
typedef void ehs_config_error_fn(void *ctx, unsigned line, const char *message);

/*
 * Parses a configuration file's bytes (a pure function: no I/O), applying
 * its global settings and then those of program's section (program may
 * be NULL) on top of *s.  Returns the number of errors found.
 */
int ehs_config_parse(const char *buf, size_t len, const char *program,
		     struct ehs_settings *s, ehs_config_error_fn *on_error, void *ctx);

/* Applies EHSYSLOG_PROVIDER, EHSYSLOG_PASSTHROUGH and EHSYSLOG_DISABLE
 * from the environment on top of *s. */
void ehs_settings_from_env(struct ehs_settings *s);

#endif
