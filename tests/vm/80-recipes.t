#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon(7)'s recipes word for word on a booted Debian 12 system: the
# blocks marked `recipe:` in the installed page (tests/docs/recipe.sh),
# the policy written and the commands run as printed, then real logins
# through systemd's sshd: the kiosk shows its menu whatever is asked,
# alice's shell is confined, a guest gets its session's cgroup; the PAM
# blocks in sshd's, login's and sudo's stacks.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
ARCH=$(dpkg --print-architecture)
restore() {
	vm 'for u in kiosk alice guest rcpbob rcpadm; do pkill -KILL -u $u; userdel -r $u; done
		groupdel cocoon-kiosk; groupdel cocoon-guest
		test -f /root/recipes.conf && cp /root/recipes.conf /etc/cocoon/cocoon.conf
		for s in sshd login sudo; do
			test -f /root/recipes-$s.pam && cp /root/recipes-$s.pam /etc/pam.d/$s; done
		rm -f /etc/ssh/sshd_config.d/cocoon.conf /etc/ssh/sshrc; systemctl reload ssh' >/dev/null 2>&1
}
trap restore EXIT

# The packages of this build, unless a test before this one left them.
if [ "$(vm "dpkg-query -W -f='\${Version}' cocoon 2>/dev/null")" != "$VERSION" ]; then
	vm 'mkdir -p /root/debs/new'
	vm_put "$TOP/build/deb/cocoon_${VERSION}_$ARCH.deb" "$TOP/build/deb/libpam-cocoon_${VERSION}_$ARCH.deb" \
		"$TOP/build/deb/cocoon-shell_${VERSION}_$ARCH.deb" /root/debs/new/
	run vm 'apt-get install -y -q /root/debs/new/*.deb 2>&1'
	is "$RC" 0 "apt installs this build"
fi
page=$VM_DIR/cocoon.7.gz
vm 'cat /usr/share/man/man7/cocoon.7.gz' > "$page"
recipe() { "$TOP/tests/docs/recipe.sh" "$page" "$@"; }
vm 'cp /etc/cocoon/cocoon.conf /root/recipes.conf'
# keys USER: the harness's key, so that it can log in (not the recipe's).
keys() { vm "install -d -o $1 -m 0700 /home/$1/.ssh &&
	install -o $1 -m 0600 /root/.ssh/authorized_keys /home/$1/.ssh/authorized_keys"; }
# pam_lines SERVICE: the pam-service recipe's first line before the first
# of SERVICE's session lines and its last after the last, as the page says,
# in Debian's file (kept in /root/recipes-SERVICE.pam for restore).
pam_lines() {
	local pam first last
	pam=$(recipe pam-service pam)
	first=$(printf '%s\n' "$pam" | head -n 1)
	last=$(printf '%s\n' "$pam" | tail -n 1)
	vm "test -f /root/recipes-$1.pam || cp /etc/pam.d/$1 /root/recipes-$1.pam
		awk -v first='$first' -v last='$last' '/^session|^@include common-session/ { if (!f) f = NR; n = NR }
		{ line[NR] = \$0 } END { for (i = 1; i <= NR; i++) { if (i == f) print first; print line[i];
		if (i == n) print last } }' /root/recipes-$1.pam > /etc/pam.d/$1"
}

# --- Kiosk accounts
recipe kiosk policy | vm 'cat > /etc/cocoon/cocoon.conf'
run vm "$(recipe kiosk sh)"
is "$RC" 0 "kiosk recipe: its commands" || printf '%s\n' "$OUT" | sed 's/^/# /'
keys kiosk
run vm_as kiosk -tt <<< $'1\nq'
like "$OUT" "kiosk menu" "ssh kiosk@: the menu"
like "$OUT" "kiosk: goodbye" "leaving it ends the login"
run vm_as kiosk 'cat /etc/shadow' < /dev/null
like "$OUT" "this account runs only its menu (you asked for: cat /etc/shadow)" \
	"ssh kiosk@ CMD: the menu, not the command"
unlike "$OUT" "root:" "and the command did not run"

# --- A confined login shell
vm 'useradd -m -s /bin/bash alice'
keys alice
run vm "$(recipe login-shell sh)"
is "$RC" 0 "login-shell recipe: its commands" || printf '%s\n' "$OUT" | sed 's/^/# /'
run vm_as alice 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status' < /dev/null
is "$OUT" "NoNewPrivs:	1
Seccomp:	2" "ssh alice@: confined and filtered"

# --- Guest accounts
recipe guest policy | vm 'cat > /etc/cocoon/cocoon.conf'
run vm "$(recipe guest sh)"
is "$RC" 0 "guest recipe: its commands" || printf '%s\n' "$OUT" | sed 's/^/# /'
keys guest
# The session's cgroup, seen from the host while it runs.
vm_as guest 'touch ~/kept; sleep 60' < /dev/null > /dev/null 2>&1 &
bg=$!
cg=
for _ in $(seq 100); do
	cg=$(vm 'p=$(pgrep -u guest -x sleep | head -n 1); [ -n "$p" ] && cut -d: -f3 /proc/$p/cgroup')
	[ -n "$cg" ] && break
	sleep 0.2
done
run vm "cat /sys/fs/cgroup$cg/pids.max"
is "$OUT" 256 "ssh guest@: a session cgroup with the recipe's pids-max ($cg)"
kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null
vm 'pkill -KILL -u guest' 2>/dev/null
run vm_as guest 'ls ~/kept 2>&1' < /dev/null
like "$OUT" "No such file" "a fresh home at the next login"

# --- The recipes' sshd_config and PAM blocks
vm 'pkill -KILL -u guest; cp /etc/pam.d/sshd /root/recipes-sshd.pam'
recipe login-shell sshd_config | vm 'cat > /etc/ssh/sshd_config.d/cocoon.conf'
run vm 'sshd -t && systemctl reload ssh &&
	sshd -T -C user=alice,host=localhost,addr=127.0.0.1 | grep -E "^(disableforwarding|permituserrc) "'
is "$OUT" "permituserrc no
disableforwarding yes" "login-shell recipe's Match block: sshd takes it, forwarding and rc off for alice"
pam=$(recipe pam-service pam)
is "$(printf '%s\n' "$pam" | sed -n 2p)" "..." "pam-service recipe: a first line, the others, a last line"
is "$(recipe login-shell pam)" "$pam" "the login-shell recipe's PAM block is the pam-service one"

# The login-shell recipe's PAM block in sshd's stack, under a policy whose
# rules name service = shell only: sshd confines nobody itself, and the
# PAM environment of alice (cocoon-shell) is cut before anything of sshd's
# runs for her on the host. What would run it there, Match block or not,
# is an administrator's /etc/ssh/sshrc (Debian ships none): sshd runs it
# with /bin/sh, and ~/.pam_environment (Debian's pam_env user_readenv=1)
# names the user's library in LD_PRELOAD.
vm 'useradd -m -s /bin/bash rcpbob &&
	printf "[default]\nservice = shell\nprofile = default\n" > /etc/cocoon/cocoon.conf &&
	echo : > /etc/ssh/sshrc'
keys rcpbob
vm "install -d -o alice /home/alice/t && cat > /home/alice/t/r.c" < "$TOP/tests/escape/report.c"
vm 'cc -shared -fPIC -o /home/alice/t/r.so /home/alice/t/r.c && chmod 0755 /home/alice/t/r.so &&
	printf "LD_PRELOAD DEFAULT=/home/alice/t/r.so\n" > /home/alice/.pam_environment &&
	chown alice /home/alice/.pam_environment'
vm_as alice true < /dev/null > /dev/null 2>&1
like "$(vm 'cat /home/alice/t/reports 2>/dev/null')" "seccomp=0" \
	"control: with Debian's sshd stack, alice's LD_PRELOAD runs unfiltered in sshrc's /bin/sh"
vm 'rm -f /home/alice/t/reports'
pam_lines sshd
run vm 'cocoonctl check --pam'
is "$RC" 0 "cocoonctl check --pam takes the login-shell recipe's block" || printf '%s\n' "$OUT" | sed 's/^/# /'
run vm_as alice 'cat /proc/1/comm; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status' < /dev/null
is "$OUT" "cocoon-init
NoNewPrivs:	1
Seccomp:	2" "ssh alice@ with the login-shell block: her cocoon-shell sandbox"
is "$(vm 'cat /home/alice/t/reports 2>/dev/null')" "" \
	"and her LD_PRELOAD ran nowhere: the block cut it before sshrc's /bin/sh"
run vm_as rcpbob 'grep -E "^Seccomp:" /proc/self/status' < /dev/null
is "$OUT" "Seccomp:	0" "ssh rcpbob@ (bash, the rules name shell only): not confined through sshd"
vm 'pkill -KILL -u alice; userdel -r alice; rm -f /etc/ssh/sshrc' >/dev/null 2>&1

# The pam-service recipe in login's and sudo's stacks ("or login, su,
# sudo"), under the administrators recipe: a member of sudo unconfined,
# anyone else confined (su's variant is tests/deb/deb.t's).
recipe admins policy | vm 'cat > /etc/cocoon/cocoon.conf'
pam_lines login
pam_lines sudo
vm 'useradd -m -s /bin/bash -G sudo rcpadm'
run vm 'cocoonctl check --pam'
is "$RC" 0 "cocoonctl check --pam takes the recipe's lines in login and sudo" || printf '%s\n' "$OUT" | sed 's/^/# /'
for u in rcpbob rcpadm; do
	run vm "printf 'cat /proc/1/comm; grep Seccomp: /proc/self/status; exit\n' |
		script -qec 'login -f $u' /dev/null | tr -d '\r'"
	eval "login_$u=\$OUT"
	run vm "sudo -u $u sh -c 'cat /proc/1/comm; grep Seccomp: /proc/self/status'"
	eval "sudo_$u=\$OUT"
done
like "$login_rcpbob" "cocoon-init" "login on a pty (pam-service recipe): rcpbob sandboxed"
like "$login_rcpbob" "Seccomp:	2" "and filtered"
like "$login_rcpadm" "Seccomp:	0" "login: a member of sudo unconfined"
unlike "$login_rcpadm" "cocoon-init" "in the host's pid namespace"
is "$sudo_rcpbob" "cocoon-init
Seccomp:	2" "sudo -u rcpbob (pam-service recipe): sandboxed, filtered"
is "$sudo_rcpadm" "systemd
Seccomp:	0" "sudo -u rcpadm: a member of sudo unconfined"
vm 'cp /root/recipes-login.pam /etc/pam.d/login; cp /root/recipes-sudo.pam /etc/pam.d/sudo'
run vm "sudo -u rcpbob sh -c 'cat /proc/1/comm'"
is "$OUT" "systemd" "control: with Debian's sudo stack, sudo -u rcpbob is not confined"

# A kiosk through pam_cocoon: the PAM service recipe's lines in sshd's
# stack (still there), the kiosk policy, its Match block.
recipe kiosk policy | vm 'cat > /etc/cocoon/cocoon.conf'
recipe kiosk-pam sshd_config | vm 'cat >> /etc/ssh/sshd_config.d/cocoon.conf'
run vm 'sshd -t && systemctl reload ssh && usermod -s /usr/sbin/nologin kiosk'
is "$RC" 0 "kiosk-pam recipe: sshd takes its Match block" || printf '%s\n' "$OUT" | sed 's/^/# /'
# sshd re-executes on reload: new connections until then are reset.
for _ in $(seq 50); do
	ssh "${VM_SSH_OPTS[@]}" root@127.0.0.1 true 2>/dev/null && break
	sleep 0.2
done
run vm_as kiosk -tt <<< 'q'
like "$OUT" "kiosk menu" "ssh kiosk@ through pam_cocoon and ForceCommand: the menu"
run vm_as kiosk 'cat /etc/shadow' < /dev/null
like "$OUT" "you asked for: cat /etc/shadow" "ssh kiosk@ CMD: the menu again"
unlike "$OUT" "root:" "and not the command"
done_testing
