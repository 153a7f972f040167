/* SPDX-License-Identifier: MIT */
/*
 * The events an e2e test program expects, written before each logging
 * call to the file named by E2E_EXPECT (nothing when it is unset), one
 * line per event, for tests/e2e/compare.py:
 *   ident TAB severity TAB facility TAB errno TAB file TAB line TAB pid
 *   TAB tid TAB message-in-hex
 * ("-" for no file).  Computed from the call's own arguments, never by
 * the library under test.  errno is preserved.
 */
#ifndef E2E_EXPECT_H
#define E2E_EXPECT_H

/* fac: a LOG_* facility (already shifted, as openlog takes it). */
void e2e_expect(const char *ident, int severity, int fac, int err_at_call,
		const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

#endif
