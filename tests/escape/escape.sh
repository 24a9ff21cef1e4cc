# SPDX-License-Identifier: GPL-2.0-or-later
# What both escape tests (shell.t, sshd.t) set up, sourced after lib.sh
# with U, the confined user, set. H is U's home; $secret a host directory
# whose file f (world-readable) the user reaches on the host and must not
# reach from a session; P runs the probe (probe.pl) as copied into the
# user's home; outside runs a command as the user on the host; hostpids
# collects the host processes a test starts, for its cleanup to kill.
HERE=$(cd "$(dirname "$0")" && pwd)
H=/home/$U
secret=/srv/ccesc-secret.$$
hostpids=""
P="perl $H/t/probe.pl"
outside() { run runuser -u "$U" -- bash -c "$1"; }  # sets OUT, RC

# What explain says this kernel's Landlock raises for U, and whether that
# includes the scope (abstract unix sockets, signals: ABI 6).
landlock_line() { "$CTL" explain "$U" 2>/dev/null | grep '^this kernel:'; }
landlock_scoped() { landlock_line | grep -q 'wall and the scope'; }

escape_kill_hostpids() {
	local p
	for p in $hostpids; do kill -KILL "$p" 2>/dev/null; done
}

escape_begin() {
	add_user "$U" || { echo "Bail out! useradd"; exit 1; }
	policy_reset
	install -d -m 0755 "$secret"
	echo "TOPSECRET-$$" > "$secret/f"; chmod 0644 "$secret/f"
	install -d -o "$U" -m 0755 "$H/t"
	install -o "$U" -m 0644 "$HERE/probe.pl" "$H/t/probe.pl"
}
