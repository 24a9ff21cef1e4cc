#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every session gets a session keyring of its own: the caller's keys are
# out of reach inside. keyctl(1) is not installed; perl makes the calls
# (x86_64 numbers: add_key 248, keyctl 250).
. "$(dirname "$0")/../lib.sh" engine

if [ "$(uname -m)" != x86_64 ]; then
	echo "1..0 # SKIP the system call numbers below are x86_64's"
	exit 0
fi

engine_user cceng7$T
uid=$(id -u cceng7$T)
gid=$(id -g cceng7$T)

# Prints the session keyring's id and what a search for the caller's key
# finds (possessing a keyring lets one search it).
cat >"$WORK/probe.pl" <<'PERL'
my ($type, $desc) = ("user", "cc-caller-secret");
my $ring = syscall(250, 0, -3, 0);           # KEYCTL_GET_KEYRING_ID, session
my $key = syscall(250, 10, -3, $type, $desc, 0); # KEYCTL_SEARCH
print "ring=$ring\n", $key < 0 ? "key=none\n" : "key=$key\n";
PERL
chmod 0644 "$WORK/probe.pl"

# caller COMMAND...: run COMMAND in a new session keyring holding a key,
# as a caller with secrets would; prints the keyring's and the key's ids.
caller() {
	perl -e 'my ($n, $t, $d, $v) = ("cc-caller", "user", "cc-caller-secret", "hush");
		my $r = syscall(250, 1, $n);            # KEYCTL_JOIN_SESSION_KEYRING
		my $k = syscall(248, $t, $d, $v, 4, -3); # add_key to the session keyring
		die "keys: $!\n" if $r < 0 || $k < 0;
		print "caller-ring=$r\ncaller-key=$k\n"; $| = 1; exec @ARGV' -- "$@"
}

# Without the protection: a plain child, even switched to the user,
# keeps the caller's keyring and finds the key.
OUT=$(caller setpriv --reuid="$uid" --regid="$gid" --clear-groups perl "$WORK/probe.pl" 2>&1)
ring=$(echo "$OUT" | sed -n 's/^caller-ring=//p')
key=$(echo "$OUT" | sed -n 's/^caller-key=//p')
ok "$([ -n "$ring" ] && [ -n "$key" ]; echo $?)" "the caller has a keyring with a key"
like "$OUT" "ring=$ring
key=$key" "a plain child of the caller, switched to the user, shares its keyring and finds the key"

OUT=$(caller "$ENGINE_DRIVER" --user cceng7$T $BASE --ro-bind "$WORK/probe.pl" /probe.pl \
	-- perl /probe.pl 2>&1)
ring=$(echo "$OUT" | sed -n 's/^caller-ring=//p')
inner=$(echo "$OUT" | sed -n 's/^ring=//p')
ok "$([ -n "$inner" ] && [ "$inner" -gt 0 ] && [ "$inner" != "$ring" ]; echo $?)" \
	"the session has a session keyring, not the caller's ($inner, $ring)"
like "$OUT" "key=none" "the caller's key is out of reach inside"

# The session keyring's own line of /proc/keys. Only its own: keyrings of
# sessions that ended are listed until collected, a few seconds, and one
# of a deleted user whose uid the test user got has that user's gid.
cat >"$WORK/own.pl" <<'PERL'
my $id = sprintf "%08x", syscall(250, 0, -3, 0); # KEYCTL_GET_KEYRING_ID, session
open(my $keys, '<', '/proc/keys') or die "/proc/keys: $!\n";
while (<$keys>) { print if /^$id / }
PERL
chmod 0644 "$WORK/own.pl"
OUT=$("$ENGINE_DRIVER" --user cceng7$T $BASE --ro-bind "$WORK/own.pl" /own.pl -- perl /own.pl 2>&1)
like "$OUT" "keyring   _ses: empty" "the session's keyring is empty"
ok "$(echo "$OUT" | awk -v u="$uid" -v g="$gid" '$6 != u || $7 != g { bad = 1 } END { exit bad || NR != 1 }'; echo $?)" \
	"and belongs to the user, not to root"

# With a user namespace the keyring is joined before it too.
OUT=$(caller "$ENGINE_DRIVER" --user cceng7$T $BASE --unshare user \
	--ro-bind "$WORK/probe.pl" /probe.pl -- perl /probe.pl 2>&1)
like "$OUT" "key=none" "with a user namespace too"

# The seccomp filter refuses keyctl: the keyring is joined before it.
sandbox cceng7$T --seccomp default -- /bin/true
is "$RC" 0 "a session with the seccomp filter starts"

done_testing
