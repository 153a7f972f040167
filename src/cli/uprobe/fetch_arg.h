/* SPDX-License-Identifier: MIT */
/*
 * A USDT note's argument ("8@%rdi", "-4@w2", "-4@-20(%rbp)") as a uprobe
 * event's fetch argument ("+0(%di):ustring", "%x2:s32", "+-20(%bp):s32"):
 * the note speaks the assembler's operand syntax of its machine, the
 * kernel its own register names (Documentation/trace/uprobetracer.rst).
 */
#ifndef EHSYSLOG_CLI_FETCH_ARG_H
#define EHSYSLOG_CLI_FETCH_ARG_H

#include <stdbool.h>
#include <stddef.h>

enum fetch_type {
	FETCH_USTRING,	/* the argument points to a NUL-terminated string */
	FETCH_S32,	/* a signed 32-bit integer */
};

/*
 * Translates note_arg, one argument of a note of an ELF file for machine
 * (EM_X86_64 or EM_AARCH64), into out (cap bytes), fetched as type.
 * 0, or -1 with why in err: an operand the kernel cannot fetch (an index
 * register, say), another machine, a size that does not fit the type.
 */
int fetch_arg(unsigned machine, const char *note_arg, enum fetch_type type,
	      char *out, size_t cap, char *err, size_t errlen);

/* The space-separated arguments of a note, each as its own string:
 * returns how many (at most max) went into args[], or -1 if more. */
int fetch_arg_split(char *note_args, char **args, int max);

#endif
