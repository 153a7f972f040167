/* SPDX-License-Identifier: MIT */
/*
 * <ehsyslog.h> from C++, compiled by cxx_header.sh twice (-DTU=1 and
 * -DTU=2) into one shared object, with every compiler and standard:
 * each form and field type, sites in an inline function both units call
 * (one site in the object), in a template's instantiations (one each)
 * and in a lambda.  Compiled and linked, never run.
 */
#include <stdint.h>
#include <string>
#include <syslog.h>

#include <ehsyslog.h>

inline int shared_site(int n)
{
	return EHS_EMIT(LOG_INFO, "shared", EHS_INT64("n", n));
}

inline int shared_cache(int n)
{
	const ehs_field f[] = { EHS_INT64("n", n) };
	return EHS_EVENT(LOG_INFO, "shared", f, 1);
}

template <typename T> int per_type(T v)
{
	return EHS_EMIT(LOG_INFO, "typed", EHS_UINT64("v", v), EHS_UINT8("size", sizeof v));
}

#if TU == 1
int tu1(const char *path, int64_t i, uint64_t u, int err, bool b, unsigned code);

int tu1(const char *path, int64_t i, uint64_t u, int err, bool b, unsigned code)
{
	const struct ehs_field f[] = {
		EHS_STRING("path", path), EHS_INT64("i", i), EHS_UINT64("u", u),
		EHS_ERRNO("e", err), EHS_BOOL("b", b), EHS_UINT8("code", code),
	};
	static struct ehs_event_cache cache;
	int r = ehs_enabled(LOG_INFO);
	r += ehs_event(LOG_INFO, "every", f, 6);
	r += ehs_event_cached(&cache, LOG_INFO, "every", f, 6);
	r += EHS_EVENT(LOG_INFO, "every", f, 6);
	r += EHS_EMIT(LOG_INFO, "every", EHS_STRING("path", std::string(path).c_str()),
		      EHS_INT64("i", i), EHS_UINT64("u", u), EHS_ERRNO("e", err),
		      EHS_BOOL("b", b), EHS_UINT8("code", code));
	auto lambda = [&](int n) { return EHS_EMIT(LOG_DEBUG, "lambda", EHS_INT64("n", n)); };
	return r + lambda(1) + shared_site(1) + shared_cache(1) + per_type<int>(1) +
	       per_type<unsigned char>(2);
}
#else
int tu2(void);

int tu2(void)
{
	return shared_site(2) + shared_cache(2) + per_type<int>(3);
}
#endif
