/* SPDX-License-Identifier: MIT */
/*
 * The OTLP/HTTP receiver of tests/export/bench_export.py: counts the log
 * records of each request and nothing more.
 *
 *   otlp_count WORK
 *
 * Listens on 127.0.0.1 (the port goes to WORK/port) and answers each
 * POST /v1/logs of application/x-protobuf with 200 and an empty
 * ExportLogsServiceResponse (full success), after adding its records to
 * the total in WORK/count.  The bench's guest has one CPU, which the
 * receiver shares with export: a receiver that decoded each record
 * (otlp_receiver.py) cost about what export does, so this one only walks
 * the protobuf framing down to the records and counts them.  A body
 * whose framing is broken is answered 400 and not counted.  Runs until
 * SIGTERM or SIGINT.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define BODY_MAX (64u << 20)
#define HEAD_MAX (64u << 10)	/* the request line and headers */
#define CLIENTS 16	/* export keeps one; a few more cost nothing */

static const char *work;
static unsigned long long total;

/* Writes TEXT to WORK/NAME through NAME.tmp and a rename: the bench
 * polls the file and must never read half of it. */
static void publish(const char *name, const char *text)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", work, name) >= sizeof path ||
	    (size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
		errx(1, "%s: path too long", work);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		err(1, "%s", tmp);
	if (write(fd, text, len) != (ssize_t)len)
		err(1, "%s: short write", tmp);
	if (close(fd) < 0)
		err(1, "%s", tmp);
	if (rename(tmp, path) < 0)
		err(1, "rename %s", tmp);
}

static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;	/* runs past the end, or over 10 bytes */
}

/*
 * The log records in the message [p, end) at LEVEL: 0 the
 * ExportLogsServiceRequest, 1 a ResourceLogs, 2 a ScopeLogs, 3 a
 * LogRecord (whose own fields are walked but not entered); -1 when the
 * framing is broken.  Other fields are skipped by wire type, as a
 * protobuf parser passes over fields it does not know; groups (3, 4)
 * are refused, as proto3 has none.
 */
static long long walk(const uint8_t *p, const uint8_t *end, int level)
{
	static const uint64_t child[] = { 1, 2, 2 };	/* resource_logs, scope_logs, log_records */
	long long n = 0;

	while (p < end) {
		uint64_t tag, v;
		const uint8_t *in;
		long long k;

		if (!varint(&p, end, &tag) || tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
			return -1;
		switch (tag & 7) {
		case 0:
			if (!varint(&p, end, &v))
				return -1;
			break;
		case 1:	/* fixed64 */
		case 5:	/* fixed32 */
			v = (tag & 7) == 1 ? 8 : 4;
			if (v > (uint64_t)(end - p))
				return -1;
			p += v;
			break;
		case 2:
			if (!varint(&p, end, &v) || v > (uint64_t)(end - p))
				return -1;
			in = p;
			p += v;
			if (level == 3 || tag >> 3 != child[level])
				break;
			if ((k = walk(in, p, level + 1)) < 0)
				return -1;
			n += level == 2 ? 1 : k;
			break;
		default:
			return -1;
		}
	}
	return n;
}

struct client {
	int fd;	/* -1: a free slot */
	bool ending;	/* answered for the last time: waits for the client's FIN */
	char *buf;
	size_t len, cap;
};

static bool answer(struct client *c, int status, const char *reason, bool closing)
{
	char head[256];
	int n = snprintf(head, sizeof head,
			 "HTTP/1.1 %d %s\r\nContent-Type: application/x-protobuf\r\n"
			 "Content-Length: 0\r\n%s\r\n", status, reason,
			 closing ? "Connection: close\r\n" : "");

	for (int off = 0; off < n;) {
		/* MSG_NOSIGNAL: a client gone is no reason to die of SIGPIPE. */
		ssize_t w = send(c->fd, head + off, (size_t)(n - off), MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		off += (int)w;
	}
	return !closing;
}

/* The value of header NAME in the NUL-terminated headers H (each line
 * after "\r\n"), its length in *len; NULL if absent. */
static const char *header(const char *h, const char *name, size_t *len)
{
	size_t n = strlen(name);

	for (const char *l = strstr(h, "\r\n"); l != NULL; l = strstr(l, "\r\n")) {
		l += 2;
		if (strncasecmp(l, name, n) != 0 || l[n] != ':')
			continue;
		l += n + 1;
		l += strspn(l, " \t");
		*len = strcspn(l, "\r");
		while (*len > 0 && (l[*len - 1] == ' ' || l[*len - 1] == '\t'))
			(*len)--;
		return l;
	}
	return NULL;
}

static bool is(const char *v, size_t len, const char *want)
{
	return v != NULL && len == strlen(want) && strncasecmp(v, want, len) == 0;
}

/*
 * Serves the requests whole in c's buffer.  False when the connection
 * is to be closed: the client's own wish, or a request whose end cannot
 * be found (no Content-Length, chunked, a bad or too large one).
 */
static bool serve(struct client *c)
{
	const char *te, *cl, *ct, *ce, *conn, *why;
	char *end, text[32];
	int status;
	size_t head, tel = 0, cll = 0, ctl = 0, cel = 0, connl = 0;
	unsigned long long body = 0;
	long long n = 0;

	while ((end = memmem(c->buf, c->len, "\r\n\r\n", 4)) != NULL) {
		head = (size_t)(end - c->buf) + 4;
		end[2] = '\0';	/* the headers as a string; this request's own bytes */
		if (memchr(c->buf, '\0', head - 2) != NULL)
			return answer(c, 400, "Bad Request", true);
		te = header(c->buf, "Transfer-Encoding", &tel);
		cl = header(c->buf, "Content-Length", &cll);
		if (te != NULL || (cl == NULL && strncmp(c->buf, "POST ", 5) == 0))
			return answer(c, 411, "Length Required", true);
		if (cl != NULL && (cll == 0 || cll > 9 || strspn(cl, "0123456789") < cll))
			return answer(c, 400, "Bad Request", true);
		body = cl != NULL ? strtoull(cl, NULL, 10) : 0;
		if (body > BODY_MAX)
			return answer(c, 413, "Content Too Large", true);
		if (c->cap < head + body) {
			char *b = realloc(c->buf, head + body);

			if (b == NULL)
				return answer(c, 503, "Service Unavailable", true);
			c->buf = b;
			c->cap = head + body;
			end = c->buf + head - 4;
		}
		if (c->len < head + body) {
			end[2] = '\r';	/* whole next time, and found again */
			return true;
		}
		ct = header(c->buf, "Content-Type", &ctl);
		ce = header(c->buf, "Content-Encoding", &cel);
		conn = header(c->buf, "Connection", &connl);
		status = 200, why = "OK";
		if (strncmp(c->buf, "POST ", 5) != 0)
			status = 405, why = "Method Not Allowed";
		else if (strncmp(c->buf + 5, "/v1/logs ", 9) != 0)
			status = 404, why = "Not Found";
		else if (!is(ct, ctl, "application/x-protobuf") || (ce != NULL && !is(ce, cel, "identity")))
			status = 415, why = "Unsupported Media Type";
		else if ((n = walk((uint8_t *)c->buf + head, (uint8_t *)c->buf + head + body, 0)) < 0)
			status = 400, why = "Bad Request";
		if (status == 200) {
			total += (unsigned long long)n;
			snprintf(text, sizeof text, "%llu", total);
			publish("count", text);
		}
		if (!answer(c, status, why, false) || is(conn, connl, "close"))
			return false;
		c->len -= head + body;
		memmove(c->buf, c->buf + head + body, c->len);
	}
	if (c->len >= HEAD_MAX)
		return answer(c, 431, "Request Header Fields Too Large", true);
	return true;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof addr;
	struct client cs[CLIENTS];
	struct pollfd pfd[CLIENTS + 1];
	char text[16];
	int lfd;

	if (argc != 2) {
		fprintf(stderr, "usage: otlp_count WORK\n");
		return 2;
	}
	work = argv[1];
	if ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		err(1, "socket");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 16) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0)
		err(1, "listen on 127.0.0.1");
	snprintf(text, sizeof text, "%u\n", ntohs(addr.sin_port));
	publish("port", text);
	for (int i = 0; i < CLIENTS; i++)
		cs[i] = (struct client){ .fd = -1 };
	for (;;) {
		int free_slot = -1;

		for (int i = 0; i < CLIENTS; i++) {
			pfd[i + 1] = (struct pollfd){ .fd = cs[i].fd, .events = POLLIN };
			if (cs[i].fd < 0)
				free_slot = i;
		}
		/* All slots taken: new connections wait in the backlog. */
		pfd[0] = (struct pollfd){ .fd = free_slot >= 0 ? lfd : -1, .events = POLLIN };
		if (poll(pfd, CLIENTS + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (pfd[0].revents != 0) {
			int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

			if (fd >= 0)
				cs[free_slot] = (struct client){ .fd = fd };
			else if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN)
				warn("accept");	/* EMFILE, ENOBUFS...: the next poll tries again */
		}
		for (int i = 0; i < CLIENTS; i++) {
			struct client *c = &cs[i];
			ssize_t r = 0;

			if (c->fd < 0 || pfd[i + 1].revents == 0)
				continue;
			if (c->ending)
				c->len = 0;	/* what it still sends is dropped */
			if (c->cap - c->len < HEAD_MAX) {
				char *b = realloc(c->buf, c->len + HEAD_MAX);

				if (b != NULL) {
					c->buf = b;
					c->cap = c->len + HEAD_MAX;
				}
			}
			if (c->cap > c->len &&
			    (r = recv(c->fd, c->buf + c->len, c->cap - c->len, 0)) < 0 && errno == EINTR)
				continue;
			if (r > 0)
				c->len += (size_t)r;
			/*
			 * After an answer that ends the connection, our FIN
			 * goes first and the socket stays until the client's:
			 * closed with its bytes unread, it would be reset, and
			 * the answer could be lost.
			 */
			if (r > 0 && !c->ending && !serve(c)) {
				c->ending = true;
				r = shutdown(c->fd, SHUT_WR) < 0 ? -1 : 1;
			}
			/* EOF, an error, or out of memory. */
			if (r <= 0) {
				close(c->fd);
				free(c->buf);
				*c = (struct client){ .fd = -1 };
			}
		}
	}
}
