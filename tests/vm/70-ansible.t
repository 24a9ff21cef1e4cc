#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# conf/examples/ansible/playbook.yml as a fleet would run it: this host's
# ansible-core is the controller, the guest a login node reached over
# ssh. From a node without cocoon, the play installs the .debs of make
# deb with the apt module, puts the lab's drop-in in place through
# validate (a bad one is refused and not installed), adds pam_cocoon's
# two lines to /etc/pam.d/sshd and passes check --pam; a second run
# changes nothing, and a login of the lab's group is confined.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
ex=$TOP/conf/examples/ansible
command -v ansible-playbook >/dev/null || bail_out "no ansible-playbook on the controller (ansible-core)"
for p in cocoon libpam-cocoon cocoon-shell; do
	[ -f "$TOP/build/deb/${p}_${VERSION}_amd64.deb" ] || bail_out "no build/deb/${p}_${VERSION}_amd64.deb: make vm-check builds it"
done
W=$(mktemp -d /run/cocoon-vm-ansible.XXXXXX)
# The stock sshd stack again at the end (10-package.t saved it); the
# packages stay installed, as 10-package.t leaves them.
# Ansible's ssh masters (ControlPersist) are ended here, not left to time
# out holding prove's output open.
cleanup() {
	local c
	vm "cp /root/sshd.pam /etc/pam.d/sshd" >/dev/null 2>&1
	for c in "$W"/cp/*; do [ -S "$c" ] && ssh -o ControlPath="$c" -O exit x >/dev/null 2>&1; done
	rm -rf "$W"
}
trap cleanup EXIT
export ANSIBLE_LOCAL_TEMP=$W/tmp ANSIBLE_SSH_CONTROL_PATH_DIR=$W/cp ANSIBLE_NOCOLOR=1 \
	ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_CONFIG=$W/ansible.cfg
: > "$W/ansible.cfg"
cat > "$W/inventory" <<INV
[login_nodes]
cocoon-vm ansible_host=127.0.0.1 ansible_port=$VM_PORT ansible_user=root ansible_become=false
[login_nodes:vars]
ansible_ssh_private_key_file=$VM_KEY
ansible_ssh_common_args='-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no'
ansible_python_interpreter=/usr/bin/python3
INV
vars=(-e "cocoon_deb_dir=$TOP/build/deb" -e "cocoon_version=$VERSION"
	-e '{"cocoon_packages": ["libpam-cocoon", "cocoon-shell"]}' -e cocoon_lab_group=ccanlab)
play() { run timeout 1200 ansible-playbook -i "$W/inventory" "$ex/playbook.yml" "${vars[@]}" "$@"; }
recap() { printf '%s\n' "$OUT" | grep -Eo 'ok=[0-9]+ +changed=[0-9]+ +unreachable=[0-9]+ +failed=[0-9]+' | tr -s ' '; }

# --- a node without cocoon: the stock stack, the packages purged (the
# packages refuse removal while an account's login shell is cocoon-shell:
# the guest is a throwaway copy, so the accounts earlier tests left get
# bash)
run vm 'test -f /root/sshd.pam || cp /etc/pam.d/sshd /root/sshd.pam; cp /root/sshd.pam /etc/pam.d/sshd &&
	getent passwd | awk -F: "\$7 ~ /cocoon-shell\$/ { print \$1 }" | xargs -r -n 1 usermod -s /bin/bash;
	apt-get purge -y -q cocoon libpam-cocoon cocoon-shell >/dev/null 2>&1;
	rm -rf /var/cache/cocoon-debs; groupadd -f ccanlab;
	dpkg-query -W -f="\${db:Status-Abbrev}" cocoon 2>/dev/null; test -e /etc/cocoon && echo left'
unlike "$OUT" "ii" "control: cocoon is not installed on the node"
vm_user ccan1 -G ccanlab

play
is "$RC" 0 "the play runs against the guest"
like_re "$(recap)" "changed=[1-9]" "and changes it"
printf '%s\n' "$OUT" | grep -E 'fatal|FAILED' | sed 's/^/# /'
run vm "dpkg-query -W -f='\${Package}=\${Version} ' cocoon libpam-cocoon cocoon-shell"
is "$OUT" "cocoon=$VERSION cocoon-shell=$VERSION libpam-cocoon=$VERSION " "the packages are installed"
run vm 'stat -c "%U %a" /etc/cocoon/cocoon.d/50-lab.conf; cat /etc/cocoon/cocoon.d/50-lab.conf'
like "$OUT" "root 600" "the drop-in is in place, root's, 0600"
like "$OUT" "[group ccanlab]
profile = default" "with the play's rule"
run vm 'grep -nE "^session" /etc/pam.d/sshd'
like_re "$(printf '%s\n' "$OUT" | head -n 1)" "^[0-9]+:session required pam_cocoon.so return$" "the return line first"
like_re "$(printf '%s\n' "$OUT" | tail -n 1)" "^[0-9]+:session required pam_cocoon.so$" "the confining line last"
run vm 'grep -l pam_cocoon /etc/pam.d/common-*'
is "$OUT" "" "no common-* file names the module"
run vm 'cocoonctl check --pam'
is "$RC" 0 "cocoonctl check --pam passes on the node"

# --- idempotent
play
is "$RC" 0 "a second run"
is "$(recap)" "ok=8 changed=0 unreachable=0 failed=0" "changes nothing"

# --- a bad drop-in is refused by validate and not installed
before=$(vm 'sha256sum /etc/cocoon/cocoon.d/50-lab.conf')
play -e cocoon_lab_profile=nope
[ "$RC" -ne 0 ]; ok $? "a drop-in naming an unknown profile fails the play"
like "$OUT" "failed to validate" "at validate:"
like "$OUT" ":4: error: unknown profile 'nope'" "with cocoonctl's error at the file's line"
is "$(vm 'sha256sum /etc/cocoon/cocoon.d/50-lab.conf')" "$before" "the installed drop-in is unchanged"
is "$(vm 'ls -A /etc/cocoon/cocoon.d')" "50-lab.conf" "and nothing else was left in cocoon.d"

# --- a login of the lab's group, through the node's sshd
run vm 'cocoonctl explain ccan1'
like "$OUT" "[group ccanlab]" "explain: the lab's rule applies to ccan1"
run vm_as ccan1 'cat /proc/1/comm; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'
is "$OUT" "cocoon-init
NoNewPrivs:	1
Seccomp:	2" "ccan1's ssh login is confined"

vm 'pkill -KILL -u ccan1; userdel -r ccan1; groupdel ccanlab' >/dev/null 2>&1
done_testing
