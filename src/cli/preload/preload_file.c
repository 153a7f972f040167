/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/preload/preload_file.h"
#include "cli/read_file.h"
#include "cli/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* Far more than any real preload list; refuse rather than guess. */
#define PRELOAD_FILE_MAX (1024 * 1024)

/* dirname and basename of path into dir and base (PATH_MAX each). */
static int split_path(const char *cmd, const char *path, char *dir, char *base)
{
	char copy[PATH_MAX];

	if (strlen(path) >= sizeof copy || path[0] == '\0') {
		cli_error(cmd, "invalid path '%s'", path);
		return -1;
	}
	strcpy(copy, path);
	strcpy(dir, dirname(copy));
	strcpy(copy, path);
	strcpy(base, basename(copy));
	return 0;
}

int preload_file_error(const char *cmd, const char *what, const char *path, int err)
{
	if (err == EACCES || err == EPERM || err == EROFS)
		cli_error(cmd, "cannot %s %s: %s (needs root, or write permission on its directory)",
			  what, path, strerror(err));
	else
		cli_error(cmd, "cannot %s %s: %s", what, path, strerror(err));
	return err == EACCES || err == EPERM ? CLI_EXIT_PERMISSION : CLI_EXIT_RUNTIME;
}

int preload_file_lock(const char *cmd, struct preload_file *f, const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX], lock[PATH_MAX];

	f->lock_fd = -1;
	if (split_path(cmd, path, dir, base) < 0)
		return CLI_EXIT_RUNTIME;
	if ((size_t)snprintf(lock, sizeof lock, "%s/.%s.lock", dir, base) >= sizeof lock) {
		cli_error(cmd, "path too long: %s", path);
		return CLI_EXIT_RUNTIME;
	}
	f->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (f->lock_fd < 0)
		return preload_file_error(cmd, "create the lock file", lock, errno);
	while (flock(f->lock_fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			int err = errno;

			close(f->lock_fd);
			f->lock_fd = -1;
			return preload_file_error(cmd, "lock", lock, err);
		}
	}
	return 0;
}

int preload_file_read(const char *cmd, struct preload_file *f, const char *path)
{
	int rc;

	f->path = path;
	f->text = NULL;
	f->len = 0;
	f->exists = false;
	rc = cli_read_file(path, O_NOFOLLOW, PRELOAD_FILE_MAX, &f->text, &f->len, &f->st);
	if (rc == 0) {
		f->exists = true;
		return 0;
	}
	if (rc == -ENOENT) {
		f->text = calloc(1, 1);
		if (f->text)
			return 0;
		rc = -ENOMEM;
	}
	if (rc == -ELOOP)
		cli_error(cmd, "%s is a symbolic link: refusing to replace it (edit its target by hand)", path);
	else if (rc == -EFBIG)
		cli_error(cmd, "%s is larger than %d bytes: refusing to edit it", path, PRELOAD_FILE_MAX);
	else if (rc == -EINVAL || rc == -EISDIR)
		cli_error(cmd, "%s is not a regular file", path);
	else
		cli_error(cmd, "cannot read %s: %s", path, strerror(-rc));
	return cli_exit_for_errno(-rc);
}

/* Makes a rename or unlink in dir durable. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int preload_file_replace(const char *cmd, struct preload_file *f, const char *text, size_t len)
{
	char dir[PATH_MAX], base[PATH_MAX], tmp[PATH_MAX];
	mode_t mode = f->exists ? f->st.st_mode & 07777 : 0644;
	int fd, err;

	if (split_path(cmd, f->path, dir, base) < 0)
		return CLI_EXIT_RUNTIME;
	if ((size_t)snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, base) >= sizeof tmp) {
		cli_error(cmd, "path too long: %s", f->path);
		return CLI_EXIT_RUNTIME;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return preload_file_error(cmd, "create a file in", dir, errno);
	if (cli_write_all(fd, text, len) < 0 || fchmod(fd, mode) < 0 ||
	    (f->exists && geteuid() == 0 && fchown(fd, f->st.st_uid, f->st.st_gid) < 0) ||
	    fsync(fd) < 0) {
		err = errno;
		close(fd);
		unlink(tmp);
		return preload_file_error(cmd, "write", tmp, err);
	}
	if (close(fd) < 0) {
		err = errno;
		unlink(tmp);
		return preload_file_error(cmd, "write", tmp, err);
	}
	if (rename(tmp, f->path) < 0) {
		err = errno;
		unlink(tmp);
		return preload_file_error(cmd, "replace", f->path, err);
	}
	if (sync_dir(dir) < 0)
		return preload_file_error(cmd, "sync the directory", dir, errno);
	return 0;
}

int preload_file_remove(const char *cmd, struct preload_file *f)
{
	char dir[PATH_MAX], base[PATH_MAX];

	if (split_path(cmd, f->path, dir, base) < 0)
		return CLI_EXIT_RUNTIME;
	if (unlink(f->path) < 0 && errno != ENOENT)
		return preload_file_error(cmd, "remove", f->path, errno);
	if (sync_dir(dir) < 0)
		return preload_file_error(cmd, "sync the directory", dir, errno);
	return 0;
}

void preload_file_release(struct preload_file *f)
{
	free(f->text);
	f->text = NULL;
	if (f->lock_fd >= 0)
		close(f->lock_fd);
	f->lock_fd = -1;
}
