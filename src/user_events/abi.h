/* SPDX-License-Identifier: MIT */
/*
 * The user_events ioctl ABI (include/uapi/linux/user_events.h, Linux >= 6.4),
 * carried here because Debian 12's 6.1 kernel headers do not have it.
 * Private to src/user_events.
 */
#ifndef UE_ABI_H
#define UE_ABI_H

#include <stddef.h>
#include <stdint.h>

/* DIAG_IOCSREG's flags; the kernel refuses any other bit with EINVAL. */
#define UE_ABI_REG_PERSIST 0x1u		/* keep the event after its last user; CAP_PERFMON */
#define UE_ABI_REG_MULTI_FORMAT 0x2u

/* _IOWR('*', 0, struct user_reg *) */
#define UE_ABI_IOCSREG 0xc0082a00ul
/* _IOW('*', 1, char *): delete an event by name */
#define UE_ABI_IOCSDEL 0x40082a01ul
/* _IOW('*', 2, struct user_unreg *): stop updating an enable word */
#define UE_ABI_IOCSUNREG 0x40082a02ul

/* Argument of DIAG_IOCSREG. */
struct ue_abi_reg {
	uint32_t size;		/* sizeof(struct ue_abi_reg) */
	uint8_t enable_bit;	/* bit the kernel flips in the enable word */
	uint8_t enable_size;	/* 4 or 8 */
	uint16_t flags;		/* UE_ABI_REG_* */
	uint64_t enable_addr;	/* naturally aligned enable word */
	uint64_t name_args;	/* "name field; field..." */
	uint32_t write_index;	/* out: first 4 bytes of every write */
} __attribute__((__packed__));

/* Argument of DIAG_IOCSUNREG. */
struct ue_abi_unreg {
	uint32_t size;		/* sizeof(struct ue_abi_unreg) */
	uint8_t disable_bit;
	uint8_t reserved;
	uint16_t reserved2;
	uint64_t disable_addr;
} __attribute__((__packed__));

_Static_assert(sizeof(struct ue_abi_reg) == 28, "struct user_reg is 28 bytes");
_Static_assert(offsetof(struct ue_abi_reg, enable_bit) == 4, "user_reg.enable_bit");
_Static_assert(offsetof(struct ue_abi_reg, enable_size) == 5, "user_reg.enable_size");
_Static_assert(offsetof(struct ue_abi_reg, flags) == 6, "user_reg.flags");
_Static_assert(offsetof(struct ue_abi_reg, enable_addr) == 8, "user_reg.enable_addr");
_Static_assert(offsetof(struct ue_abi_reg, name_args) == 16, "user_reg.name_args");
_Static_assert(offsetof(struct ue_abi_reg, write_index) == 24, "user_reg.write_index");
_Static_assert(sizeof(struct ue_abi_unreg) == 16, "struct user_unreg is 16 bytes");
_Static_assert(offsetof(struct ue_abi_unreg, disable_bit) == 4, "user_unreg.disable_bit");
_Static_assert(offsetof(struct ue_abi_unreg, disable_addr) == 8, "user_unreg.disable_addr");

/* Registration strings longer than this are refused with EINVAL. */
#define UE_ABI_NAME_ARGS_MAX 511

#endif /* UE_ABI_H */
