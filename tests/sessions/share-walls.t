#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The walls of a shared sandbox (share-sandbox = yes), through a real
# sshd, with pam_cocoon and then with cocoon-shell as the login shell:
# screen started in one login is attached from the next, over ssh with a
# pty (the plan leaves Landlock's signal scope out; a cocoon-shell login
# that joins has its terminal as /dev/console-ID); a login that
# joined is under the plan's Landlock wall; pid 1 stays cocoon-init once
# the login that made the sandbox has left, for the login still in it
# and for a new one; two users of one rule each get a sandbox of their
# own, side by side; five cocoon-shell logins started at once end in one
# sandbox. The controls: a user
# without share-sandbox sees no screen of another login's, a plan
# without the wall (no-new-privs = no) reads a host file through a
# descriptor passed in, a login after the last has left is in a new pid
# namespace, and unshared racing logins get five.
. "$(dirname "$0")/../lib.sh"
SSHD_SERVICE=cocoon-test-sshd-walls-$T
W=$(mktemp -d /run/cocoon-walls-test.XXXXXX)
# A host directory the sandbox does not bind (/var is not in the tree),
# which the users can read on the host.
SECRET=$(mktemp -d /var/lib/cocoon-walls-secret.XXXXXX)
CLIENTS=""
cleanup() {
	local c
	for c in $CLIENTS; do kill "$c" 2>/dev/null; wait "$c" 2>/dev/null; done
	sshd_cleanup
	policy_reset; cleanup_users; rm -rf "$W" "$SECRET"
}
trap cleanup EXIT
chmod 0755 "$SECRET"
echo "TOPSECRET-$$" > "$SECRET/f"
chmod 0644 "$SECRET/f"

# Per mode (p: pam_cocoon, s: cocoon-shell): SHARED and MATE share one
# rule (the group's); ALONE has no share-sandbox; OPEN shares, on a plan
# without the Landlock wall.
GROUP=ccwlg$T
add_group "$GROUP" || bail_out "groupadd"
for m in p s; do
	sh=/bin/bash
	[ $m = s ] && sh=$SHELL_BIN
	for u in ccwl${m}1$T ccwl${m}2$T; do add_user "$u" -s "$sh" -G "$GROUP"; done
	for u in ccwl${m}3$T ccwl${m}4$T; do add_user "$u" -s "$sh"; done
done
limits_policy "[group $GROUP]
profile = default
share-sandbox = yes
[user ccwlp4$T]
profile = default
share-sandbox = yes
no-new-privs = no
seccomp = none
[user ccwls4$T]
profile = default
share-sandbox = yes
no-new-privs = no
seccomp = none"
run "$CTL" check
is "$RC" 0 "the policy passes check"; [ "$RC" = 0 ] || printf "%s\n" "$OUT" | sed "s/^/# /"

pidns='stat -L -c %i /proc/self/ns/pid'
# bg NAME USER CMD: a login in the background until it ends or is
# killed; its output in $W/NAME, its client's pid in CLIENT; waits for a
# first line.
bg() {
	ssh_bg "$W/$1" "$2" "$3"
	CLIENTS="$CLIENTS $CLIENT"
	wait_output "$W/$1"
}
ns_of() { sed -n 's/^ns=//p' "$W/$1" | head -1; } # the first ns= line of $W/NAME
end_client() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# tty_login USER CMD: a login over ssh with a pty (ssh -tt).
tty_login() {
	# shellcheck disable=SC2046
	timeout 60 ssh $(SSH_OPTS) -tt -l "$1" 127.0.0.1 "$2" 2>&1 | tr -d '\r'
}
# rows USER: USER's rows in cocoonctl list.
rows() { "$CTL" list 2>/dev/null | awk -v u="$1" '$2 == u'; }
# wall_probe USER: a host process of USER serves a descriptor of the
# host's / on a socket in the home; a login of USER receives it and reads
# $SECRET/f below it (tests/escape/fdpass.py). Its output in OUT.
wall_probe() {
	local u=$1 h sp i
	h=$(getent passwd "$u" | cut -d: -f6)
	rm -f "$h/sock" "$h/sock.ready"
	runuser -u "$u" -- timeout 20 /usr/bin/python3 "$h/fdpass.py" send "$h/sock" / &
	sp=$!
	for i in $(seq 50); do [ -e "$h/sock.ready" ] && break; sleep 0.1; done
	OUT=$(ssh_as "$u" "echo ns=\$($pidns); /usr/bin/python3 $h/fdpass.py recv $h/sock ${SECRET#/}/f </dev/null" 2>&1)
	kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
}
WALL=""
kernel=$("$CTL" explain ccwlp1$T 2>/dev/null | grep '^this kernel:')
case $kernel in *"the file-system wall"*) WALL=yes ;; esac
echo "# $kernel"
case $kernel in
*"wall and the scope ("*) unlike "$kernel" "signal" "explain: a shared plan's Landlock scope leaves signal out" ;;
*) skip "this kernel has no Landlock scope (ABI 6)" ;;
esac

# walls MODE NAME: the checks for one mode's users.
walls() {
	local m=$1 name=$2 S=ccwl${1}1$T MATE=ccwl${1}2$T ALONE=ccwl${1}3$T OPEN=ccwl${1}4$T
	local A B E ns_a ns_e R u h i
	for u in $S $ALONE $OPEN $MATE; do
		sshd_allow "$u"
		h=$(getent passwd "$u" | cut -d: -f6)
		install -o "$u" -m 0644 "$LIB_DIR/escape/fdpass.py" "$h/fdpass.py"
	done

	# ---- A makes the sandbox; it stays until a later login tells it to go.
	bg a.$m "$S" "echo ns=\$($pidns); while [ ! -e /tmp/a-go ]; do sleep 0.1; done; echo a-left"
	A=$CLIENT
	ns_a=$(ns_of a.$m)

	# ---- screen: started in one login, attached from the next over a pty
	run ssh_as "$S" "screen -dmS work sleep 4401; echo started=\$?; echo ns=\$($pidns)"
	like "$OUT" "started=0" "$name: screen -dmS work starts in a login"
	like "$OUT" "ns=$ns_a" "$name: that login joined the sandbox of the first"
	# The detach comes from beside, once screen -ls says it is attached.
	# screen -r waits for SCREEN's signal: a bound for when none comes.
	R=$(tty_login "$S" "export TERM=xterm
		(for i in \$(seq 80); do screen -ls | grep -q 'work.*Attached' && break; sleep 0.1; done
		 screen -S work -X detach) &
		timeout 8 screen -r work; echo rc=\$?")
	R=$(printf '%s\n' "$R" | grep -oE '\[detached from [0-9]+\.work\]|rc=[0-9]+' | tr '\n' ' ')
	# Where the kernel has Landlock's signal scope, the plan leaves it out
	# under share-sandbox: each login's own domain would keep SCREEN from
	# signalling the attaching screen -r (kill: EPERM), which would wait.
	like "$R" "[detached from " "$name: screen -r work attaches from the next login, over ssh -tt"
	like "$R" ".work] rc=0" "$name: and detaches, screen -r exiting 0"
	if [ "$m" = s ]; then
		# sshd made this login's pty in the host's devpts, before
		# cocoon-shell ran: a joined login's node is bound on a name of
		# its own in the sandbox's /dev, which ttyname finds (screen -r
		# sends that name; the kernel's, /dev/pts/N, may be one of
		# screen's own ptys in the sandbox, and SCREEN then says
		# "Attaching from inside of screen?").
		R=$(tty_login "$S" 'echo tty=$(tty); ls /dev | grep -c "^console-"')
		like_re "$R" "^tty=/dev/console-[0-9a-f]{16}$" "$name: a joined login's tty(1) is /dev/console-ID, its own"
		R=$(ssh_as "$S" 'ls /dev | grep -c "^console-"')
		is "$R" 0 "$name: and the name goes with its login"
	fi

	# ---- Landlock on a login that joined
	if [ -n "$WALL" ]; then
		wall_probe "$S"
		like "$OUT" "ns=$ns_a" "$name: the probing login joined the sandbox"
		like "$OUT" "READ-ERR 13" "$name: the joined login is under the Landlock wall: openat below a host descriptor is refused (EACCES)"
		unlike "$OUT" "TOPSECRET" "$name: the secret is not read through it"
	else
		skip "$name: the Landlock wall: not on this kernel"
	fi

	# ---- Another user of the same rule, at the same time: a sandbox of its own
	bg e.$m "$MATE" "echo ns=\$($pidns); echo from-mate > /tmp/mate-mark; sleep 4402"
	E=$CLIENT
	ns_e=$(ns_of e.$m)
	ok $([ -n "$ns_e" ] && [ -n "$ns_a" ] && [ "$ns_e" != "$ns_a" ]; echo $?) \
		"$name: a second user of the same rule gets a pid namespace of its own ($ns_a, $ns_e)"
	run ssh_as "$MATE" "echo ns=\$($pidns); cat /tmp/mate-mark"
	like "$OUT" "ns=$ns_e" "$name: control: that user's next login joins that user's sandbox"
	like "$OUT" "from-mate" "$name: and sees its /tmp"
	is "$(rows "$S" | grep -c 'shared, ')$(rows "$MATE" | grep -c 'shared, ')" "11" \
		"$name: list: each user's sandbox is a row of its own"

	# ---- pid 1 stays cocoon-init once the login that made the sandbox has left
	bg b.$m "$S" "echo ns=\$($pidns); touch /tmp/a-go
		while [ ! -e /tmp/b-go ]; do sleep 0.1; done
		echo after=\$(cat /proc/1/comm) \$($pidns)"
	B=$CLIENT
	for i in $(seq 100); do kill -0 "$A" 2>/dev/null || break; sleep 0.1; done
	wait "$A" 2>/dev/null
	like "$(cat "$W/a.$m")" "a-left" "$name: the first login logged out"
	for i in $(seq 100); do rows "$S" | grep -q 'shared, 1 login$' && break; sleep 0.1; done
	like "$(rows "$S")" "shared, 1 login" "$name: list counts one login left in the sandbox"
	run ssh_as "$S" "echo now=\$(cat /proc/1/comm) \$($pidns); cat /tmp/mate-mark 2>&1; touch /tmp/b-go"
	is "$(printf '%s\n' "$OUT" | grep '^now=')" "now=cocoon-init $ns_a" \
		"$name: a new login after the first left: pid 1 is cocoon-init, in the same pid namespace"
	unlike "$OUT" "from-mate" "$name: and the other user's /tmp is not there"
	for i in $(seq 100); do grep -q '^after=' "$W/b.$m" && break; sleep 0.1; done
	is "$(grep '^after=' "$W/b.$m")" "after=cocoon-init $ns_a" \
		"$name: the login that joined before, still in: pid 1 is cocoon-init, the same pid namespace"
	wait "$B" 2>/dev/null
	# The control: once the last login has left (linger = no) the
	# sandbox ends, and the next login is in a new pid namespace.
	wait_gone "$S"
	run ssh_as "$S" "echo now=\$(cat /proc/1/comm) \$($pidns)"
	like "$OUT" "now=cocoon-init " "$name: control: after the last login, a new login's pid 1 is cocoon-init"
	unlike "$OUT" " $ns_a" "$name: control: of a new pid namespace, which the check above tells apart"
	end_client "$E"
	wait_gone "$MATE"

	# ---- The control for screen: without share-sandbox, the next login
	# sees none of it, while it runs on the host.
	bg n.$m "$ALONE" "screen -dmS work sleep 4403; echo started=\$?; sleep 4404"
	A=$CLIENT
	like "$(cat "$W/n.$m")" "started=0" "$name: control: screen -dmS work starts without share-sandbox"
	ok $(pgrep -u "$ALONE" -x screen >/dev/null; echo $?) "$name: control: and runs on the host"
	R=$(tty_login "$ALONE" "export TERM=xterm; screen -r work; echo rc=\$?; screen -ls")
	like "$R" "There is no screen to be resumed matching work." \
		"$name: control: without share-sandbox the next login cannot attach it"
	like "$R" "No Sockets found" "$name: control: nor list it"
	end_client "$A"
	wait_gone "$ALONE"

	# ---- The control for Landlock: a shared plan without the wall
	if [ -n "$WALL" ]; then
		bg o.$m "$OPEN" "echo ns=\$($pidns); grep NoNewPrivs /proc/self/status; sleep 4405"
		A=$CLIENT
		wall_probe "$OPEN"
		like "$OUT" "ns=$(ns_of o.$m)" "$name: control: a login joins the shared sandbox without the wall"
		like "$OUT" "READ TOPSECRET-$$" "$name: control: without the wall (no-new-privs = no) the descriptor reads the secret"
		end_client "$A"
		wait_gone "$OPEN"
	else
		skip "$name: the Landlock control: not on this kernel"
	fi
}

# race USER: five logins of USER started at one moment; the pid
# namespaces they saw, one a line, in OUT.
race() {
	local i pids="" go=$W/go.$1
	rm -f "$go" "$W"/race.*
	for i in 1 2 3 4 5; do
		{
			while [ ! -e "$go" ]; do sleep 0.01; done
			# linger = no: a login that left before the next one joined
			# would end the sandbox. Each stays until all five are in (the
			# shared /tmp says so) or 30 s have passed.
			ssh_as "$1" "echo ns=\$($pidns); touch /tmp/race-in.\$\$
				for i in \$(seq 300); do [ \$(ls /tmp/race-in.* | wc -l) -ge 5 ] && break; sleep 0.1; done" \
				> "$W/race.$i" 2>&1
		} &
		pids="$pids $!"
	done
	sleep 0.5
	touch "$go"
	# shellcheck disable=SC2086
	wait $pids
	OUT=$(sed -n 's/^ns=//p' "$W"/race.*)
}

# ---- pam_cocoon
if [ -d /run/systemd/system ]; then
	skip "pam_cocoon: under systemd a shared sandbox is a systemd scope (tests/vm/35-share-systemd.t)"
else
	guest_sshd_start || bail_out "sshd did not start"
	walls p "pam_cocoon"
	sshd_cleanup
fi

# ---- cocoon-shell: an sshd without pam_cocoon
sshd_start || bail_out "sshd did not start"
walls s "cocoon-shell"

# Racing first logins: one sandbox (tests/sessions/share.t has it for
# pam_cocoon). The control: without share-sandbox, five.
race ccwls1$T
is "$(printf '%s\n' "$OUT" | grep -c '^[0-9][0-9]*$')" 5 "cocoon-shell: five simultaneous first logins all run"
n=$(printf '%s\n' "$OUT" | sort -u | wc -l)
is "$n" 1 "cocoon-shell: and share one sandbox"
wait_gone ccwls1$T
race ccwls3$T
is "$(printf '%s\n' "$OUT" | grep -c '^[0-9][0-9]*$')" 5 "cocoon-shell: control: five racing logins without share-sandbox run"
is "$(printf '%s\n' "$OUT" | sort -u | wc -l)" 5 "cocoon-shell: control: in five sandboxes"

done_testing
