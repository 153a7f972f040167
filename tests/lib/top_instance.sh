# shellcheck shell=sh
# Sourced by the host tests that use tracefs's top instance, which is the
# kernel's own buffer whatever the mount namespace (tests/usdt/probes.sh
# reads it, tests/cli/uprobe_decode.sh empties it with trace-cmd
# extract): they take this lock, one at a time (flock(1)).
# shellcheck disable=SC2034 # used by the tests that source this
TOP_INSTANCE_LOCK=/tmp/ehsyslog-tests-top-instance.lock
