/* SPDX-License-Identifier: MIT */
/*
 * How much stack a logging call takes from a signal handler: for each
 * call, the smallest sigaltstack (in steps of STEP bytes) on which a
 * handler that makes it survives, found by bisection in child processes,
 * less the same for a handler that makes no call (the kernel's signal
 * frame).  "first" is the process's first call of its kind, made in the
 * handler; "warm" follows one made before.  tests/bench/stack-depth.sh
 * runs it without the library, with it preloaded (nothing traced here)
 * and as stack-depth-traced, linked over the writer's double with every
 * tracepoint traced, and prints the table.
 *
 * The sockets' calls run in mount and network namespaces of the
 * program's own, where it binds /dev/log, journald's socket and TCP
 * 127.0.0.1:514: needs root; without it, exits 77 and says so.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#ifdef STACK_TRACED
#include "../doubles/user_events_double.h"

static int discard(void *ctx, struct iovec *iov, int iovcnt)
{
	(void)ctx, (void)iov, (void)iovcnt;
	return 0;
}
#endif

#define STEP 128
#define LOW 512
#define HIGH (256 * 1024)

static int devlog_l, journal_l, tcp_l;
static int devlog_c, journal_c, tcp_c;
static int null_fd;	/* opened before /dev is a tmpfs */

static void die(const char *what)
{
	fprintf(stderr, "stack-depth: %s: %s\n", what, strerror(errno));
	exit(99);
}

static socklen_t unix_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, path);
	return (socklen_t)sizeof *a;
}

static struct sockaddr_in tcp514(void)
{
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(514);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static void namespaces(void)
{
	struct ifreq ifr;
	if (unshare(CLONE_NEWNS | CLONE_NEWNET) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/dev", "tmpfs", 0, NULL) < 0 ||
	    mount("tmpfs", "/run", "tmpfs", 0, NULL) < 0 ||
	    mkdir("/run/systemd", 0755) < 0 || mkdir("/run/systemd/journal", 0755) < 0)
		die("namespaces");
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("lo up");
	close(s);
}

static int listen_unix(const char *path)
{
	struct sockaddr_un a;
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, unix_addr(&a, path)) < 0)
		die(path);
	return s;
}

static void listeners(void)
{
	struct sockaddr_in a = tcp514();
	devlog_l = listen_unix("/dev/log");
	journal_l = listen_unix("/run/systemd/journal/socket");
	tcp_l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (tcp_l < 0 || bind(tcp_l, (struct sockaddr *)&a, sizeof a) < 0 || listen(tcp_l, 64) < 0)
		die("tcp");
}

/* What the children sent: read, so that no send ever blocks. */
static void drain(void)
{
	char b[4096];
	int c;
	while (recv(devlog_l, b, sizeof b, MSG_DONTWAIT) >= 0 ||
	       recv(journal_l, b, sizeof b, MSG_DONTWAIT) >= 0)
		;
	while ((c = accept(tcp_l, NULL, NULL)) >= 0) {
		while (recv(c, b, sizeof b, 0) > 0)
			;
		close(c);
	}
}

static int client_unix(const char *path)
{
	struct sockaddr_un a;
	int c = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, unix_addr(&a, path)) < 0)
		die(path);
	return c;
}

static void connect_clients(void)
{
	struct sockaddr_in a = tcp514();
	devlog_c = client_unix("/dev/log");
	journal_c = client_unix("/run/systemd/journal/socket");
	tcp_c = socket(AF_INET, SOCK_STREAM, 0);
	if (tcp_c < 0 || connect(tcp_c, (struct sockaddr *)&a, sizeof a) < 0)
		die("tcp client");
}

static void call_none(void)
{
}

static void call_syslog(void)
{
	syslog(LOG_ERR, "handler: request %d failed: %m", 42);
}

static void call_warn(void)
{
	warnx("handler: request %d failed", 42);
}

static void call_error(void)
{
	error(0, 0, "handler: request %d failed", 42);
}

static void call_devlog(void)
{
	static const char dg[] = "<11>handler: request 42 failed";
	(void)!write(devlog_c, dg, sizeof dg - 1);
}

static void call_journal(void)
{
	static const char dg[] = "MESSAGE=handler: request 42 failed\nPRIORITY=3\n";
	(void)!write(journal_c, dg, sizeof dg - 1);
}

static void call_tcp(void)
{
	static const char frame[] = "<11>handler: request 42 failed\n";
	(void)!write(tcp_c, frame, sizeof frame - 1);
}

static const struct {
	const char *name;
	void (*call)(void);
} calls[] = {
	{ "none", call_none },
	{ "syslog", call_syslog },
	{ "warnx", call_warn },
	{ "error", call_error },
	{ "write /dev/log", call_devlog },
	{ "write journal", call_journal },
	{ "write tcp", call_tcp },
};

/* size bytes of alternate stack with an unmapped page right below, so
 * that a handler that needs more faults instead of writing over whatever
 * lies below (a malloc'd stack has no guard). */
static void *guarded_stack(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = page + (size + page - 1) / page * page;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect(p, page, PROT_NONE) < 0)
		return NULL;
	return p + page;
}

static void (*in_handler)(void);

static void on_signal(int sig)
{
	(void)sig;
	in_handler();
}

/* In a child: the call on an alternate stack of size bytes, after one on
 * the main stack when warm.  Whether it survived. */
static int survives(size_t k, int warm, size_t size)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (dup2(null_fd, 2) < 0)	/* warnx and error print there */
			_exit(98);
		connect_clients();
		if (warm)
			calls[k].call();
		stack_t ss = { .ss_sp = guarded_stack(size), .ss_size = size };
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_ONSTACK;
		in_handler = calls[k].call;
		if (!ss.ss_sp || sigaltstack(&ss, NULL) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0)
			_exit(98);
		raise(SIGUSR1);
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		die("waitpid");
	drain();
	if (WIFEXITED(st) && WEXITSTATUS(st) == 98)
		die("child set-up");
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The smallest size, in steps of STEP, that survives; 0 if HIGH does not. */
static size_t smallest(size_t k, int warm)
{
	size_t lo = LOW / STEP, hi = HIGH / STEP;	/* lo may fail, hi must survive */
	if (!survives(k, warm, hi * STEP))
		return 0;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (survives(k, warm, mid * STEP))
			hi = mid;
		else
			lo = mid;
	}
	return hi * STEP;
}

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: stack-depth needs root for its mount and network namespaces\n");
		return 77;
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		die("/dev/null");
	namespaces();
	listeners();
#ifdef STACK_TRACED
	ue_double_trace(discard, NULL);
#endif
	openlog("stack", 0, LOG_USER);
	size_t frame = smallest(0, 0);
	if (!frame)
		die("an empty handler");
	printf("signal frame\t-\t%zu\n", frame);
	for (size_t k = 1; k < sizeof calls / sizeof calls[0]; k++)
		for (int warm = 0; warm < 2; warm++) {
			size_t s = smallest(k, warm);
			if (s)
				printf("%s\t%s\t%zu\n", calls[k].name, warm ? "warm" : "first",
				       s - frame);
			else
				printf("%s\t%s\tover %d\n", calls[k].name, warm ? "warm" : "first",
				       HIGH);
		}
	return 0;
}
