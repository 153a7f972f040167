/* SPDX-License-Identifier: MIT */
/* Text for the error codes of the wire-format layer. */
#include "eventheader/eventheader.h"

EH_API const char *eh_strerror(int err)
{
	switch (err) {
	case EH_OK: return "success";
	case EH_E_NOSPACE: return "buffer too small";
	case EH_E_INVAL: return "invalid argument";
	case EH_E_STATE: return "call out of order";
	case EH_E_NAME_TOO_LONG: return "tracepoint name too long";
	case EH_E_PROVIDER_EMPTY: return "empty provider name";
	case EH_E_PROVIDER_CHAR: return "invalid character in provider name";
	case EH_E_LEVEL_RANGE: return "level not in 1..255";
	case EH_E_OPTION_CHAR: return "invalid tracepoint name option";
	case EH_E_OPTION_ORDER: return "tracepoint name options not sorted";
	case EH_E_GROUP: return "invalid provider group";
	case EH_E_NAME_SYNTAX: return "no _L<level>K<keyword> in tracepoint name";
	case EH_E_TRUNCATED: return "event truncated";
	case EH_E_FLAGS: return "unsupported eventheader flags";
	case EH_E_EXTENSION: return "malformed extension block";
	case EH_E_NO_METADATA: return "no single metadata block";
	case EH_E_UNTERMINATED: return "unterminated name";
	case EH_E_ENCODING: return "invalid field encoding";
	case EH_E_STRUCT: return "invalid struct field count";
	case EH_E_ARRAY: return "array runs past the end";
	case EH_E_LEVEL_MISMATCH: return "level differs from the tracepoint name";
	case EH_E_DEPTH: return "structs nested too deep";
	case EH_E_ACTIVITY: return "activity block not 16 or 32 bytes";
	}
	return "unknown error";
}
