/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/settings.h"
#include "cli/read_file.h"

#include <errno.h>
#include <stdlib.h>

/* Far larger than a real configuration. */
#define CONFIG_FILE_MAX (1024 * 1024)

int cli_config_apply(struct cli_config_file *file, const char *path, const char *program,
		     struct ehs_settings *s, ehs_config_error_fn *on_error, void *ctx)
{
	char *text;
	size_t len;
	int rc;

	file->path = path;
	file->found = false;
	file->errors = 0;
	rc = cli_read_file(path, 0, CONFIG_FILE_MAX, &text, &len, &file->st);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	file->found = true;
	file->errors = ehs_config_parse(text, len, program, s, on_error, ctx);
	free(text);
	return 0;
}

const char *cli_config_distrust(const struct stat *st)
{
	if (st->st_uid != 0)
		return "not owned by root";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by group or others";
	return NULL;
}
