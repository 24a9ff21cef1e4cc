# SPDX-License-Identifier: GPL-2.0-or-later
# The one library of the shell TAP tests, in sections: TAP helpers, the
# installed tree, throwaway users, syslog capture, a private sshd, a
# chroot of the host, guest sessions and what they leave behind, session
# limits, the engine's test driver, the Debian guest of make vm-check.
# Source it, then call done_testing at the end.
#
#   . "$(dirname "$0")/../lib.sh"         the tree `make check` installs
#                                         into $COCOON_ROOT (compiled-in
#                                         paths point there, never to
#                                         /etc/cocoon)
#   . "$(dirname "$0")/../lib.sh" tap     the TAP helpers alone
#   . "$(dirname "$0")/../lib.sh" engine  the engine through its driver,
#                                         no installed tree (engine_setup)
#   . "$(dirname "$0")/../lib.sh" vm      the guest that tests/vm/run
#                                         booted (vm_setup)
#
# COCOON_ROOT empty tests an installed cocoon (the packages; make
# vm-check), whose PAM module is then in COCOON_PAMDIR.
set -u
LIB_MODE=${1:-}
case $LIB_MODE in
tap|engine|vm) : "${COCOON_ROOT:=/nonexistent}" ;; # not used
esac
: "${COCOON_ROOT?run the tests through make check}"
LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# ---- TAP

TEST_COUNT=0
TEST_FAILED=0

ok() { # ok CONDITION-STATUS NAME
	TEST_COUNT=$((TEST_COUNT + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TEST_COUNT - $2"
	else
		echo "not ok $TEST_COUNT - $2"
		TEST_FAILED=$((TEST_FAILED + 1))
	fi
}

# is GOT WANT NAME
is() {
	if [ "$1" = "$2" ]; then ok 0 "$3"; else
		ok 1 "$3"; printf '#   got:  %s\n#   want: %s\n' "$1" "$2"; fi
}

# like GOT PATTERN NAME: GOT contains the fixed string PATTERN
like() {
	case "$1" in
	*"$2"*) ok 0 "$3" ;;
	*) ok 1 "$3"; printf '#   got:  %s\n#   want it to contain: %s\n' "$1" "$2" ;;
	esac
}

# like_re GOT ERE NAME: some line of GOT matches the extended regex.
like_re() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"; printf '#   got:  %s\n#   want a line matching: %s\n' "$1" "$2"
	fi
}

unlike() {
	case "$1" in
	*"$2"*) ok 1 "$3"; printf '#   got:  %s\n#   must not contain: %s\n' "$1" "$2" ;;
	*) ok 0 "$3" ;;
	esac
}

skip() { TEST_COUNT=$((TEST_COUNT + 1)); echo "ok $TEST_COUNT # skip $1"; }

done_testing() {
	echo "1..$TEST_COUNT"
	[ "$TEST_FAILED" -eq 0 ]
}

# Run a command, keeping its status in RC and its output (stdout and
# stderr together) in OUT.
run() {
	OUT=$("$@" 2>&1)
	RC=$?
}

# bail_out REASON: stop the whole test file.
bail_out() { echo "Bail out! $1"; exit 1; }

# ---- this copy of the suite, on a shared host
# The suite runs on hosts where cocoon is deployed and other users have
# live sessions, and two copies of it (two checkouts, two CI jobs) may
# run side by side. So a test looks only at what it made, and what it
# makes under a name on the host carries T, this copy's tag (4 hex digits
# of the checkout's path; COCOON_TEST_TAG overrides): its users and
# groups (ccpam1$T), its PAM services, its files under /run, /var/lib
# and /etc. What the whole host has one of (/dev/log, the PAM files of
# su, login, runuser -l and sudo -i) a test holds with host_lock.
T=${COCOON_TEST_TAG:-$(printf '%s' "$(dirname "$LIB_DIR")" | sha256sum | cut -c1-4)}

# host_lock NAME [shared]: wait (10 minutes at most) until this test
# holds the host-wide lock NAME, which other copies of the suite take
# before using the same resource (shared: beside other shared holders);
# 1 if it cannot be had. It is held until host_unlock NAME or the end of
# the test, even a killed one: a flock(1) whose command watches the
# test's pid, so none of the test's children (sshd, sessions) can keep
# it by inheriting its descriptor.
HOST_LOCKS=""
host_lock() {
	local ready holder i mode=-x
	[ "${2:-}" = shared ] && mode=-s
	ready=$(mktemp -u "/run/lock/cocoon-test.$1.$$.XXXXXX")
	flock "$mode" -o -w 600 "/run/lock/cocoon-test.$1.lock" \
		sh -c 'echo $$ > "$1"; exec tail --pid="$2" -f /dev/null' sh "$ready" "$$" \
		< /dev/null > /dev/null 2>&1 &
	holder=$!
	for i in $(seq 6100); do
		if [ -s "$ready" ]; then
			HOST_LOCKS="$HOST_LOCKS $1=$(cat "$ready")/$holder"
			rm -f "$ready"
			return 0
		fi
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.1
	done
	kill "$holder" 2>/dev/null
	rm -f "$ready"
	return 1
}
host_unlock() { # host_unlock NAME: let go of it, and wait until it is
	local held rest="" pids
	for held in $HOST_LOCKS; do
		if [ "${held%%=*}" = "$1" ]; then
			pids=${held#*=}
			kill "${pids%/*}" 2>/dev/null
			wait "${pids#*/}" 2>/dev/null
		else
			rest="$rest $held"
		fi
	done
	HOST_LOCKS=$rest
}
# sshd_rundir_hold, sshd_rundir_release: sshd needs /run/sshd, which this
# machine lacks. Each test running an sshd holds it shared; the last one
# to let go removes it if a copy of the suite made it (the marker), never
# while another copy's sshd needs it (its logins would fail at once:
# "Connection reset by peer").
SSHD_RUNDIR_MARK=/run/lock/cocoon-test.sshd-rundir.made
sshd_rundir_hold() {
	host_lock sshd-rundir shared || return 1
	mkdir -m 0755 /run/sshd 2>/dev/null && touch "$SSHD_RUNDIR_MARK"
	return 0
}
sshd_rundir_release() {
	case " $HOST_LOCKS" in *" sshd-rundir="*) ;; *) return 0 ;; esac
	host_unlock sshd-rundir
	flock -n -x /run/lock/cocoon-test.sshd-rundir.lock sh -c \
		'[ ! -e "$1" ] || { rmdir /run/sshd; rm -f "$1"; }' sh "$SSHD_RUNDIR_MARK" 2>/dev/null
	return 0
}
# pam_services_lock: su, login, runuser -l and sudo -i have one PAM file
# each for the whole host; a test that changes one of them, or logs in
# through them, holds this first.
pam_services_lock() {
	host_lock pam-services || bail_out "another copy of the suite holds su's and login's PAM files"
}

# pam_services_edit DIR SERVICE...: back up each /etc/pam.d/SERVICE in
# DIR, then put pam_cocoon around its session stack (the return line
# first, the session's line last). pam_services_restore, from the test's
# EXIT trap, puts back every file backed up, however the test ends.
# Hold pam_services_lock first.
PAM_BACKUPS=""
PAM_EDITED=""
pam_services_edit() {
	local s
	PAM_BACKUPS=$1; shift
	for s in "$@"; do
		cp -p "/etc/pam.d/$s" "$PAM_BACKUPS/pam.$s" || bail_out "backup of /etc/pam.d/$s"
		PAM_EDITED="$PAM_EDITED $s"
		{
			printf 'session required %s/pam_cocoon.so return\n' "$PAMDIR"
			cat "$PAM_BACKUPS/pam.$s"
			printf 'session required %s/pam_cocoon.so\n' "$PAMDIR"
		} > "/etc/pam.d/$s"
	done
}
pam_services_restore() {
	local s
	for s in $PAM_EDITED; do
		[ -f "$PAM_BACKUPS/pam.$s" ] && cat "$PAM_BACKUPS/pam.$s" > "/etc/pam.d/$s"
	done
	PAM_EDITED=""
}

# ---- the installed tree

CTL=$COCOON_ROOT/usr/sbin/cocoonctl
SHELL_BIN=$COCOON_ROOT/usr/bin/cocoon-shell
CONF_DIR=$COCOON_ROOT/etc/cocoon
PAMDIR=${COCOON_PAMDIR:-$COCOON_ROOT/lib/security}

# Start each test from an empty policy directory.
policy_reset() {
	rm -rf "$CONF_DIR"
	install -d -m 0755 "$CONF_DIR"
}

# policy_write NAME: stdin becomes $CONF_DIR/NAME (root-owned, 0600, as
# installed: check warns of a policy file other users can read).
policy_write() {
	install -d -m 0755 "$(dirname "$CONF_DIR/$1")"
	cat > "$CONF_DIR/$1"
	chmod 0600 "$CONF_DIR/$1"
}

# ---- throwaway users, and the processes they leave

# Throwaway users, removed by cleanup_users (call it from a trap).
TEST_USERS=""
TEST_GROUPS=""
add_user() { # add_user NAME [useradd options]
	local name=$1; shift
	userdel -r "$name" >/dev/null 2>&1
	useradd -m -s /bin/bash "$@" "$name" || return 1
	TEST_USERS="$TEST_USERS $name"
}
add_group() {
	groupdel "$1" >/dev/null 2>&1
	groupadd "$1" || return 1
	TEST_GROUPS="$TEST_GROUPS $1"
}
# inits: how many sessions' pid 1 of the tree under test are alive: the
# cocoon-init program (service mode), or cocoonctl's and cocoon-shell's
# own image named cocoon-init (run mode), whose program is below
# $COCOON_ROOT; never another copy's or a deployed cocoon's sessions
# (with COCOON_ROOT empty, every one: an installed cocoon, the VM's).
# Zombies are excluded: this machine's pid 1 never reaps.
inits() {
	local pid stat n=0
	while read -r pid stat; do
		case $stat in Z*) continue ;; esac
		case $(readlink "/proc/$pid/exe" 2>/dev/null) in
		"$COCOON_ROOT"/*) n=$((n + 1)) ;;
		esac
	done < <(ps -C cocoon-init -o pid=,stat=)
	echo "$n"
}
# inits_back_to N: a session's close kills its pid 1 without waiting; give
# it a moment to go, then print the count.
inits_back_to() {
	local i
	for i in $(seq 50); do
		[ "$(inits)" -le "$1" ] && break
		sleep 0.1
	done
	inits
}
# live_procs USER: how many live processes USER has (zombies excluded: this
# machine's pid 1 never reaps).
live_procs() { ps -u "$1" -o stat= 2>/dev/null | grep -vc '^Z'; }
# wait_gone USER: up to 10 s for USER's live processes to end; 1 if not.
wait_gone() {
	local i
	for i in $(seq 100); do
		[ "$(live_procs "$1")" -eq 0 ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_process USER PGREP-ARGS...: until pgrep -u USER PGREP-ARGS finds a
# process (a session's job, by its exact command line), 10 s at most; 1
# if none shows.
wait_process() {
	local i user=$1
	shift
	for i in $(seq 100); do pgrep -u "$user" "$@" >/dev/null && return 0; sleep 0.1; done
	return 1
}
# wait_output FILE [TEXT]: until FILE, where a process in the background
# writes, holds TEXT (or a first line), 60 s at most; 1 if it never does.
# Seeing the process is not enough: what it prints may not have been
# written yet, and a login's output crosses ssh after.
wait_output() {
	local i
	for i in $(seq 600); do grep -qF -- "${2:-}" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
# The shared sandboxes (share-sandbox) of USERs end with the test: each
# one's pid 1 (its records say which; only a cocoon-init is hit) is
# killed, the records of the tree under test swept (cocoonctl list
# removes stale ones), and the share slots removed, so that the next
# test's count of records does not change under it.
share_cleanup() {
	local u uid f pid killed="" found=""
	local dirs="$COCOON_ROOT/run/cocoon ${COCOON_ROOT:+$COCOON_ROOT/fault/run/cocoon}"
	for u in "$@"; do
		uid=$(id -u "$u" 2>/dev/null) || continue
		for f in $(grep -lx "uid=$uid" $(for d in $dirs; do ls -d "$d"/* 2>/dev/null; done) \
				/dev/null 2>/dev/null); do
			grep -q '^shared=' "$f" || continue
			found=yes
			pid=$(sed -n 's/^pid=//p' "$f")
			[ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = cocoon-init ] &&
				kill -KILL "$pid" 2>/dev/null && killed="$killed $pid"
		done
		for d in $dirs; do rm -f "$d/.share-$uid-"*; done
	done
	[ -n "$found" ] || return 0
	for pid in $killed; do wait_gone_pid "$pid"; done
	local ctl
	for ctl in "$COCOON_ROOT/usr/sbin/cocoonctl" ${COCOON_ROOT:+"$COCOON_ROOT/fault/usr/sbin/cocoonctl"}; do
		[ -x "$ctl" ] && "$ctl" list >/dev/null 2>&1
	done
	return 0
}
wait_gone_pid() {
	local i
	for i in $(seq 50); do [ -d "/proc/$1" ] || return 0; sleep 0.1; done
}

cleanup_users() {
	local u g
	# shellcheck disable=SC2086
	share_cleanup $TEST_USERS
	for u in $TEST_USERS; do
		pkill -KILL -u "$u" >/dev/null 2>&1
		userdel -r "$u" >/dev/null 2>&1
	done
	for g in $TEST_GROUPS; do groupdel "$g" >/dev/null 2>&1; done
	TEST_USERS=""
	TEST_GROUPS=""
}

# ---- syslog

# Capture syslog lines into FILE for the test's duration: with a datagram
# socket bound at /dev/log where no syslog daemon runs (this machine), or,
# where journald owns /dev/log (a systemd host), by following the journal
# from now on. /dev/log is one for the host: the test holds the devlog
# lock until syslog_release (or its end), so that other copies of the
# suite wait for it, and a socket nobody listens on any more (a test
# killed before its cleanup) is removed. Returns 1 when /dev/log stays
# taken otherwise; the caller then skips its syslog checks.
SYSLOG_PID=""
SYSLOG_OWN=""
syslog_capture() {
	if [ -e /dev/log ] && [ -d /run/systemd/journal ] && command -v journalctl >/dev/null; then
		: > "$1"
		journalctl -f -q -n 0 -o short >> "$1" 2>/dev/null &
		SYSLOG_PID=$!
		sleep 0.5 # until it follows
		return 0
	fi
	host_lock devlog || return 1
	local i
	for i in $(seq 100); do
		[ -e /dev/log ] || break
		perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Type => SOCK_DGRAM,
			Peer => "/dev/log") or exit 1' || rm -f /dev/log
		sleep 0.1
	done
	if [ -e /dev/log ]; then
		host_unlock devlog
		return 1
	fi
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_DGRAM, Local => "/dev/log") or die $!;
		open my $o, ">>", $ARGV[0] or die; $o->autoflush(1);
		while (defined $s->recv(my $m, 8192)) { print $o "$m\n" }' "$1" &
	SYSLOG_PID=$!
	SYSLOG_OWN=yes
	for i in $(seq 50); do [ -S /dev/log ] && return 0; sleep 0.1; done
	return 1
}
# syslog_wait FILE TEXT [SECONDS]: wait until the capture FILE has TEXT
# (30 s at most, or SECONDS): the journal hands lines on a moment after
# they are logged, and on a host busy with a second suite 5 s was short.
syslog_wait() {
	local i
	for i in $(seq $((${3:-30} * 10))); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
# syslog_wait_record FILE EVENT SESSION [SECONDS]: wait until the capture
# FILE has the EVENT record (start, refuse, end) of session SESSION. A
# session's start record comes before its refuse or end record, and the
# journal may hand the first on before the second is there: waiting for
# the session's id alone would read the log too soon.
syslog_wait_record() {
	local i
	for i in $(seq $((${4:-30} * 10))); do
		grep -F -- "event=$2 " "$1" 2>/dev/null | grep -qF -- "session=$3 " && return 0
		sleep 0.1
	done
	return 1
}
# session_id_of USER: the id of USER's live session once cocoonctl list
# shows it (30 s at most: a busy host).
session_id_of() {
	local i id
	for i in $(seq 300); do
		id=$("$CTL" list 2>/dev/null | awk -v u="$1" '$2 == u { print $1; exit }')
		[ -n "$id" ] && { echo "$id"; return 0; }
		sleep 0.1
	done
	return 1
}
# refusal_logged LOG TEXT NAME: $OUT has cocoon's line for a refused
# user, and the refuse record with its reference in the capture LOG says
# TEXT (the user's line never has the reason). LOG empty: skipped.
refusal_logged() {
	local ref
	ref=$(printf '%s\n' "$OUT" | grep -oE 'session policy of this host \(reference [0-9a-f]{32}\)' |
		grep -oE '[0-9a-f]{32}' | head -1)
	if [ -z "$ref" ]; then
		ok 1 "$3"; printf '#   got:  %s\n#   want the refusal line with a reference\n' "$OUT"
	elif [ -z "$1" ]; then
		skip "/dev/log is taken: syslog not captured"
	else
		syslog_wait_record "$1" refuse "$ref"
		like "$(grep -F "session=$ref" "$1")" "$2" "$3"
	fi
}
syslog_release() {
	[ -n "$SYSLOG_PID" ] || return 0
	kill "$SYSLOG_PID" 2>/dev/null
	wait "$SYSLOG_PID" 2>/dev/null
	[ -n "$SYSLOG_OWN" ] && rm -f /dev/log
	host_unlock devlog
	SYSLOG_PID=""
	SYSLOG_OWN=""
}

# ---- a private sshd
# A copy of /usr/sbin/sshd named cocoon-test-sshd-$T (so its PAM service
# is /etc/pam.d/cocoon-test-sshd-$T, never sshd's own nor another copy's
# of the suite), listening on a free port of 127.0.0.1
# with its own keys and config. Call sshd_start, then ssh_as USER CMD...;
# sshd_stop runs from sshd_cleanup, which the caller's EXIT trap must
# call.

SSHD_DIR=""
SSHD_PID=""
SSHD_PORT=""
SSHD_SERVICE=${SSHD_SERVICE:-cocoon-test-sshd-$T}

# sshd_start [PAM-SESSION-LINES]: extra lines go at the end of the test
# service's PAM file (a copy of Debian's sshd stack). Its port is a free
# one of SSHD_PORTS (20000-29999 unless the test names a range; the
# tests that name one take the caller's SSHD_PORTS first).
sshd_start() {
	# Not under /run: a systemd host mounts it noexec, and the copy of
	# sshd runs from here.
	SSHD_DIR=$(mktemp -d /var/lib/cocoon-sshd.XXXXXX)
	chmod 0755 "$SSHD_DIR"
	cp /usr/sbin/sshd "$SSHD_DIR/$SSHD_SERVICE"
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/client_key" || return 1
	mkdir -m 0755 "$SSHD_DIR/authorized_keys"
	sshd_rundir_hold || return 1
	{ cat /etc/pam.d/sshd; [ -n "${1:-}" ] && printf '%s\n' "$1"; } > "/etc/pam.d/$SSHD_SERVICE"
	local port
	for port in $(shuf -i "${SSHD_PORTS:-20000-29999}" -n 20); do
		ss -ltn | grep -q ":$port " || break
	done
	SSHD_PORT=$port
	cat > "$SSHD_DIR/sshd_config" <<CONF
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host_key
PidFile $SSHD_DIR/sshd.pid
AuthorizedKeysFile $SSHD_DIR/authorized_keys/%u
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UsePAM yes
PermitRootLogin no
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
AllowTcpForwarding yes
LogLevel ERROR
${SSHD_EXTRA_CONFIG:-}
CONF
	# Under systemd, outside the caller's login session, as ssh.service
	# runs it: pam_systemd makes no session for a caller already in one.
	local outside=""
	[ -d /run/systemd/system ] && outside="systemd-run --scope --quiet --collect"
	# SSHD_WRAP: a command that runs sshd for the caller (tests/pam/chroot.t
	# starts it in a chroot).
	$outside ${SSHD_WRAP:-} "$SSHD_DIR/$SSHD_SERVICE" -f "$SSHD_DIR/sshd_config" \
		-E "$SSHD_DIR/sshd.log" ||
		return 1
	local i
	for i in $(seq 50); do
		[ -s "$SSHD_DIR/sshd.pid" ] && ss -ltn | grep -q "127.0.0.1:$SSHD_PORT " && break
		sleep 0.1
	done
	SSHD_PID=$(cat "$SSHD_DIR/sshd.pid" 2>/dev/null)
	[ -n "$SSHD_PID" ]
}

# Let USER in with the test client key.
sshd_allow() {
	cp "$SSHD_DIR/client_key.pub" "$SSHD_DIR/authorized_keys/$1"
	chmod 0644 "$SSHD_DIR/authorized_keys/$1"
}

SSH_OPTS() {
	echo -i "$SSHD_DIR/client_key" -p "$SSHD_PORT" -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes \
		-o ConnectTimeout=10
}

# ssh_as USER [ssh args...]: the real ssh client to the test sshd.
ssh_as() {
	local user=$1; shift
	# shellcheck disable=SC2046
	timeout 60 ssh $(SSH_OPTS) -l "$user" 127.0.0.1 "$@"
}

sshd_stop() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		local i
		for i in $(seq 50); do kill -0 "$SSHD_PID" 2>/dev/null || break; sleep 0.1; done
	fi
	SSHD_PID=""
}

sshd_cleanup() {
	sshd_stop
	rm -f "/etc/pam.d/$SSHD_SERVICE"
	[ -n "$SSHD_DIR" ] && rm -rf "$SSHD_DIR"
	sshd_rundir_release
	SSHD_DIR=""
}

# ---- a chroot of the host
# For a service run chrooted (tests/pam/chroot.t, tests/fault/chroot.t):
# chroot_prepare USER makes CHROOT_DIR, whose root/ becomes, in the
# private mount namespace of each in_chroot, an rbind of / with USER's
# home a tmpfs holding CHROOTHOME, $CHROOT_DIR/etc at /etc (a copy of
# /etc: USER's GECOS "chroot account", su's stack without pam_cocoon, for
# the test to change), and a tmpfs /run holding the installed tree (the
# packages' /run/cocoon when COCOON_ROOT is empty) and /run/sshd. A copy
# of /etc rather than binds over its files: tests running beside rewrite
# /etc/passwd by rename, which detaches a mount on it. Nothing of it
# reaches the host's mount table; chroot_cleanup (from the EXIT trap)
# never removes root/ recursively: should a mount of it leak to the
# host, that would be all of /.
CHROOT_DIR=""
chroot_prepare() {
	local user=$1 r
	CHROOT_DIR=$(mktemp -d /tmp/cocoon-chroot.XXXXXX) || return 1
	r=$CHROOT_DIR/root
	mkdir "$r" && cp -a /etc "$CHROOT_DIR/etc" || return 1
	sed -i "s/^\($user:[^:]*:[^:]*:[^:]*:\)[^:]*:/\1chroot account:/" "$CHROOT_DIR/etc/passwd"
	# Without the lines of other tests running beside.
	grep -v pam_cocoon /etc/pam.d/su > "$CHROOT_DIR/etc/pam.d/su"
	cat > "$CHROOT_DIR/enter.sh" <<ENTER
#!/bin/bash
set -e
mount --rbind / "$r"
[ "\$1" = bind ] && mount --bind "$r" "$r"
mount -t tmpfs -o mode=0755 tmpfs "$r/home/$user"
echo chroot > "$r/home/$user/CHROOTHOME"
chown -R "$user:" "$r/home/$user"
mount --bind "$CHROOT_DIR/etc" "$r/etc"
mount --rbind /dev "$r/dev"
mount -t proc proc "$r/proc"
mount --rbind /sys "$r/sys"
mount -t tmpfs -o mode=0755 tmpfs "$r/run"
mkdir -m 0755 "$r/run/sshd"
# The installed tree, or the packages' session records (cocoonctl list).
if [ -n "$COCOON_ROOT" ]; then
	mkdir -p "$r$COCOON_ROOT"
	mount --bind "$COCOON_ROOT" "$r$COCOON_ROOT"
else
	install -d -m 0700 /run/cocoon "$r/run/cocoon"
	mount --bind /run/cocoon "$r/run/cocoon"
fi
shift
exec chroot "$r" "\$@"
ENTER
	chmod 0755 "$CHROOT_DIR/enter.sh"
}
# in_chroot bind|plain CMD...: CMD in the chroot, which is a mount point
# of its own (bind, as issue 23 made it) or a plain directory.
in_chroot() { unshare -m --propagation private "$CHROOT_DIR/enter.sh" "$@"; }
chroot_cleanup() {
	[ -n "$CHROOT_DIR" ] || return 0
	rm -f "$CHROOT_DIR/enter.sh"
	rm -rf "$CHROOT_DIR/etc"
	rmdir "$CHROOT_DIR/root" && rm -rf "$CHROOT_DIR"
	CHROOT_DIR=""
}

# ---- guest sessions and what they leave behind
# Sessions under the shipped guest policy through the private sshd with
# pam_cocoon (tests/fault, tests/limits, tests/soak), and a snapshot of
# what sessions could leave behind on the host.

GUEST_CONF=$LIB_DIR/../conf/examples/guest.conf

# sshd_test NAME: the frame of a test through the test sshd: its PAM
# service and a scratch directory TMPDIR_T, both named for NAME, removed
# on exit with the policy and the test's users.
sshd_test() {
	SSHD_SERVICE=cocoon-test-sshd-$1-$T
	TMPDIR_T=$(mktemp -d "/run/cocoon-$1-test.XXXXXX")
	trap 'sshd_cleanup; policy_reset; cleanup_users; rm -rf "$TMPDIR_T"' EXIT
}

# guest_policy USER...: the shipped guest.conf, its [group cocoon-guest]
# rule given to each USER instead (no group to create and share).
guest_policy() {
	local u rules=""
	for u in "$@"; do rules="$rules[user $u]\nprofile = guest\n"; done
	policy_reset
	sed '/^\[group cocoon-guest\]/,/^$/d' "$GUEST_CONF" |
		{ cat; printf "\n$rules"; } | policy_write cocoon.conf
}

# guest_sshd_start: the test sshd with pam_cocoon in its session stack,
# the `return` line first (as pam_cocoon(8) says).
guest_sshd_start() {
	sshd_start "session required $PAMDIR/pam_cocoon.so" || return 1
	sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		"/etc/pam.d/$SSHD_SERVICE"
}

# share_sandbox_or_skip: these files read the shared sandbox in cocoon's
# own cgroup; under systemd it is a scope that systemd makes, in the
# user's slice, which tests/vm/35-share-systemd.t and 37 check on a
# booted Debian. The test file is skipped there.
share_sandbox_or_skip() {
	[ -d /run/systemd/system ] || return 0
	echo "1..0 # skip under systemd a shared sandbox is a systemd scope (tests/vm/35-share-systemd.t)"
	exit 0
}

# share_two_logins USER DIR TAG [PREFIX]: the run both share-sandbox
# tests make, through the test sshd. A login of USER in the background
# (sleep TAG, its output in DIR/a.out, its client's pid in SHARE_FIRST,
# still running after), then a second one with a pty: it is in the first
# one's pid namespace, sees its /tmp and processes, and has every wall a
# new login gets; then tmux started in one login attaches from the next.
# PREFIX starts the first check's name.
share_two_logins() {
	local user=$1 dir=$2 tag=$3 prefix=${4:-} second ns_a ns_b attach
	local pidns='stat -L -c %i /proc/self/ns/pid'
	ssh_bg "$dir/a.out" "$user" "$pidns; echo from-a > /tmp/share-mark; sleep $tag"
	SHARE_FIRST=$CLIENT
	# Its mark and its sleep are made after its first line.
	wait_output "$dir/a.out"
	wait_process "$user" -fx "sleep $tag"
	# shellcheck disable=SC2046
	second=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$user" 127.0.0.1 "$pidns; cat /tmp/share-mark; pgrep -x sleep >/dev/null && echo sees-sleep; grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status | tr -s '\t' ' '; echo tty_nr=\$(cut -d' ' -f7 /proc/self/stat)" 2>&1 | tr -d '\r')
	ns_a=$(head -1 "$dir/a.out")
	ns_b=$(printf '%s\n' "$second" | head -1)
	ok $([ -n "$ns_a" ] && [ "$ns_a" = "$ns_b" ]; echo $?) "${prefix}a second login is in the first one's pid namespace ($ns_a, $ns_b)"
	like "$second" "from-a" "it sees the first login's /tmp"
	like "$second" "sees-sleep" "and its processes"
	like "$second" "Seccomp: 2" "the login that joined runs under the seccomp filter"
	like "$second" "NoNewPrivs: 1" "with no_new_privs"
	like "$second" "CapEff: 0000000000000000" "and no capabilities"
	like_re "$second" "tty_nr=[1-9]" "and a controlling terminal of its own"

	ssh_as "$user" "tmux new-session -d -s work 'sleep $((tag + 1))'" >/dev/null 2>&1
	# shellcheck disable=SC2046
	attach=$(timeout 60 ssh $(SSH_OPTS) -tt -l "$user" 127.0.0.1 "TERM=xterm tmux attach-session -t work \\; detach-client" 2>&1 | tr -d '\r')
	like "$attach" "[detached (from session work)]" "tmux started in one login attaches from the next, over ssh with a pty"
}

# share_alone_control USER DIR TAG: the control of both share-sandbox
# tests, USER's plan without share-sandbox: two logins (the first in the
# background, sleep TAG, its output in DIR/c.out), each with a pid
# namespace, a /tmp and processes of its own.
share_alone_control() {
	local user=$1 dir=$2 tag=$3 second first
	local pidns='stat -L -c %i /proc/self/ns/pid'
	ssh_bg "$dir/c.out" "$user" "$pidns; echo from-c > /tmp/share-mark; sleep $tag"
	first=$CLIENT
	# Its mark is made before its sleep starts.
	wait_output "$dir/c.out"
	wait_process "$user" -fx "sleep $tag"
	second=$(ssh_as "$user" "$pidns; cat /tmp/share-mark 2>&1; pgrep -x sleep >/dev/null && echo sees-sleep")
	ok $([ -s "$dir/c.out" ] && [ "$(head -1 "$dir/c.out")" != "$(printf '%s\n' "$second" | head -1)" ]; echo $?) \
		"control: without share-sandbox a second login has a pid namespace of its own"
	unlike "$second" "from-c" "control: and does not see the first login's /tmp"
	unlike "$second" "sees-sleep" "control: or its processes"
	kill "$first" 2>/dev/null; wait "$first" 2>/dev/null
}

# share_linger_job USER TAG: a nohup job (sleep TAG) of a login of USER,
# whose plan has share-sandbox and a linger, outlives the login while the
# sandbox lingers; once the linger is over the sandbox ends with it.
share_linger_job() {
	local user=$1 tag=$2 i alive
	ssh_as "$user" "nohup sleep $tag >/dev/null 2>&1 </dev/null & echo started" >/dev/null
	sleep 1
	alive=$(ssh_as "$user" "pgrep -x sleep >/dev/null && echo job-alive")
	like "$alive" "job-alive" "a nohup job outlives its login while the sandbox lingers"
	for i in $(seq 300); do [ "$(live_procs "$user")" = 0 ] && break; sleep 0.1; done
	is "$(live_procs "$user")" 0 "once the linger is over the sandbox ends with everything in it"
	[ "$(live_procs "$user")" = 0 ] ||
		ps -eo pid,ppid,uid,stat,args | grep -E "$user|cocoon|sleep $tag" | grep -v grep | sed 's/^/# /'
}

# Counting what a session may leave behind. Processes: live ones (this
# machine's pid 1 never reaps zombies) that are the test's own: running
# a program of the installed tree or of the test sshd, or owned by one of
# TEST_USERS (other engineers' tests run on this host at the same time).
our_processes() {
	local uids="" u
	for u in $TEST_USERS; do uids="$uids,$(id -u "$u")"; done
	ps -eo pid=,stat=,uid= | while read -r pid stat uid; do
		[ "${stat#Z}" = "$stat" ] || continue
		case ",$uids," in *",$uid,"*) echo "$pid"; continue ;; esac
		case "$(readlink "/proc/$pid/exe" 2>/dev/null)" in
		"$COCOON_ROOT"/*) echo "$pid" ;;
		"${SSHD_DIR:-/nonexistent}"/*) echo "$pid" ;;
		esac
	done | wc -l
}
# The paths the test's sessions use on the host: the tree under test
# (its run-time records; the fault build's is inside it), the test
# sshd's directory and the test users' homes.
our_paths() {
	local u
	printf '%s\n' "${COCOON_ROOT:-/run/cocoon}" ${SSHD_DIR:+"$SSHD_DIR"}
	for u in $TEST_USERS; do getent passwd "$u" | cut -d: -f6; done
}
# Mounts of this mount namespace at, or made from, one of our_paths: a
# session that leaked its sandbox would leave them here. Not a count of
# the whole table: other copies' tests and other users' services mount
# and unmount on this host meanwhile.
mount_count() {
	awk 'NR == FNR { if ($0 != "") p[n++] = $0; next }
	function ours(f,  i) { gsub(/\\040/, " ", f)
		for (i = 0; i < n; i++)
			if (f == p[i] || index(f, p[i] "/") == 1) return 1
		return 0 }
	ours($5) || ours($4) { c++ } END { print c + 0 }' <(our_paths) /proc/self/mountinfo
}
# Session cgroups left empty that the test's sessions made: a running
# session's is never empty. A cgroup is named by its session's random id,
# which a session refused before its record (a fault) leaves nowhere; so
# the count is of empty ones made since the test began (the list of
# those there when it sourced this file), never older ones of other
# users' sessions. Others' sessions being set up meanwhile are empty
# only for a moment: settle_to waits them out.
all_session_cgroups() {
	# No session cgroup at all is an empty list, not a failure (the
	# bench sources this file under set -e and pipefail).
	{ ls -d /sys/fs/cgroup/*/cocoon/*/ /sys/fs/cgroup/cocoon/*/ 2>/dev/null || true; } | sort
}
LEFTOVERS_CGROUPS=$(all_session_cgroups)
session_cgroups() {
	local d n=0
	for d in $(comm -13 <(printf '%s\n' "$LEFTOVERS_CGROUPS") <(all_session_cgroups)); do
		# Read, not test -s: cgroupfs files have size 0 whatever they hold.
		[ -f "$d/cgroup.procs" ] && [ -z "$(cat "$d/cgroup.procs" 2>/dev/null)" ] &&
			n=$((n + 1))
	done
	echo "$n"
}
# Records of the trees under test (the check tree's and the fault
# build's; with COCOON_ROOT empty, the installed cocoon's), never those
# of a cocoon deployed on the host beside them.
run_records() {
	find "$COCOON_ROOT/run/cocoon" "$COCOON_ROOT/fault/run/cocoon" \
		-mindepth 1 2>/dev/null | wc -l
}
sshd_fds() { ls "/proc/$SSHD_PID/fd" 2>/dev/null | wc -l; }
# leftovers: one line, of what the test's own sessions can leave: its
# processes, mounts at its paths, empty session cgroups made since it
# began, records and cocoon-init of the tree under test, the test sshd's
# descriptors.
leftovers() {
	echo "procs=$(our_processes) mounts=$(mount_count) cgroups=$(session_cgroups)" \
		"records=$(run_records) sshd_fds=$(sshd_fds) inits=$(inits)"
}
# settle_to WANT: up to 10 s for leftovers to come back to WANT; prints
# what it found last.
settle_to() {
	local i now
	for i in $(seq 100); do
		now=$(leftovers)
		[ "$now" = "$1" ] && break
		sleep 0.1
	done
	echo "$now"
}
# ssh_bg OUT USER CMD: the real client in the background, its own pid in
# CLIENT (so that killing it is the client vanishing), output to OUT.
ssh_bg() {
	local out=$1 user=$2; shift 2
	# shellcheck disable=SC2046
	ssh $(SSH_OPTS) -l "$user" 127.0.0.1 "$@" > "$out" 2>&1 &
	CLIENT=$!
}

# ---- session limits

# limits_policy RULES: the embedded default profile for everyone, then
# RULES (sections naming the test's users).
limits_policy() {
	policy_reset
	printf '[default]\nprofile = default\n%s\n' "$1" | policy_write cocoon.conf
}

# ---- the engine's test driver
# The engine in run mode (its pid 1 is its own image, no cocoon-init),
# driven by tests/sandbox/driver.c without the installed programs: built
# by tests/sandbox/build-driver.sh unless $ENGINE_DRIVER names one (under
# `make check` against that build). Run as root, by hand
# `prove tests/sandbox/mounts.t`, or through `make check`.

# engine_setup (lib.sh engine): the driver, a root-owned work directory
# $WORK under /run, and BASE, the system part every sandbox starts from;
# users and WORK are removed on exit.
engine_setup() {
	local build
	if [ -z "${ENGINE_DRIVER:-}" ]; then
		build=$("$LIB_DIR/sandbox/build-driver.sh") || bail_out "cannot build the driver"
		ENGINE_DRIVER=$build/engine-driver
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP the engine tests run as root"
		exit 0
	fi
	WORK=$(mktemp -d /run/cocoon-eng-test.XXXXXX)
	chmod 0755 "$WORK"
	trap 'cleanup_users; rm -rf "$WORK"' EXIT
	BASE="--ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64
	--symlink usr/bin /bin --symlink usr/sbin /sbin --proc /proc --dev /dev
	--unshare pid"
}

# engine_user NAME [useradd options]: a throwaway user with a home whose
# shell is /bin/sh; the test stops if it cannot be made.
engine_user() { add_user "$1" -s /bin/sh "${@:2}" || bail_out "useradd $1"; }

# sandbox USER [DRIVER OPTIONS] -- COMMAND...: run through the engine with
# $BASE first; output and status in OUT and RC (see run).
sandbox() {
	local user=$1; shift
	# shellcheck disable=SC2086
	run "$ENGINE_DRIVER" --user "$user" $BASE "$@"
}

# The host's mount table without the fields that change between reads.
host_mounts() {
	awk '{print $5, $6, $9, $10}' /proc/self/mountinfo | sort
}

# ---- the Debian guest of make vm-check
# For tests/vm/*.t and tests/vm/run, on this machine: the guest that run
# booted, reached over ssh on 127.0.0.1:$VM_PORT with the key $VM_KEY.
# Root's commands share one connection (a new ssh login costs a second
# or more under emulation); the users' logins, which are what the tests
# are about, never do.

# vm_setup (lib.sh vm): the ssh options, from what run exported.
vm_setup() {
	: "${VM_PORT:?run the VM tests through make vm-check}"
	VM_SSH_OPTS=(-p "$VM_PORT" -i "$VM_KEY" -o StrictHostKeyChecking=no
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes
		-o ConnectTimeout=60 -o ServerAliveInterval=15)
	VM_ROOT_OPTS=(-o ControlMaster=auto -o "ControlPath=$VM_DIR/root-%C" -o ControlPersist=900)
}

# vm COMMAND...: as root in the guest (one shell command line); its
# status is the command's.
vm() { ssh "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 -- "$@"; }
# vm_as USER [SSH-ARGS...] [COMMAND]: a fresh ssh login of USER, through the
# guest's real sshd and /etc/pam.d/sshd.
vm_as() { local u=$1; shift; timeout 300 ssh "${VM_SSH_OPTS[@]}" "$u@127.0.0.1" "$@"; }
# vm_tty_login USER: a login of USER over ssh -tt prints what its walls
# and its terminal are: its pid namespace, then tty=, tty_nr= (its
# shell's controlling terminal) and the CapEff, CapPrm, NoNewPrivs and
# Seccomp lines of /proc/self/status.
vm_tty_login() {
	# shellcheck disable=SC2016
	vm_as "$1" -tt 'stat -L -c %i /proc/self/ns/pid; echo tty=$(tty); echo tty_nr=$(cut -d" " -f7 /proc/$$/stat)
		grep -E "^(CapEff|CapPrm|NoNewPrivs|Seccomp):" /proc/self/status | tr -s "\t" " "' 2>&1 | tr -d '\r'
}
# vm_wait_for COMMAND: until COMMAND succeeds as root in the guest, 60 s
# at most; 1 if it never does.
vm_wait_for() {
	local i
	for i in $(seq 120); do vm "$1" >/dev/null 2>&1 && return 0; sleep 0.5; done
	return 1
}
# vm_put FILE... DEST: copy files into the guest.
vm_put() { scp -q -P "$VM_PORT" -i "$VM_KEY" -o StrictHostKeyChecking=no \
	-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "${@:1:$#-1}" "root@127.0.0.1:${!#}"; }

# vm_sshd_cocoon: the build's packages installed, unless they are
# (10-package.t installs them; a file run alone does it here), and
# Debian's /etc/pam.d/sshd (kept in /root/sshd.pam) with pam_cocoon:
# `return` first, the session after pam_selinux open.
vm_sshd_cocoon() {
	local top
	top=$(cd "$LIB_DIR/.." && pwd)
	if ! vm 'dpkg -s libpam-cocoon >/dev/null 2>&1'; then
		vm 'mkdir -p /root/debs/new'
		vm_put "$top"/build/deb/{cocoon,libpam-cocoon,cocoon-shell}_"$(cat "$top/VERSION")"_*.deb /root/debs/new/
		vm 'apt-get install -y -q /root/debs/new/*.deb >/dev/null 2>&1'
	fi
	vm '[ -f /root/sshd.pam ] || cp /etc/pam.d/sshd /root/sshd.pam
		cp /root/sshd.pam /etc/pam.d/sshd &&
		sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
		sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd'
}

# vm_user NAME [useradd options]: a user in the guest (shell bash unless
# the options say) who logs in with the harness's key.
vm_user() {
	local name=$1; shift
	vm "pkill -KILL -u $name 2>/dev/null; userdel -r $name >/dev/null 2>&1; useradd -m -s /bin/bash $* $name &&
		install -d -o $name -m 0700 /home/$name/.ssh &&
		install -o $name -m 0600 /root/.ssh/authorized_keys /home/$name/.ssh/authorized_keys"
}

# vm_wait_ready N [SECONDS]: until the guest has said N times on its
# console that its sshd listens (qemu's forward accepts connections before
# that), for SECONDS at most (300 unless given).
vm_wait_ready() {
	local i
	for i in $(seq $((${2:-300} * 2))); do
		[ "$(grep -c COCOON-VM-READY "$VM_CONSOLE" 2>/dev/null)" -ge "$1" ] && return 0
		sleep 0.5
	done
	return 1
}

# vm_reboot: reboot the guest and wait for it; 1 if it does not come back.
# The shutdown is what a test of cocoon judges. Under TCG a guest whose
# shutdown ended ("reboot: Restarting system" on its console) has once hung
# early in the next boot, for good; that guest is reset, once, and says so.
vm_reboot() {
	local n restarts
	n=$(grep -c COCOON-VM-READY "$VM_CONSOLE")
	restarts=$(grep -c 'reboot: Restarting system' "$VM_CONSOLE")
	ssh -O exit "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 2>/dev/null
	vm 'systemctl reboot' >/dev/null 2>&1
	ssh -O exit "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 2>/dev/null
	vm_wait_ready $((n + 1)) 180 && return 0
	[ "$(grep -c 'reboot: Restarting system' "$VM_CONSOLE")" -gt "$restarts" ] || return 1
	[ -p "$VM_DIR/monitor.in" ] || return 1
	echo "# the guest shut down, then hung in boot: resetting it" >&2
	tail -n 3 "$VM_CONSOLE" | sed 's/^/#   /' >&2
	echo system_reset > "$VM_DIR/monitor.in"
	vm_wait_ready $((n + 1))
}

case $LIB_MODE in
engine) engine_setup ;;
vm) vm_setup ;;
esac

# todo_ok CONDITION-STATUS NAME REASON: ok, for a known failure (TAP's
# TODO, REASON saying which): prove does not count it failed, and says
# so when it passes.
todo_ok() {
	TEST_COUNT=$((TEST_COUNT + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TEST_COUNT - $2 # TODO $3"
	else
		echo "not ok $TEST_COUNT - $2 # TODO $3"
	fi
}
