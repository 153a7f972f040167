# shellcheck shell=sh
# Sourced by scripts/guest-kernel and scripts/debian-kernel-package: Debian's
# linux-source-X.Y package, its tarball, and the packages a kernel build
# needs, installed with apt when run as root.  The caller defines die().

# Where the test scripts keep what they build; also holds the lock that
# serialises package installs between scripts started at once.
cache=${EHSYSLOG_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/ehsyslog}

# What every build from linux-source needs besides the source package.
# shellcheck disable=SC2034 # used by the scripts that source this
kernel_build_packages='make gcc bc flex bison libelf-dev libssl-dev xz-utils cpio'

is_root() { [ "$(id -u)" = 0 ]; }
installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

# Prints those of the packages named (NAME or NAME=VERSION) that are not
# installed (at that version), on one line.
missing_packages() {
	m=
	for p in "$@"; do
		case $p in
		*=*)
			[ "$(dpkg-query -W -f='${Status} ${Version}\n' "${p%%=*}" 2>/dev/null)" = \
				"install ok installed ${p#*=}" ] || m="$m $p"
			;;
		*) installed "$p" || m="$m $p" ;;
		esac
	done
	echo "${m# }"
}

# apt knows a package (NAME or NAME=VERSION) it could install.
apt_has() { apt-cache show "$1" >/dev/null 2>&1; }

# Installs the packages named (as missing_packages prints them), as root,
# one caller at a time.  A package apt does not know is looked up again
# after apt-get update; on Debian 12, a linux-source or linux-config
# package still unknown then is taken from bookworm-backports, which is
# added for it.
install_packages() {
	mkdir -p "$cache"
	exec 8>"$cache/install.lock"
	command -v flock >/dev/null && flock 8
	# shellcheck disable=SC2046,SC2086 # a list of package names
	set -- $(missing_packages $1)
	if [ $# -gt 0 ]; then
		export DEBIAN_FRONTEND=noninteractive
		updated=
		for p in "$@"; do
			apt_has "$p" && continue
			if [ -z "$updated" ]; then
				apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
				updated=1
			fi
			apt_has "$p" && continue
			case $p in
			linux-source-* | linux-config-*)
				grep -qx 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null || continue
				[ -f /etc/apt/sources.list.d/ehsyslog-bookworm-backports.sources ] && continue
				cat >/etc/apt/sources.list.d/ehsyslog-bookworm-backports.sources <<EOF
# Added by ehsyslog's scripts for Debian's $p.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
				apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
				;;
			esac
		done
		apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$@" >/dev/null ||
			die "apt-get install $* failed"
	fi
	exec 8>&-
}

# The installed version of Debian's source package $1 (linux-source-X.Y)
# and the path of its tarball.
source_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || die "$1 is not installed"
}
source_tarball() {
	t=$(dpkg-query -L "$1" | grep '/linux-source-[^/]*\.tar\.xz$' | head -n 1)
	[ -f "$t" ] || die "$1 ships no source tarball"
	echo "$t"
}
# The directory the tarball $1 unpacks to, under $2.
source_dir() {
	echo "$2/$(tar -tJf "$1" | head -n 1 | cut -d/ -f1)"
}
