# SPDX-License-Identifier: GPL-2.0-or-later
# For tests/vm/*.t and run: the guest that run booted, reached over ssh on
# 127.0.0.1:$VM_PORT with the key $VM_KEY. Root's commands share one
# connection (a new ssh login costs a second or more under emulation);
# the users' logins, which are what the tests are about, never do.
: "${VM_PORT:?run the VM tests through make vm-check}"
: "${COCOON_ROOT:=/nonexistent}" # lib.sh's TAP helpers only
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

VM_SSH_OPTS=(-p "$VM_PORT" -i "$VM_KEY" -o StrictHostKeyChecking=no
	-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes
	-o ConnectTimeout=60 -o ServerAliveInterval=15)
VM_ROOT_OPTS=(-o ControlMaster=auto -o "ControlPath=$VM_DIR/root-%C" -o ControlPersist=900)

# vm COMMAND...: as root in the guest (one shell command line); its
# status is the command's.
vm() { ssh "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 -- "$@"; }
# vm_as USER [SSH-ARGS...] [COMMAND]: a fresh ssh login of USER, through the
# guest's real sshd and /etc/pam.d/sshd.
vm_as() { local u=$1; shift; timeout 300 ssh "${VM_SSH_OPTS[@]}" "$u@127.0.0.1" "$@"; }
# vm_put FILE... DEST: copy files into the guest.
vm_put() { scp -q -P "$VM_PORT" -i "$VM_KEY" -o StrictHostKeyChecking=no \
	-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "${@:1:$#-1}" "root@127.0.0.1:${!#}"; }

# vm_user NAME [useradd options]: a user in the guest (shell bash unless
# the options say) who logs in with the harness's key.
vm_user() {
	local name=$1; shift
	vm "pkill -KILL -u $name 2>/dev/null; userdel -r $name >/dev/null 2>&1; useradd -m -s /bin/bash $* $name &&
		install -d -o $name -m 0700 /home/$name/.ssh &&
		install -o $name -m 0600 /root/.ssh/authorized_keys /home/$name/.ssh/authorized_keys"
}

# vm_wait_ready N: until the guest has said N times on its console that
# its sshd listens (qemu's forward accepts connections before that).
vm_wait_ready() {
	local i
	for i in $(seq 600); do
		[ "$(grep -c COCOON-VM-READY "$VM_CONSOLE" 2>/dev/null)" -ge "$1" ] && return 0
		sleep 0.5
	done
	return 1
}

# vm_reboot: reboot the guest and wait for it; 1 if it does not come back.
vm_reboot() {
	local n
	n=$(grep -c COCOON-VM-READY "$VM_CONSOLE")
	ssh -O exit "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 2>/dev/null
	vm 'systemctl reboot' >/dev/null 2>&1
	ssh -O exit "${VM_SSH_OPTS[@]}" "${VM_ROOT_OPTS[@]}" root@127.0.0.1 2>/dev/null
	vm_wait_ready $((n + 1))
}
