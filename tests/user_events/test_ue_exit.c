/* SPDX-License-Identifier: MIT */
/*
 * What the writer does at exit.  A process that never used a tracepoint
 * exits without taking the writer's lock and without registering fork
 * handlers; one that did takes the lock once, to unregister.
 *
 * The writer is linked statically into this program, so the program's
 * own pthread_mutex_lock and pthread_atfork below are the ones it calls:
 * they count, and print one line per call made after main() returned.
 * A child runs each case; the parent compares its output byte for byte.
 */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ehsyslog/user_events.h"
#include "user_events/internal.h"

static int exiting;
static int atforks;

static void say(const char *s)
{
	ssize_t n = write(STDOUT_FILENO, s, strlen(s));
	(void)n;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	if (!real) {
		void *p = dlsym(RTLD_NEXT, "pthread_mutex_lock");
		memcpy(&real, &p, sizeof p);
	}
	if (exiting)
		say("lock at exit\n");
	return real(m);
}

/* glibc's pthread_atfork is a static stub around this one. */
extern int __register_atfork(void (*)(void), void (*)(void), void (*)(void), void *);
extern void *__dso_handle;

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
	atforks++;
	if (exiting)
		say("pthread_atfork at exit\n");
	return __register_atfork(prepare, parent, child, __dso_handle);
}

/* Registered in main: runs after main returns, before the destructors. */
static void at_exit(void)
{
	char line[64];

	snprintf(line, sizeof line, "atfork before exit: %d\n", atforks);
	say(line);
	exiting = 1;
}

static struct ue_tracepoint tp = UE_TRACEPOINT_INIT("Exit_L4K1");

/* Runs one case in a child; its output must be exactly want. */
static int run(const char *name, int use, const char *want)
{
	int fds[2];
	char got[256];
	size_t len = 0;
	ssize_t n;
	int st;
	pid_t pid;

	if (pipe(fds) < 0)
		return perror("pipe"), 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		atexit(at_exit);
		/* No user_events here: the first use fails, but it takes
		 * the lock and registers the fork handlers all the same. */
		ue__set_paths("/nonexistent-ue-exit/user_events_data",
			      "/nonexistent-ue-exit/mounts");
		if (use && ue_tracepoint_active(&tp))
			say("active?\n");
		exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], got + len, sizeof got - 1 - len)) > 0)
		len += (size_t)n;
	close(fds[0]);
	got[len] = 0;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("FAIL: %s: child status %#x\n", name, st);
		return 1;
	}
	if (strcmp(got, want)) {
		printf("FAIL: %s: output\n%s-- want --\n%s", name, got, want);
		return 1;
	}
	printf("ok: %s\n", name);
	return 0;
}

int main(void)
{
	int fail = 0;

	fail |= run("never used: no lock, no pthread_atfork at exit", 0,
		    "atfork before exit: 0\n");
	fail |= run("used: fork handlers at first use, the lock once at exit", 1,
		    "atfork before exit: 1\nlock at exit\n");
	return fail;
}
