# SPDX-License-Identifier: GPL-2.0-or-later
# A private sshd for tests: a copy of /usr/sbin/sshd named cocoon-test-sshd
# (so its PAM service is /etc/pam.d/cocoon-test-sshd, never sshd's own),
# listening on 127.0.0.1 with its own keys and config. Source after
# lib.sh; call sshd_start, then ssh_as USER CMD...; sshd_stop runs from
# sshd_cleanup, which the caller's EXIT trap must call.

SSHD_DIR=""
SSHD_PID=""
SSHD_PORT=""
SSHD_MADE_RUNDIR=""
# Overridable, so that tests run side by side do not share a PAM file.
SSHD_SERVICE=${SSHD_SERVICE:-cocoon-test-sshd}

# sshd_start [PAM-SESSION-LINES]: extra lines go at the end of the test
# service's PAM file (a copy of Debian's sshd stack).
sshd_start() {
	# Not under /run: a systemd host mounts it noexec, and the copy of
	# sshd runs from here.
	SSHD_DIR=$(mktemp -d /var/lib/cocoon-sshd.XXXXXX)
	chmod 0755 "$SSHD_DIR"
	cp /usr/sbin/sshd "$SSHD_DIR/$SSHD_SERVICE"
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/client_key" || return 1
	mkdir -m 0755 "$SSHD_DIR/authorized_keys"
	if [ ! -d /run/sshd ]; then
		mkdir -m 0755 /run/sshd
		SSHD_MADE_RUNDIR=yes
	fi
	{ cat /etc/pam.d/sshd; [ -n "${1:-}" ] && printf '%s\n' "$1"; } > "/etc/pam.d/$SSHD_SERVICE"
	local port
	for port in $(shuf -i 20000-29999 -n 20); do
		ss -ltn | grep -q ":$port " || break
	done
	SSHD_PORT=$port
	cat > "$SSHD_DIR/sshd_config" <<CONF
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $SSHD_DIR/host_key
PidFile $SSHD_DIR/sshd.pid
AuthorizedKeysFile $SSHD_DIR/authorized_keys/%u
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UsePAM yes
PermitRootLogin no
StrictModes no
Subsystem sftp /usr/lib/openssh/sftp-server
AllowTcpForwarding yes
LogLevel ERROR
${SSHD_EXTRA_CONFIG:-}
CONF
	# Under systemd, outside the caller's login session, as ssh.service
	# runs it: pam_systemd makes no session for a caller already in one.
	local outside=""
	[ -d /run/systemd/system ] && outside="systemd-run --scope --quiet --collect"
	$outside "$SSHD_DIR/$SSHD_SERVICE" -f "$SSHD_DIR/sshd_config" -E "$SSHD_DIR/sshd.log" ||
		return 1
	local i
	for i in $(seq 50); do
		[ -s "$SSHD_DIR/sshd.pid" ] && ss -ltn | grep -q "127.0.0.1:$SSHD_PORT " && break
		sleep 0.1
	done
	SSHD_PID=$(cat "$SSHD_DIR/sshd.pid" 2>/dev/null)
	[ -n "$SSHD_PID" ]
}

# Let USER in with the test client key.
sshd_allow() {
	cp "$SSHD_DIR/client_key.pub" "$SSHD_DIR/authorized_keys/$1"
	chmod 0644 "$SSHD_DIR/authorized_keys/$1"
}

SSH_OPTS() {
	echo -i "$SSHD_DIR/client_key" -p "$SSHD_PORT" -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes \
		-o ConnectTimeout=10
}

# ssh_as USER [ssh args...]: the real ssh client to the test sshd.
ssh_as() {
	local user=$1; shift
	# shellcheck disable=SC2046
	timeout 60 ssh $(SSH_OPTS) -l "$user" 127.0.0.1 "$@"
}

sshd_stop() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		local i
		for i in $(seq 50); do kill -0 "$SSHD_PID" 2>/dev/null || break; sleep 0.1; done
	fi
	SSHD_PID=""
}

sshd_cleanup() {
	sshd_stop
	rm -f "/etc/pam.d/$SSHD_SERVICE"
	[ -n "$SSHD_DIR" ] && rm -rf "$SSHD_DIR"
	[ -n "$SSHD_MADE_RUNDIR" ] && rmdir /run/sshd 2>/dev/null
	SSHD_DIR=""
}
