/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/admin/settings.h"
#include "cli/read_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The library reads no more than this either. */
#define CONFIG_FILE_MAX (1024 * 1024)

/* Empties line number line (1-based) of text, keeping its newline so the
 * lines after it keep their numbers.  False if there is no such line. */
static bool empty_line(char *text, size_t *len, unsigned line)
{
	char *start = text, *end = text + *len, *nl;
	unsigned n;

	for (n = 1; n < line; n++) {
		nl = memchr(start, '\n', (size_t)(end - start));
		if (!nl)
			return false;
		start = nl + 1;
	}
	nl = memchr(start, '\n', (size_t)(end - start));
	if (!nl)
		nl = end;
	if (nl == start)
		return false;	/* already empty: the parser blames something else */
	memmove(start, nl, (size_t)(end - nl));
	*len -= (size_t)(nl - start);
	return true;
}

int cli_config_apply(struct cli_config_file *file, const char *path, const char *program,
		     struct ehs_config *c, cli_config_error_fn *on_error, void *ctx)
{
	struct ehs_config_status st;
	struct ehs_config result;
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
	/* The parser stops at the first error: report it, empty that line
	 * and parse again, until the rest is clean. */
	for (;;) {
		result = *c;
		if (ehs_config_parse(text, len, program, &result, &st) == 0)
			break;
		file->errors++;
		on_error(ctx, st.line, ehs_config_strerror(st.error));
		if (!empty_line(text, &len, st.line))
			break;
	}
	if (file->errors == 0)
		*c = result;
	free(text);
	return 0;
}
