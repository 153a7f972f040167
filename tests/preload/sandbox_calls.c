/* SPDX-License-Identifier: MIT */
/*
 * Programs that install a seccomp filter and then log, run with and
 * without the library (tests/preload/sandbox.sh, sandbox_kernel.sh).  In
 * a mount namespace of its own with /dev/log bound, each case runs in a child
 * that execs this program again (a fresh library for each): it opens
 * the log with LOG_NDELAY | LOG_PID, installs a filter that kills, or
 * fails with EPERM, one system call (through prctl, the seccomp system
 * call, or libseccomp's seccomp_load), calls syslog() and exits 5.  The
 * transcript: each case's output, how it ended, and what /dev/log got;
 * before the cases, what a few syscall() and prctl() calls return (the
 * library wraps both).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBSECCOMP
#include <seccomp.h>
#endif

#include "../lib/syslog_sockets.h"

static const struct {
	const char *name;
	int nr;
} calls[] = {
	{ "openat", __NR_openat },
	{ "statfs", __NR_statfs },
	{ "ioctl", __NR_ioctl },
	{ "getpid", __NR_getpid },
	/* None of the library's: it stays on under this one. */
	{ "mknodat", __NR_mknodat },
};

static const char *const ways[] = {
	"prctl", "seccomp",
#ifdef HAVE_LIBSECCOMP
	"seccomp_load",
#endif
};

static void say(const char *s)
{
	/* write(), not stdio: stdio's first output asks the terminal with
	 * an ioctl, which one of the filters kills. */
	if (write(1, s, strlen(s)) < 0)
		_exit(99);
}

static void install(const char *way, int nr, int kill)
{
	unsigned action = kill ? SECCOMP_RET_KILL_PROCESS : SECCOMP_RET_ERRNO | EPERM;
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };

	if (strcmp(way, "prctl") == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
			_exit(98);
	} else if (strcmp(way, "seccomp") == 0) {
		if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			_exit(98);
	} else {
#ifdef HAVE_LIBSECCOMP
		scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
		if (!ctx || seccomp_rule_add(ctx, kill ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(EPERM),
					     nr, 0) < 0 || seccomp_load(ctx) < 0)
			_exit(98);
		seccomp_release(ctx);
#else
		_exit(97);
#endif
	}
}

/* The case itself, in the exec'd child. */
static int child(const char *way, const char *call, const char *action)
{
	int nr = -1;
	time_t t = 0;

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (strcmp(calls[i].name, call) == 0)
			nr = calls[i].nr;
	if (nr < 0)
		return 99;
	/* The time zone now, as a program that logged the time would have:
	 * glibc's syslog() opens it at its first call otherwise. */
	localtime(&t);
	openlog("sandboxed", LOG_NDELAY | LOG_PID, LOG_DAEMON);
	install(way, nr, strcmp(action, "kill") == 0);
	syslog(LOG_INFO, "after the filter: %s %s %s", way, call, action);
	say("  logged\n");
	return 5;
}

/* Prints each datagram /dev/log got: its priority and its text after
 * the ident's "]: " (the time and pid vary). */
static void drain(int fd)
{
	char b[512];
	ssize_t n;

	while ((n = recv(fd, b, sizeof b - 1, MSG_DONTWAIT)) > 0) {
		b[n] = 0;
		const char *text = strstr(b, "]: ");
		const char *end = strchr(b, '>');
		printf("  devlog got %.*s %s\n", end ? (int)(end - b + 1) : 0, b,
		       text ? text + 3 : "(no ident)");
	}
}

/* syscall() as libc's: results and errno, with six arguments too. */
static void raw_calls(void)
{
	int fds[2];
	char b[8] = "";

	long r;

	errno = 0;
	r = syscall(SYS_close, -1);
	printf("syscall(close, -1) = %ld errno %d\n", r, errno);
	errno = 1234;
	long ppid = syscall(SYS_getppid);
	printf("syscall(getppid) %s, errno %d\n", ppid == getppid() ? "right" : "wrong", errno);
	printf("syscall(pipe2) = %ld\n", syscall(SYS_pipe2, fds, O_CLOEXEC));
	printf("syscall(write) = %ld\n", syscall(SYS_write, fds[1], "abc", 3));
	printf("syscall(read) = %ld %s\n", syscall(SYS_read, fds[0], b, sizeof b - 1), b);
	long m = syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("syscall(mmap) %s\n", m != -1 && (m & 4095) == 0 ? "mapped" : "failed");
	printf("syscall(munmap) = %ld\n", syscall(SYS_munmap, m, 4096));
	printf("syscall(prctl, PR_GET_NO_NEW_PRIVS) = %ld\n",
	       syscall(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	errno = 0;
	r = syscall(SYS_seccomp, 99, 0, NULL);
	printf("syscall(seccomp, bad op) = %ld errno %d\n", r, errno);
	errno = 0;
	r = prctl(PR_SET_SECCOMP, 99, 0, 0, 0);
	printf("prctl(PR_SET_SECCOMP, bad mode) = %ld errno %d\n", r, errno);
}

/* A /dev of its own (the test guest's kernel has no network namespaces,
 * which ss_namespaces also makes). */
static void own_dev(void)
{
	if (unshare(CLONE_NEWNS) < 0)
		ss_die("unshare");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/dev", "tmpfs", 0, NULL) < 0)
		ss_die("mount");
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--child") == 0)
		return child(argv[2], argv[3], argv[4]);
	if (geteuid() != 0) {
		printf("SKIP: sandbox_calls needs root for its mount namespace\n");
		return 77;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	raw_calls();
	own_dev();
	int devlog = ss_listen_unix(SS_DEVLOG);
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
		for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++)
			for (int kill = 1; kill >= 0; kill--) {
				const char *action = kill ? "kill" : "errno";
				printf("%s %s %s\n", ways[w], calls[c].name, action);
				pid_t pid = fork();
				if (pid < 0)
					ss_die("fork");
				if (pid == 0) {
					execl("/proc/self/exe", argv[0], "--child", ways[w],
					      calls[c].name, action, (char *)NULL);
					_exit(99);
				}
				int status;
				if (waitpid(pid, &status, 0) < 0)
					ss_die("waitpid");
				if (WIFSIGNALED(status))
					printf("  killed by signal %d\n", WTERMSIG(status));
				else
					printf("  exit %d\n", WEXITSTATUS(status));
				drain(devlog);
			}
	return 0;
}
