/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/provider.h"
#include "cli/util.h"

#include <eventheader/eventheader.h>

#include <string.h>

int cli_check_provider(const char *cmd, const char *provider)
{
	/* The library's own rule, so that what we accept it uses. */
	if (ehs_provider_valid(provider, strlen(provider)) == 0)
		return 0;
	return cli_usage_error(cmd, "invalid provider name '%s': must be " CLI_PROVIDER_RULE,
			       provider);
}

int cli_check_recorded_provider(const char *cmd, const char *provider)
{
	int err = eh_provider_check(provider);

	if (err == 0)
		return 0;
	return cli_usage_error(cmd, "invalid provider name '%s': %s", provider, eh_strerror(err));
}
