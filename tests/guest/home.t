#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest homes and private temporary directories, through su - USER with
# cocoon-shell as the login shell: a tmpfs home seeded from a private
# skeleton (owner, mode, size bound, gone at logout, an untrusted or too
# big skeleton refused), an overlay home whose changes vanish, no home at
# all, private /tmp per session or per user, and a symlink planted in the
# state directory that cannot redirect the per-user instances.
. "$(dirname "$0")/../lib.sh"
pam_services_lock
STATE=$COCOON_ROOT/var/lib/cocoon/private-tmp
work=$(mktemp -d /run/cocoon-guest-test.XXXXXX)
chmod 0755 "$work"
state_dirs=""
cleanup() {
	local d
	for d in $state_dirs; do rm -rf "${STATE:?}/$d"; done
	syslog_release
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT
# Refusals show the user a reference; the reason is in the log.
log=$work/syslog
syslog_capture "$log" || log=""

for u in ccg1$T ccg2$T ccg3$T ccg4$T; do add_user "$u" -s "$SHELL_BIN"; done
uid4=$(id -u ccg4$T)
state_dirs="$(id -u ccg3$T) $uid4"
policy_reset

# A skeleton of root's: a file, a directory, a symlink and a fifo.
skel=$work/skel
mkdir -m 0755 "$skel" "$skel/sub"
echo hello > "$skel/hello"
echo deep > "$skel/sub/file"
ln -s /etc/hostname "$skel/link"
mkfifo -m 0644 "$skel/fifo"
chmod 0644 "$skel/hello" "$skel/sub/file"

policy_write cocoon.conf <<CONF
[profile guest]
profile = default
home = tmpfs
home-skel = $skel
home-size = 4M
[user ccg1$T]
profile = guest
[user ccg2$T]
profile = guest
home = overlay
[user ccg3$T]
profile = guest
home = none
private-tmp = session
tmp-size = 2M
[user ccg4$T]
profile = guest
private-tmp = persistent
[default]
profile = default
CONF
run "$CTL" check
is "$RC" 0 "the guest policy passes check"

# A tmpfs home.
run su - ccg1$T -c 'pwd; stat -c "%U %a" .; cat hello sub/file; readlink link; ls -A
	df -k --output=size . | tail -1; touch marker
	dd if=/dev/zero of=big bs=1M count=8 2>&1 | grep -c "No space left"'
is "$RC" 0 "a login with a tmpfs home works"
is "$(echo $OUT)" "/home/ccg1$T ccg1$T 700 hello deep /etc/hostname hello link sub 4096 1" \
	"seeded from the skeleton (symlink kept, fifo skipped), the user's, 0700, bounded by home-size"
run su - ccg1$T -c 'ls -A'
is "$(echo $OUT)" "hello link sub" "what the last session wrote is gone at the next login"
run ls -A /home/ccg1$T
unlike "$OUT" "marker" "and never reached the host's home"

# A skeleton someone else could write is refused, and so is one too big.
chmod 0777 "$skel/sub"
run su - ccg1$T -c 'echo logged-in'
unlike "$OUT" "logged-in" "a skeleton with a directory others can write refuses the login"
refusal_logged "$log" "skeleton entry $skel/sub is writable by others" "with the reason"
chmod 0755 "$skel/sub"
chown ccg1$T "$skel/hello"
run su - ccg1$T -c 'echo logged-in'
refusal_logged "$log" "skeleton entry $skel/hello is owned by uid $(id -u ccg1$T), not root" \
	"a skeleton file the guest owns refuses the login"
chown root "$skel/hello"
chown ccg1$T "$skel"
run su - ccg1$T -c 'echo logged-in'
refusal_logged "$log" "$skel is owned by uid $(id -u ccg1$T), not root" "so does a skeleton directory the guest owns"
chown root "$skel"
head -c 5M /dev/zero > "$skel/big"; chmod 0644 "$skel/big"
run su - ccg1$T -c 'echo logged-in'
refusal_logged "$log" "no space left in the home (raise home-size)" "a skeleton bigger than home-size is a clear refusal"
rm -f "$skel/big"
run su - ccg1$T -c 'echo logged-in'
is "$OUT" "logged-in" "control: the repaired skeleton is accepted again"

# An overlay home: the real home underneath, every change discarded.
echo real > /home/ccg2$T/real; chown ccg2$T: /home/ccg2$T/real
run su - ccg2$T -c 'cat real; echo changed > real; touch new; rm -f .bashrc; cat real; ls -A | tr "\n" " "'
like "$OUT" "real
changed" "an overlay home shows the real home and takes changes"
unlike "$OUT" ".bashrc" "deletions included"
is "$(echo $(cat /home/ccg2$T/real; ls -A /home/ccg2$T))" "real .bash_logout .bashrc .profile real" \
	"the real home is untouched"
run su - ccg2$T -c 'cat real; ls new 2>&1'
like "$OUT" "real" "the next login sees the real home again"
like "$OUT" "No such file" "without the last session's files"

# No home, and a private /tmp per session.
run su - ccg3$T -c 'pwd; ls -d /home/ccg3'"$T"' 2>&1; stat -c "%n %U %a" /tmp /var/tmp /dev/shm
	df -k --output=size /tmp | tail -1 | tr -d " "; touch /tmp/s /var/tmp/s /dev/shm/s'
is "$OUT" "/
ls: cannot access '/home/ccg3$T': No such file or directory
/tmp root 1777
/var/tmp root 1777
/dev/shm root 1777
2048" "home = none: no home, the session starts in /; private /tmp, /var/tmp, /dev/shm root's 1777, tmp-size bound"
run su - ccg3$T -c 'ls /tmp /var/tmp /dev/shm'
is "$(echo $OUT)" "/dev/shm: /tmp: /var/tmp:" "a session private /tmp starts empty at each login"
is "$(ls -A "$STATE" 2>/dev/null | grep -cx "$(id -u ccg3$T)")" 0 "and keeps nothing on the host"

# Persistent private /tmp: per user, kept across logins.
run su - ccg4$T -c 'stat -c "%n %U %a" /tmp /var/tmp /dev/shm; echo kept > /tmp/p; echo kept > /var/tmp/p; echo kept > /dev/shm/p'
is "$OUT" "/tmp root 1777
/var/tmp root 1777
/dev/shm root 1777" "persistent private /tmp, /var/tmp, /dev/shm are root's 1777"
run su - ccg4$T -c 'cat /tmp/p /var/tmp/p /dev/shm/p'
is "$(echo $OUT)" "kept kept kept" "and survive to the next login"
is "$(stat -c '%U %a' "$STATE" "$STATE/$uid4" "$STATE/$uid4/tmp" | tr '\n' ' ')" \
	"root 755 root 700 root 1777 " "the instances sit under a root-only per-user directory"
is "$(ls /tmp/p 2>&1)" "ls: cannot access '/tmp/p': No such file or directory" "the host's /tmp has none of it"

# A symlink planted where the per-user directory goes cannot redirect it.
rm -rf "${STATE:?}/$uid4"
mkdir -m 0755 "$work/evil"
ln -s "$work/evil" "$STATE/$uid4"
run su - ccg4$T -c 'echo logged-in'
unlike "$OUT" "logged-in" "a symlink in the state directory refuses the login"
refusal_logged "$log" "$STATE/$uid4 is not a directory (a symlink?): refusing it" "with the reason"
is "$(ls -A "$work/evil")" "" "and nothing was created through it"
mkdir -p "$STATE/$uid4/tmp"
is "$(ls -A "$work/evil")" "tmp" "control: creating by path follows the symlink"
rm -rf "$work/evil/tmp" "${STATE:?}/$uid4"
mkdir -m 1777 "$STATE/$uid4"
run su - ccg4$T -c 'echo logged-in'
refusal_logged "$log" "$STATE/$uid4 is owned by 0:0 with mode 1777, not root's with mode 0700" \
	"a per-user directory others could write into is refused"
rmdir "$STATE/$uid4"
install -d -m 0700 "$STATE/$uid4"
install -d -m 1777 -o ccg4$T "$STATE/$uid4/tmp"
run su - ccg4$T -c 'echo logged-in'
refusal_logged "$log" "$STATE/$uid4/tmp is owned by $(id -u ccg4$T):0 with mode 1777" "so is an instance the user owns"
rm -rf "${STATE:?}/$uid4"
run su - ccg4$T -c 'echo logged-in'
is "$OUT" "logged-in" "control: a clean state directory works again"

done_testing
