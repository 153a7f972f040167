/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/uprobe/fetch_arg.h"

/* x86-64: every name of a general register (64, 32, 16, 8 bits) to the
 * kernel's name of the whole register (arch/x86/kernel/ptrace.c). */
static const char *x86_register(const char *name, size_t len)
{
	static const struct { const char *names[5]; const char *kernel; } regs[] = {
		{ { "rax", "eax", "ax", "al" }, "ax" }, { { "rbx", "ebx", "bx", "bl" }, "bx" },
		{ { "rcx", "ecx", "cx", "cl" }, "cx" }, { { "rdx", "edx", "dx", "dl" }, "dx" },
		{ { "rsi", "esi", "si", "sil" }, "si" }, { { "rdi", "edi", "di", "dil" }, "di" },
		{ { "rbp", "ebp", "bp", "bpl" }, "bp" }, { { "rsp", "esp", "sp", "spl" }, "sp" },
		{ { "rip" }, "ip" },
	};
	char buf[8];

	if (len == 0 || len >= sizeof buf)
		return NULL;
	memcpy(buf, name, len);
	buf[len] = '\0';
	for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
		for (size_t k = 0; k < 5 && regs[i].names[k] != NULL; k++)
			if (strcmp(buf, regs[i].names[k]) == 0)
				return regs[i].kernel;
	/* r8..r15, with or without a d, w or b suffix: the kernel's r8.. */
	if (buf[0] == 'r' && buf[1] >= '0' && buf[1] <= '9') {
		static char r[4];
		char *end;
		long n = strtol(buf + 1, &end, 10);

		if (n >= 8 && n <= 15 && (*end == '\0' || (strchr("dwb", *end) && end[1] == '\0'))) {
			snprintf(r, sizeof r, "r%ld", n);
			return r;
		}
	}
	return NULL;
}

/* arm64: xN and wN are the kernel's xN (w is its low half, which an
 * s32 fetch takes); sp is sp. */
static const char *arm64_register(const char *name, size_t len)
{
	static char r[4];
	char *end;
	long n;

	if (len == 2 && strncmp(name, "sp", 2) == 0)
		return "sp";
	if (len < 2 || len > 3 || (name[0] != 'x' && name[0] != 'w'))
		return NULL;
	n = strtol(name + 1, &end, 10);
	if (end != name + len || n < 0 || n > 30)
		return NULL;
	snprintf(r, sizeof r, "x%ld", n);
	return r;
}

/* The operand as a kernel location, "%reg", "+OFF(%reg)" or "\IMM",
 * into loc; *immediate tells the last. */
static int location(unsigned machine, const char *op, char *loc, size_t cap, int *immediate)
{
	const char *reg, *open;
	long off = 0;
	char *end;

	*immediate = 0;
	if (machine == EM_X86_64) {
		if (op[0] == '%') {
			reg = x86_register(op + 1, strlen(op + 1));
			return reg && snprintf(loc, cap, "%%%s", reg) < (int)cap ? 0 : -1;
		}
		if (op[0] == '$') {
			*immediate = 1;
			off = strtol(op + 1, &end, 0);
			return *end == '\0' && end != op + 1 &&
			       snprintf(loc, cap, "\\%ld", off) < (int)cap ? 0 : -1;
		}
		/* disp(%reg); an index register (disp(%b,%i,s)) is not fetchable. */
		open = strchr(op, '(');
		if (open == NULL || open[1] != '%' || strchr(open, ',') != NULL ||
		    op[strlen(op) - 1] != ')')
			return -1;
		if (open != op) {
			off = strtol(op, &end, 0);
			if (end != open)
				return -1;
		}
		reg = x86_register(open + 2, strlen(open + 2) - 1);
		return reg && snprintf(loc, cap, "%+ld(%%%s)", off, reg) < (int)cap ? 0 : -1;
	}
	if (machine == EM_AARCH64) {
		size_t len;

		if (op[0] == '[') {
			/* [xN] or [xN, #OFF] / [xN, OFF] */
			len = strcspn(op + 1, ",]");
			reg = arm64_register(op + 1, len);
			if (reg == NULL)
				return -1;
			if (op[1 + len] == ',') {
				const char *n = op + 2 + len;

				while (*n == ' ')
					n++;
				if (*n == '#')
					n++;
				off = strtol(n, &end, 0);
				if (end == n || strcmp(end, "]") != 0)
					return -1;
			} else if (strcmp(op + 1 + len, "]") != 0) {
				return -1;
			}
			return snprintf(loc, cap, "%+ld(%%%s)", off, reg) < (int)cap ? 0 : -1;
		}
		if ((reg = arm64_register(op, strlen(op))) != NULL)
			return snprintf(loc, cap, "%%%s", reg) < (int)cap ? 0 : -1;
		*immediate = 1;
		off = strtol(op + (op[0] == '#'), &end, 0);
		return *end == '\0' && end != op + (op[0] == '#') &&
		       snprintf(loc, cap, "\\%ld", off) < (int)cap ? 0 : -1;
	}
	return -1;
}

int fetch_arg(unsigned machine, const char *note_arg, enum fetch_type type,
	      char *out, size_t cap, char *err, size_t errlen)
{
	const char *at = strchr(note_arg, '@');
	char loc[64];
	long size;
	int immediate, n;

	if (machine != EM_X86_64 && machine != EM_AARCH64) {
		snprintf(err, errlen, "USDT arguments of ELF machine %u are not known to this tool "
			 "(x86-64 and arm64 are)", machine);
		return -1;
	}
	if (at == NULL) {
		snprintf(err, errlen, "note argument '%s' has no size (SIZE@OPERAND)", note_arg);
		return -1;
	}
	size = strtol(note_arg, NULL, 10);
	if (location(machine, at + 1, loc, sizeof loc, &immediate) < 0) {
		snprintf(err, errlen, "note argument '%s': an operand a uprobe cannot fetch", note_arg);
		return -1;
	}
	if (type == FETCH_USTRING) {
		/* A pointer: the string is where it points. */
		if (immediate || (size != 8 && size != -8 && size != 4 && size != -4)) {
			snprintf(err, errlen, "note argument '%s' is no pointer", note_arg);
			return -1;
		}
		n = snprintf(out, cap, "+0(%s):ustring", loc);
	} else {
		if (size != 4 && size != -4 && size != 8 && size != -8) {
			snprintf(err, errlen, "note argument '%s' is no 32-bit integer", note_arg);
			return -1;
		}
		n = snprintf(out, cap, "%s:s32", loc);
	}
	if (n < 0 || (size_t)n >= cap) {
		snprintf(err, errlen, "note argument '%s': too long", note_arg);
		return -1;
	}
	return 0;
}

int fetch_arg_split(char *note_args, char **args, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *a = strtok_r(note_args, " ", &save); a != NULL; a = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return -1;
		args[n++] = a;
	}
	return n;
}
