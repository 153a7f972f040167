# src/bridge/format: the message as the call would format it, glibc's
# vsnprintf byte for byte, without malloc.
BRIDGE_SOURCES += \
	src/bridge/format/format.h src/bridge/format/format_inline.h src/bridge/format/format.c \
	src/bridge/format/format_plan.h src/bridge/format/format_plan.c \
	src/bridge/format/text.h src/bridge/format/text.c
