# shellcheck shell=sh
# Sourced by scripts/guest-run and scripts/kernel-test.

# Prints $1 single-quoted for sh, quotes and newlines included.
quote() {
	q_rest=$1 q_done=''
	while :; do
		case $q_rest in
		*\'*)
			q_done="$q_done${q_rest%%\'*}'\\''"
			q_rest=${q_rest#*\'}
			;;
		*) break ;;
		esac
	done
	printf "'%s%s'" "$q_done" "$q_rest"
}
