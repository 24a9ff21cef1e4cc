#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The host suite's files that depend most on the kernel and on systemd,
# on Debian's own kernel (6.1: Landlock ABI 2, no Landlock scope, Yama,
# AppArmor), with systemd, logind and journald, against the installed
# packages: the escape suite, the session limits, guest logout, kiosks,
# live sessions (list, stop, enter), pam_cocoon through sshd and in a
# chrooted su and sshd, descriptors through su, runuser and login, a
# session's end with its login (logind, pure cgroup v2), standard
# descriptors under Landlock ABI 2, cocoon-shell's shared sandboxes under
# systemd and logind, and devpts' pty limits. The tests/
# and conf/ trees are copied in and run with COCOON_ROOT empty, so that
# every path is the package's. Each file's own TAP output is shown here.
. "$(dirname "$0")/../lib.sh" vm
TOP=$(cd "$(dirname "$0")/../.." && pwd)

vm_user ccx
run vm 'printf "[default]\nprofile = default\n" > /root/ccx.conf && cocoonctl explain --config /root/ccx.conf ccx'
like "$OUT" "this kernel: Landlock ABI 2: the file-system wall; the scope (abstract-unix signal) needs ABI 6 (Linux 6.12) and is not applied" \
	"explain says Debian's kernel raises Landlock's file-system wall, not its scope"

# Debian's own /etc/pam.d/sshd, which the suite copies for its own sshd.
vm 'cp /root/sshd.pam /etc/pam.d/sshd; rm -rf /root/cocoon-tests; mkdir /root/cocoon-tests'
tar -C "$TOP" -cf - tests conf | vm 'tar -C /root/cocoon-tests -xf -'
multiarch=$(vm 'dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch')
for t in tests/escape/shell.t tests/escape/sshd.t tests/escape/userenv.t tests/limits/cgroup.t \
	tests/guest/logout.t tests/kiosk/kiosk.t tests/sessions/list-enter-stop.t tests/pam/sshd.t \
	tests/pam/chroot.t tests/pam/fds.t tests/shell/lifecycle.t tests/shell/stdfds.t \
	tests/shell/share.t tests/limits/pty.t; do
	run vm "cd /root/cocoon-tests && COCOON_ROOT= COCOON_PAMDIR=/usr/lib/$multiarch/security \
		timeout 1800 prove -v $t 2>&1"
	printf '%s\n' "$OUT" | sed 's/^/#   /'
	is "$RC" 0 "$t passes on Debian's kernel, against the installed packages"
done
done_testing
