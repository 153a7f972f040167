/* SPDX-License-Identifier: MIT */
/*
 * Programs that write to a syslog daemon's or journald's socket
 * themselves, one way each, for tests/e2e/clients.sh (which knows the
 * datagrams and the events each mode must make):
 *
 *   clients journal [PATH]   journald's native protocol with sendmsg to
 *                            /run/systemd/journal/socket (not connected,
 *                            as libsystemd does): text fields, one
 *                            binary field, PRIORITY, SYSLOG_FACILITY,
 *                            SYSLOG_IDENTIFIER, MESSAGE and a custom one;
 *   clients mmsg [PATH]      sendmmsg: three datagrams to /dev/log at once;
 *   clients writev [PATH]    writev on a socket connected to /dev/log:
 *                            one datagram from three pieces;
 *   clients write [PATH]     write, then send, on a connected socket: two.
 *
 * PATH replaces the socket's path (to try them outside the test guest).
 * Exit status 0 when every call returned the whole datagram's size (what
 * it must return in pass-through and in replace mode alike), 1 otherwise,
 * with the reason on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int failed;

static void check(const char *what, ssize_t got, size_t want)
{
	if (got < 0) {
		fprintf(stderr, "clients: %s: %s\n", what, strerror(errno));
		failed = 1;
	} else if ((size_t)got != want) {
		fprintf(stderr, "clients: %s: %zd bytes of %zu\n", what, got, want);
		failed = 1;
	}
}

static socklen_t address(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof sa->sun_path, "%s", path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(sa->sun_path) + 1);
}

static int dgram(void)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("clients: socket");
		_exit(1);
	}
	return fd;
}

static int connected(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = address(&sa, path);
	int fd = dgram();
	if (connect(fd, (struct sockaddr *)&sa, len) != 0) {
		fprintf(stderr, "clients: connect %s: %s\n", path, strerror(errno));
		_exit(1);
	}
	return fd;
}

static size_t total(const struct iovec *iov, size_t n)
{
	size_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += iov[i].iov_len;
	return t;
}

#define IOV(s) { (void *)(s), sizeof(s) - 1 }

static void journal(const char *path)
{
	/* A binary field: name, newline, little-endian 64-bit size, the
	 * bytes (a newline and a NUL among them), newline. */
	static const char blob[] = "a\nb\0c";
	unsigned char size[8];
	uint64_t n = sizeof blob - 1;
	for (int i = 0; i < 8; i++)
		size[i] = (unsigned char)(n >> (8 * i));
	struct iovec iov[] = {
		IOV("PRIORITY=4\n"),
		IOV("SYSLOG_FACILITY=20\n"),
		IOV("SYSLOG_IDENTIFIER=jnative\n"),
		IOV("MESSAGE=native message\n"),
		IOV("MY_FIELD=custom value\n"),
		IOV("BLOB\n"), { size, sizeof size }, { (void *)blob, sizeof blob - 1 }, IOV("\n"),
	};
	struct sockaddr_un sa;
	struct msghdr m = {
		.msg_name = &sa, .msg_namelen = address(&sa, path),
		.msg_iov = iov, .msg_iovlen = N(iov),
	};
	int fd = dgram();
	check("sendmsg", sendmsg(fd, &m, MSG_NOSIGNAL), total(iov, N(iov)));
	close(fd);
}

static void mmsg(const char *path)
{
	static const char *const d[] = {
		"<165>mmsg_tag: first of three",
		"<166>mmsg_tag[42]: second of three",
		"<167>mmsg_tag: third of three",
	};
	struct sockaddr_un sa;
	socklen_t len = address(&sa, path);
	struct iovec iov[N(d)];
	struct mmsghdr mm[N(d)];
	memset(mm, 0, sizeof mm);
	for (size_t i = 0; i < N(d); i++) {
		iov[i] = (struct iovec){ (void *)d[i], strlen(d[i]) };
		mm[i].msg_hdr = (struct msghdr){ .msg_name = &sa, .msg_namelen = len,
						 .msg_iov = &iov[i], .msg_iovlen = 1 };
	}
	int fd = dgram();
	check("sendmmsg", sendmmsg(fd, mm, N(d), 0), N(d));
	for (size_t i = 0; i < N(d); i++)
		check("sendmmsg's msg_len", mm[i].msg_len, strlen(d[i]));
	close(fd);
}

static void do_writev(const char *path)
{
	struct iovec iov[] = { IOV("<131>"), IOV("wv_tag: "), IOV("by writev") };
	int fd = connected(path);
	check("writev", writev(fd, iov, N(iov)), total(iov, N(iov)));
	close(fd);
}

static void do_write(const char *path)
{
	static const char w[] = "<134>wr_tag: by write";
	static const char s[] = "<135>wr_tag: by send";
	int fd = connected(path);
	check("write", write(fd, w, sizeof w - 1), sizeof w - 1);
	check("send", send(fd, s, sizeof s - 1, MSG_NOSIGNAL), sizeof s - 1);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *path = argc > 2 ? argv[2] : NULL;
	if (strcmp(mode, "journal") == 0)
		journal(path ? path : "/run/systemd/journal/socket");
	else if (strcmp(mode, "mmsg") == 0)
		mmsg(path ? path : "/dev/log");
	else if (strcmp(mode, "writev") == 0)
		do_writev(path ? path : "/dev/log");
	else if (strcmp(mode, "write") == 0)
		do_write(path ? path : "/dev/log");
	else {
		fprintf(stderr, "usage: clients journal|mmsg|writev|write [PATH]\n");
		return 2;
	}
	return failed;
}
