/* SPDX-License-Identifier: MIT */
/*
 * Finding user_events_data.  Runs once, under the writer's lock, at first
 * use: plain syscalls and stack buffers, no stdio, no allocation.  Tools
 * ask for the same search's directory (ue_tracefs_dir) without the lock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "user_events/internal.h"
#include "user_events/sys.h"

/* Mount points remembered from the mounts file. */
struct ue_mounts {
	char tracefs[UE_PATH_MAX];
	char debugfs[UE_PATH_MAX];
};

/* A mounts file is read a byte at a time through a small buffer, each
 * line's first three fields (device, mount point, type) followed as they
 * come, so that a line of any length costs no more stack: the first
 * logging call opens the writer, maybe in a signal handler on a small
 * stack (the 2 KiB budget).  Fields are runs of bytes other than space; the
 * kernel writes a space, tab, newline or backslash of a mount point as
 * "\ooo" (octal). */
struct mounts_scan {
	struct ue_mounts *m;
	unsigned field;		/* this line's fields ended so far, at most 3 */
	bool between;		/* in the spaces before a field */
	unsigned escape;	/* of a "\ooo" in the mount point, bytes read */
	char digits[2];		/* its first two digits */
	size_t point_len;	/* sizeof point: too long to keep */
	size_t type_len;	/* at most sizeof type */
	char type[8];
	char point[UE_PATH_MAX];
};

#define MOUNTS_READ 256

static void line_start(struct mounts_scan *s)
{
	s->field = 0;
	s->between = true;
	s->escape = 0;
	s->point_len = s->type_len = 0;
}

static void point_put(struct mounts_scan *s, char c)
{
	if (s->point_len + 1 < sizeof s->point)
		s->point[s->point_len++] = c;
	else
		s->point_len = sizeof s->point;
}

/* A backslash that turned out not to start an escape: its bytes as
 * they are. */
static void escape_undo(struct mounts_scan *s)
{
	point_put(s, '\\');
	for (unsigned i = 1; i < s->escape; i++)
		point_put(s, s->digits[i - 1]);
	s->escape = 0;
}

static void point_byte(struct mounts_scan *s, char c)
{
	if (s->escape) {
		char top = s->escape == 1 ? '3' : '7';

		if (c >= '0' && c <= top) {
			if (s->escape < 3) {
				s->digits[s->escape++ - 1] = c;
				return;
			}
			point_put(s, (char)((s->digits[0] - '0') << 6 |
					    (s->digits[1] - '0') << 3 | (c - '0')));
			s->escape = 0;
			return;
		}
		escape_undo(s);
	}
	if (c == '\\')
		s->escape = 1;
	else
		point_put(s, c);
}

/* The type field has ended: keep the first tracefs and debugfs mount
 * points that fit. */
static void line_typed(struct mounts_scan *s)
{
	char *keep = NULL;

	if (s->point_len >= sizeof s->point || s->type_len != 7)
		return;
	if (memcmp(s->type, "tracefs", 7) == 0)
		keep = s->m->tracefs;
	else if (memcmp(s->type, "debugfs", 7) == 0)
		keep = s->m->debugfs;
	if (keep && !keep[0]) {
		memcpy(keep, s->point, s->point_len);
		keep[s->point_len] = '\0';
	}
}

static void field_end(struct mounts_scan *s)
{
	if (s->field == 1 && s->escape)
		escape_undo(s);
	else if (s->field == 2)
		line_typed(s);
	if (s->field < 3)
		s->field++;
}

static void scan_byte(struct mounts_scan *s, char c)
{
	if (c == '\n' || c == ' ') {
		if (!s->between)
			field_end(s);
		if (c == '\n')
			line_start(s);
		else
			s->between = true;
		return;
	}
	s->between = false;
	if (s->field == 1)
		point_byte(s, c);
	else if (s->field == 2 && s->type_len < sizeof s->type)
		s->type[s->type_len++] = c;	/* a longer type is none of ours */
}

static void scan_mounts(struct ue_mounts *m, const char *path)
{
	struct mounts_scan s = { .m = m };
	char buf[MOUNTS_READ];
	int fd;

	m->tracefs[0] = m->debugfs[0] = '\0';
	line_start(&s);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++)
			scan_byte(&s, buf[i]);
	}
	scan_byte(&s, '\n');	/* a last line without its newline */
	ue__sys_close(fd);
}

bool ue__fd_is(int fd, uint64_t dev, uint64_t ino)
{
	int saved = errno;
	struct stat st;
	bool is = fstat(fd, &st) == 0 && (uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino;

	errno = saved;
	return is;
}

void ue__close_if(int fd, uint64_t dev, uint64_t ino)
{
	int saved = errno;

	if (ue__fd_is(fd, dev, ino))
		ue__sys_close(fd);
	errno = saved;
}

/* high, just duplicated from fd, replaces it.  Unless another thread of
 * the program put a file of its own at fd (a raw dup2) between the open
 * and the duplicate: then high is our copy of the program's file, closed
 * here, for left open it would hold the number at the limit and send
 * every later open to a reachable one; fd, the program's, is returned
 * for the caller's check to refuse.  (Closing the copy drops the
 * program's POSIX record locks on that file, as any close of it would:
 * the price of a race the program started.) */
static int raised(int fd, int high, uint64_t dev, uint64_t ino)
{
	if (!ue__fd_is(high, dev, ino)) {
		int saved = errno;

		ue__sys_close(high);
		errno = saved;
		return fd;
	}
	ue__close_if(fd, dev, ino);
	return high;
}

int ue__fd_raise(int fd, bool *beyond, uint64_t dev, uint64_t ino)
{
	struct rlimit rl;
	long lim = 1024;
	long floor;
	int high = ue__fd_beyond_limit(fd);

	*beyond = high >= 0;
	if (high >= 0)
		return raised(fd, high, dev, ino);
	/* High enough to stay out of the way of programs that dup2 onto low
	 * numbers or count on their next open getting a known one; at most
	 * about 1024 so that the kernel's descriptor table stays small. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < 1024)
		lim = (long)rl.rlim_cur;
	floor = lim >= 128 ? lim - 64 : lim / 2;
	if (fd >= floor)
		return fd;
	high = ue__sys_fcntl(fd, F_DUPFD_CLOEXEC, (int)floor);
	if (high < 0)
		return fd;	/* all taken: the low number still works */
	return raised(fd, high, dev, ino);
}

/* Whether the directory of path, a file that is not there, is a tracefs.
 * The path is cut at its last slash for the call and put back: no copy
 * on the stack of a first logging call. */
static bool is_tracefs_dir(char *path)
{
	char *slash = strrchr(path, '/');
	struct statfs sfs;
	int r;

	if (!slash)
		return false;
	if (slash == path)
		return statfs("/", &sfs) == 0 && sfs.f_type == UE_TRACEFS_MAGIC;
	*slash = '\0';
	r = statfs(path, &sfs);
	*slash = '/';
	return r == 0 && sfs.f_type == UE_TRACEFS_MAGIC;
}

/* True when fd, just opened from path, still holds that file: another
 * thread of the program may have closed the number or put a file of its
 * own there (dup2) since open() returned it.  Sets out->dev and ->ino.
 * Not inline: its two stat buffers stay off the frame that ue__fd_raise
 * runs under (the stack budget). */
static __attribute__((noinline)) bool opened(int fd, const char *path, struct ue_found *out)
{
	struct stat at_fd, at_path;

	if (fstat(fd, &at_fd) < 0 || stat(path, &at_path) < 0 ||
	    at_fd.st_dev != at_path.st_dev || at_fd.st_ino != at_path.st_ino)
		return false;
	out->dev = (uint64_t)at_fd.st_dev;
	out->ino = (uint64_t)at_fd.st_ino;
	return true;
}

/* Tries one candidate; true when opened, or when the number open()
 * returned was taken meanwhile (fd -1, EAGAIN: see the header).  Keeps
 * the most telling failure: permission over other errors over "tracefs
 * without user_events" over "nothing there". */
static bool try_open(struct ue_found *out, char *path)
{
	static const int rank[] = {
		[UE_STATUS_UNUSED] = 0, [UE_STATUS_NO_TRACEFS] = 1,
		[UE_STATUS_NO_USER_EVENTS] = 2, [UE_STATUS_ERROR] = 3,
		[UE_STATUS_NO_PERMISSION] = 4, [UE_STATUS_OK] = 5,
	};
	size_t len = strlen(path);
	int state, fd, e;

	if (len >= sizeof out->path)
		return false;
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0) {
		memcpy(out->path, path, len + 1);
		if (!opened(fd, path, out)) {
			out->state = UE_STATUS_ERROR;
			out->error = EAGAIN;
			return true;
		}
		out->fd = ue__fd_raise(fd, &out->beyond, out->dev, out->ino);
		out->state = UE_STATUS_OK;
		out->error = 0;
		return true;
	}
	e = errno;
	if (e == EACCES || e == EPERM)
		state = UE_STATUS_NO_PERMISSION;
	else if (e == ENOENT || e == ENOTDIR)
		state = is_tracefs_dir(path) ? UE_STATUS_NO_USER_EVENTS : UE_STATUS_NO_TRACEFS;
	else
		state = UE_STATUS_ERROR;
	if (rank[state] > rank[out->state]) {
		out->state = state;
		out->error = e;
		memcpy(out->path, path, len + 1);
	}
	return false;
}

/* dir's first dir_len bytes, then suffix, into buf: 0, or -ENAMETOOLONG
 * when they do not fit. */
static int join(char *buf, size_t cap, const char *dir, size_t dir_len, const char *suffix)
{
	size_t sl = strlen(suffix);

	if (dir_len + sl >= cap)
		return -ENAMETOOLONG;
	memcpy(buf, dir, dir_len);
	memcpy(buf + dir_len, suffix, sl + 1);
	return 0;
}

/* Tries dir's first dir_len bytes followed by suffix, joined in a
 * buffer of ours that is_tracefs_dir() may cut. */
static bool try_joined(struct ue_found *out, const char *dir, size_t dir_len,
		       const char *suffix)
{
	char path[UE_PATH_MAX];

	return join(path, sizeof path, dir, dir_len, suffix) == 0 && try_open(out, path);
}

/* $EHSYSLOG_TRACEFS when paths honour it and it is set: it replaces the
 * search.  secure_getenv: under secure execution (setuid, setgid, file
 * capabilities) a library that runs in every process takes no path from
 * whoever started the program. */
static const char *env_dir(const struct ue_paths *paths)
{
	const char *dir = paths->env ? secure_getenv(UE_TRACEFS_ENV) : NULL;

	return dir && *dir ? dir : NULL;
}

/* Something is at path, even if this process may not look at it. */
static bool present(const char *path)
{
	int saved = errno;
	struct stat st;
	bool there = stat(path, &st) == 0 || errno != ENOENT;

	errno = saved;
	return there;
}

int ue__tracefs_dir(const struct ue_paths *paths, char *buf, size_t cap)
{
	const char *env = env_dir(paths), *slash = strrchr(paths->fixed, '/');
	struct ue_mounts m;
	int r;

	if (env)
		return join(buf, cap, env, strlen(env), "");
	if (slash && present(paths->fixed))
		return join(buf, cap, paths->fixed,
			    slash == paths->fixed ? 1 : (size_t)(slash - paths->fixed), "");
	scan_mounts(&m, paths->mounts);
	if (m.tracefs[0])
		return join(buf, cap, m.tracefs, strlen(m.tracefs), "");
	if (m.debugfs[0]) {
		/* The kernel mounts tracefs there on first access. */
		r = join(buf, cap, m.debugfs, strlen(m.debugfs), "/tracing");
		if (r < 0 || present(buf))
			return r;
	}
	return -ENOENT;
}

void ue__discover(const struct ue_paths *paths, struct ue_found *out)
{
	const char *env = env_dir(paths);
	struct ue_mounts m;

	out->fd = -1;
	out->beyond = false;
	out->state = UE_STATUS_UNUSED;
	out->error = 0;
	out->dev = out->ino = 0;
	out->path[0] = '\0';
	if (env) {
		if (try_joined(out, env, strlen(env), "/user_events_data"))
			return;
	} else {
		if (try_joined(out, paths->fixed, strlen(paths->fixed), ""))
			return;
		/* The fixed path's directory is tracefs but has no
		 * user_events_data: this kernel has none, and every mount of
		 * tracefs shows the same files.  A stock kernel's case: no
		 * mounts file read by every process that logs. */
		if (out->state == UE_STATUS_NO_USER_EVENTS)
			return;
		scan_mounts(&m, paths->mounts);
		if (m.tracefs[0] &&
		    try_joined(out, m.tracefs, strlen(m.tracefs), "/user_events_data"))
			return;
		if (m.debugfs[0] &&
		    try_joined(out, m.debugfs, strlen(m.debugfs), "/tracing/user_events_data"))
			return;
	}
	if (out->state == UE_STATUS_UNUSED) {	/* nothing tried fit a path */
		out->state = UE_STATUS_NO_TRACEFS;
		out->error = ENOENT;
	}
}
