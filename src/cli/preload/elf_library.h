/* SPDX-License-Identifier: MIT */
#ifndef CLI_ELF_LIBRARY_H
#define CLI_ELF_LIBRARY_H

#include <stddef.h>

/*
 * Whether the file at path is a shared object ld.so could preload into
 * a program like this one: an ELF file of this program's class, byte
 * order and machine, of type ET_DYN.  ld.so only prints an error into
 * the program's stderr and runs it untraced when it is not.  Returns 0,
 * or -1 with why (as "not an ELF file") in why; errno for a file that
 * cannot be read, 0 for one that is not fit.
 */
int elf_library_check(const char *path, char *why, size_t whylen);

#endif /* CLI_ELF_LIBRARY_H */
