/* SPDX-License-Identifier: MIT */
/*
 * The user_events ioctls, on any descriptor of user_events_data: the
 * only file that uses the carried ABI (abi.h).  The writer calls these
 * with its own descriptor; tools and benchmarks with theirs, through the
 * public ue_kernel_register() and ue_kernel_delete().  Stack buffers and
 * one ioctl each: async-signal-safe.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "eventheader/eventheader.h"
#include "user_events/abi.h"
#include "user_events/internal.h"

int ue__registration_string(char *buf, size_t cap, const char *name)
{
	size_t len = strlen(name), fields = sizeof(" " EH_REGISTRATION_FIELDS) - 1;

	/* No snprintf: this runs in signal handlers too. */
	if (len + fields >= cap || len + fields > UE_ABI_NAME_ARGS_MAX)
		return -E2BIG;
	memcpy(buf, name, len);
	memcpy(buf + len, " " EH_REGISTRATION_FIELDS, fields + 1);
	return (int)(len + fields);
}

int ue_kernel_register(int fd, const char *name, uint32_t *word, unsigned bit,
		       unsigned flags, uint32_t *write_index)
{
	char args[UE_ABI_NAME_ARGS_MAX + 1];
	struct ue_abi_reg r;
	int saved = errno, rc = 0;

	if ((flags & ~UE_PERSIST) || bit > 31)
		return -EINVAL;
	if (ue__registration_string(args, sizeof args, name) < 0)
		return -E2BIG;
	memset(&r, 0, sizeof r);
	r.size = sizeof r;
	r.enable_bit = (uint8_t)bit;
	r.enable_size = sizeof *word;
	r.flags = (uint16_t)(flags & UE_PERSIST ? UE_ABI_REG_PERSIST : 0);
	r.enable_addr = (uint64_t)(uintptr_t)word;
	r.name_args = (uint64_t)(uintptr_t)args;
	if (ioctl(fd, UE_ABI_IOCSREG, &r) < 0)
		rc = -errno;
	else
		*write_index = r.write_index;
	errno = saved;
	return rc;
}

int ue__kernel_unregister(int fd, uint32_t *word, unsigned bit)
{
	struct ue_abi_unreg u = {
		.size = sizeof u,
		.disable_bit = (uint8_t)bit,
		.disable_addr = (uint64_t)(uintptr_t)word,
	};
	int saved = errno, rc = 0;

	if (ioctl(fd, UE_ABI_IOCSUNREG, &u) < 0)
		rc = -errno;
	errno = saved;
	return rc;
}

int ue_kernel_delete(int fd, const char *name)
{
	int saved = errno, rc = 0;

	if (ioctl(fd, UE_ABI_IOCSDEL, name) < 0)
		rc = -errno;
	errno = saved;
	return rc;
}
