#!/bin/sh
# The decoder's Check tests again under valgrind: any invalid read or
# leak fails.
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind not installed"
	exit 77
fi
CK_FORK=no exec valgrind -q --error-exitcode=1 --leak-check=full \
	"${top_builddir:-.}/tests/eventheader/test_decode"
