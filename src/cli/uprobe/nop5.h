/* SPDX-License-Identifier: MIT */
/*
 * Where a uprobe on one of the library's sites goes.  On x86-64 each
 * site is the note's one-byte nop followed by a five-byte nop
 * (src/usdt/sites.c).  A kernel that optimises uprobes (6.18 on
 * x86-64) turns a probe on the nop5 into a call of a trampoline that
 * enters the kernel by the uprobe system call, about four times as fast
 * as the breakpoint trap; an older one single-steps the nop5, slower
 * than the nop.  Both nops come before the site's return, so the
 * arguments are the same at either.
 */
#ifndef EHSYSLOG_CLI_UPROBE_NOP5_H
#define EHSYSLOG_CLI_UPROBE_NOP5_H

#include <stdbool.h>

/* Whether this kernel optimises uprobes on a nop5: it has the uprobe
 * system call, which answers ENXIO to a caller outside its trampoline
 * (ENOSYS where it does not exist).  Asked once, from a child process,
 * so that no kernel's answer can hurt the tool. */
bool nop5_kernel_optimizes(void);

/*
 * The file offset to probe for the site whose note names file offset
 * note_offset in the ELF file open at fd, for machine (e_machine): past
 * the nop when the bytes there are the nop and a nop5 and the kernel
 * optimises them, else note_offset (an older library, arm64, a kernel
 * before 6.18, fd -1).
 */
unsigned long long nop5_site_offset(int fd, unsigned machine, unsigned long long note_offset);

#endif
