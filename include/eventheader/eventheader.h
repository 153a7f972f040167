/* SPDX-License-Identifier: MIT */
/*
 * EventHeader: the self-describing event format carried by Linux
 * user_events tracepoints.  This header is the whole public interface of
 * ehsyslog's wire-format layer: the format's constants, a builder that
 * assembles events into iovecs, tracepoint name rules, and a decoder.
 *
 * Everything is little-endian, 64-bit (flags 0x07).  Nothing here knows
 * about syslog or the kernel.
 */
#ifndef EVENTHEADER_EVENTHEADER_H
#define EVENTHEADER_EVENTHEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EH_API
#define EH_API __attribute__((visibility("default")))
#endif

/* ---- The format ------------------------------------------------------ */

/* Fields declared when the tracepoint is registered.  The space after each
 * ';' matters: without it newer kernels refuse a second registration of
 * the same name from another process (EADDRINUSE). */
#define EH_REGISTRATION_FIELDS \
	"u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"

/* Tracepoint name, including its NUL, is shorter than this. */
#define EH_NAME_MAX 256

enum eh_header_flags {
	EH_FLAG_POINTER64 = 0x01,
	EH_FLAG_LITTLE_ENDIAN = 0x02,
	EH_FLAG_EXTENSION = 0x04,
	/* What this implementation writes and the only combinations it reads
	 * (with or without EH_FLAG_EXTENSION). */
	EH_FLAGS_LE64 = EH_FLAG_POINTER64 | EH_FLAG_LITTLE_ENDIAN,
	EH_FLAGS_LE64_EXT = EH_FLAGS_LE64 | EH_FLAG_EXTENSION,
};

enum eh_opcode {
	EH_OPCODE_INFO = 0,
	EH_OPCODE_ACTIVITY_START = 1,
	EH_OPCODE_ACTIVITY_STOP = 2,
	EH_OPCODE_COLLECTION_START = 3,
	EH_OPCODE_COLLECTION_STOP = 4,
	EH_OPCODE_EXTENSION = 5,
	EH_OPCODE_REPLY = 6,
	EH_OPCODE_RESUME = 7,
	EH_OPCODE_SUSPEND = 8,
	EH_OPCODE_SEND = 9,
	EH_OPCODE_RECEIVE = 240,
};

enum eh_level {
	EH_LEVEL_CRITICAL = 1,
	EH_LEVEL_ERROR = 2,
	EH_LEVEL_WARNING = 3,
	EH_LEVEL_INFORMATION = 4,
	EH_LEVEL_VERBOSE = 5,
};

/* The 8 bytes every event starts with.  level must equal the L in the
 * tracepoint name. */
struct eventheader {
	uint8_t flags;
	uint8_t version;
	uint16_t id;
	uint16_t tag;
	uint8_t opcode;
	uint8_t level;
};

enum eh_extension_kind {
	EH_EXT_INVALID = 0,
	EH_EXT_METADATA = 1,
	EH_EXT_ACTIVITY_ID = 2,
	EH_EXT_KIND_MASK = 0x7fff,
	EH_EXT_CHAIN = 0x8000,	/* another extension block follows */
};

/* Precedes each extension block's data; size counts the data only. */
struct eventheader_extension {
	uint16_t size;
	uint16_t kind;
};

/* Activity block data: the activity id, optionally followed by the
 * related (parent) activity id. */
#define EH_ACTIVITY_ID_SIZE 16
#define EH_ACTIVITY_IDS_SIZE 32

enum eh_encoding {
	EH_ENC_INVALID = 0,
	EH_ENC_STRUCT = 1,	/* no payload; format = number of fields 1..127 */
	EH_ENC_VALUE8 = 2,
	EH_ENC_VALUE16 = 3,
	EH_ENC_VALUE32 = 4,
	EH_ENC_VALUE64 = 5,
	EH_ENC_VALUE128 = 6,
	EH_ENC_ZSTRING_CHAR8 = 7,
	EH_ENC_ZSTRING_CHAR16 = 8,
	EH_ENC_ZSTRING_CHAR32 = 9,
	EH_ENC_STRING_LENGTH16_CHAR8 = 10,
	EH_ENC_STRING_LENGTH16_CHAR16 = 11,
	EH_ENC_STRING_LENGTH16_CHAR32 = 12,
	EH_ENC_BINARY_LENGTH16_CHAR8 = 13,
	EH_ENC_MAX = 14,		/* first value not defined */
	EH_ENC_VALUE_MASK = 0x1f,
	EH_ENC_CARRAY = 0x20,	/* constant-length array: u16 count in metadata */
	EH_ENC_VARRAY = 0x40,	/* variable-length array: u16 count in payload */
	EH_ENC_ARRAY_MASK = 0x60,
	EH_ENC_CHAIN = 0x80,	/* a format byte follows */
};

enum eh_format {
	EH_FMT_DEFAULT = 0,
	EH_FMT_UNSIGNED_INT = 1,
	EH_FMT_SIGNED_INT = 2,
	EH_FMT_HEX_INT = 3,
	EH_FMT_ERRNO = 4,
	EH_FMT_PID = 5,
	EH_FMT_TIME = 6,
	EH_FMT_BOOLEAN = 7,
	EH_FMT_FLOAT = 8,
	EH_FMT_HEX_BYTES = 9,
	EH_FMT_STRING8 = 10,	/* Latin-1: avoid for UTF-8 text */
	EH_FMT_STRING_UTF = 11,
	EH_FMT_STRING_UTF_BOM = 12,
	EH_FMT_STRING_XML = 13,
	EH_FMT_STRING_JSON = 14,
	EH_FMT_UUID = 15,
	EH_FMT_PORT = 16,
	EH_FMT_IP_ADDRESS = 17,
	EH_FMT_MAX = 18,		/* first value not defined */
	EH_FMT_VALUE_MASK = 0x7f,
	EH_FMT_CHAIN = 0x80,	/* a u16 field tag follows */
};

#define EH_STRUCT_FIELDS_MAX 127	/* fields one struct can group */
#define EH_STRUCT_DEPTH_MAX 8	/* struct nesting the builder supports */

/* ---- Errors ---------------------------------------------------------- */

/* Every function below returns 0 or a negative value from this list. */
enum eh_error {
	EH_OK = 0,
	EH_E_NOSPACE = -1,		/* caller's buffer too small */
	EH_E_INVAL = -2,		/* bad argument (NULL, unknown encoding, ...) */
	EH_E_STATE = -3,		/* call out of order (field before event name, ...) */
	EH_E_NAME_TOO_LONG = -10,	/* tracepoint name >= EH_NAME_MAX with its NUL */
	EH_E_PROVIDER_EMPTY = -11,
	EH_E_PROVIDER_CHAR = -12,	/* space, ':' or a non-printable byte in the provider */
	EH_E_LEVEL_RANGE = -13,	/* level not 1..255 (0 is not a level) */
	EH_E_OPTION_CHAR = -14,	/* option not an uppercase letter then [0-9a-z]* */
	EH_E_OPTION_ORDER = -15,	/* options not sorted by their letter */
	EH_E_GROUP = -16,		/* G option value empty or not [a-z0-9]+ */
	EH_E_NAME_SYNTAX = -17,	/* no _L<hex>K<hex> suffix */
	EH_E_TRUNCATED = -20,	/* fewer bytes than the header or a block says */
	EH_E_FLAGS = -21,		/* header flags other than LE64 (+extension) */
	EH_E_EXTENSION = -22,	/* extension block malformed or running past the end */
	EH_E_NO_METADATA = -23,	/* no metadata block, or more than one */
	EH_E_UNTERMINATED = -24,	/* event or field name without its NUL */
	EH_E_ENCODING = -25,	/* undefined encoding, or a flag it may not carry */
	EH_E_STRUCT = -26,		/* struct field count 0, or more fields than remain */
	EH_E_ARRAY = -27,		/* array count running past the end */
	EH_E_LEVEL_MISMATCH = -28,	/* header level differs from the L in the name */
	EH_E_DEPTH = -29,		/* structs nested deeper than EH_STRUCT_DEPTH_MAX */
	EH_E_ACTIVITY = -30,	/* activity block not 16 or 32 bytes */
};

/* A short, constant English description of an eh_error. */
EH_API const char *eh_strerror(int err);

/* ---- Tracepoint names ------------------------------------------------ */

/*
 * Writes "<provider>_L<level>K<keyword><options>" (lowercase hex, no
 * leading zeros) into buf.  options may be NULL or "".  Validates every
 * part: EH_E_NOSPACE if cap is too small, EH_E_NAME_TOO_LONG if the name
 * would not fit EH_NAME_MAX, or the error for the offending part.
 */
EH_API int eh_tracepoint_name(char *buf, size_t cap, const char *provider,
			      unsigned level, uint64_t keyword, const char *options);

/* 0 if provider may start a tracepoint name, else the error.  Allowed:
 * printable ASCII (0x21..0x7e) except ':', as the format allows, so that
 * names of other producers parse; use [A-Za-z0-9_] for names of your own
 * (tracefs and perf's event syntax are happiest with those).  Options
 * letters must be strictly increasing: each option at most once. */
EH_API int eh_provider_check(const char *provider);

/* A tracepoint name taken apart.  Pointers point into the parsed name. */
struct eh_tracepoint {
	const char *provider;	/* not NUL-terminated at provider_len */
	size_t provider_len;
	unsigned level;
	uint64_t keyword;
	const char *options;	/* "" if none; NUL-terminated (end of name) */
	const char *group;		/* G option's value or NULL; group_len bytes */
	size_t group_len;
};

/* Parses and validates a whole tracepoint name.  The provider is everything
 * before the last "_L". */
EH_API int eh_tracepoint_parse(const char *name, struct eh_tracepoint *out);

/* ---- Building events --------------------------------------------------- */

/*
 * A bounded byte buffer the builder appends to.  It never allocates: once
 * an append does not fit, err is set to EH_E_NOSPACE, len stops growing
 * and every later append is refused, so a caller may check err once at the
 * end.  A bad argument to an eh_payload_* call is kept the same way
 * (EH_E_INVAL); err always holds the first error.
 */
struct eh_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
	int err;
};

EH_API void eh_buf_init(struct eh_buf *b, void *data, size_t cap);
EH_API int eh_buf_append(struct eh_buf *b, const void *p, size_t n);

/*
 * Metadata: the event name (with optional attributes) followed by one
 * descriptor per field.  Built once and kept when the same event is
 * written many times; only the payload changes per event.
 *
 *   eh_meta_init(&m, buf, sizeof buf, "Event");
 *   eh_meta_attr(&m, "key", "value");   // optional, before any field
 *   eh_meta_field(&m, "count", EH_ENC_VALUE32, EH_FMT_SIGNED_INT, 0, 0);
 *   eh_meta_struct_begin(&m, "point", 0, 0, 0);
 *     eh_meta_field(&m, "x", EH_ENC_VALUE32, 0, 0, 0);
 *     eh_meta_field(&m, "y", EH_ENC_VALUE32, 0, 0, 0);
 *   eh_meta_struct_end(&m);
 *   if (eh_meta_finish(&m) < 0) ...
 */
struct eh_meta {
	struct eh_buf buf;
	bool name_open;	/* event name written, its NUL not yet */
	bool finished;	/* eh_meta_finish done: no more changes */
	unsigned depth;	/* open structs */
	size_t struct_format_at[EH_STRUCT_DEPTH_MAX]; /* where each open struct's field count goes */
	unsigned struct_fields[EH_STRUCT_DEPTH_MAX];
};

EH_API int eh_meta_init(struct eh_meta *m, void *buf, size_t cap,
			const char *event_name);

/* Appends ";name=value" to the event name; a ';' in value is doubled.
 * Only before the first field.  name may not contain ';' or '='. */
EH_API int eh_meta_attr(struct eh_meta *m, const char *name, const char *value);

/*
 * Appends a field descriptor.  encoding is an eh_encoding value optionally
 * or-ed with EH_ENC_CARRAY (array_count elements, 1..65535) or
 * EH_ENC_VARRAY (count written in the payload with eh_payload_count);
 * EH_ENC_CHAIN is computed here, never passed.  format is an eh_format
 * value without EH_FMT_CHAIN, 0 for the default; tag 0 means no tag.
 * Use eh_meta_struct_begin for EH_ENC_STRUCT.
 */
EH_API int eh_meta_field(struct eh_meta *m, const char *name, unsigned encoding,
			 unsigned format, uint16_t tag, uint16_t array_count);

/* Opens a struct field: the fields added until the matching
 * eh_meta_struct_end are its members (1..127 of them).  array_flags is 0,
 * EH_ENC_CARRAY (with array_count) or EH_ENC_VARRAY. */
EH_API int eh_meta_struct_begin(struct eh_meta *m, const char *name, uint16_t tag,
				unsigned array_flags, uint16_t array_count);
EH_API int eh_meta_struct_end(struct eh_meta *m);

/* Ends the metadata: every struct closed, name terminated.  Returns 0 or
 * the first error met while building. */
EH_API int eh_meta_finish(struct eh_meta *m);

/*
 * Payload: field values in the order of the metadata, no padding.  Each
 * call appends one value; arrays are their count (EH_ENC_VARRAY only)
 * followed by the elements.  Counted strings and binary take a length in
 * code units (bytes, UTF-16 or UTF-32 units) up to 65535.
 */
EH_API int eh_payload_u8(struct eh_buf *p, uint8_t v);
EH_API int eh_payload_u16(struct eh_buf *p, uint16_t v);
EH_API int eh_payload_u32(struct eh_buf *p, uint32_t v);
EH_API int eh_payload_u64(struct eh_buf *p, uint64_t v);
EH_API int eh_payload_u128(struct eh_buf *p, const uint8_t v[16]);
EH_API int eh_payload_count(struct eh_buf *p, uint16_t count);
EH_API int eh_payload_zstr8(struct eh_buf *p, const char *s);
EH_API int eh_payload_zstr16(struct eh_buf *p, const uint16_t *s);
EH_API int eh_payload_zstr32(struct eh_buf *p, const uint32_t *s);
EH_API int eh_payload_str8(struct eh_buf *p, const char *s, size_t len);
EH_API int eh_payload_str16(struct eh_buf *p, const uint16_t *s, size_t len);
EH_API int eh_payload_str32(struct eh_buf *p, const uint32_t *s, size_t len);
EH_API int eh_payload_binary(struct eh_buf *p, const void *data, size_t len);

/*
 * The fixed bytes in front of the metadata: eventheader, the optional
 * activity block, and the metadata block's own 4-byte header.
 */
#define EH_PREFIX_MAX (sizeof(struct eventheader) + \
		       sizeof(struct eventheader_extension) + EH_ACTIVITY_IDS_SIZE + \
		       sizeof(struct eventheader_extension))

struct eh_prefix {
	uint8_t bytes[EH_PREFIX_MAX];
	size_t len;
};

/* Iovecs eh_event_iov fills: prefix, metadata, payload. */
#define EH_EVENT_IOV 3

/*
 * Assembles an event.  header's flags are set to EH_FLAGS_LE64_EXT here.
 * activity_id (16 bytes) may be NULL; related_id (16 bytes) only with an
 * activity_id.  meta must be finished.  The payload may be empty.  Fills
 * iov[0..EH_EVENT_IOV) pointing at prefix, the metadata and the payload,
 * and returns the total byte count, or a negative eh_error.  Nothing is
 * copied: meta and payload must outlive the iovecs.
 */
EH_API long eh_event_iov(struct eh_prefix *prefix, const struct eventheader *header,
			 const uint8_t *activity_id, const uint8_t *related_id,
			 const struct eh_meta *meta, const void *payload,
			 size_t payload_len, struct iovec iov[EH_EVENT_IOV]);

/* ---- Decoding events --------------------------------------------------- */

/*
 * Decoding accepts exactly what the EventHeader format allows (its
 * definition: libeventheader-tracepoint/include/eventheader/eventheader.h
 * in https://github.com/microsoft/LinuxTracepoints): header flags
 * EH_FLAGS_LE64 or EH_FLAGS_LE64_EXT (an event lacking pointer64 or
 * little-endian is refused, EH_E_FLAGS), exactly one metadata block
 * (other kinds skipped), the header level equal to the L of the
 * tracepoint name, and any trailing bytes after the last field (ftrace and
 * perf pad records).  No function here allocates or reads outside
 * data[0..len).
 */

/* Items of a trace record that are not in the event bytes.  Members whose
 * has_ flag is false are left out of the output. */
struct eh_record_info {
	uint64_t time_ns;	/* since the Unix epoch, UTC: "2024-03-28T00:45:14.789582652Z" */
	bool has_time;
	int cpu;
	bool has_cpu;
	uint32_t pid;
	uint32_t tid;
	bool has_pid;		/* pid and tid */
};

/* The length (1..4) of the UTF-8 character (RFC 3629) at s[0..n), n > 0,
 * with its code point in *cp; 0 when s does not start with one: a stray
 * or cut sequence, an overlong form, a surrogate or a value past
 * U+10FFFF.  What the decoders below take as text. */
EH_API size_t eh_utf8_decode(const uint8_t *s, size_t n, uint32_t *cp);

/*
 * The text s[0..n) as the inside of a JSON string (no quotes, no NUL),
 * by the one rule of every JSON the library and the ehsyslog tool write:
 * '"' and '\' escaped, and every control character (U+0000..U+001F,
 * U+007F..U+009F), U+2028 and U+2029 as \uXXXX, or \b \f \n \r \t;
 * a byte that is not part of UTF-8 (eh_utf8_decode) is its Latin-1
 * character, as Microsoft's perf-decode shows it (0xE9 e acute, 0x85 the
 * control \u0085), so no byte is lost.  Writes what fits of it in
 * out[0..cap) and returns its whole length, at most 6 n.
 */
EH_API size_t eh_json_string(char *out, size_t cap, const void *s, size_t n);

/* Flags for eh_decode_json / eh_decode_text. */
enum eh_decode_flags {
	EH_DECODE_META = 0x1,	/* add "meta" (JSON) / [level=4 ...] (text) */
	EH_DECODE_NAME = 0x2,	/* add "n":"Provider:Event" */
	EH_DECODE_DEFAULT = EH_DECODE_META | EH_DECODE_NAME,
};

/*
 * Decodes one event: tracepoint_name as registered, data/len the bytes of
 * the event as read from the trace record (starting at the eventheader).
 * Writes one JSON object in the shape of Microsoft's perf-decode,
 * NUL-terminated, into out:
 *
 *   {"n":"Provider:Event","field;tag=0x5":value,...,"meta":{"level":4,"keyword":"0x2"}}
 *
 * The event name is printed with its attributes (";key=value") as stored.
 * Meta items, in this order, each only when set: time, cpu, pid, tid, id,
 * version, level, keyword, opcode, tag, activity, relatedActivity.
 * Strings are written by eh_json_string's rule.
 * Returns the length written (without the NUL) or a negative eh_error;
 * EH_E_NOSPACE when out is too small (out then holds "").
 */
EH_API long eh_decode_json(const char *tracepoint_name, const void *data, size_t len,
			   const struct eh_record_info *info, unsigned flags,
			   char *out, size_t cap);

/* A top-level field that eh_decode_json_with shows otherwise: with the
 * len bytes at value in place of its own, read as its own encoding and
 * format read them (a string's text), or left out when value is NULL. */
struct eh_field_value {
	const char *name;
	const void *value;
	size_t len;
};

/* eh_decode_json, with every top-level scalar field named in
 * fields[0..n_fields) shown as that entry says: for one event made of
 * several, such as a message split into parts, shown whole. */
EH_API long eh_decode_json_with(const char *tracepoint_name, const void *data, size_t len,
				const struct eh_record_info *info, unsigned flags,
				const struct eh_field_value *fields, size_t n_fields,
				char *out, size_t cap);

/* The same event as one human-readable line without a newline:
 *   Provider:Event field=1 text="a\tb" list=[1,2] point={x=1 y=2} [level=4 keyword=0x2]
 * Control characters, quotes, backslashes and bytes that are not UTF-8 are
 * escaped (\n, \t, \", \\, \xHH, \u0085), so the line is safe on a terminal. */
EH_API long eh_decode_text(const char *tracepoint_name, const void *data, size_t len,
			   const struct eh_record_info *info, unsigned flags,
			   char *out, size_t cap);

/*
 * Lower level: walk an event's fields one by one, for callers that want
 * values rather than text (the ehsyslog tool reads message, severity...).
 */
struct eh_event_view {
	struct eventheader header;
	const char *provider;	/* into the tracepoint name */
	size_t provider_len;
	uint64_t keyword;
	const char *event_name;	/* into the data; name_len excludes attributes */
	size_t name_len;
	const char *attributes;	/* ";key=value..." after the name, or NULL */
	size_t attributes_len;
	const uint8_t *activity_id;	/* 16 bytes or NULL */
	const uint8_t *related_id;	/* 16 bytes or NULL */
	/* private: where the field descriptors and the values are */
	const uint8_t *meta, *meta_end;
	const uint8_t *payload, *payload_end;
};

enum eh_item_kind {
	EH_ITEM_VALUE = 1,		/* a scalar field, or one element of an array */
	EH_ITEM_ARRAY_BEGIN,
	EH_ITEM_ARRAY_END,
	EH_ITEM_STRUCT_BEGIN,	/* a struct field, or one element of a struct array */
	EH_ITEM_STRUCT_END,
};

struct eh_item {
	enum eh_item_kind kind;
	const char *name;		/* field name, NUL-terminated inside the metadata */
	unsigned encoding;		/* eh_encoding value with its array flag, without EH_ENC_CHAIN */
	unsigned format;		/* eh_format value without EH_FMT_CHAIN */
	uint16_t tag;
	uint16_t array_count;	/* ARRAY_BEGIN/END: elements in this event */
	unsigned depth;		/* struct nesting of this item, 0 at top level */
	bool is_element;		/* an array element: has no name of its own */
	const uint8_t *value;	/* VALUE: the element's bytes (strings: the text) */
	size_t value_len;		/* in bytes; strings exclude count and NUL */
};

/* Validates the header and extensions against the tracepoint name (level
 * must match) and finds metadata and payload. */
EH_API int eh_event_open(struct eh_event_view *ev, const char *tracepoint_name,
			 const void *data, size_t len);

/* Enumeration state: one per walk.  Members are private. */
struct eh_cursor {
	const struct eh_event_view *ev;
	const uint8_t *meta;	/* next field descriptor */
	const uint8_t *payload;	/* next value */
	unsigned frames;		/* stack entries in use */
	unsigned depth;		/* structs open */
	int err;			/* first error met; returned again after */
	struct eh_cursor_frame {
		const char *name;
		const uint8_t *meta_first;	/* first member descriptor */
		const uint8_t *meta_after;	/* arrays: descriptor after the members */
		uint16_t tag;
		uint16_t count;		/* arrays: elements */
		uint16_t left;		/* members (struct) or elements (array) to walk */
		uint8_t fields;		/* members of one struct */
		bool is_array;
		bool is_element;
	} stack[2 * EH_STRUCT_DEPTH_MAX];	/* a struct array takes two */
	struct eh_item array;	/* scalar array being walked */
	uint16_t array_left;
	bool in_array;
};

EH_API void eh_cursor_init(struct eh_cursor *c, const struct eh_event_view *ev);

/* Next item: 1 and *item filled, 0 at the end of the event, or a negative
 * eh_error for malformed metadata or payload (returned again by every
 * later call).  A struct whose declared member count runs past the end of
 * the metadata ends there, as Microsoft's decoders do. */
EH_API int eh_cursor_next(struct eh_cursor *c, struct eh_item *item);

#ifdef __cplusplus
}
#endif

#endif /* EVENTHEADER_EVENTHEADER_H */
