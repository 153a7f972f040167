/* SPDX-License-Identifier: MIT */
/* main() of the builder's Check programs: run one suite, the environment
 * (CK_VERBOSITY, CK_FORK) deciding how. */
#ifndef TESTS_EVENTHEADER_SUITE_MAIN_H
#define TESTS_EVENTHEADER_SUITE_MAIN_H

#include <check.h>
#include <stdlib.h>

static Suite *suite(void);

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
