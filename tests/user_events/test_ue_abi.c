/* SPDX-License-Identifier: MIT */
/* The carried user_events ABI, the registration string and the calls
 * that use them. */
#include "config.h"

#include <check.h>

#include "../check_run.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user_events/abi.h"
#include "user_events/internal.h"

START_TEST(struct_layout)
{
	ck_assert_uint_eq(sizeof(struct ue_abi_reg), 28);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, size), 0);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, enable_bit), 4);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, enable_size), 5);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, flags), 6);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, enable_addr), 8);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, name_args), 16);
	ck_assert_uint_eq(offsetof(struct ue_abi_reg, write_index), 24);
	ck_assert_uint_eq(sizeof(struct ue_abi_unreg), 16);
	ck_assert_uint_eq(offsetof(struct ue_abi_unreg, disable_bit), 4);
	ck_assert_uint_eq(offsetof(struct ue_abi_unreg, disable_addr), 8);
}
END_TEST

/* The numbers the kernel's header derives: the argument is a pointer. */
START_TEST(ioctl_numbers)
{
	ck_assert_uint_eq(UE_ABI_IOCSREG, 0xc0082a00ul);
	ck_assert_uint_eq(UE_ABI_IOCSREG, (unsigned long)_IOWR('*', 0, struct ue_abi_reg *));
	ck_assert_uint_eq(UE_ABI_IOCSDEL, (unsigned long)_IOW('*', 1, char *));
	ck_assert_uint_eq(UE_ABI_IOCSUNREG, (unsigned long)_IOW('*', 2, struct ue_abi_unreg *));
	ck_assert_uint_eq(UE_ABI_IOCSUNREG, 0x40082a02ul);
}
END_TEST

START_TEST(registration_string)
{
	static const char want[] = "Syslog_L4K2 u8 eventheader_flags; u8 version; "
				   "u16 id; u16 tag; u8 opcode; u8 level";
	char buf[UE_ABI_NAME_ARGS_MAX + 1];

	memset(buf, 'x', sizeof buf);
	ck_assert_int_eq(ue__registration_string(buf, sizeof buf, "Syslog_L4K2"),
			 (int)sizeof want - 1);
	ck_assert_mem_eq(buf, want, sizeof want);
}
END_TEST

/* The kernel takes 511 characters at most. */
START_TEST(registration_string_limit)
{
	const int fields = (int)strlen(" u8 eventheader_flags; u8 version; "
				       "u16 id; u16 tag; u8 opcode; u8 level");
	char name[UE_ABI_NAME_ARGS_MAX + 2];
	char buf[sizeof name + 100];
	int fit = UE_ABI_NAME_ARGS_MAX - fields;

	memset(name, 'a', (size_t)fit);
	name[fit] = '\0';
	ck_assert_int_eq(ue__registration_string(buf, sizeof buf, name), UE_ABI_NAME_ARGS_MAX);
	name[fit] = 'a';
	name[fit + 1] = '\0';
	ck_assert_int_eq(ue__registration_string(buf, sizeof buf, name), -E2BIG);
	ck_assert_int_eq(ue__registration_string(buf, 20, "Syslog_L4K2"), -E2BIG);
}
END_TEST

/* What an ioctl of user_events on another file fails with: ENOTTY from
 * the kernel; ENOSYS under qemu user emulation (tests/qemu-run), which
 * refuses the ioctls it cannot translate before the kernel sees them. */
static int refused(void)
{
	if (getenv("EHS_EMULATED")) {
		printf("note: %s: the ioctls fail with ENOSYS, not ENOTTY\n",
		       getenv("EHS_EMULATED"));
		return -ENOSYS;
	}
	return -ENOTTY;
}

/* The public calls check their arguments before any ioctl, pass the
 * kernel's error on (a file that is not user_events_data refuses the
 * ioctls) and keep errno. */
START_TEST(kernel_calls)
{
	int no = refused();
	char name[UE_ABI_NAME_ARGS_MAX + 1];
	uint32_t word = 0, index = 7;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	errno = 1234;
	ck_assert_int_eq(ue_kernel_register(fd, "Syslog_L4K2", &word, 0, 0x2, &index), -EINVAL);
	ck_assert_int_eq(ue_kernel_register(fd, "Syslog_L4K2", &word, 32, 0, &index), -EINVAL);
	memset(name, 'a', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	ck_assert_int_eq(ue_kernel_register(fd, name, &word, 0, 0, &index), -E2BIG);
	ck_assert_int_eq(ue_kernel_register(fd, "Syslog_L4K2", &word, 0, UE_PERSIST, &index), no);
	ck_assert_int_eq(ue_kernel_delete(fd, "Syslog_L4K2"), no);
	ck_assert_int_eq(ue__kernel_unregister(fd, &word, 0), no);
	ck_assert_int_eq(errno, 1234);
	ck_assert_uint_eq(index, 7);
	ck_assert_uint_eq(word, 0);
	close(fd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("user_events ABI");
	TCase *tc = tcase_create("abi");
	tcase_add_test(tc, struct_layout);
	tcase_add_test(tc, ioctl_numbers);
	tcase_add_test(tc, registration_string);
	tcase_add_test(tc, registration_string_limit);
	tcase_add_test(tc, kernel_calls);
	suite_add_tcase(s, tc);
	return check_run(s);
}
