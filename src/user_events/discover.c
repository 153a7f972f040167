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

/* Copies /proc/mounts field src (its spaces escaped as \040 and the like)
 * into dst; false when it does not fit. */
static bool unescape_field(char *dst, size_t cap, const char *src, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		char c = src[i];

		if (c == '\\' && i + 3 < len &&
		    src[i + 1] >= '0' && src[i + 1] <= '3' &&
		    src[i + 2] >= '0' && src[i + 2] <= '7' &&
		    src[i + 3] >= '0' && src[i + 3] <= '7') {
			c = (char)((src[i + 1] - '0') << 6 | (src[i + 2] - '0') << 3 |
				   (src[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= cap)
			return false;
		dst[o++] = c;
	}
	dst[o] = '\0';
	return true;
}

/* One line "device mountpoint fstype options ..." (no newline). */
static void scan_line(struct ue_mounts *m, const char *line, size_t len)
{
	const char *field[3];
	size_t flen[3];
	size_t i = 0;

	for (int f = 0; f < 3; f++) {
		while (i < len && line[i] == ' ')
			i++;
		field[f] = line + i;
		while (i < len && line[i] != ' ')
			i++;
		flen[f] = (size_t)(line + i - field[f]);
		if (flen[f] == 0)
			return;
	}
	if (flen[2] == 7 && memcmp(field[2], "tracefs", 7) == 0 && !m->tracefs[0]) {
		if (!unescape_field(m->tracefs, sizeof m->tracefs, field[1], flen[1]))
			m->tracefs[0] = '\0';
	} else if (flen[2] == 7 && memcmp(field[2], "debugfs", 7) == 0 && !m->debugfs[0]) {
		if (!unescape_field(m->debugfs, sizeof m->debugfs, field[1], flen[1]))
			m->debugfs[0] = '\0';
	}
}

/* The bytes of a mounts line read at once.  Small: the first logging
 * call opens the writer, maybe in a signal handler on a small stack
 * (issue 35).  What scan_line reads of a line, the device, the mount
 * point and the type, fits for any mount point that fits UE_PATH_MAX
 * (escaped: four bytes a byte at worst) after a device of up to 256
 * bytes; a longer line's options are skipped. */
#define MOUNTS_LINE_HEAD (4 * UE_PATH_MAX + 256)

/* A line cut at buf's end: its fields up to its last space, which are
 * whole. */
static void scan_head(struct ue_mounts *m, const char *buf, size_t len)
{
	const char *space = memrchr(buf, ' ', len);

	if (space)
		scan_line(m, buf, (size_t)(space - buf));
}

/* Reads the mounts file line by line through a fixed buffer; of a line
 * longer than it, only its head. */
static void scan_mounts(struct ue_mounts *m, const char *path)
{
	char buf[MOUNTS_LINE_HEAD];
	size_t have = 0;
	bool skipping = false;
	int fd;

	m->tracefs[0] = m->debugfs[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof buf - have);
		size_t start = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (have && !skipping)
				scan_line(m, buf, have);
			break;
		}
		have += (size_t)n;
		for (size_t i = 0; i < have; i++) {
			if (buf[i] != '\n')
				continue;
			if (!skipping)
				scan_line(m, buf + start, i - start);
			skipping = false;
			start = i + 1;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == sizeof buf) {	/* a line longer than buf */
			if (!skipping)
				scan_head(m, buf, have);
			skipping = true;
			have = 0;
		}
	}
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

int ue__fd_raise(int fd, bool *beyond, uint64_t dev, uint64_t ino)
{
	struct rlimit rl;
	long lim = 1024;
	long floor;
	int high = ue__fd_beyond_limit(fd);

	*beyond = high >= 0;
	if (high >= 0) {
		ue__close_if(fd, dev, ino);
		return high;
	}
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
	ue__close_if(fd, dev, ino);
	return high;
}

static bool is_tracefs_dir(const char *file)
{
	char dir[UE_PATH_MAX];
	const char *slash = strrchr(file, '/');
	struct statfs sfs;
	size_t len;

	if (!slash)
		return false;
	len = slash == file ? 1 : (size_t)(slash - file);
	if (len >= sizeof dir)
		return false;
	memcpy(dir, file, len);
	dir[len] = '\0';
	return statfs(dir, &sfs) == 0 && sfs.f_type == UE_TRACEFS_MAGIC;
}

/* True when fd, just opened from path, still holds that file: another
 * thread of the program may have closed the number or put a file of its
 * own there (dup2) since open() returned it.  Sets out->dev and ->ino. */
static bool opened(int fd, const char *path, struct ue_found *out)
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
static bool try_open(struct ue_found *out, const char *path)
{
	static const int rank[] = {
		[UE_STATUS_UNUSED] = 0, [UE_STATUS_NO_TRACEFS] = 1,
		[UE_STATUS_NO_USER_EVENTS] = 2, [UE_STATUS_ERROR] = 3,
		[UE_STATUS_NO_PERMISSION] = 4, [UE_STATUS_OK] = 5,
	};
	size_t len = strlen(path);
	int state, fd;

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
	if (errno == EACCES || errno == EPERM)
		state = UE_STATUS_NO_PERMISSION;
	else if (errno == ENOENT || errno == ENOTDIR)
		state = is_tracefs_dir(path) ? UE_STATUS_NO_USER_EVENTS : UE_STATUS_NO_TRACEFS;
	else
		state = UE_STATUS_ERROR;
	if (rank[state] > rank[out->state]) {
		out->state = state;
		out->error = errno;
		memcpy(out->path, path, len + 1);
	}
	return false;
}

static bool try_in(struct ue_found *out, const char *dir, const char *file)
{
	char path[UE_PATH_MAX];
	size_t dl = strlen(dir), fl = strlen(file);

	if (dl + 1 + fl >= sizeof path)
		return false;
	memcpy(path, dir, dl);
	path[dl] = '/';
	memcpy(path + dl + 1, file, fl + 1);
	return try_open(out, path);
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
		if (try_in(out, env, "user_events_data"))
			return;
	} else {
		if (try_open(out, paths->fixed))
			return;
		scan_mounts(&m, paths->mounts);
		if (m.tracefs[0] && try_in(out, m.tracefs, "user_events_data"))
			return;
		if (m.debugfs[0] && try_in(out, m.debugfs, "tracing/user_events_data"))
			return;
	}
	if (out->state == UE_STATUS_UNUSED) {	/* nothing tried fit a path */
		out->state = UE_STATUS_NO_TRACEFS;
		out->error = ENOENT;
	}
}
