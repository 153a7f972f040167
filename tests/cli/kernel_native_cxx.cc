/* SPDX-License-Identifier: MIT */
/*
 * kernel_native.c's calls written the way C++ would write them, for
 * kernel_native.sh to decode the same ten events from: EHS_EMIT in a
 * template whose priority is its argument (one call site per
 * instantiation), values from std::string temporaries and a lambda,
 * EHS_EVENT with a std::array of fields.  Built with the newest
 * standard the compiler has (C++23).  Exits 1 if a call did not return
 * what it should.
 */
#include "config.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <string>
#include <syslog.h>

#include <ehsyslog.h>

enum class how { event, cached, emit };

static const std::string path = "/index";

template <int priority> static int emit_request()
{
	/* The path a temporary: it lives until the event is written. */
	return EHS_EMIT(priority, "request", EHS_STRING("path", (path + ".html").c_str()),
			EHS_UINT8("status", 200), EHS_INT64("ms", -12), EHS_BOOL("tls", true),
			EHS_ERRNO("error", ENOENT));
}

static int request(how h, int priority)
{
	const std::string full = path + ".html";
	const std::array<ehs_field, 5> f = { {
		EHS_STRING("path", full.c_str()),
		EHS_UINT8("status", 200),
		EHS_INT64("ms", -12),
		EHS_BOOL("tls", 1),
		EHS_ERRNO("error", ENOENT),
	} };
	auto cached = [&](int pri) { return EHS_EVENT(pri, "request", f.data(), f.size()); };
	switch (h) {
	case how::event:
		return ehs_event(priority, "request", f.data(), f.size());
	case how::cached:
		return cached(priority);
	case how::emit:
		break;
	}
	switch (priority) {
	case LOG_INFO:
		return emit_request<LOG_INFO>();
	case LOG_WARNING:
		return emit_request<LOG_WARNING>();
	case LOG_LOCAL1 | LOG_WARNING:
		return emit_request<LOG_LOCAL1 | LOG_WARNING>();
	case LOG_DEBUG:
		return emit_request<LOG_DEBUG>();
	}
	return -1;
}

int main()
{
	static const struct {
		how h;
		int priority, written;
	} calls[] = {
		{ how::cached, LOG_INFO, 1 }, { how::cached, LOG_INFO, 1 }, { how::event, LOG_INFO, 1 },
		{ how::emit, LOG_INFO, 1 }, { how::emit, LOG_INFO, 1 }, { how::emit, LOG_INFO, 1 },
		{ how::emit, LOG_WARNING, 0 },
		/* openlog(LOG_LOCAL0) here */
		{ how::cached, LOG_INFO, 1 }, { how::emit, LOG_INFO, 1 }, { how::emit, LOG_INFO, 1 },
		{ how::emit, LOG_INFO, 1 }, { how::emit, LOG_WARNING, 1 },
		{ how::cached, LOG_LOCAL1 | LOG_WARNING, 1 },
		{ how::emit, LOG_LOCAL1 | LOG_WARNING, 1 },
		{ how::cached, LOG_DEBUG, 0 }, { how::cached, LOG_DEBUG, 0 },
		{ how::emit, LOG_DEBUG, 0 }, { how::emit, LOG_DEBUG, 0 },
	};
	for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if (i == 7)
			openlog(NULL, 0, LOG_LOCAL0);
		int r = request(calls[i].h, calls[i].priority);
		if (r != calls[i].written) {
			fprintf(stderr, "kernel_native_cxx: event %u: %d (errno %d)\n", i + 1, r, errno);
			return 1;
		}
	}
	return 0;
}
