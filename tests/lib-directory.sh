# SPDX-License-Identifier: GPL-2.0-or-later
# Real directory servers for the tests of tests/directory/, sourced after
# lib.sh: slapd on a free port of DIR_PORTS with a database of the test's
# own (lib-slapd.sh, base dc=cocoon$T,dc=test), nslcd in front of it, nscd
# in front of nslcd, and nsswitch.conf pointing at them. The packages
# come from `make deps` (tools/deps.sh), which neither configures nor
# starts them.
#
#   directory_setup            slapd started, its base and ou=people/groups
#   dir_user NAME [SHELL]      a posixAccount (uid from LDAP, home made here)
#   dir_group NAME MEMBER...   a posixGroup with memberUid
#   slapd_stop, slapd_start    the server down and up again mid-test, by pid
#                              (these two, ldap_do and SLAPD_* from lib-slapd.sh)
#   nslcd_start                /etc/nslcd.conf of the test's, nslcd started
#   nscd_start                 nscd with a config of the test's
#   nsswitch_use LINE...       "passwd: files ldap"..., restored on exit
#
# The test runs in a mount namespace of its own (sourcing this file
# re-executes it there), where its nsswitch.conf and nslcd.conf are bind
# mounts over the host's files: the host's own logins never ask the
# test's directory, so stopping slapd mid-test (outage.t) refuses no
# one else's login, and nothing needs putting back. What the host still
# has one of, the daemons' fixed sockets, is held with host_lock for the
# test's whole run: nslcd (/run/nslcd) and nscd (/run/nscd).
# directory_cleanup, which the caller's EXIT trap runs (after
# sshd_cleanup and before cleanup_users), stops the daemons by the pid
# they were started with, never by name.
#
# uids and gids derive from T, so two copies of the suite on one host use
# different numbers: DIR_ID_BASE + 0..49 for users and groups alike
# (posixAccount's uidNumber and posixGroup's gidNumber).

if [ -z "${COCOON_DIRECTORY_NS:-}" ]; then
	exec unshare -m --propagation private env COCOON_DIRECTORY_NS=1 "$0" "$@"
fi

. "$(dirname "${BASH_SOURCE[0]}")/lib-slapd.sh"

DIR_WORK=""
DIR_ID_BASE=$((300000 + 0x$T * 50))
DIR_NEXT_ID=$DIR_ID_BASE
NSLCD_PID=""
NSCD_PID=""
NSSWITCH_SAVED=""
DIR_MADE_RUNDIRS=""
DIR_MADE_UTMP=""
# Ports for this suite's servers (a range of its own).
DIR_PORTS=${DIR_PORTS:-32000-32499}

# directory_setup: slapd started on a port of DIR_PORTS, with its base
# entries; DIR_WORK, its work directory, keeps the daemons' files too.
directory_setup() {
	slapd_setup "$DIR_PORTS" || return 1
	DIR_WORK=$SLAPD_DIR
}

# dir_stop VAR: the daemon whose pid VAR holds stopped, VAR emptied.
dir_stop() {
	pid_stop "${!1}"
	printf -v "$1" '%s' ""
}

# dir_user NAME [SHELL]: a posixAccount with the next id as its uid and
# its own group's gid (add that group with dir_group NAME), home
# /home/NAME made and owned here, removed on exit.
dir_user() {
	local id=$DIR_NEXT_ID
	DIR_NEXT_ID=$((DIR_NEXT_ID + 1))
	ldap_user "$1" "$id" "$id" "${2:-/bin/bash}"
}

# dir_uid NAME: the uidNumber dir_user gave NAME (without asking NSS).
dir_uid() {
	ldap_do ldapsearch -LLL -b "ou=people,$SLAPD_BASE" "(uid=$1)" uidNumber |
		sed -n 's/^uidNumber: //p'
}

# dir_group NAME [MEMBER...]: a posixGroup; a user's own group (NAME a
# user of dir_user) gets that user's id, others the next one.
dir_group() {
	local name=$1 id; shift
	id=$(dir_uid "$name")
	if [ -z "$id" ]; then
		id=$DIR_NEXT_ID
		DIR_NEXT_ID=$((DIR_NEXT_ID + 1))
	fi
	ldap_group "$name" "$id" "$@"
}

# dir_gid NAME: the gidNumber of the directory group NAME.
dir_gid() {
	ldap_do ldapsearch -LLL -b "ou=groups,$SLAPD_BASE" "(cn=$1)" gidNumber |
		sed -n 's/^gidNumber: //p'
}

# dir_daemon_pid PIDFILE SOCKET: once a daemon that forked has written
# its pid and made its socket (5 s at most), its pid.
dir_daemon_pid() {
	local i
	for i in $(seq 50); do
		[ -s "$1" ] && [ -S "$2" ] && break
		sleep 0.1
	done
	cat "$1" 2>/dev/null
}

# dir_rundir DIR OWNER: the daemon's run-time directory, removed on exit
# when the test made it (the packages' init scripts make it otherwise).
dir_rundir() {
	[ -d "$1" ] && return 0
	install -d -m 0755 -o "$2" -g "$2" "$1" && DIR_MADE_RUNDIRS="$DIR_MADE_RUNDIRS $1"
}

# nslcd_start: /etc/nslcd.conf of the test's (the host's kept aside),
# nslcd started; its pid from /run/nslcd/nslcd.pid. Short timeouts, so
# that an outage is answered in seconds, and uids below this copy's
# answered "no such entry" without asking the server. (Not validnames for
# names: nslcd refuses a name it rejects as unavailable, not unknown.)
# Holds host_lock nslcd.
nslcd_start() {
	host_lock nslcd || return 1
	if [ -s /run/nslcd/nslcd.pid ] && kill -0 "$(cat /run/nslcd/nslcd.pid)" 2>/dev/null; then
		echo "# an nslcd of the host runs (pid $(cat /run/nslcd/nslcd.pid)); not ours to replace" >&2
		return 1
	fi
	# nslcd reads only /etc/nslcd.conf: the test's is bound over it in this
	# namespace.
	local conf=$DIR_WORK/nslcd.conf
	cat > "$conf" <<CONF
# Written by cocoon's tests/lib-directory.sh ($T), seen only by its test.
uid nslcd
gid nslcd
uri $SLAPD_URI
base $SLAPD_BASE
nss_min_uid $DIR_ID_BASE
bind_timelimit 2
timelimit 2
reconnect_sleeptime 1
reconnect_retrytime 1
CONF
	chown root:nslcd "$conf" && chmod 0640 "$conf" || return 1
	[ -e /etc/nslcd.conf ] || { echo "# no /etc/nslcd.conf (package nslcd) to bind over" >&2; return 1; }
	mount --bind "$conf" /etc/nslcd.conf || return 1
	dir_rundir /run/nslcd nslcd
	nslcd || return 1
	NSLCD_PID=$(dir_daemon_pid /run/nslcd/nslcd.pid /run/nslcd/socket)
	[ -n "$NSLCD_PID" ]
}

nslcd_stop() { dir_stop NSLCD_PID; }

# nscd_start: nscd -f with a config of the test's (passwd and group
# cached, nothing persistent; check-files off: other tests' useradd would
# empty the cache whenever /etc/passwd changes), when no other nscd runs; 2 (the caller
# skips) when one does. nscd reads nsswitch.conf when it starts: call
# nsswitch_use first. Holds host_lock nscd.
nscd_start() {
	host_lock nscd || return 1
	local pid
	for pid in $(pidof nscd 2>/dev/null); do
		echo "# an nscd of the host runs (pid $pid)" >&2
		return 2
	done
	local db
	{
		echo "paranoia no"
		for db in passwd group; do
			printf '%s %s %s\n' enable-cache "$db" yes positive-time-to-live "$db" 600 \
				negative-time-to-live "$db" 1 check-files "$db" no \
				persistent "$db" no shared "$db" yes
		done
		for db in hosts services netgroup; do echo "enable-cache $db no"; done
	} > "$DIR_WORK/nscd.conf"
	dir_rundir /run/nscd root
	rm -f /run/nscd/nscd.pid
	nscd -f "$DIR_WORK/nscd.conf" || return 1
	NSCD_PID=$(dir_daemon_pid /run/nscd/nscd.pid /run/nscd/socket)
	[ -n "$NSCD_PID" ]
}

nscd_stop() { dir_stop NSCD_PID; }

# nsswitch_use "passwd: files ldap" ...: those lines replace the host's
# lines of the same databases, in this namespace's /etc/nsswitch.conf
# only (a copy bound over it; the host's file is never written).
nsswitch_use() {
	local line db script="" own=$DIR_WORK/nsswitch.conf
	for line in "$@"; do
		db=${line%%:*}
		script="$script/^$db:/c\\
$line
"
	done
	if [ -z "$NSSWITCH_SAVED" ]; then
		NSSWITCH_SAVED=$DIR_WORK/nsswitch.conf.host
		cp -p /etc/nsswitch.conf "$NSSWITCH_SAVED" && : > "$own" && chmod 0644 "$own" &&
			mount --bind "$own" /etc/nsswitch.conf || return 1
	fi
	# In place: the bind mount follows the file's inode.
	sed "$script" "$NSSWITCH_SAVED" > "$own"
}

# dir_test_cleanup: the EXIT trap of a directory test: the test sshd,
# the directory and its daemons, the policy, local users.
dir_test_cleanup() {
	sshd_cleanup
	directory_cleanup
	policy_reset
	cleanup_users
}

# dir_students USER SHELLUSER GROUP: directory accounts USER (bash) and
# SHELLUSER (cocoon-shell), each with a group of its own, both members of
# the directory group GROUP.
dir_students() {
	dir_user "$1" && dir_user "$2" "$SHELL_BIN" && dir_group "$1" && dir_group "$2" &&
		dir_group "$3" "$1" "$2"
}

# dir_sshd_start SHELLUSER: the test sshd on a port of DIR_PORTS with
# pam_cocoon's two lines, SHELLUSER (whose login shell is cocoon-shell)
# exempted, so that only cocoon-shell confines it; utmp held (and made
# where the host has none, tests/pam/sshd.t) for the login records.
dir_sshd_start() {
	SSHD_PORTS=$DIR_PORTS sshd_start "session required $PAMDIR/pam_cocoon.so exempt=$1" ||
		return 1
	sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		"/etc/pam.d/$SSHD_SERVICE"
	host_lock utmp || return 1
	if [ ! -e /run/utmp ]; then
		install -m 0664 -g utmp /dev/null /run/utmp && DIR_MADE_UTMP=yes
	fi
}

# directory_cleanup: from the EXIT trap. nsswitch.conf first (no process
# of the host asks a daemon that is about to go), then the daemons, the
# host's /etc/nslcd.conf, the homes and the work directory.
directory_cleanup() {
	nscd_stop
	nslcd_stop
	local h
	for h in $DIR_MADE_RUNDIRS; do rm -rf "$h"; done
	DIR_MADE_RUNDIRS=""
	[ -n "$DIR_MADE_UTMP" ] && rm -f /run/utmp
	DIR_MADE_UTMP=""
	slapd_cleanup
	DIR_WORK=""
}

# ---- what a session sees of its directory account
# DIR_PROBE, a bash script run in a session as `bash -c "$DIR_PROBE" probe
# USER GROUP [KEY PORT]`, prints one KEY=VALUE line per fact the session
# needs its name service for; with KEY (a private key, base64) and PORT it
# also logs in to the test sshd as USER from inside. dir_probe_cmd gives
# that command line quoted for ssh; dir_probe_check judges its output.
# git takes its author's name from the passwd entry (EMAIL only spares it
# guessing an address from a host name without a domain).
# shellcheck disable=SC2016
DIR_PROBE='user=$1 group=$2 key=${3:-} port=${4:-}
echo "rule=${CC_RULE:-none}"
echo "id=$(id 2>&1)"
echo "groups=$(groups 2>&1)"
echo "passwd=$(getent passwd "$user" 2>&1)"
echo "group=$(getent group "$group" 2>&1)"
echo "status=$(grep "^Groups:" /proc/self/status)"
for d in "$HOME" /tmp "${XDG_RUNTIME_DIR:-/nonexistent}"; do
	w=$(mktemp -d -p "$d" 2>/dev/null) && break
done
cd "$w" || echo "no writable directory"
touch mine && echo "ls=$(ls -l mine 2>&1)"
for d in nslcd nscd; do
	echo "$d=$(ls -A /run/$d 2>&1 | tr "\n" " ")"
	echo "$d-mount=$(findmnt -n -o OPTIONS --target /run/$d/socket 2>&1)"
done
echo "git=$( { git init -q r && cd r && EMAIL=probe@cocoon.test git commit -q --allow-empty -m probe &&
	git log -1 --format=%an; } 2>&1 | tr "\n" " ")"
if [ -n "$key" ]; then
	printf "%s" "$key" | base64 -d > k && chmod 0600 k
	echo "ssh-out=$(ssh -i k -p "$port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o LogLevel=ERROR -o BatchMode=yes -o ConnectTimeout=10 -l "$user" 127.0.0.1 id -un 2>&1 |
		tr "\n" " ")"
fi
cd / && rm -rf "$w"'

# dir_probe_cmd USER GROUP [ssh-out]: the probe as one shell command line.
dir_probe_cmd() {
	local extra=""
	[ "${3:-}" = ssh-out ] && extra=" $(base64 -w0 "$SSHD_DIR/client_key") $SSHD_PORT"
	printf 'bash -c %q probe %q %q%s' "$DIR_PROBE" "$1" "$2" "$extra"
}

# dir_fact OUT KEY: the value of the probe's line KEY=.
dir_fact() { printf '%s\n' "$1" | sed -n "s/^$2=//p"; }

# dir_probe_check WHAT USER GROUP OUT [ssh-out]: the facts a session of
# USER (of dir_user, member of the directory group GROUP, by the rule that
# sets CC_RULE=GROUP) must show, each a test named after WHAT; the
# daemon's directory it checks is /run/$DIR_DAEMON (nslcd unless set).
dir_probe_check() {
	local what=$1 user=$2 group=$3 out=$4 uid gid
	uid=$(dir_uid "$user")
	gid=$(dir_gid "$group")
	is "$(dir_fact "$out" rule)" "$group" "$what: the [group $group] rule took the session"
	[ -n "$(dir_fact "$out" rule)" ] || printf '%s\n' "$out" | head -n 5 | sed 's/^/#   session: /'
	like "$(dir_fact "$out" id)" "uid=$uid($user) gid=$uid($user) groups=" "$what: id names the user and group"
	like "$(dir_fact "$out" id)" ",$gid($group)" "$what: id names the directory group"
	like " $(dir_fact "$out" groups) " " $group " "$what: groups names it"
	like_re "$(dir_fact "$out" passwd)" "^$user:[^:]*:$uid:$uid:" "$what: getent passwd"
	like "$(dir_fact "$out" group)" "$group:*:$gid:" "$what: getent group"
	like " $(dir_fact "$out" status | tr '\t' ' ') " " $gid " "$what: the session's credentials keep the directory group"
	like "$(dir_fact "$out" ls)" " $user $user " "$what: ls -l names the owner of the user's file"
	local entry extra="" d=${DIR_DAEMON:-nslcd}
	for entry in $(dir_fact "$out" "$d"); do
		case " $(ls -A "/run/$d" | tr '\n' ' ') " in
		*" $entry "*) ;;
		*) extra="$extra $entry" ;;
		esac
	done
	like " $(dir_fact "$out" "$d")" " socket " "$what: /run/$d's socket is there"
	is "$extra" "" "$what: nothing but what $d keeps in /run/$d"
	like_re "$(dir_fact "$out" "$d-mount")" "^ro(,|$)" "$what: read-only"
	is "$(dir_fact "$out" git)" "directory user $user " "$what: git commits, its author from the passwd entry"
	if [ "${5:-}" = ssh-out ]; then
		is "$(dir_fact "$out" ssh-out)" "$user " "$what: ssh out of the session logs in with a key"
	fi
}

# dir_through_sshd WHAT USER SHELLUSER GROUP [ssh-out]: the probe through
# the test sshd of dir_sshd_start in PAM mode (USER, without and with a
# pty: then utmp, wtmp, lastlog and sshd's own lookup too) and in shell
# mode (SHELLUSER).
dir_through_sshd() {
	local profile=$1 U=$2 S=$3 G=$4 net=${5:-} client who_out="" wtmp_before i log_lines
	log_lines=$(wc -l < "$SSHD_DIR/sshd.log")
	run ssh_as "$U" "$(dir_probe_cmd "$U" "$G" $net)"
	dir_probe_check "$profile, PAM mode" "$U" "$G" "$OUT" $net

	# With a pty: sshd writes lastlog and utmp, looking the uid up.
	lastlog -C -u "$U" > /dev/null 2>&1
	wtmp_before=$(last -w "$U" 2>/dev/null | grep -c "^$U ")
	ssh_as "$U" -tt 'echo "id=$(id)"; echo "groups=$(groups)"; sleep 1' > "$SSHD_DIR/pty.out" 2>&1 &
	client=$!
	for i in $(seq 150); do
		who_out=$(who)
		case $who_out in *"$U "*) break ;; esac
		kill -0 "$client" 2>/dev/null || break
		sleep 0.1
	done
	wait "$client"
	OUT=$(tr -d '\r' < "$SSHD_DIR/pty.out")
	like "$(dir_fact "$OUT" id)" "uid=$(dir_uid "$U")($U)" "$profile, PAM mode with a pty: id names the user"
	like " $(dir_fact "$OUT" groups) " " $G " "$profile, PAM mode with a pty: and the directory group"
	like "$who_out" "$U " "$profile, PAM mode with a pty: utmp has the session while it runs"
	is "$(last -w "$U" 2>/dev/null | grep -c "^$U ")" "$((wtmp_before + 1))" \
		"$profile, PAM mode with a pty: wtmp has the login"
	unlike "$(lastlog -u "$U" 2>&1)" "Never logged in" "$profile, PAM mode with a pty: lastlog has it"
	unlike "$(tail -n +"$((log_lines + 1))" "$SSHD_DIR/sshd.log")" "Cannot find account" \
		"$profile, PAM mode: sshd found the account (login_get_lastlog)"

	run ssh_as "$S" "$(dir_probe_cmd "$S" "$G" $net)"
	dir_probe_check "$profile, shell mode" "$S" "$G" "$OUT" $net
}
