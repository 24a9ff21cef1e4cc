# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the shell TAP tests. Source it, then call plan_tests
# or use done_testing. Tests run against the tree `make check` installs
# into $COCOON_ROOT (compiled-in paths point there, never to /etc/cocoon).

# COCOON_ROOT empty tests an installed cocoon (the packages; make
# vm-check), whose PAM module is then in COCOON_PAMDIR.
set -u
: "${COCOON_ROOT?run the tests through make check}"
CTL=$COCOON_ROOT/usr/sbin/cocoonctl
CONF_DIR=$COCOON_ROOT/etc/cocoon
PAMDIR=${COCOON_PAMDIR:-$COCOON_ROOT/lib/security}
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

# Start each test from an empty policy directory.
policy_reset() {
	rm -rf "$CONF_DIR"
	install -d -m 0755 "$CONF_DIR"
}

# policy_write NAME: stdin becomes $CONF_DIR/NAME (root-owned, 0644).
policy_write() {
	install -d -m 0755 "$(dirname "$CONF_DIR/$1")"
	cat > "$CONF_DIR/$1"
	chmod 0644 "$CONF_DIR/$1"
}

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
# inits: how many cocoon-init processes are alive (zombies excluded: this
# machine's pid 1 never reaps). One ps for name and state, so a process
# that ends between two looks is not counted.
inits() { ps -eo stat=,comm= | awk '$1 !~ /^Z/ && $2 == "cocoon-init"' | wc -l; }
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
cleanup_users() {
	local u g
	for u in $TEST_USERS; do
		pkill -KILL -u "$u" >/dev/null 2>&1
		userdel -r "$u" >/dev/null 2>&1
	done
	for g in $TEST_GROUPS; do groupdel "$g" >/dev/null 2>&1; done
	TEST_USERS=""
	TEST_GROUPS=""
}

# Capture syslog lines into FILE for the test's duration: with a datagram
# socket bound at /dev/log where no syslog daemon runs (this machine), or,
# where journald owns /dev/log (a systemd host), by following the journal
# from now on. Returns 1 when /dev/log is taken otherwise; the caller then
# skips its syslog checks.
SYSLOG_PID=""
SYSLOG_OWN=""
syslog_capture() {
	if [ -e /dev/log ]; then
		[ -d /run/systemd/journal ] && command -v journalctl >/dev/null || return 1
		: > "$1"
		journalctl -f -q -n 0 -o short >> "$1" 2>/dev/null &
		SYSLOG_PID=$!
		sleep 0.5 # until it follows
		return 0
	fi
	perl -MIO::Socket::UNIX -e '
		my $s = IO::Socket::UNIX->new(Type => SOCK_DGRAM, Local => "/dev/log") or die $!;
		open my $o, ">>", $ARGV[0] or die; $o->autoflush(1);
		while (defined $s->recv(my $m, 8192)) { print $o "$m\n" }' "$1" &
	SYSLOG_PID=$!
	SYSLOG_OWN=yes
	local i
	for i in $(seq 50); do [ -S /dev/log ] && return 0; sleep 0.1; done
	return 1
}
syslog_release() {
	[ -n "$SYSLOG_PID" ] || return 0
	kill "$SYSLOG_PID" 2>/dev/null
	wait "$SYSLOG_PID" 2>/dev/null
	[ -n "$SYSLOG_OWN" ] && rm -f /dev/log
	SYSLOG_PID=""
	SYSLOG_OWN=""
}
