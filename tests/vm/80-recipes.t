#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon(7)'s recipes word for word on a booted Debian 12 system: the
# blocks marked `recipe:` in the installed page (tests/docs/recipe.sh),
# the policy written and the commands run as printed, then real logins
# through systemd's sshd: the kiosk shows its menu whatever is asked,
# alice's shell is confined, a guest gets its session's cgroup.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
ARCH=$(dpkg --print-architecture)
restore() {
	vm 'for u in kiosk alice guest; do pkill -KILL -u $u; userdel -r $u; done
		groupdel cocoon-kiosk; groupdel cocoon-guest
		test -f /root/recipes.conf && cp /root/recipes.conf /etc/cocoon/cocoon.conf
		test -f /root/recipes-sshd.pam && cp /root/recipes-sshd.pam /etc/pam.d/sshd
		rm -f /etc/ssh/sshd_config.d/cocoon.conf; systemctl reload ssh' >/dev/null 2>&1
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
# A kiosk through pam_cocoon: the PAM service recipe's two lines, first
# and last among sshd's session lines, as the page says; its Match block.
pam=$(recipe pam-service pam)
is "$(printf '%s\n' "$pam" | sed -n 2p)" "..." "pam-service recipe: a first line, the others, a last line"
first=$(printf '%s\n' "$pam" | head -n 1)
last=$(printf '%s\n' "$pam" | tail -n 1)
vm "sed -i '0,/^session/s//$first\n&/' /etc/pam.d/sshd &&
	awk '/^session|^@include common-session/ { n = NR } { line[NR] = \$0 }
		END { for (i = 1; i <= NR; i++) { print line[i]; if (i == n) print \"$last\" } }' \
		/etc/pam.d/sshd > /tmp/p && cat /tmp/p > /etc/pam.d/sshd"
recipe kiosk policy | vm 'cat > /etc/cocoon/cocoon.conf'
vm 'pkill -KILL -u alice; userdel -r alice' >/dev/null 2>&1
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
