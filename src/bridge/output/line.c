/* SPDX-License-Identifier: MIT */
/* Entries of a journal stream, as journald cuts them (line.h). */
#include "config.h"

#include <string.h>

#include "bridge/output/line.h"

size_t ehs_output_end(const char *p, size_t len)
{
	const char *nl = memchr(p, '\n', len);
	size_t upto = nl ? (size_t)(nl - p) : len;
	const char *nul = memchr(p, '\0', upto);
	return nul ? (size_t)(nul - p) : upto;
}

size_t ehs_output_cut(const char *p, size_t len, size_t *line_len)
{
	size_t look = len < EHS_OUTPUT_LINE_MAX ? len : EHS_OUTPUT_LINE_MAX;
	size_t end = ehs_output_end(p, look);
	if (end < look) {
		*line_len = end;
		return end + 1;
	}
	if (len < EHS_OUTPUT_LINE_MAX)
		return 0;
	*line_len = EHS_OUTPUT_LINE_MAX;
	return EHS_OUTPUT_LINE_MAX;
}

/* journald (syslog_parse_priority without the facility) takes "<", one
 * to three digits and ">": every digit but the last 0, the last at most
 * 7; anything else, and the entry keeps its first bytes as they are. */
size_t ehs_output_prefix(const char *line, size_t len, int *severity)
{
	if (len < 3 || line[0] != '<')
		return 0;
	size_t close = 1;
	while (close < len && close <= 4 && line[close] != '>')
		close++;
	if (close == len || close < 2 || close > 4 || line[close] != '>')
		return 0;
	for (size_t i = 1; i < close; i++)
		if (line[i] < '0' || line[i] > (i == close - 1 ? '7' : '0'))
			return 0;
	*severity = line[close - 1] - '0';
	return close + 1;
}
