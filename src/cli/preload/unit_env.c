/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/paths.h"
#include "cli/preload/unit_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* More than any real Environment= list; the rest is ignored. */
#define SHOW_MAX (64 * 1024)

#define LD_PRELOAD_IS "LD_PRELOAD="

/* systemctl's output, NUL-terminated, or NULL if it failed. */
static char *run_show(const char *unit)
{
	const char *systemctl = cli_systemctl_path();
	char *out = malloc(SHOW_MAX + 1);
	size_t got = 0;
	int pipefd[2], status;
	pid_t pid;

	if (!out)
		return NULL;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(out);
		return NULL;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		/* Its complaints (no systemd running) are summed up by the caller. */
		if (null < 0 || dup2(null, 0) < 0 || dup2(pipefd[1], 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		execlp(systemctl, systemctl, "show", "--property=Environment", "--value", unit,
		       (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		free(out);
		return NULL;
	}
	for (;;) {
		char discard[512];
		ssize_t n = got < SHOW_MAX ? read(pipefd[0], out + got, SHOW_MAX - got)
					   : read(pipefd[0], discard, sizeof discard);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got < SHOW_MAX)
			got += (size_t)n;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			free(out);
			return NULL;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(out);
		return NULL;
	}
	out[got] = '\0';
	return out;
}

/*
 * Next word of systemctl's list at *p, unquoted in place: words are
 * separated by white space; systemd (shell_maybe_quote)
 * puts one holding white space or quotes in double quotes, with
 * backslash escapes.  NULL at the end.
 */
static char *next_word(char **p)
{
	char *s = *p, *w, *o;
	bool quoted = false;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s == '\0')
		return NULL;
	w = o = s;
	for (; *s; s++) {
		if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n')) {
			s++;
			break;
		}
		if (*s == '"') {
			quoted = !quoted;
		} else if (*s == '\\' && s[1]) {
			*o++ = *++s;
		} else {
			*o++ = *s;
		}
	}
	*p = s;
	*o = '\0';
	return w;
}

static bool is_separator(char c)
{
	return c == ':' || c == ' ' || c == '\t' || c == '\n';
}

char *unit_env_without(const char *ld_preload, const char *lib)
{
	size_t lib_len = strlen(lib);
	char *out = malloc(strlen(ld_preload) + 1), *o = out;
	const char *s = ld_preload;

	if (!out)
		return NULL;
	while (*s) {
		const char *e;

		while (*s && is_separator(*s))
			s++;
		for (e = s; *e && !is_separator(*e); e++)
			;
		if (e > s && !((size_t)(e - s) == lib_len && memcmp(s, lib, lib_len) == 0)) {
			if (o > out)
				*o++ = ':';
			memcpy(o, s, (size_t)(e - s));
			o += e - s;
		}
		s = e;
	}
	*o = '\0';
	return out;
}

int unit_env_ld_preload(const char *unit, char **value)
{
	char *shown = run_show(unit), *p = shown, *w;
	const char *found = "";

	*value = NULL;
	if (!shown)
		return -1;
	/* The last assignment wins, as in the environment systemd builds. */
	while ((w = next_word(&p)) != NULL)
		if (strncmp(w, LD_PRELOAD_IS, strlen(LD_PRELOAD_IS)) == 0)
			found = w + strlen(LD_PRELOAD_IS);
	*value = unit_env_without(found, "");
	free(shown);
	return *value ? 0 : -1;
}
