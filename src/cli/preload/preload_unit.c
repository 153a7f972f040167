/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/paths.h"
#include "cli/preload/preload_file.h"
#include "cli/preload/preload_list.h"
#include "cli/preload/preload_unit.h"
#include "cli/preload/unit_env.h"
#include "cli/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ASSIGNMENT "Environment=LD_PRELOAD="
#define DIR_SUFFIX ".service.d"

static int drop_in_paths(const char *cmd, const char *unit, char dir[PATH_MAX], char file[PATH_MAX])
{
	if ((size_t)snprintf(dir, PATH_MAX, "%s/%s.d", cli_systemd_dir(), unit) >= PATH_MAX ||
	    (size_t)snprintf(file, PATH_MAX, "%s/%s", dir, PRELOAD_UNIT_DROP_IN) >= PATH_MAX) {
		if (cmd)
			cli_error(cmd, "path too long: %s/%s.d", cli_systemd_dir(), unit);
		return -1;
	}
	return 0;
}

/* s with the characters a unit file's value treats specially escaped:
 * '%' starts a specifier, '\\' an escape, quotes a quoted word.
 * Malloc'ed; NULL when out of memory. */
static char *unit_file_escape(const char *s)
{
	char *out = malloc(2 * strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == '%')
			*o++ = '%';
		else if (*s == '\\' || *s == '"' || *s == '\'')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* True if the drop-in's LD_PRELOAD line names the escaped library. */
static bool drop_in_names(const struct preload_file *f, const char *escaped_lib)
{
	const char *p = f->text, *end = f->text + f->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *line_end = nl ? nl : end;
		size_t n = strlen(ASSIGNMENT);

		if ((size_t)(line_end - p) > n && memcmp(p, ASSIGNMENT, n) == 0) {
			char *value = strndup(p + n, (size_t)(line_end - p) - n);
			bool has = value && preload_list_has(value, strlen(value), escaped_lib);

			free(value);
			if (has)
				return true;
		}
		p = line_end + 1;
	}
	return false;
}

static char *render(const char *unit, const char *kept, const char *lib)
{
	char *kept_escaped = unit_file_escape(kept), *lib_escaped = unit_file_escape(lib);
	char *text = NULL;

	if (kept_escaped && lib_escaped &&
	    asprintf(&text,
		     "# Written by ehsyslog; \"ehsyslog preload disable --unit %s\" removes it.\n"
		     "# LD_PRELOAD keeps the unit's own entries as systemctl showed them then.\n"
		     "[Service]\n"
		     ASSIGNMENT "%s%s%s\n",
		     unit, kept_escaped, *kept ? ":" : "", lib_escaped) < 0)
		text = NULL;
	free(kept_escaped);
	free(lib_escaped);
	return text;
}

int preload_unit_enable(const char *cmd, const char *unit, const char *lib)
{
	struct preload_file f = { .lock_fd = -1 };
	char dir[PATH_MAX], file[PATH_MAX];
	char *escaped = NULL, *theirs = NULL, *kept = NULL, *text = NULL;
	bool made_dir = false;
	int rc;

	if (drop_in_paths(cmd, unit, dir, file) < 0)
		return CLI_EXIT_RUNTIME;
	if (mkdir(dir, 0755) == 0) {
		made_dir = true;
	} else if (errno != EEXIST) {
		return preload_file_error(cmd, "create", dir, errno);
	}
	if ((rc = preload_file_read(cmd, &f, file)) != 0)
		goto out;
	rc = CLI_EXIT_RUNTIME;
	if (!(escaped = unit_file_escape(lib)))
		goto oom;
	if (f.exists) {
		if (drop_in_names(&f, escaped)) {
			printf("%s is already in %s's LD_PRELOAD in %s\n", lib, unit, file);
			rc = 0;
		} else {
			cli_error(cmd, "%s does not preload %s (written for another library?): run 'ehsyslog preload disable --unit %s' first",
				  file, lib, unit);
		}
		goto out;
	}
	if (unit_env_ld_preload(unit, &theirs) < 0)
		cli_error(cmd, "'%s show' could not tell %s's environment: an LD_PRELOAD the unit sets itself is not kept",
			  cli_systemctl_path(), unit);
	if (!(kept = unit_env_without(theirs ? theirs : "", lib)) || !(text = render(unit, kept, lib)))
		goto oom;
	if ((rc = preload_file_replace(cmd, &f, text, strlen(text))) != 0)
		goto out;
	made_dir = false;
	printf("added %s to %s's LD_PRELOAD in %s\n", lib, unit, file);
	if (*kept)
		printf("kept the unit's own LD_PRELOAD entries before it: %s\n", kept);
	printf("run: systemctl daemon-reload && systemctl restart %s\n", unit);
	goto out;
oom:
	cli_error(cmd, "out of memory");
out:
	if (made_dir)
		rmdir(dir);
	free(escaped);
	free(theirs);
	free(kept);
	free(text);
	preload_file_release(&f);
	return rc;
}

int preload_unit_disable(const char *cmd, const char *unit)
{
	struct preload_file f = { .lock_fd = -1 };
	char dir[PATH_MAX], file[PATH_MAX];
	int rc;

	if (drop_in_paths(cmd, unit, dir, file) < 0)
		return CLI_EXIT_RUNTIME;
	/* Read first: it refuses a symbolic link or a directory by that name. */
	if ((rc = preload_file_read(cmd, &f, file)) != 0)
		goto out;
	if (!f.exists) {
		printf("%s has no ehsyslog drop-in (%s): nothing to do\n", unit, file);
		goto out;
	}
	if ((rc = preload_file_remove(cmd, &f)) != 0)
		goto out;
	/* Only when empty: the other drop-ins there are not ours. */
	if (rmdir(dir) == 0)
		printf("removed %s and its directory, now empty\n", file);
	else
		printf("removed %s\n", file);
	printf("run: systemctl daemon-reload && systemctl restart %s\n", unit);
out:
	preload_file_release(&f);
	return rc;
}

bool preload_unit_has(const char *unit, char *path, size_t size)
{
	char dir[PATH_MAX], file[PATH_MAX];
	struct stat st;

	if (drop_in_paths(NULL, unit, dir, file) < 0)
		return false;
	snprintf(path, size, "%s", file);
	return lstat(file, &st) == 0 && S_ISREG(st.st_mode);
}

static int service_dirs(const struct dirent *d)
{
	size_t n = strlen(d->d_name), m = strlen(DIR_SUFFIX);

	return n > m && strcmp(d->d_name + n - m, DIR_SUFFIX) == 0;
}

int preload_unit_list(void (*fn)(const char *unit, const char *path, void *ctx), void *ctx)
{
	struct dirent **names;
	int n = scandir(cli_systemd_dir(), &names, service_dirs, alphasort), found = 0;

	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		/* "NAME.service.d" less its ".d" */
		names[i]->d_name[strlen(names[i]->d_name) - 2] = '\0';
		if (preload_unit_has(names[i]->d_name, path, sizeof path)) {
			fn(names[i]->d_name, path, ctx);
			found++;
		}
		free(names[i]);
	}
	free(names);
	return found;
}
