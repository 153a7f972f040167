# src/bridge/config: the configuration file's syntax, and reading it
# once at the first logging call.
BRIDGE_SOURCES += \
	src/bridge/config/config_load.h src/bridge/config/config.c \
	src/bridge/config/config_parse.h src/bridge/config/config_parse.c
