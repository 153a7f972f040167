/* SPDX-License-Identifier: MIT */
/* Runs a Check suite the way every test program here does: the
 * environment (CK_VERBOSITY, CK_FORK, CK_RUN_CASE...) decides how, and the
 * result is the program's exit status. */
#ifndef TESTS_CHECK_RUN_H
#define TESTS_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
