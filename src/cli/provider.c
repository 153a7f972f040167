/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "cli/provider.h"
#include "cli/util.h"

#include <eventheader/eventheader.h>

int cli_check_provider(const char *cmd, const char *provider)
{
	int err = eh_provider_check(provider);

	if (err == 0)
		return 0;
	return cli_usage_error(cmd, "invalid provider name '%s': %s", provider, eh_strerror(err));
}
