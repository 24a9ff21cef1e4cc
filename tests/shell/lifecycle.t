#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A per-login session ends with its login, through a real sshd, in shell
# mode (cocoon-shell as the login shell, sshd's rule `sandbox = none` with
# pam_cocoon's lines in its stack, as cocoon-shell(1) recommends) and in
# PAM mode (pam_cocoon confines the connection): a client killed with or
# without a pty, a job stopped with ^Z, a command that ignores SIGHUP,
# and a session's /tmp filled with 200 MB. Each must leave no process of
# the user, no root cocoon-shell, no session record and no mount
# namespace. And a ^Z or ^C sent on the pty a few milliseconds into
# cocoon-shell's setup, the pty then closed, leaves nothing either.
#
# The controls: each workload but the stopped job is first run in an
# account sshd does not confine (plain bash), where it outlives the
# connection. Shell mode did the same before cocoon-shell watched its
# login (measured 2026-12-04, this file against the tree before the fix:
# 15 s after the client's death, in all four cases, sleep still ran, two
# root cocoon-shell processes were left and `cocoonctl list` listed the
# session; Shmem stayed 200 MB higher). The ^Z during setup left, at
# 25 ms, three stopped root cocoon-shell processes and no record, at 50
# and 60 ms a live session with its record and cgroup; 0-20, 30 and
# 40 ms ended cleanly.
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /run/cocoon-lfc-test.XXXXXX)
chmod 0755 "$work"
UH=lfch$T # host: unconfined, the control
US=lfcs$T # shell mode
UP=lfcp$T # PAM mode
UN=lfcn$T # shell mode, a plan without a pid namespace
CLIENT=""
cleanup() {
	[ -n "$CLIENT" ] && kill -KILL "$CLIENT" 2>/dev/null
	exec 7>&- 2>/dev/null
	sshd_cleanup
	rm -f /tmp/lfc-big.$UH
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

add_user $UH || bail_out "useradd"
add_user $US -s "$SHELL_BIN" || bail_out "useradd"
add_user $UP || bail_out "useradd"
add_user $UN -s "$SHELL_BIN" || bail_out "useradd"
policy_reset
# Shell mode's account is confined on service shell only; through sshd
# pam_cocoon only cuts its environment. pids-max gives each session a
# cgroup of its own, which must go too.
# Without a pid namespace the session's cgroup is what holds every process
# of it.
printf '[user %s]\nservice = shell\nprofile = default\npids-max = 100\n[user %s]\nprofile = default\npids-max = 100\n[user %s]\nservice = shell\nprofile = nopid\npids-max = 100\n[profile nopid]\nro-bind = /usr\nsymlink = usr/bin /bin\nsymlink = usr/lib /lib\nsymlink = usr/lib64 /lib64\nunshare = ipc\n[default]\nsandbox = none\n' \
	$US $UP $UN | policy_write cocoon.conf
guest_sshd_start || bail_out "sshd"
OUR_UIDS=" $(id -u $US) $(id -u $UP) $(id -u $UN) "
for u in $UH $US $UP $UN; do sshd_allow $u; done

ms() { echo $(($(date +%s%N) / 1000000)); }
# Root processes running this tree's cocoon-shell (the supervisor and
# run mode's pid 1), zombies aside; alive COUNTS those of PIDS alive.
shell_pids() {
	local p
	for p in $(ps -eo pid=,comm= | awk '$2 == "cocoon-shell" || $2 == "cocoon-init" { print $1 }'); do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$SHELL_BIN" ] && echo "$p"
	done | sort
}
alive() {
	local p n=0
	for p in "$@"; do ps -o stat= -p "$p" | grep -qv '^Z' && n=$((n + 1)); done
	echo "$n"
}
records_of() { "$CTL" list 2>/dev/null | awk -v u="$1" '$2 == u' | wc -l; }
# holders NS: what still holds the mount namespace NS (mnt:[N]) of one of
# the test's sessions: a process of the test's users or tree in it, a
# descriptor of one, or a bind of its nsfs file.
holders() {
	local p n=0 exe uid
	for p in /proc/[0-9]*; do
		uid=$(stat -c %u "$p" 2>/dev/null) || continue
		case $OUR_UIDS in *" $uid "*) ;; *)
			exe=$(readlink "$p/exe" 2>/dev/null)
			case $exe in "$COCOON_ROOT"/*|"$SSHD_DIR"/*) ;; *) continue ;; esac ;;
		esac
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$1" ] && n=$((n + 1))
		ls -l "$p/fd" 2>/dev/null | grep -qF "$1" && n=$((n + 1))
	done
	grep -h nsfs /proc/[0-9]*/mountinfo 2>/dev/null | grep -qF "$1" && n=$((n + 1))
	echo "$n"
}
# gone START USER NS: up to 15 s for USER's processes, root cocoon-shell
# processes and record to go (prints the milliseconds since START), then
# up to 5 s for nothing to hold the session's mount namespace NS; prints
# what is left otherwise.
gone() {
	local start=$1 user=$2 ns=$3 i left took="" pids=$4
	while [ $(($(ms) - start)) -lt 15000 ]; do
		left="procs=$(live_procs "$user") shells=$(alive $pids) records=$(records_of "$user")"
		case $left in *=[1-9]*) sleep 0.02 ;; *) took="$(($(ms) - start)) ms"; break ;; esac
	done
	[ -n "$took" ] || { echo "$left"; return 1; }
	for i in $(seq 10); do
		[ "$(holders "$ns")" = 0 ] && { echo "$took"; return 0; }
		sleep 0.5
	done
	echo "$took, but its mount namespace is held"
	return 1
}
# the mount namespace of USER's process named COMM, once it runs.
ns_of() {
	local i p
	for i in $(seq 100); do
		p=$(pgrep -u "$1" -x "$2" | head -1)
		[ -n "$p" ] && { readlink "/proc/$p/ns/mnt"; return 0; }
		sleep 0.1
	done
	return 1
}
# USER's stopped sleep processes (ps -u U -C sleep would add everyone's
# sleep: its selections are a union).
stopped() { ps -o stat=,comm= -u "$1" 2>/dev/null | awk '$1 ~ /^T/ && $2 == "sleep"' | wc -l; }

# connect USER PTY CMD: the real client in the background, its stdin a
# fifo held open on fd 7 (for ^Z), killed with SIGKILL by drop.
connect() {
	local user=$1 tty=$2 cmd=$3
	rm -f "$work/in"; mkfifo "$work/in"
	# shellcheck disable=SC2046
	ssh $(SSH_OPTS) $tty -l "$user" 127.0.0.1 "$cmd" < "$work/in" > "$work/out" 2>&1 &
	CLIENT=$!
	exec 7> "$work/in"
}
drop() { kill -KILL "$CLIENT" 2>/dev/null; wait "$CLIENT" 2>/dev/null; CLIENT=""; exec 7>&-; }

# case NAME TTY CMD [^Z]: each workload in the three accounts.
workload() {
	local name=$1 tty=$2 cmd=$3 tstp=${4:-} user mode ns t result shmem0 before pids
	local users=${5:-"$UH $US $UP"}
	# Unconfined, the pty's hangup itself ends a stopped sleep (the
	# kernel sends SIGHUP and SIGCONT to the terminal's session leader):
	# no control; the header has the figure from before the fix.
	[ -n "$tstp" ] && [ -z "${5:-}" ] && users="$US $UP"
	for user in $users; do
		case $user in $UH) mode=control ;; $US) mode="shell mode" ;; $UN) mode="shell mode, no pid namespace" ;; *) mode="PAM mode" ;; esac
		before=$(shell_pids)
		connect "$user" "$tty" "$cmd"
		ns=$(ns_of "$user" sleep) || { drop; connect "$user" "$tty" "$cmd"; ns=$(ns_of "$user" sleep); } || {
			ok 1 "$name ($mode): the session starts"; sed 's/^/# /' "$work/out"; tail -5 "$SSHD_DIR/sshd.log" | sed 's/^/# /'; drop; continue; }
		if [ -n "$tstp" ]; then
			printf '\032' >&7
			for t in $(seq 30); do [ "$(stopped "$user")" -ge 1 ] && break; sleep 0.1; done
			# The kernel drops ^Z for a process group with no parent
			# in the session (sleep as the session's leader, exec'd by
			# bash, in PAM mode and unconfined): stopped by hand there.
			if [ "$(stopped "$user")" = 0 ]; then
				echo "# $name ($mode): ^Z dropped (orphaned process group), SIGSTOP sent"
				pkill -STOP -u "$user" -x sleep
			fi
			for t in $(seq 30); do [ "$(stopped "$user")" -ge 1 ] && break; sleep 0.1; done
			is "$(stopped "$user")" 1 "$name ($mode): the job is stopped"
		fi
		pids=$(comm -13 <(echo "$before") <(shell_pids))
		shmem0=$(awk '/^Shmem:/ {print $2}' /proc/meminfo)
		t=$(ms)
		drop
		if [ "$user" = $UH ]; then
			sleep 3
			[ "$(live_procs $UH)" -ge 1 ]
			ok $? "$name (control): unconfined, sleep outlives the client"
			pkill -KILL -u $UH; wait_gone $UH
			continue
		fi
		result=$(gone "$t" "$user" "$ns" "$pids")
		ok $? "$name ($mode): every process, record and mount of the session goes ($result)" ||
			{ pkill -KILL -u "$user"; for t in $pids; do kill -KILL "$t"; done; wait_gone "$user"; }
		case $name in *MB*) echo "# $name ($mode): Shmem changed by $(( ($(awk '/^Shmem:/ {print $2}' /proc/meminfo) - shmem0) / 1024 )) MB at logout (host-wide, for information)" ;; esac
	done
}

[ -n "${LFC_ONLY:-}" ] && [ "$LFC_ONLY" != none ] && { workload "$LFC_ONLY" "${LFC_TTY:-}" "$LFC_CMD" "${LFC_TSTP:-}" ${LFC_USERS:+"$LFC_USERS"}; done_testing; exit; }
if [ "${LFC_ONLY:-}" != none ]; then
workload "no pty, client killed" "" 'exec sleep 302'
workload "pty, job stopped with ^Z, client killed" -tt 'sleep 300' tstp
workload "pty, SIGHUP ignored, client killed" -tt 'trap "" HUP; exec sleep 300'
workload "200 MB in /tmp, client killed" "" 'head -c 200M /dev/zero > /tmp/lfc-big.$USER && exec sleep 303'
# A child that ignores SIGHUP as well: the cgroup ends it after the grace.
workload "SIGHUP ignored by a child too, client killed" "" 'trap "" HUP; sleep 304 & exec sleep 300' "" "$UH $UN"
fi

# ---- ^Z (and ^C) a few milliseconds into cocoon-shell's setup, the pty
# then closed
# A caller on a pty of its own, as sshd leaves one (the terminal's session
# leader, in its foreground); the pty's other end, held by this driver,
# which outlives it (so only the hangup tells the login is over).
cat > "$work/tstp.py" <<'PY'
import fcntl, os, pty, sys, termios, time
shell, uid, gid, delay = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
key = bytes([int(sys.argv[5], 16)])
master, slave = pty.openpty()
pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.closerange(3, 256)
    os.setgroups([]); os.setgid(gid); os.setuid(uid)
    os.execv(shell, ["-cocoon-shell", "-c", "sleep 300"])
os.close(slave)
time.sleep(delay / 1000)
os.write(master, key)
time.sleep(0.3)
os.close(master)
start = time.monotonic()
while time.monotonic() - start < 10:
    if os.waitpid(pid, os.WNOHANG)[0]:
        print("ended %d ms after the hangup" % ((time.monotonic() - start) * 1000))
        sys.exit(0)
    time.sleep(0.02)
print("still running 10 s after the hangup")
PY
cgdirs() { ls -d /sys/fs/cgroup/*/cocoon/*/ /sys/fs/cgroup/cocoon/*/ 2>/dev/null | sort; }
for try in 1a:0 1a:5 1a:10 1a:15 1a:20 1a:25 1a:30 1a:40 1a:50 1a:60 03:0 03:10 03:20 03:30 03:45 03:60; do
	key=${try%:*} delay=${try#*:}
	name="^Z"; [ "$key" = 03 ] && name="^C"
	before=$(shell_pids)
	cg_before=$(cgdirs)
	out=$(python3 "$work/tstp.py" "$SHELL_BIN" "$(id -u $US)" "$(id -g $US)" "$delay" "$key" 2>&1)
	new=$(comm -13 <(echo "$before") <(shell_pids))
	t=$(ms)
	while [ $(($(ms) - t)) -lt 5000 ]; do
		left="procs=$(live_procs $US) shells=$(alive $new) records=$(records_of $US)"
		case $left in *=[1-9]*) sleep 0.05 ;; *) break ;; esac
	done
	# A session cgroup made meanwhile and left: empty, or holding the
	# user's or this tree's processes. Other sessions on this host (a
	# second copy of the suite) are not the test's: their cgroups come
	# and go, so only one that is still there 3 s later counts.
	cg_left=0
	cg_new=$(comm -13 <(echo "$cg_before") <(cgdirs))
	for t in $(seq 30); do [ -z "$(comm -12 <(echo "$cg_new") <(cgdirs))" ] && break; sleep 0.1; done
	for d in $(comm -12 <(echo "$cg_new") <(cgdirs)); do
		[ -d "$d" ] || continue
		procs=$(cat "$d/cgroup.procs" 2>/dev/null)
		[ -z "$procs" ] && { cg_left=$((cg_left + 1)); echo "# left: $d"; continue; }
		for p in $procs; do
			[ "$(stat -c %u "/proc/$p" 2>/dev/null)" = "$(id -u $US)" ] && cg_left=$((cg_left + 1))
		done
	done
	is "$left cgroups=$cg_left" "procs=0 shells=0 records=0 cgroups=0" \
		"$name $delay ms into the setup, then the pty closed: nothing is left ($out)"
	pkill -KILL -u $US; for p in $new; do kill -KILL "$p" 2>/dev/null; done
	wait_gone $US
done

done_testing
