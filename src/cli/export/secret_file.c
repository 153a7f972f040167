/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/export/secret_file.h"

const char *secret_file_refusal(const struct stat *st, uid_t euid)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_uid != euid && st->st_uid != 0)
		return "owned by another user than root or the one export runs as";
	if (st->st_mode & S_IWGRP)
		return "writable by group";
	if (st->st_mode & S_IWOTH)
		return "writable by others";
	if (st->st_mode & (S_IROTH | S_IXOTH))
		return "readable by others";
	return NULL;
}
