/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "syslog_sockets.h"

#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

void ss_die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	exit(99);
}

void ss_namespaces(void)
{
	struct ifreq ifr;

	if (unshare(CLONE_NEWNS | CLONE_NEWNET) < 0)
		ss_die("unshare");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/dev", "tmpfs", 0, NULL) < 0 ||
	    mount("tmpfs", "/run", "tmpfs", 0, NULL) < 0)
		ss_die("mount");
	if (mkdir("/run/systemd", 0755) < 0 || mkdir("/run/systemd/journal", 0755) < 0)
		ss_die("mkdir");
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		ss_die("lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		ss_die("lo up");
	/* Not close(): stack-depth measures the first one, the library's
	 * lookup of libc's included. */
	syscall(SYS_close, s);
}

socklen_t ss_unix_addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path, path);
	return (socklen_t)sizeof *a;
}

struct sockaddr_in ss_loopback(unsigned port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

int ss_listen_unix(const char *path)
{
	struct sockaddr_un a;
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&a, ss_unix_addr(&a, path)) < 0)
		ss_die(path);
	return s;
}

int ss_client_unix(const char *path)
{
	struct sockaddr_un a;
	int c = socket(AF_UNIX, SOCK_DGRAM, 0);

	if (c < 0 || connect(c, (struct sockaddr *)&a, ss_unix_addr(&a, path)) < 0)
		ss_die(path);
	return c;
}

void *ss_guarded_stack(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = page + (size + page - 1) / page * page;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p, page, PROT_NONE) < 0)
		ss_die("signal stack");
	return p + page;
}
