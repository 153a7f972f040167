/* SPDX-License-Identifier: MIT */
/*
 * Decodes every record of an EventHeaderInterceptor .dat file (u32 size
 * including itself, tracepoint name NUL-terminated, event bytes) and
 * writes one JSON object per line: the input of decode_conformance.py.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventheader/eventheader.h"

int main(int argc, char **argv)
{
	static unsigned char data[1 << 20];
	static char json[1 << 16];
	FILE *in, *out;
	size_t n, off = 0, records = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE.dat OUT.jsonl\n", argv[0]);
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	n = fread(data, 1, sizeof data, in);
	fclose(in);
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	while (off < n) {
		uint32_t size;
		const char *name;
		size_t name_len;
		long r;

		if (n - off < 4) {
			fprintf(stderr, "record %zu: size cut\n", records);
			return 1;
		}
		memcpy(&size, data + off, 4);
		if (size < 4 || size > n - off) {
			fprintf(stderr, "record %zu: bad size %u\n", records, size);
			return 1;
		}
		name = (const char *)data + off + 4;
		name_len = strnlen(name, size - 4);
		if (name_len == size - 4) {
			fprintf(stderr, "record %zu: name unterminated\n", records);
			return 1;
		}
		r = eh_decode_json(name, data + off + 4 + name_len + 1, size - 4 - name_len - 1,
				   NULL, EH_DECODE_DEFAULT, json, sizeof json);
		if (r < 0) {
			fprintf(stderr, "record %zu (%s): error %ld: %s\n", records, name, r,
				eh_strerror((int)r));
			return 1;
		}
		fprintf(out, "%s\n", json);
		off += size;
		records++;
	}
	if (fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	printf("%zu records decoded\n", records);
	return 0;
}
