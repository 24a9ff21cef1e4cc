#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mosh and share-sandbox through sshd with pam_cocoon. mosh logs in over
# ssh and starts mosh-server, which detaches, answers on a UDP port and
# outlives that ssh login. Where the plan keeps the host's network (the
# default profile) the mosh session runs in the user's shared sandbox:
# it sees a concurrent ssh login's /tmp and pid namespace and attaches to
# its tmux; with linger it needs no other login. The control: with
# neither, the sandbox ends with the ssh login, mosh-server with it, and
# mosh never connects. Where the plan unshares net, mosh-server's port is
# in the sandbox's own network namespace, which the client cannot reach:
# the user is told nothing comes back, and the client gives up by itself
# (a timeout bounds it anyway), leaving nothing behind.
. "$(dirname "$0")/../lib.sh"

# Under systemd the shared sandbox is a systemd scope, which
# tests/vm/35-share-systemd.t checks; this file reads cocoon's cgroup.
[ -d /run/systemd/system ] &&
	{ echo "1..0 # skip under systemd a shared sandbox is a systemd scope (tests/vm/35-share-systemd.t)"; exit 0; }
for p in mosh mosh-server script; do
	command -v $p >/dev/null ||
		{ echo "1..0 # skip $p is missing (make deps installs mosh and util-linux)"; exit 0; }
done
sshd_test mosh
# mosh refuses to start without a UTF-8 locale, on either side.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
# mosh-server's UDP ports: MOSH_PORTS, else the top of SSHD_PORTS's
# range, else 60000:60999 (mosh's own; LO:HI).
if [ -z "${MOSH_PORTS:-}" ]; then
	MOSH_PORTS=60000:60999
	if [ -n "${SSHD_PORTS:-}" ]; then
		lo=${SSHD_PORTS%-*} hi=${SSHD_PORTS#*-}
		MOSH_PORTS=$((lo + (hi - lo) * 6 / 10 + 1)):$hi
	fi
fi

# The users: a fixed name each (COCOON_MOSH_USERS names three others).
read -r SHARED LINGER NETNS <<<"${COCOON_MOSH_USERS:-csmo1 csmo2 csmo3}"
for u in $SHARED $LINGER $NETNS; do add_user "$u" -s /bin/bash; done
# The default profile with its own network namespace as well.
netprof=$(sed -e 's/^\[profile default\]/[profile mosh-net]/' \
	-e 's/^unshare = .*/unshare = pid ipc uts net/' "$LIB_DIR/../conf/default.profile")
limits_policy "$netprof
[user $SHARED]
profile = default
share-sandbox = yes
[user $LINGER]
profile = default
share-sandbox = yes
linger = 30s
[user $NETNS]
profile = mosh-net
share-sandbox = yes
linger = 30s"
run "$CTL" check
is "$RC" 0 "the policy passes check" ; [ "$RC" = 0 ] || printf "%s\n" "$OUT" | sed "s/^/# /"
guest_sshd_start || bail_out "sshd did not start"
for u in $SHARED $LINGER $NETNS; do sshd_allow "$u"; done

# mosh_as OUT SECONDS USER CMD: the real mosh client, in a terminal of
# script(1)'s (80x24), logging in through the test sshd and running CMD
# under sh; what the terminal showed goes to OUT. SECONDS bounds it.
mosh_as() {
	local out=$1 secs=$2 user=$3 cmd=$4 f
	f=$(mktemp "$TMPDIR_T/mosh.XXXXXX")
	{
		echo 'stty rows 24 cols 80'
		printf 'export COCOON_MOSH_TEST=%q\n' "$TMPDIR_T"
		printf 'exec mosh --ssh=%q --port=%q %q -- sh -c %q\n' \
			"ssh $(SSH_OPTS)" "$MOSH_PORTS" "$user@127.0.0.1" "$cmd"
	} > "$f"
	local t0=$SECONDS
	timeout -k 5 "$secs" script -qfec "bash $f" /dev/null < /dev/null > "$out" 2>&1
	MOSH_RC=$? MOSH_SECS=$((SECONDS - t0))
	# The terminal's bytes, less escape sequences and carriage returns.
	MOSH_OUT=$(sed -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1b[()][A-Z0-9]//g' \
		-e 's/\x1b[=>]//g' -e 's/\x1b\][^\x07]*\x07//g' -e 's/\r//g' "$out")
}
# our_clients: the pids of processes that mosh_as started, still alive.
our_clients() {
	grep -lsxF -z "COCOON_MOSH_TEST=$TMPDIR_T" /proc/[0-9]*/environ | cut -d/ -f3
}
pidns='stat -L -c %i /proc/self/ns/pid'

# ---- mosh joins the sandbox of a concurrent ssh login
ssh_bg "$TMPDIR_T/a.out" "$SHARED" "$pidns; echo from-ssh > /tmp/mosh-mark; tmux new-session -d -s work 'sleep 4301'; sleep 4302"
A=$CLIENT
# Its mark and its tmux are made before its sleep starts.
wait_output "$TMPDIR_T/a.out"
wait_process "$SHARED" -fx 'sleep 4302'
ns_a=$(head -1 "$TMPDIR_T/a.out")
mosh_as "$TMPDIR_T/m1.out" 60 "$SHARED" "echo ns=\$($pidns); cat /tmp/mosh-mark; sleep 1"
is "$MOSH_RC" 0 "mosh through sshd with pam_cocoon ends as its command does"
like "$MOSH_OUT" "ns=$ns_a" "its command runs in the ssh login's pid namespace ($ns_a)"
like "$MOSH_OUT" "from-ssh" "and sees that login's /tmp"
[ "$MOSH_RC" = 0 ] || sed -n '1,20p' "$TMPDIR_T/m1.out" | cat -v | sed 's/^/# /'
mosh_as "$TMPDIR_T/m2.out" 60 "$SHARED" "tmux attach-session -t work \\; detach-client; sleep 1"
like "$MOSH_OUT" "[detached (from session work)]" "tmux started over ssh attaches from mosh"
kill "$A" 2>/dev/null; wait "$A" 2>/dev/null

# ---- The control: no linger and no other login
# The sandbox ends with the ssh login that started mosh-server, and
# mosh-server with it: the client hears nothing.
for i in $(seq 50); do [ "$(live_procs "$SHARED")" = 0 ] && break; sleep 0.1; done
mosh_as "$TMPDIR_T/m5.out" 20 "$SHARED" "echo reached-the-command; sleep 1"
ok $([ "$MOSH_RC" != 0 ]; echo $?) \
	"control: with linger = no and no other login mosh does not connect (status $MOSH_RC after ${MOSH_SECS}s)"
unlike "$MOSH_OUT" "reached-the-command" "control: its command's output never reaches the client"
is "$(live_procs "$SHARED")" 0 "control: nothing of that sandbox is left, mosh-server neither"

# ---- With linger, mosh needs no other login
# mosh-server outlives the ssh login that started it: without linger the
# sandbox would end with that login, and mosh-server with it.
mosh_as "$TMPDIR_T/m3.out" 60 "$LINGER" "echo ns=\$($pidns); echo alone > /tmp/mosh-mark; sleep 1"
is "$MOSH_RC" 0 "with linger, mosh alone works (no other login holds the sandbox)"
ns_m=$(printf '%s\n' "$MOSH_OUT" | sed -n 's/.*ns=\([0-9]*\).*/\1/p' | head -1)
L=$(ssh_as "$LINGER" "$pidns; cat /tmp/mosh-mark")
like "$L" "$ns_m" "a later ssh login joins the sandbox mosh ran in ($ns_m)"
like "$L" "alone" "and sees its /tmp"

# ---- unshare = net: mosh-server answers inside the sandbox's network
mosh_as "$TMPDIR_T/m4.out" 45 "$NETNS" "echo reached-the-command; sleep 1"
# mosh-client gives up by itself when no packet ever came back (after
# some 15 s); the timeout is there in case it did not.
ok $([ "$MOSH_RC" != 0 ] && [ "$MOSH_RC" != 124 ] && [ "$MOSH_SECS" -lt 45 ]; echo $?) \
	"with unshare = net the mosh client never connects and gives up by itself (status $MOSH_RC after ${MOSH_SECS}s)"
like "$MOSH_OUT" "Nothing received from server" "the user is told nothing comes back from the server"
like "$MOSH_OUT" "mosh did not make a successful connection" "and, as the client ends, that it did not connect"
# What the user sees, for the record.
printf '%s\n' "$MOSH_OUT" | grep -o -e 'mosh: Nothing received[^.]*\.' -e 'mosh did not make.*' -e 'Please verify.*' |
	sort -u | sed 's/^/# /'
unlike "$MOSH_OUT" "reached-the-command" "and the command's output never reaches the client"
# The port the client tried is bound in the sandbox's network namespace,
# not in the host's.
port=$(printf '%s\n' "$MOSH_OUT" | sed -n 's/.*Nothing received from server on UDP port \([0-9]*\).*/\1/p' | head -1)
# shellcheck disable=SC2016
N=$(ssh_as "$NETNS" 'pgrep -x mosh-server >/dev/null && echo server-alive
for p in $(awk "NR > 1 { split(\$2, a, \":\"); print a[2] }" /proc/net/udp); do echo udp-port=$((0x$p)); done')
like "$N" "server-alive" "mosh-server is running, in the sandbox"
like "$N" "udp-port=$port" "its UDP port ($port) is bound in the sandbox's network namespace"
ok $(ss -Hlun "sport = :$port" | grep -q .; [ $? = 1 ]; echo $?) "and not in the host's"
ok $([ -z "$(our_clients)" ]; echo $?) "no mosh client is left behind"

done_testing
