#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Keyboard-interactive authentication's environment, through a real sshd
# and a real ssh client on a pty. sshd runs that authentication in a
# child of its own and brings back two environments: the child's PAM
# environment, put into the PAM handle before the session opens (and so
# cut by pam_cocoon's last line), and the child's process environment,
# which it adds to the session's environment itself, after the session
# stack. A module of the auth stack (kbdenv.c) writes one variable to
# each; what reaches the session is what SECURITY.md says.
. "$(dirname "$0")/../lib.sh"
U=tstkbd$T
HERE=$(cd "$(dirname "$0")" && pwd)
cleanup() { sshd_cleanup; policy_reset; cleanup_users; }
trap cleanup EXIT

add_user $U || bail_out "useradd"
password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
echo "$U:$password" | chpasswd || bail_out "chpasswd"
policy_reset
SSHD_EXTRA_CONFIG="Match User $U
	KbdInteractiveAuthentication yes"
guest_sshd_start || bail_out "sshd"
sshd_allow $U
cc -shared -fPIC -o "$SSHD_DIR/kbdenv.so" "$HERE/kbdenv.c" || bail_out "cc kbdenv.so"
sed -i "1i auth optional $SSHD_DIR/kbdenv.so" "/etc/pam.d/$SSHD_SERVICE"

show='cat /proc/1/comm; env | grep ^CCKBD_ | sort; echo END'
kbd_login() { # the password typed at sshd's keyboard-interactive prompt
	# shellcheck disable=SC2046
	run timeout 90 /usr/bin/python3 "$HERE/kbdlogin.py" "$password" -p "$SSHD_PORT" \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
		-o PreferredAuthentications=keyboard-interactive -o PubkeyAuthentication=no \
		-o NumberOfPasswordPrompts=1 -o ConnectTimeout=10 -l $U 127.0.0.1 "$show"
}

# Control: a session pam_cocoon does not confine (an exempt account) gets
# no cut; both variables come through.
sed -i "s|pam_cocoon.so|& exempt=$U|" "/etc/pam.d/$SSHD_SERVICE"
kbd_login
is "$RC" "0" "control: the keyboard-interactive login succeeds"
[ "$RC" = 0 ] || sed 's/^/# sshd: /' "$SSHD_DIR/sshd.log"
like "$OUT" "CCKBD_PAM_ENV=from-the-auth-stack" "control: unconfined, the auth child's PAM environment reaches the session"
like "$OUT" "CCKBD_PROCESS_ENV=from-the-auth-child" "control: and so does its process environment"
unlike "$OUT" "cocoon-init" "control: that session is not sandboxed"

sed -i "s| exempt=$U||" "/etc/pam.d/$SSHD_SERVICE"

# Control: a public-key login runs no PAM authentication: neither.
run ssh_as $U "$show"
is "$OUT" "cocoon-init
END" "control: a public-key login is sandboxed and gets neither variable"

# The confined keyboard-interactive login.
kbd_login
like "$OUT" "cocoon-init" "the keyboard-interactive session is sandboxed"
unlike "$OUT" "CCKBD_PAM_ENV" "pam_cocoon's cut removes what the auth stack put in the PAM environment"
like "$OUT" "CCKBD_PROCESS_ENV=from-the-auth-child" \
	"the auth child's process environment reaches the session after the cut (SECURITY.md)"

done_testing
