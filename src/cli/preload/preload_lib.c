/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/preload/preload_lib.h"
#include "cli/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A dynamically linked program that does nothing and prints nothing. */
#define PROBE_PROGRAM "/bin/true"

extern char **environ;

static bool writable_by_others(const struct stat *st)
{
	return (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

/* Every directory above path (a copy is cut in place) must be root-owned
 * and not writable by group or others.  No sticky exception (like /tmp):
 * the sticky bit protects the library only while it exists; once it is
 * gone (a reboot, tmpfiles) anyone may create one at its path. */
static int check_directories(const char *cmd, const char *lib, const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	struct stat st;

	if (strlen(path) >= sizeof dir) {
		cli_error(cmd, "path too long: %s", path);
		return CLI_EXIT_RUNTIME;
	}
	strcpy(dir, path);
	while ((slash = strrchr(dir, '/')) != NULL) {
		if (slash == dir)
			slash[1] = '\0';	/* "/" itself */
		else
			*slash = '\0';
		if (stat(dir, &st) < 0) {
			cli_error(cmd, "cannot check %s: %s", dir, strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
		if (st.st_uid != 0) {
			cli_error(cmd, "refusing %s: directory %s is not owned by root (its owner could put another library at this path)",
				  lib, dir);
			return CLI_EXIT_RUNTIME;
		}
		if (writable_by_others(&st)) {
			cli_error(cmd, "refusing %s: directory %s is writable by group or others (mode %04o): sticky or not, whoever may write there could put another library at this path",
				  lib, dir, (unsigned)(st.st_mode & 07777));
			return CLI_EXIT_RUNTIME;
		}
		if (slash == dir)
			break;
	}
	return 0;
}

static int check_file(const char *cmd, const char *lib)
{
	char real[PATH_MAX];
	struct stat st;
	int rc;

	if (lib[0] != '/') {
		cli_error(cmd, "refusing %s: the library path must be absolute", lib);
		return CLI_EXIT_USAGE;
	}
	if (stat(lib, &st) < 0) {
		cli_error(cmd, "refusing %s: %s", lib, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	if (!S_ISREG(st.st_mode)) {
		cli_error(cmd, "refusing %s: not a regular file", lib);
		return CLI_EXIT_RUNTIME;
	}
	if (st.st_uid != 0) {
		cli_error(cmd, "refusing %s: not owned by root (its owner could run code in every process)", lib);
		return CLI_EXIT_RUNTIME;
	}
	if (writable_by_others(&st)) {
		cli_error(cmd, "refusing %s: writable by group or others (mode %04o)", lib,
			  (unsigned)(st.st_mode & 07777));
		return CLI_EXIT_RUNTIME;
	}
	if ((rc = check_directories(cmd, lib, lib)) != 0)
		return rc;
	/* A symbolic link in the path: the directories of its target count too. */
	if (!realpath(lib, real)) {
		cli_error(cmd, "cannot resolve %s: %s", lib, strerror(errno));
		return CLI_EXIT_RUNTIME;
	}
	return strcmp(real, lib) == 0 ? 0 : check_directories(cmd, lib, real);
}

/* environ with LD_PRELOAD replaced by lib; malloc'ed (strings are not). */
static char **probe_environment(const char *lib, char **preload)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof *env);
	if (!env || asprintf(preload, "LD_PRELOAD=%s", lib) < 0) {
		free(env);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
			env[j++] = environ[i];
	env[j++] = *preload;
	env[j] = NULL;
	return env;
}

/* Runs PROBE_PROGRAM with lib preloaded: it must exit 0 and print nothing
 * (ld.so reports a library it cannot preload on stderr and goes on). */
static int check_loads(const char *cmd, const char *lib)
{
	char *preload = NULL, **env = probe_environment(lib, &preload);
	char out[512];
	size_t got = 0;
	int pipefd[2], status, err;
	pid_t pid;

	if (!env) {
		cli_error(cmd, "out of memory");
		return CLI_EXIT_RUNTIME;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		err = errno;
		free(env);
		free(preload);
		cli_error(cmd, "pipe: %s", strerror(err));
		return CLI_EXIT_RUNTIME;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(pipefd[1], 2) < 0)
			_exit(126);
		execve(PROBE_PROGRAM, (char *[]){ (char *)PROBE_PROGRAM, NULL }, env);
		_exit(127);
	}
	err = errno;
	close(pipefd[1]);
	free(env);
	free(preload);
	if (pid < 0) {
		close(pipefd[0]);
		cli_error(cmd, "fork: %s", strerror(err));
		return CLI_EXIT_RUNTIME;
	}
	for (;;) {
		char discard[512];
		ssize_t n = got < sizeof out - 1 ? read(pipefd[0], out + got, sizeof out - 1 - got)
						 : read(pipefd[0], discard, sizeof discard);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (got < sizeof out - 1)
			got += (size_t)n;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			cli_error(cmd, "waitpid: %s", strerror(errno));
			return CLI_EXIT_RUNTIME;
		}
	}
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (got > 0) {
		cli_error(cmd, "refusing %s: ld.so cannot preload it into %s: %s", lib, PROBE_PROGRAM, out);
		return CLI_EXIT_RUNTIME;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		cli_error(cmd, "refusing %s: %s failed with it preloaded (%s %d)", lib, PROBE_PROGRAM,
			  WIFEXITED(status) ? "exit status" : "signal",
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return CLI_EXIT_RUNTIME;
	}
	return 0;
}

int preload_lib_verify(const char *cmd, const char *lib)
{
	int rc = check_file(cmd, lib);

	return rc ? rc : check_loads(cmd, lib);
}
