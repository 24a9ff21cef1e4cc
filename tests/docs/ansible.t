#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# conf/examples/ansible: the playbook parses; its drop-in task, run by
# Ansible on this host against the tree under test, installs the rendered
# template only when `cocoonctl check --as` passes it (a second run
# changes nothing); its PAM tasks, run on a copy of this host's
# /etc/pam.d, give the stack pam_cocoon(8) shows, once. The whole play
# against a Debian guest is tests/vm/70-ansible.t.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
ex=$top/conf/examples/ansible
if ! command -v ansible-playbook >/dev/null; then
	echo "1..0 # SKIP no ansible-playbook (ansible-core) on this host"
	exit 0
fi
W=$(mktemp -d /run/cocoon-ansible.XXXXXX)
trap 'rm -rf "$W"; policy_reset; cleanup_users' EXIT
# Ansible's own files stay in the test's directory, not in root's home.
export ANSIBLE_LOCAL_TEMP=$W/tmp ANSIBLE_REMOTE_TEMP=$W/rtmp ANSIBLE_NOCOLOR=1 \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_CONFIG=$W/ansible.cfg
printf '[login_nodes]\nlocalhost ansible_connection=local ansible_become=false ansible_python_interpreter=/usr/bin/python3\n' \
	> "$W/inventory"
: > "$W/ansible.cfg"
play() { run ansible-playbook -i "$W/inventory" "$ex/playbook.yml" "$@"; }
recap() { printf '%s\n' "$OUT" | grep -Eo 'ok=[0-9]+ +changed=[0-9]+ +unreachable=[0-9]+ +failed=[0-9]+' | tr -s ' '; }

run ansible-playbook --syntax-check -i "$ex/inventory.ini" "$ex/playbook.yml"
is "$RC" 0 "the playbook passes ansible-playbook --syntax-check"

# --- the drop-in, validated by the tree's cocoonctl
add_group ccansg$T || bail_out "groupadd"
policy_reset
policy_write cocoon.conf <<'CONF'
[default]
profile = default
CONF
install -d -m 0755 "$CONF_DIR/cocoon.d" # as the packages leave it
dropin=$CONF_DIR/cocoon.d/50-lab.conf
vars=(-e "cocoon_policy_dir=$CONF_DIR" -e "cocoon_ctl=$CTL" -e "cocoon_lab_group=ccansg$T")
play --tags policy "${vars[@]}" -e cocoon_lab_profile=nope
[ "$RC" -ne 0 ]; ok $? "a drop-in with an unknown profile fails the play"
like "$OUT" "failed to validate" "at validate:"
like "$OUT" ":4: error: unknown profile 'nope'" "with cocoonctl's error at the file's line"
[ ! -e "$dropin" ]; ok $? "and is not installed"
play --tags policy "${vars[@]}"
is "$RC" 0 "the template as shipped passes validate"
is "$(recap)" "ok=1 changed=1 unreachable=0 failed=0" "and is installed"
like "$(cat "$dropin")" "[group ccansg$T]
profile = default" "with the play's group and profile"
run "$CTL" check
is "$RC" 0 "the installed policy passes check"
play --tags policy "${vars[@]}"
is "$(recap)" "ok=1 changed=0 unreachable=0 failed=0" "a second run changes nothing"
# A neighbour that already has the group's rule: refused at validate.
rm "$dropin"
policy_write cocoon.d/40-other.conf <<CONF
[group ccansg$T]
sandbox = none
CONF
play --tags policy "${vars[@]}"
[ "$RC" -ne 0 ]; ok $? "a drop-in that conflicts with an installed neighbour fails the play"
like "$OUT" "duplicate section [group ccansg$T]" "validate names the conflict"
[ ! -e "$dropin" ]; ok $? "and it is not installed"

# --- the PAM lines, on a copy of this host's stack
if grep -qE '^session\s.*pam_selinux\.so\s+open' /etc/pam.d/sshd 2>/dev/null &&
	! grep -q pam_cocoon /etc/pam.d/sshd; then
	mkdir -p "$W/root/etc"
	cp -a /etc/pam.d "$W/root/etc/pam.d"
	host_sum=$(sha256sum < /etc/pam.d/sshd)
	play --tags pam -e "cocoon_sshd_pam=$W/root/etc/pam.d/sshd"
	is "$(recap)" "ok=2 changed=2 unreachable=0 failed=0" "the PAM tasks add two lines"
	sessions=$(grep -E '^session\s' "$W/root/etc/pam.d/sshd")
	is "$(printf '%s\n' "$sessions" | head -n 1)" "session required pam_cocoon.so return" \
		"the return line first among the session lines"
	is "$(printf '%s\n' "$sessions" | tail -n 1)" "session required pam_cocoon.so" \
		"the confining line last"
	is "$(grep -c pam_cocoon "$W/root/etc/pam.d/sshd")" 2 "two lines, no more"
	grep -q pam_cocoon "$W"/root/etc/pam.d/common-*
	[ $? -ne 0 ]; ok $? "no common-* file is touched"
	play --tags pam -e "cocoon_sshd_pam=$W/root/etc/pam.d/sshd"
	is "$(recap)" "ok=2 changed=0 unreachable=0 failed=0" "a second run changes nothing"
	run "$CTL" check --pam --root "$W/root"
	unlike "$OUT" "$W/root/etc/pam.d/sshd:" "check --pam finds nothing wrong in the stack the play wrote"
	# Control: the confining line not last is reported at that file.
	sed -i '/^session required pam_cocoon.so$/d; 0,/^session.*pam_loginuid/s//session required pam_cocoon.so\n&/' \
		"$W/root/etc/pam.d/sshd"
	run "$CTL" check --pam --root "$W/root"
	like "$OUT" "$W/root/etc/pam.d/sshd:" "control: check --pam reports a stack with the line misplaced"
	is "$(sha256sum < /etc/pam.d/sshd)" "$host_sum" "this host's /etc/pam.d/sshd is untouched"
else
	skip "this host's /etc/pam.d/sshd is not Debian's stock stack (no pam_selinux open line, or pam_cocoon)"
fi

done_testing
