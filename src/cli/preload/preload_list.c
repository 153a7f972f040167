/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/preload/preload_list.h"

#include <stdlib.h>
#include <string.h>

/* What separates entries (glibc: white space and ':'). */
static bool is_separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f' || c == ':';
}

/* One line: [start, entries_end) holds entries, [entries_end, end) is the
 * comment (empty if none), and next is past the newline. */
struct line {
	const char *start, *entries_end, *end, *next;
};

static bool next_line(const char **p, const char *limit, struct line *l)
{
	const char *nl, *hash;

	if (*p >= limit)
		return false;
	l->start = *p;
	nl = memchr(*p, '\n', (size_t)(limit - *p));
	l->end = nl ? nl : limit;
	l->next = nl ? nl + 1 : limit;
	hash = memchr(l->start, '#', (size_t)(l->end - l->start));
	l->entries_end = hash ? hash : l->end;
	*p = l->next;
	return true;
}

/* Next entry in [*p, end): sets *entry and *entry_len, false at the end. */
static bool next_entry(const char **p, const char *end, const char **entry, size_t *entry_len)
{
	const char *s = *p;

	while (s < end && is_separator(*s))
		s++;
	if (s == end)
		return false;
	*entry = s;
	while (s < end && !is_separator(*s))
		s++;
	*entry_len = (size_t)(s - *entry);
	*p = s;
	return true;
}

static bool line_has(const struct line *l, const char *path, size_t path_len)
{
	const char *p = l->start, *e;
	size_t n;

	while (next_entry(&p, l->entries_end, &e, &n))
		if (n == path_len && memcmp(e, path, n) == 0)
			return true;
	return false;
}

bool preload_list_has(const char *text, size_t len, const char *path)
{
	const char *p = text;
	struct line l;

	while (next_line(&p, text + len, &l))
		if (line_has(&l, path, strlen(path)))
			return true;
	return false;
}

char *preload_list_add(const char *text, size_t len, const char *path, size_t *out_len)
{
	size_t path_len = strlen(path);
	char *out = malloc(len + path_len + 2), *o;

	if (!out)
		return NULL;
	memcpy(out, text, len);
	o = out + len;
	if (len > 0 && text[len - 1] != '\n')
		*o++ = '\n';
	memcpy(o, path, path_len);
	o += path_len;
	*o++ = '\n';
	*out_len = (size_t)(o - out);
	return out;
}

char *preload_list_remove(const char *text, size_t len, const char *path, size_t *out_len)
{
	size_t path_len = strlen(path);
	/* Never longer than the input, +1 so that malloc(0) is not asked. */
	char *out = malloc(len + 1), *o = out;
	const char *p = text;
	struct line l;

	if (!out)
		return NULL;
	while (next_line(&p, text + len, &l)) {
		const char *q = l.start, *e;
		size_t n;
		bool kept_any = false;

		if (!line_has(&l, path, path_len)) {
			memcpy(o, l.start, (size_t)(l.next - l.start));
			o += l.next - l.start;
			continue;
		}
		while (next_entry(&q, l.entries_end, &e, &n)) {
			if (n == path_len && memcmp(e, path, n) == 0)
				continue;
			if (kept_any)
				*o++ = ' ';
			memcpy(o, e, n);
			o += n;
			kept_any = true;
		}
		if (l.entries_end < l.end) {
			if (kept_any)
				*o++ = ' ';
			memcpy(o, l.entries_end, (size_t)(l.end - l.entries_end));
			o += l.end - l.entries_end;
		} else if (!kept_any) {
			continue;	/* nothing left: drop the line */
		}
		if (l.next > l.end)
			*o++ = '\n';
	}
	*out_len = (size_t)(o - out);
	return out;
}

bool preload_list_blank(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_separator(text[i]) || text[i] == ':')
			return false;
	return true;
}
