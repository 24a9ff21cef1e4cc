#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The packages' life on a real Debian 12 system, as an administrator
# lives it: install the previous build with apt, confine sshd as
# pam_cocoon(8) says, upgrade while a session is open (it keeps working
# on the code it started with; the next one gets the new code), remove
# (refused while a stack names the module), purge (nothing left), and
# install the new build again for the tests after this one.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
PREV=$VERSION~prev
ARCH=$(dpkg --print-architecture)
PKGS="cocoon libpam-cocoon cocoon-shell"
sock=$VM_DIR/ccv1-master
cleanup() { ssh -S "$sock" -O exit x 2>/dev/null; }
trap cleanup EXIT

debs() { local p; for p in $PKGS; do printf '%s/%s_%s_%s.deb ' "$1" "$p" "$2" "$ARCH"; done; }
for d in $(debs "$TOP/build/deb" "$VERSION") $(debs "$TOP/build/deb-prev" "$PREV"); do
	[ -f "$d" ] || { echo "Bail out! no $d: make vm-check builds it"; exit 1; }
done
vm 'mkdir -p /root/debs/new /root/debs/prev'
vm_put $(debs "$TOP/build/deb" "$VERSION") /root/debs/new/
vm_put $(debs "$TOP/build/deb-prev" "$PREV") /root/debs/prev/
versions() { vm "dpkg-query -W -f='\${Package}=\${Version} ' $PKGS 2>/dev/null"; }

# --- install the previous build
run vm 'apt-get install -y -q /root/debs/prev/*.deb 2>&1'
is "$RC" 0 "apt installs the previous build"
like "$OUT" "cocoon-shell: sshd runs the host's /bin/sh" "its first installation says what sshd needs"
is "$(versions)" "cocoon=$PREV cocoon-shell=$PREV libpam-cocoon=$PREV " "at version $PREV"

# --- confine sshd exactly as pam_cocoon(8) says: the return line first,
# the plain line last among the session lines
vm 'cp /etc/pam.d/sshd /root/sshd.pam &&
	sed -i "0,/^session/s//session required pam_cocoon.so return\n&/" /etc/pam.d/sshd &&
	sed -i "/^session.*pam_selinux.so open/a session required pam_cocoon.so" /etc/pam.d/sshd'
run vm 'cocoonctl check --pam'
is "$RC" 0 "cocoonctl check --pam passes the documented stack"
vm_user ccv1
ssh "${VM_SSH_OPTS[@]}" -M -S "$sock" -fN ccv1@127.0.0.1
run ssh -S "$sock" x 'cat /proc/1/comm; stat -L -c %i /bin/bash'
old_launcher=$(printf '%s\n' "$OUT" | sed -n 2p)
is "$(printf '%s\n' "$OUT" | sed -n 1p)" "cocoon-init" "an ssh session through the real sshd is sandboxed"
is "$old_launcher" "$(vm 'stat -c %i /usr/libexec/cocoon/cocoon-launch')" \
	"its login shell's path is the installed cocoon-launch"

# --- upgrade with that session open
run vm 'apt-get install -y -q /root/debs/new/*.deb 2>&1'
is "$RC" 0 "apt upgrades to the new build"
unlike "$OUT" "cocoon-shell: sshd runs the host's /bin/sh" "(the notice is said once, not on upgrade)"
is "$(versions)" "cocoon=$VERSION cocoon-shell=$VERSION libpam-cocoon=$VERSION " "at version $VERSION"
new_launcher=$(vm 'stat -c %i /usr/libexec/cocoon/cocoon-launch')
[ "$new_launcher" != "$old_launcher" ]; ok $? "the upgrade put a new cocoon-launch in place"
run ssh -S "$sock" x 'cat /proc/1/comm; stat -L -c %i /bin/bash; grep Seccomp: /proc/self/status'
is "$OUT" "cocoon-init
$old_launcher
Seccomp:	2" "the open session keeps working, on the launcher it started with"
ssh -S "$sock" -O exit x 2>/dev/null
run vm_as ccv1 'stat -L -c %i /bin/bash'
is "$OUT" "$new_launcher" "the next session uses the new code"

# --- remove and purge
run vm 'apt-get remove -y -q cocoon cocoon-shell libpam-cocoon 2>&1'
[ "$RC" -ne 0 ]; ok $? "removal is refused while /etc/pam.d/sshd names pam_cocoon.so"
like "$OUT" "/etc/pam.d/sshd" "naming the file"
vm 'cp /root/sshd.pam /etc/pam.d/sshd'
run vm 'apt-get remove -y -q cocoon cocoon-shell libpam-cocoon 2>&1'
is "$RC" 0 "with the lines gone, removal goes through"
run vm "dpkg-query -W -f='\${Package}:\${db:Status-Abbrev}|' $PKGS 2>/dev/null"
is "$OUT" "cocoon:rc |cocoon-shell:rc |" \
	"removed: cocoon and cocoon-shell keep their conffiles (the policy, the AppArmor profile)"
run vm 'ls /usr/sbin/cocoonctl /usr/libexec/cocoon /usr/bin/cocoon-shell 2>&1; ls /lib/*/security/pam_cocoon.so /usr/lib/*/security/pam_cocoon.so 2>&1'
unlike "$OUT" "cocoon-launch" "no program is left"
like "$OUT" "No such file" "(nor the module)"
run vm 'test -f /etc/cocoon/cocoon.conf && echo kept'
is "$OUT" "kept" "the policy, a conffile, stays until purge"
run vm 'dpkg --purge cocoon cocoon-shell 2>&1; ls -d /etc/cocoon /var/lib/cocoon /usr/share/doc/cocoon* \
	/usr/libexec/cocoon /etc/apparmor.d/cocoon-shell 2>&1; dpkg-statoverride --list | grep -c cocoon;
	dpkg -l "*cocoon*" 2>/dev/null | grep -c "^[a-z][a-z] " '
like "$OUT" "cannot access '/etc/cocoon'" "purge removes /etc/cocoon"
like "$OUT" "cannot access '/var/lib/cocoon'" "and /var/lib/cocoon"
like "$OUT" "cannot access '/etc/apparmor.d/cocoon-shell'" "and the AppArmor profile"
unlike "$OUT" "/usr/share/doc/cocoon " "and the documentation"
is "$(printf '%s\n' "$OUT" | tail -n 2 | tr '\n' ' ')" "0 0 " \
	"no statoverride is left, and dpkg lists none of the packages"

# --- the new build again, for the tests after this one
run vm 'apt-get install -y -q /root/debs/new/*.deb 2>&1'
is "$RC" 0 "the new build installs on a clean system"
is "$(vm 'stat -c %a /usr/libexec/cocoon/cocoon-launch /usr/bin/cocoon-shell' | tr '\n' ' ')" \
	"711 4755 " "cocoon-launch 0711, cocoon-shell 4755"
done_testing
