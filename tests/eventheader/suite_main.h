/* SPDX-License-Identifier: MIT */
/* main() of the builder's Check programs: run one suite, the environment
 * (CK_VERBOSITY, CK_FORK) deciding how. */
#ifndef TESTS_EVENTHEADER_SUITE_MAIN_H
#define TESTS_EVENTHEADER_SUITE_MAIN_H

#include <check.h>

#include "../check_run.h"
#include <stdlib.h>

static Suite *suite(void);

int main(void)
{
	return check_run(suite());
}

#endif
