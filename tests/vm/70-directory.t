#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Directory accounts on a systemd host, as Debian ships the daemons: a
# slapd on the guest's loopback, sssd started as its unit (systemctl
# start sssd) with `sss` in nsswitch.conf, pam_cocoon in /etc/pam.d/sshd.
# A directory user confined by its directory group logs in through the
# real sshd: names, groups, lastlog, and names across `systemctl restart
# sssd` under a running session. A systemd-userdb JSON user
# (/etc/userdb, served by systemd-userdbd) resolves inside a session.
# The guest is put back as it was: sssd stopped and unconfigured, its
# domain's cache removed, nsswitch.conf, the sshd stack and the policy
# as they were, slapd stopped.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
ARCH=$(dpkg --print-architecture)

U=ccd1 G=ccdg P=ccdp UD=ccud
uid=61000 gid_g=61001 uid_ud=61010
cleanup() {
	vm "systemctl stop sssd; rm -f /etc/sssd/sssd.conf /var/lib/sss/db/cache_cocoonvm.ldb \
		/var/lib/sss/db/timestamps_cocoonvm.ldb
	[ -f /root/70.nsswitch ] && mv /root/70.nsswitch /etc/nsswitch.conf
	[ -f /root/70.sshd.pam ] && mv /root/70.sshd.pam /etc/pam.d/sshd
	[ -f /root/70.cocoon.conf ] && mv /root/70.cocoon.conf /etc/cocoon/cocoon.conf
	[ -f /root/70.slapd.env ] && . /root/70.slapd.env && kill \$SLAPD_PID && rm -rf \$SLAPD_DIR
	rm -f /root/70.slapd.env /etc/userdb/$UD.* /etc/userdb/$uid_ud.*
	pkill -KILL -u $uid; rm -rf /home/$U" >/dev/null 2>&1
}
trap cleanup EXIT

# The packages of this tree, unless 10-package.t left them installed.
if ! vm 'dpkg -s libpam-cocoon >/dev/null 2>&1'; then
	vm 'mkdir -p /root/debs/new'
	vm_put "$TOP/build/deb/"{cocoon,libpam-cocoon,cocoon-shell}_"${VERSION}_$ARCH.deb" /root/debs/new/
	vm 'apt-get install -y -q /root/debs/new/*.deb >/dev/null 2>&1' || bail_out "cannot install the packages"
fi

# --- as installed: nothing of the directory runs or is configured
run vm 'for u in slapd nslcd nscd sssd; do systemctl is-active $u; done |
	tr "\n" " "; grep -E "^(passwd|group):" /etc/nsswitch.conf | tr -s " \n" "  ";
	grep -c -E "pam_(sss|ldap)" /etc/pam.d/common-session /etc/pam.d/common-account | tr "\n" " "'
is "$OUT" "inactive inactive inactive inactive passwd: files systemd group: files systemd /etc/pam.d/common-session:0 /etc/pam.d/common-account:0 " \
	"the image: slapd, nslcd, nscd, sssd installed but not running; Debian's nsswitch.conf and PAM common-*"

# --- slapd on the guest's loopback, with lib-sssd.sh's functions (and
# lib-slapd.sh's, which it sources from beside it)
vm_put "$TOP/tests/lib-sssd.sh" "$TOP/tests/lib-slapd.sh" /root/
guest() { # guest SCRIPT: bash as root in the guest, lib-sssd.sh loaded
	vm "T=vm; host_lock() { :; }; host_unlock() { :; }; . /root/lib-sssd.sh
		[ ! -f /root/70.slapd.env ] || . /root/70.slapd.env
		$1"
}
run guest "slapd_setup \$SSSD_PORTS && declare -p SLAPD_DIR SLAPD_URI SLAPD_PID > /root/70.slapd.env &&
	ldap_group $P $uid && ldap_group $G $gid_g $U && ldap_user $U $uid $uid /bin/bash &&
	install -d -o $uid -g $uid -m 0700 /home/$U/.ssh &&
	install -o $uid -m 0600 /root/.ssh/authorized_keys /home/$U/.ssh/authorized_keys && echo ready"
is "$OUT" "ready" "slapd on 127.0.0.1 in the guest, with the user and its groups" || bail_out "no slapd"

# --- sssd as Debian ships it: its configuration in /etc/sssd, its unit
run guest "cp -a /etc/nsswitch.conf /root/70.nsswitch &&
	sed -i -E 's/^((passwd|group|shadow):[[:space:]]+files)([[:space:]]|\$)/\1 sss\3/' /etc/nsswitch.conf &&
	sssd_conf /etc/sssd/sssd.conf && systemctl start sssd && sssd_answers $G &&
	systemctl show -p ActiveState -p MainPID sssd | sort | tr '\n' ' '"
like "$OUT" "ActiveState=active MainPID=" "systemctl start sssd: its unit runs, it answers" ||
	bail_out "sssd did not start: $(vm 'journalctl -q -u sssd -n 20')"
run vm "id $U"
is "$OUT" "uid=$uid($U) gid=$uid($P) groups=$uid($P),$gid_g($G)" "the guest sees the directory user"

# --- a systemd-userdb user: JSON records in /etc/userdb
vm "mkdir -p /etc/userdb && cd /etc/userdb &&
	printf '{\"userName\":\"$UD\",\"uid\":$uid_ud,\"gid\":$uid_ud,\"homeDirectory\":\"/nonexistent\",\"shell\":\"/usr/sbin/nologin\",\"disposition\":\"regular\"}\n' > $UD.user &&
	printf '{\"groupName\":\"$UD\",\"gid\":$uid_ud,\"disposition\":\"regular\"}\n' > $UD.group &&
	ln -sf $UD.user $uid_ud.user && ln -sf $UD.group $uid_ud.group"
run vm "systemctl is-enabled systemd-userdbd.socket; getent passwd $UD"
is "$OUT" "enabled
$UD:x:$uid_ud:$uid_ud:$UD:/nonexistent:/usr/sbin/nologin" "userdb: systemd-userdbd's socket is enabled, the guest resolves the JSON user"

# --- pam_cocoon for sshd, the return line first, the plain line last
vm "cp /etc/pam.d/sshd /root/70.sshd.pam && cp /etc/cocoon/cocoon.conf /root/70.cocoon.conf 2>/dev/null
	sed -i '0,/^session/s//session required pam_cocoon.so return\n&/' /etc/pam.d/sshd &&
	sed -i '/^session.*pam_selinux.so open/a session required pam_cocoon.so' /etc/pam.d/sshd &&
	cat > /etc/cocoon/cocoon.conf <<EOF
[group $G]
profile = default
[default]
sandbox = none
EOF"
run vm 'cocoonctl check --pam'
is "$RC" 0 "check --pam passes: the policy, the stack, sss in nsswitch.conf"
[ "$RC" -eq 0 ] || printf '# %s\n' "$OUT"

# --- the directory user's login
vm "echo owned > /home/$U/owned && chown $U:$G /home/$U/owned"
run vm_as "$U" "cat /proc/1/comm; id; groups; getent passwd $U | cut -d: -f1,3;
	getent group $G | cut -d: -f1,3; grep ^Groups: /proc/self/status | tr -s '\t ' ' ';
	ls -l ~/owned | awk '{ print \$3, \$4 }'; echo sss: \$(ls /var/lib/sss)"
is "$OUT" "cocoon-init
uid=$uid($U) gid=$uid($P) groups=$uid($P),$gid_g($G)
$P $G
$U:$uid
$G:$gid_g
Groups: $uid $gid_g 
$U $G
sss: mc pipes" "ssh: confined by the directory group; names, groups, owners; /var/lib/sss: pipes and mc"
run vm_as "$U" "getent passwd $UD; ls /run/systemd/userdb | sort | tr '\n' ' '"
is "$OUT" "$UD:x:$uid_ud:$uid_ud:$UD:/nonexistent:/usr/sbin/nologin
io.systemd.DropIn io.systemd.DynamicUser io.systemd.Multiplexer io.systemd.NameServiceSwitch " \
	"userdb: the JSON user resolves inside; /run/systemd/userdb has userdbd's sockets"
# nss-systemd asks io.systemd.DropIn there, and reads /etc/userdb itself
# only where that socket is missing; userdbctl -s asks the socket alone.
run vm_as "$U" "userdbctl -s io.systemd.DropIn --output=classic user $UD 2>/dev/null"
is "$OUT" "$UD:x:$uid_ud:$uid_ud:$UD:/nonexistent:/usr/sbin/nologin" \
	"userdb: and from userdbd's varlink socket alone (-s io.systemd.DropIn: /etc/userdb unread)"

# lastlog: sshd, root inside the session, writes it for a pty login
# and needs the account's name there.
since=$(vm 'date +%s')
run vm_as "$U" -tt 'echo pty-login'
like "$OUT" "pty-login" "a pty login"
run vm "journalctl -q -o cat _COMM=sshd --since @$since"
unlike "$OUT" "login_get_lastlog" "sshd finds the account for lastlog: no fatal"
run vm "lastlog -u $U | tail -n 1"
like_re "$OUT" "^$U +pts/[0-9]+ " "lastlog has it, on the host"
OUT=$(printf 'exit\n' | vm_as "$U" -tt 2>&1)
like "$OUT" "Last login:" "the next interactive login says when the last was"

# --- systemctl restart sssd under a running session
ssh "${VM_SSH_OPTS[@]}" "$U@127.0.0.1" "echo up; while [ ! -e ~/go ]; do sleep 0.2; done;
	id; getent group $G | cut -d: -f1,3" > "$VM_DIR/70.restart" 2>&1 &
client=$!
for i in $(seq 300); do grep -q up "$VM_DIR/70.restart" 2>/dev/null && break; sleep 0.2; done
run vm "systemctl restart sssd && sleep 3 && . /root/lib-sssd.sh && sssd_answers $G && touch /home/$U/go"
is "$RC" 0 "systemctl restart sssd, while the session runs"
wait "$client"
is "$(cat "$VM_DIR/70.restart")" "up
uid=$uid($U) gid=$uid($P) groups=$uid($P),$gid_g($G)
$G:$gid_g" "names resolve in the session that ran across the restart"
done_testing
