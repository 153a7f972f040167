/* SPDX-License-Identifier: MIT */
/*
 * Writes lines to standard output and error with C's stdio, as a C
 * service logs, for the output stream tests:
 *
 *   output_stdio TAG [ANSWERS]
 *
 * Each line starts with TAG: printf, fprintf to stderr with a "<3>"
 * prefix, puts, fputs in two calls making one line, fwrite, putchar a
 * character at a time, perror, two lines in one printf, a line over
 * journald's LineMax, and fputs_unlocked (the character _unlocked forms
 * are inlined by <stdio.h>: no call to see).  With ANSWERS, each call's
 * return value and errno after it (0 before) are written there, a line
 * each.  Built twice: with _FORTIFY_SOURCE (printf is then
 * __printf_chk) and without.  Exit 0.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *answers;

/* The answer r of call, errno after it, to ANSWERS; errno 0 again. */
static void answer(const char *call, long r)
{
	int err = errno;
	if (answers)
		fprintf(answers, "%s %ld %d\n", call, r, err);
	errno = 0;
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fputs("usage: output_stdio TAG [ANSWERS]\n", stderr);
		return 2;
	}
	if (argc == 3 && !(answers = fopen(argv[2], "w"))) {
		perror(argv[2]);
		return 1;
	}
	const char *tag = argv[1];
	errno = 0;
	answer("printf", printf("%s printf %d\n", tag, 42));
	answer("fprintf", fprintf(stderr, "<3>%s fprintf to stderr\n", tag));
	answer("printf", printf("%s puts:\n", tag));
	answer("puts", puts(tag));
	answer("fputs", fputs(tag, stdout));
	answer("fputs", fputs(" fputs, then more\n", stdout));
	answer("fwrite", (long)fwrite(tag, 1, strlen(tag), stdout));
	answer("fwrite", (long)fwrite(" fwrite\n", 1, 8, stdout));
	for (const char *c = tag; *c; c++)
		answer("putchar", putchar(*c));
	answer("putchar", putchar('\n'));
	answer("fputs_unlocked", fputs_unlocked(tag, stdout));
	answer("fputs_unlocked", fputs_unlocked(" unlocked\n", stdout));
	errno = ENOENT;
	perror(tag);
	answer("perror", 0);
	answer("printf", printf("%s two\n%s lines\n", tag, tag));
	size_t n = 50000;
	char *big = malloc(n + 1);
	if (!big)
		return 1;
	memset(big, 'y', n);
	big[n] = '\0';
	answer("printf", printf("<4>%s long %s\n", tag, big));
	free(big);
	answer("fprintf", fprintf(stdout, "%s end\n", tag));
	if (answers && fclose(answers))
		return 1;
	return 0;
}
