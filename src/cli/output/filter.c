/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/provider.h"
#include "cli/output/filter.h"
#include "cli/util.h"

int filter_option(struct filter *f, int opt, const char *arg, const char *cmd)
{
	char *copy, *tok, *save;
	int v;

	switch (opt) {
	case 'P':
		if ((f->any_provider ? cli_check_recorded_provider(cmd, arg)
				     : cli_check_provider(cmd, arg)) != 0)
			return -1;
		f->provider = arg;
		return 1;
	case 'p':
		f->program = arg;
		return 1;
	case 's':
		v = syslog_severity_from_name(arg);
		if (v < 0) {
			fprintf(stderr, "ehsyslog %s: unknown severity '%s'\n", cmd, arg);
			return -1;
		}
		f->min_severity = v;
		return 1;
	case 'f':
		copy = strdup(arg);
		if (copy == NULL) {
			fprintf(stderr, "ehsyslog %s: %s\n", cmd, strerror(errno));
			return -1;
		}
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			v = syslog_facility_from_name(tok);
			if (v < 0) {
				fprintf(stderr, "ehsyslog %s: unknown facility '%s'\n", cmd, tok);
				free(copy);
				return -1;
			}
			facility_set_add(&f->facilities, (unsigned)v);
		}
		free(copy);
		return 1;
	}
	return 0;
}

bool filter_argument(struct filter *f, int opt, const char *arg, const char *cmd)
{
	if (filter_option(f, opt, arg, cmd) == 1)
		return true;
	/* -P's check gives the hint itself; export's file shares the
	 * others' messages, where it means nothing. */
	if (opt != 'P')
		cli_usage_hint(cmd);
	return false;
}

bool filter_provider(const struct filter *flt, const struct eh_tracepoint *tp)
{
	return flt->provider == NULL ||
	       (strlen(flt->provider) == tp->provider_len &&
		memcmp(flt->provider, tp->provider, tp->provider_len) == 0);
}

bool filter_wants(const struct filter *flt, const struct eh_tracepoint *tp,
		  const struct eh_event_view *ev, const struct syslog_fields *f)
{
	if (!filter_provider(flt, tp))
		return false;
	if (flt->program != NULL &&
	    (strlen(flt->program) != ev->name_len ||
	     memcmp(flt->program, ev->event_name, ev->name_len) != 0))
		return false;
	if (flt->min_severity >= 0 &&
	    (!f->has_severity || f->severity > (unsigned)flt->min_severity))
		return false;
	if (!facility_set_empty(&flt->facilities) &&
	    (!f->has_facility || !facility_set_has(&flt->facilities, f->facility)))
		return false;
	return true;
}
