/* SPDX-License-Identifier: MIT */
/*
 * The configuration as the library would see it, through the library's
 * own parser (<ehsyslog/settings.h>).
 */
#ifndef CLI_SETTINGS_H
#define CLI_SETTINGS_H

#include <ehsyslog/settings.h>

#include <stdbool.h>
#include <sys/stat.h>

struct cli_config_file {
	const char *path;
	bool found;		/* false: missing, the defaults apply */
	struct stat st;		/* when found */
	int errors;		/* errors found; any makes the library ignore the file */
};

/* Called once per error, in line order. */
typedef void cli_config_error_fn(void *ctx, unsigned line, const char *message);

/*
 * Reads path and applies it for program (NULL: global settings only) on
 * top of *c; a file with errors leaves *c alone, as in the library.
 * Every error is passed to on_error, not just the first the parser stops
 * at.  Returns 0 (also for a missing file) or a negative errno from
 * reading it.
 */
int cli_config_apply(struct cli_config_file *file, const char *path, const char *program,
		     struct ehs_config *c, cli_config_error_fn *on_error, void *ctx);

#endif /* CLI_SETTINGS_H */
