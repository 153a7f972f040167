/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/process_alive.h"
#include "cli/reader_alive.h"
#include "cli/read_file.h"
#include "cli/export/state.h"

#define MAGIC "ehsyslog-export-state 1"

/* Appends "key text\n" with control characters as spaces: one line. */
static size_t put_text(char *buf, size_t at, const char *key, const char *text)
{
	size_t room = EXPORT_STATE_MAX - at;
	int n = snprintf(buf + at, room, "%s %.*s\n", key, EXPORT_STATE_TEXT - 1, text);

	if (n < 0 || (size_t)n >= room)
		return at;
	for (char *p = buf + at + strlen(key) + 1; p < buf + at + n - 1; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return at + (size_t)n;
}

size_t export_state_format(const struct export_state *s, char *buf)
{
	int n = snprintf(buf, EXPORT_STATE_MAX,
			 MAGIC "\npid %ld\nstart %ju\nsent %llu\ndropped %llu\nunsent %llu\n"
			 "lost %llu\n",
			 s->pid, s->start, s->sent, s->dropped, s->unsent, s->lost);
	size_t at = n < 0 ? 0 : (size_t)n;

	at = put_text(buf, at, "collector", s->collector);
	at = put_text(buf, at, "endpoint", s->endpoint);
	at = put_text(buf, at, "error", s->error);
	n = snprintf(buf + at, EXPORT_STATE_MAX - at,
		     "answer %llu\nanswer_time %llu\nqueue_full %llu\nrefused %llu\n"
		     "rejected %llu\ngiven_up %llu\ndrop_time %llu\n",
		     s->answer, s->answer_time, s->queue_full, s->refused, s->rejected,
		     s->given_up, s->drop_time);
	if (n > 0 && (size_t)n < EXPORT_STATE_MAX - at)
		at += (size_t)n;
	at = put_text(buf, at, "message", s->message);
	return put_text(buf, at, "drop", s->drop);
}

void export_state_endpoint(struct export_state *s, const char *url)
{
	const char *host = strstr(url, "://"), *at;
	size_t scheme;

	host = host != NULL ? host + 3 : url;
	scheme = (size_t)(host - url);
	/* user:password@ before the host: not for every reader's eyes. */
	at = memchr(host, '@', strcspn(host, "/?#"));

	if (at != NULL)
		snprintf(s->endpoint, sizeof s->endpoint, "%.*s%s", (int)scheme, url, at + 1);
	else
		snprintf(s->endpoint, sizeof s->endpoint, "%s", url);
}

/* Decimal digits only, no sign, no overflow. */
static bool number(const char *v, size_t len, uintmax_t max, uintmax_t *out)
{
	uintmax_t n = 0;

	if (len == 0 || len > 20)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(v[i] - '0');

		if (d > 9 || n > (max - d) / 10)
			return false;
		n = n * 10 + d;
	}
	*out = n;
	return true;
}

static bool text(const char *v, size_t len, char *out, size_t cap)
{
	if (len >= cap)
		return false;
	memcpy(out, v, len);
	out[len] = '\0';
	return true;
}

const char *export_state_parse(const char *buf, size_t len, struct export_state *s)
{
	static const char *const keys[] = { "pid", "start", "sent", "dropped", "unsent", "lost",
					    "collector", "endpoint", "error", "message", "drop",
					    "answer", "answer_time", "queue_full", "refused",
					    "rejected", "given_up", "drop_time" };
	/* Where each number of keys[11...] goes. */
	unsigned long long *const numbers[] = { &s->answer, &s->answer_time, &s->queue_full,
						&s->refused, &s->rejected, &s->given_up,
						&s->drop_time };
	/* The keys from "message" on came later: a file without them (an
	 * older export's, during an upgrade) still reads, they 0 or empty. */
	enum { NKEYS = sizeof keys / sizeof keys[0], REQUIRED = 9 };
	static char why[96];
	unsigned seen = 0;
	const char *end = buf + len, *line = buf;

	memset(s, 0, sizeof *s);
	if (len > EXPORT_STATE_MAX)
		return "larger than a state file";
	if (memchr(buf, '\0', len) != NULL)
		return "holds a NUL byte";
	if (len < sizeof MAGIC || memcmp(buf, MAGIC "\n", sizeof MAGIC) != 0)
		return "not an export state file (no \"" MAGIC "\" line)";
	for (line = buf + sizeof MAGIC; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *sp, *v;
		size_t klen, vlen;
		uintmax_t n = 0;
		unsigned k;
		bool ok;

		if (nl == NULL)
			return "its last line is cut short";
		sp = memchr(line, ' ', (size_t)(nl - line));
		if (sp == NULL)
			return "a line is not \"key value\"";
		klen = (size_t)(sp - line);
		v = sp + 1;
		vlen = (size_t)(nl - v);
		for (k = 0; k < NKEYS; k++)
			if (strlen(keys[k]) == klen && memcmp(keys[k], line, klen) == 0)
				break;
		line = nl + 1;
		switch (k) {
		case 0:
			ok = number(v, vlen, LONG_MAX, &n) && n > 0;
			s->pid = (long)n;
			break;
		case 1:
			ok = number(v, vlen, UINTMAX_MAX, &s->start);
			break;
		case 2: case 3: case 4: case 5:
			ok = number(v, vlen, ULLONG_MAX, &n);
			*(k == 2 ? &s->sent : k == 3 ? &s->dropped : k == 4 ? &s->unsent : &s->lost) =
				(unsigned long long)n;
			break;
		case 6:
			ok = text(v, vlen, s->collector, sizeof s->collector);
			break;
		case 7:
			ok = text(v, vlen, s->endpoint, sizeof s->endpoint);
			break;
		case 8:
			ok = text(v, vlen, s->error, sizeof s->error);
			break;
		case 9:
			ok = text(v, vlen, s->message, sizeof s->message);
			break;
		case 10:
			ok = text(v, vlen, s->drop, sizeof s->drop);
			break;
		default:
			if (k == NKEYS)
				continue;	/* a newer export's */
			ok = number(v, vlen, ULLONG_MAX, &n);
			*numbers[k - 11] = (unsigned long long)n;
			break;
		}
		if (!ok) {
			snprintf(why, sizeof why, "bad value for %s", keys[k]);
			return why;
		}
		seen |= 1u << k;
	}
	for (unsigned k = 0; k < REQUIRED; k++)
		if (!(seen & (1u << k))) {
			snprintf(why, sizeof why, "no %s line", keys[k]);
			return why;
		}
	return NULL;
}

int export_state_open(struct export_state_file *f, const char *dir, struct export_state *s)
{
	char state;
	int rc;

	f->warned = false;
	f->path[0] = '\0';
	f->fd = -1;
	s->pid = (long)getpid();
	rc = process_stat("self", &state, &s->start);
	/* Readable by every user's status, whatever the umask (the unit's
	 * UMask=0077 would make it root's alone): the counters and an
	 * endpoint without its password are no secret. */
	if (rc == 0) {
		if (mkdir(dir, 0755) == 0)
			rc = chmod(dir, 0755) < 0 ? -errno : 0;
		else if (errno != EEXIST)
			rc = -errno;
	}
	if (rc == 0 && ((size_t)snprintf(f->path, sizeof f->path, "%s/export-%ld.state", dir,
					 s->pid) >= sizeof f->path))
		rc = -ENAMETOOLONG;
	if (rc < 0) {
		f->path[0] = '\0';
		fprintf(stderr, "ehsyslog export: cannot publish its counters in %s: %s; "
			"ehsyslog status will not show them\n", dir, strerror(-rc));
		return rc;
	}
	snprintf(f->tmp, sizeof f->tmp, "%s.tmp", f->path);
	return 0;
}

int export_state_publish(struct export_state_file *f, const struct export_state *s)
{
	char buf[EXPORT_STATE_MAX];
	size_t len = export_state_format(s, buf), done = 0;
	int fd, err = 0;

	if (f->path[0] == '\0')
		return -EBADF;
	fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || fchmod(fd, 0644) < 0)	/* as the directory, above */
		err = errno;
	while (fd >= 0 && err == 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno != EINTR)
			err = errno;
		else if (n > 0)
			done += (size_t)n;
	}
	/* Locked before it takes the name: never a moment when the file
	 * there is unlocked while this runs. */
	if (err == 0)
		err = -reader_hold(fd);
	if (err == 0 && rename(f->tmp, f->path) < 0)
		err = errno;
	if (err != 0) {
		if (fd >= 0) {
			close(fd);
			unlink(f->tmp);
		}
		if (!f->warned)
			fprintf(stderr, "ehsyslog export: cannot publish its counters in %s: %s\n",
				f->path, strerror(err));
		f->warned = true;
		return -err;
	}
	if (f->fd >= 0)
		close(f->fd);	/* the lock of the file replaced */
	f->fd = fd;
	return 0;
}

void export_state_close(struct export_state_file *f)
{
	if (f->path[0] != '\0' && unlink(f->path) < 0 && errno != ENOENT)
		fprintf(stderr, "ehsyslog export: cannot remove %s: %s\n", f->path, strerror(errno));
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->path[0] = '\0';
}

/* The pid in a name "export-<pid>.state", or 0 for any other name. */
static long name_pid(const char *name)
{
	static const char prefix[] = "export-", suffix[] = ".state";
	size_t len = strlen(name), digits;
	uintmax_t pid;

	if (len <= sizeof prefix - 1 + sizeof suffix - 1 ||
	    strncmp(name, prefix, sizeof prefix - 1) != 0 ||
	    strcmp(name + len - (sizeof suffix - 1), suffix) != 0)
		return 0;
	digits = len - (sizeof prefix - 1) - (sizeof suffix - 1);
	if (!number(name + sizeof prefix - 1, digits, LONG_MAX, &pid))
		return 0;
	return (long)pid;
}

static void read_one(const char *path, long pid, export_state_fn *fn, void *ctx)
{
	struct export_state s;
	struct stat st;
	const char *why;
	char *buf;
	size_t len;
	int rc;

	rc = cli_read_file(path, O_NOFOLLOW | O_NONBLOCK, EXPORT_STATE_MAX, &buf, &len, &st);
	if (rc < 0) {
		fn(ctx, path, EXPORT_STATE_BAD, NULL,
		   rc == -EFBIG ? "larger than a state file" : strerror(-rc));
		return;
	}
	why = export_state_parse(buf, len, &s);
	free(buf);
	if (why == NULL && s.pid != pid)
		why = "its pid is not the one in its name";
	if (why != NULL)
		fn(ctx, path, EXPORT_STATE_BAD, NULL, why);
	else
		/* Its lock says it runs, in any PID namespace; an export
		 * of an older version holds none. */
		fn(ctx, path, reader_locked(AT_FDCWD, path, NULL) != 1 && process_gone(s.pid, &s.start)
		   ? EXPORT_STATE_STALE : EXPORT_STATE_RUNNING, &s, NULL);
}

static int by_pid(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int export_state_each(const char *dir, export_state_fn *fn, void *ctx)
{
	char path[PATH_MAX];
	struct dirent *d;
	long *pids = NULL, *grown;
	size_t n = 0;
	int err;
	DIR *dh = opendir(dir);

	if (dh == NULL)
		return -errno;
	/* By pid, so that the report reads the same each time. */
	for (errno = 0; (d = readdir(dh)) != NULL; errno = 0) {
		long pid = name_pid(d->d_name);

		if (pid == 0)
			continue;
		grown = realloc(pids, (n + 1) * sizeof *pids);
		if (grown == NULL)
			break;
		pids = grown;
		pids[n++] = pid;
	}
	err = errno;
	closedir(dh);
	if (err == 0 && n > 0) {	/* qsort's array must not be NULL, even empty */
		qsort(pids, n, sizeof *pids, by_pid);
		for (size_t i = 0; i < n; i++) {
			snprintf(path, sizeof path, "%s/export-%ld.state", dir, pids[i]);
			read_one(path, pids[i], fn, ctx);
		}
	}
	free(pids);
	return err != 0 ? -err : (int)n;
}
