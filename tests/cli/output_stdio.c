/* SPDX-License-Identifier: MIT */
/*
 * Writes lines to standard output and error with C's stdio, as a C
 * service logs, for the output stream tests:
 *
 *   output_stdio TAG
 *
 * Each line starts with TAG: printf, fprintf to stderr with a "<3>"
 * prefix, puts, fputs in two calls making one line, fwrite, putchar a
 * character at a time, perror, two lines in one printf, a line over
 * journald's LineMax, and fputs_unlocked (the character _unlocked forms
 * are inlined by <stdio.h>: no call to see).  Built twice: with
 * _FORTIFY_SOURCE (printf is then __printf_chk) and without.  Exit 0.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: output_stdio TAG\n", stderr);
		return 2;
	}
	const char *tag = argv[1];
	printf("%s printf %d\n", tag, 42);
	fprintf(stderr, "<3>%s fprintf to stderr\n", tag);
	printf("%s puts:\n", tag);
	puts(tag);
	fputs(tag, stdout);
	fputs(" fputs, then more\n", stdout);
	fwrite(tag, 1, strlen(tag), stdout);
	fwrite(" fwrite\n", 1, 8, stdout);
	for (const char *c = tag; *c; c++)
		putchar(*c);
	putchar('\n');
	fputs_unlocked(tag, stdout);
	fputs_unlocked(" unlocked\n", stdout);
	errno = ENOENT;
	perror(tag);
	printf("%s two\n%s lines\n", tag, tag);
	size_t n = 50000;
	char *big = malloc(n + 1);
	if (!big)
		return 1;
	memset(big, 'y', n);
	big[n] = '\0';
	printf("<4>%s long %s\n", tag, big);
	free(big);
	fprintf(stdout, "%s end\n", tag);
	return 0;
}
