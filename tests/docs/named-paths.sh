#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# named-paths.sh [-p PREFIX] [-a] ROOT MANDIR EXAMPLESDIR BINARY...: every
# absolute path of cocoon's own (one that names cocoon once PREFIX, a test
# tree's own directory, is taken off) that the installed manual pages, the
# installed examples or the programs' messages name, one a line: "ok PATH
# (where)" when it is there under ROOT (/ for a real installation, DESTDIR
# or a chroot otherwise) or allowed below, "MISSING PATH (where)" when not.
# -a checks the Ansible example too, which deploys the .debs (so only where
# they are installed). Used by tests/docs/paths.t and tests/deb/deb.t.
set -u
strip=; ansible=0
while getopts p:a o; do
	case $o in
	p) strip=$OPTARG ;;
	a) ansible=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
root=${1%/}; mandir=$2; examples=$3; shift 3

# allowed PATH WHERE: named, and rightly absent after an installation.
allowed() {
	case ${1#"$strip"} in
	# Made at the first session (records, root's 0700), or the sandbox's
	# own /run/cocoon (the launcher's settings, the shell, the log socket).
	/run/cocoon|/run/cocoon/*) return 0 ;;
	# Made when a session first needs it (private-tmp = persistent).
	*/lib/cocoon/private-tmp|*/lib/cocoon/private-tmp/*) return 0 ;;
	# Drop-ins an administrator writes: the pages' examples of names.
	*/cocoon/cocoon.d/?*.conf) return 0 ;;
	# Held by cocoonctl edit while it runs.
	*/cocoon/.cocoon.conf.lock) return 0 ;;
	# Where the administrator puts the sshd example (cocoon-shell(1)).
	/etc/ssh/sshd_config.d/cocoon.conf) return 0 ;;
	# A file the administrator writes before `cocoonctl check --as`.
	/root/cocoon.conf.new) return 0 ;;
	# The cgroup tree made under a delegated cgroup, at a session.
	/sys/fs/cgroup/cocoon|/sys/fs/cgroup/cocoon/*) return 0 ;;
	# A shared sandbox's scope, made by systemd at its first login.
	/sys/fs/cgroup/user.slice/user-UID.slice/cocoon-ID.scope) return 0 ;;
	# Left by the package's removal with COCOON_REMOVE=keep (cocoon(7)).
	/run/cocoon-kept|/run/cocoon-kept/*) return 0 ;;
	# A program's link to its debugging symbols (the -dbgsym packages).
	/usr/lib/debug/*) return 0 ;;
	# Where the Ansible example copies the .debs on each host.
	/var/cache/cocoon-debs) [ "$2" = playbook ] && return 0 ;;
	esac
	return 1
}

# The text of a page with groff's escapes undone, or of a file as it is.
text_of() {
	case $1 in
	*.gz) zcat -- "$1" ;;
	*) cat -- "$1" ;;
	esac | sed -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\f[BIRP]//g' -e 's/\\e/\\/g'
}

paths_in() { # the absolute paths in stdin
	grep -oE '(^|[^A-Za-z0-9_.~$%/-])/[A-Za-z0-9_.+@/-]*cocoon[A-Za-z0-9_.+@/-]*' |
		sed -E 's,^[^/]+,,; s,[.]+$,,; s,(.)/+$,\1,' | sort -u
}

check() { # check WHERE: each path of stdin
	local p
	while IFS= read -r p; do
		# Ours once the test tree's directory is off; "/cocoon" alone is
		# a piece of one ("LIBEXECDIR/cocoon", a format string).
		case ${p#"$strip"} in *cocoon*) ;; *) continue ;; esac
		case $p in /cocoon|/cocoon/*|/cocoon.*) continue ;; esac
		if [ -e "$root$p" ] || [ -L "$root$p" ]; then
			echo "ok $p ($1)"
		elif allowed "$p" "$1"; then
			echo "ok $p ($1, allowed)"
		else
			echo "MISSING $p ($1)"
		fi
	done
}

for page in "$root$mandir"/man[1-8]/*; do
	case ${page##*/} in *cocoon*) ;; *) continue ;; esac
	name=${page##*/}
	text_of "$page" | paths_in | check "${name%.gz}"
done
for f in "$root$examples"/*.conf "$root$examples"/*.sshd_config; do
	text_of "$f" | paths_in | check "${f##*/}"
done
if [ "$ansible" = 1 ]; then
	for f in "$root$examples"/ansible/*; do
		text_of "$f" | paths_in | check playbook
	done
fi
# The messages: the paths compiled into the programs.
for bin in "$@"; do
	strings -n 6 "$root$bin" | paths_in | check "${bin##*/}"
done
