/* SPDX-License-Identifier: MIT */
/*
 * Which destinations are syslog's (socket.h), and a failed connect to
 * one in replace mode.  Runs for every connect() and addressed send: a
 * few compares before anything but AF_UNIX, AF_INET and AF_INET6.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "bridge/bridge.h"
#include "bridge/socket/socket.h"

static const struct {
	const char *path;
	enum ehs_sock_kind kind;
} local_sockets[] = {
	{ "/dev/log", EHS_SOCK_DGRAM },
	{ "/run/systemd/journal/dev-log", EHS_SOCK_DGRAM },
	{ "/var/run/log", EHS_SOCK_DGRAM },
	{ "/run/systemd/journal/socket", EHS_SOCK_JOURNAL },
};

/* The kind of the local socket an AF_UNIX address names, or NONE.  The
 * path need not be NUL-terminated within len. */
static enum ehs_sock_kind local_kind(const struct sockaddr_un *a, socklen_t len)
{
	size_t off = offsetof(struct sockaddr_un, sun_path);
	if (len <= off)
		return EHS_SOCK_NONE;
	size_t max = len - off < sizeof a->sun_path ? len - off : sizeof a->sun_path;
	size_t n = strnlen(a->sun_path, max);
	for (size_t i = 0; i < sizeof local_sockets / sizeof local_sockets[0]; i++)
		if (strlen(local_sockets[i].path) == n &&
		    memcmp(local_sockets[i].path, a->sun_path, n) == 0)
			return local_sockets[i].kind;
	return EHS_SOCK_NONE;
}

static bool is_loopback4(const struct in_addr *a)
{
	return (ntohl(a->s_addr) >> 24) == 127;
}

/* ::1, or an IPv4 loopback address mapped into IPv6. */
static bool is_loopback6(const struct in6_addr *a)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (IN6_IS_ADDR_LOOPBACK(a))
		return true;
	return memcmp(a->s6_addr, mapped, sizeof mapped) == 0 && a->s6_addr[12] == 127;
}

static int socket_type(int fd)
{
	int type = 0;
	socklen_t len = sizeof type;
	if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return -1;
	return type;
}

/* A datagram kind of a local socket becomes a stream one on a stream
 * socket (glibc's syslog falls back to one; frames then end in NUL). */
static enum ehs_sock_kind by_type(int fd, enum ehs_sock_kind k)
{
	if (k == EHS_SOCK_DGRAM && fd >= 0 && socket_type(fd) == SOCK_STREAM)
		return EHS_SOCK_STREAM;
	return k;
}

enum ehs_sock_kind ehs_sock_kind_of(int fd, const struct sockaddr *addr, socklen_t len)
{
	if (!addr)
		return EHS_SOCK_NONE;
	int saved = errno;
	enum ehs_sock_kind k = EHS_SOCK_NONE;
	unsigned port = 0;
	bool loopback = false;

	switch (addr->sa_family) {
	case AF_UNIX:
		k = by_type(fd, local_kind((const struct sockaddr_un *)addr, len));
		errno = saved;
		return k;
	case AF_INET:
		if (len < sizeof(struct sockaddr_in))
			return EHS_SOCK_NONE;
		port = ntohs(((const struct sockaddr_in *)addr)->sin_port);
		loopback = is_loopback4(&((const struct sockaddr_in *)addr)->sin_addr);
		break;
	case AF_INET6:
		if (len < sizeof(struct sockaddr_in6))
			return EHS_SOCK_NONE;
		port = ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
		loopback = is_loopback6(&((const struct sockaddr_in6 *)addr)->sin6_addr);
		break;
	default:
		return EHS_SOCK_NONE;
	}
	if (ehs_config_syslog_port(port) && (loopback || ehs_config_remote_syslog()))
		k = socket_type(fd) == SOCK_STREAM ? EHS_SOCK_STREAM : EHS_SOCK_DGRAM;
	errno = saved;
	return k;
}

bool ehs_sock_pretend_connected(int fd, const struct sockaddr *addr, socklen_t len, int err)
{
	if ((err != ENOENT && err != ECONNREFUSED) || !addr || addr->sa_family != AF_UNIX)
		return false;
	enum ehs_sock_kind k = ehs_sock_kind_of(fd, addr, len);
	return k != EHS_SOCK_NONE && !ehs_passthrough() && ehs_sock_watch(fd, k);
}
