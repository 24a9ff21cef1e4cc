#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon in the real session stacks of login (shadow's, on a pty),
# runuser -l and sudo -i (each file restored from a backup on exit): the
# command runs in the sandbox, its status comes back, and nothing of the
# session is left afterwards.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
backups=$(mktemp -d /run/cocoon-pam-services.XXXXXX)
trap 'pam_services_restore; rm -rf "$backups"; policy_reset; cleanup_users' EXIT
pam_services_edit "$backups" login runuser-l sudo-i

add_user ccsvc1$T
policy_reset
live() { ps -o stat= -u ccsvc1$T | grep -vc '^Z'; }
after() { # after NAME: nothing of the session is left
	local i
	for i in $(seq 50); do [ "$(live)" = 0 ] && break; sleep 0.1; done
	is "$(live)" "0" "$1: no live process of the user afterwards"
	[ "$(live)" = 0 ] || ps -o pid,ppid,stat,args -u ccsvc1$T | sed 's/^/# /'
	is "$(inits_back_to "$inits_before")" "$inits_before" "$1: no cocoon-init is left"
	is "$(mount_count)" "$mounts" "$1: no new mount on the host"
}
inits_before=$(inits)
mounts=$(mount_count)
probe='cat /proc/1/comm; grep "^NoNewPrivs:" /proc/self/status'

# login on a pty, commands fed through its stdin. shadow's login exits 0
# whatever the shell's status (it waits with wait(NULL)): root, whom the
# module leaves alone, gives the status to expect.
login_as() { # login_as USER COMMANDS: OUT and RC
	{ sleep 1; echo "$2"; sleep 0.5; echo 'exit 7'; sleep 0.5; } |
		timeout 30 script -qec "login -f $1" /dev/null > "$backups/login.out" 2>&1
	RC=$?
	OUT=$(tr -d '\r' < "$backups/login.out")
}
login_as root true
want=$RC
login_as ccsvc1$T "$probe"
like "$OUT" "cocoon-init" "login: the shell runs in the sandbox"
like "$OUT" "NoNewPrivs:	1" "login: with no_new_privs"
is "$RC" "$want" "login: exits as it does without the sandbox"
after login

run runuser -l ccsvc1$T -c "$probe; exit 6"
like "$OUT" "cocoon-init" "runuser -l: in the sandbox"
like "$OUT" "NoNewPrivs:	1" "runuser -l: with no_new_privs"
is "$RC" 6 "runuser -l: the exit status comes back"
after "runuser -l"

run sudo -i -u ccsvc1$T sh -c "$probe; exit 5"
like "$OUT" "cocoon-init" "sudo -i: in the sandbox"
like "$OUT" "NoNewPrivs:	1" "sudo -i: with no_new_privs"
is "$RC" 5 "sudo -i: the exit status comes back"
after "sudo -i"

done_testing
