/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "bridge/sandbox.h"

int ehs_sandbox_closed;
