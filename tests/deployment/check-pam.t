#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cocoonctl check --pam on a system image under --root: the PAM stacks
# (pam_cocoon's lines, their order and controls), crontabs, lingering,
# /etc/shells, and what sshd's configuration lets run before cocoon-shell.
. "$(dirname "$0")/../lib.sh"
img=$(mktemp -d /run/cocoon-admin.XXXXXX)
cleanup() {
	rm -rf "$img"
	sshd_rundir_release
	policy_reset; cleanup_users
}
trap cleanup EXIT

add_user ccadm1$T || { echo "Bail out! useradd"; exit 1; }
add_user ccadm2$T
add_user ccadm3$T
usermod -s "$COCOON_ROOT/usr/bin/cocoon-shell" ccadm3$T
policy_reset
policy_write cocoon.conf <<CONF
[user ccadm1$T]
profile = default
[user ccadm2$T]
sandbox = none
[default]
profile = default
CONF

# --- check --pam, on an image under --root
pam=$img/etc/pam.d
mkdir -p "$pam" "$img/var/spool/cron/crontabs" "$img/var/lib/systemd/linger"
M=pam_cocoon.so
cat > "$pam/common-session" <<EOF
session required pam_unix.so
session optional $M
EOF
cat > "$pam/good" <<EOF
auth required pam_unix.so
session required $M return
@include common-session-noninteractive
session required pam_limits.so
session required $M
EOF
# An absolute include is the image's own file, not the host's.
cat > "$pam/late2" <<EOF
session required $M return
session required $M
@include /etc/cocoon-admin-extra
EOF
printf 'session optional pam_foo.so\n' > "$img/etc/cocoon-admin-extra"
printf 'session required pam_unix.so\n' > "$pam/common-session-noninteractive"
cat > "$pam/late" <<EOF
session required $M return
session required $M
session optional pam_systemd.so
EOF
cat > "$pam/soft" <<EOF
session required $M return
session optional $M
EOF
cat > "$pam/dashed" <<EOF
session required $M return
-session required $M
EOF
cat > "$pam/noreturn" <<EOF
session required pam_unix.so
session required $M
EOF
cat > "$pam/lightdm" <<EOF
session required $M return
session [success=ok default=die] \\
	$M
EOF
cat > "$pam/skipped" <<EOF
session required $M return
session sufficient pam_rootok.so
session required $M
EOF
cat > "$pam/jumped" <<EOF
session required $M return
session [success=2 default=ignore] pam_succeed_if.so user ingroup staff
session required pam_unix.so
session required $M
EOF
# Debian's common-session jumps over its pam_deny line, not further.
cat > "$pam/shortjump" <<EOF
session required $M return
session [default=1] pam_permit.so
session requisite pam_deny.so
session required pam_permit.so
session required $M
EOF
cat > "$pam/spaced" <<EOF
session required $M return
session [success = 1 default = ignore] pam_succeed_if.so user ingroup staff
session Required $M
EOF
cat > "$pam/capital" <<EOF
session required $M return
session Sufficient pam_rootok.so
session required $M
EOF
# A jump that lands on the confining line, one past the end (which fails
# the stack), a sufficient inside a substack (which ends only that), and a
# jump over a whole substack (one module) that lands before pam_cocoon.
cat > "$pam/harmless" <<EOF
session required $M return
session [success=1 default=ignore] pam_succeed_if.so user ingroup staff
session required pam_unix.so
session [success=9 default=ignore] pam_succeed_if.so user ingroup wheel
session substack harmless-sub
session [success=1 default=ignore] pam_succeed_if.so user ingroup audio
session substack harmless-sub
session required pam_limits.so
session required $M
EOF
printf 'session sufficient pam_rootok.so\nsession required pam_env.so\n' > "$pam/harmless-sub"
cp "$pam/good" "$pam/good.dpkg-old"
printf '/bin/sh\n/bin/bash\n' > "$img/etc/shells"
touch "$img/var/spool/cron/crontabs/ccadm1$T" "$img/var/spool/cron/crontabs/ccadm2$T"
touch "$img/var/lib/systemd/linger/ccadm3$T"

run "$CTL" check --pam --root "$img"
is "$RC" 1 "check --pam exits 1 on errors in the stacks"
like "$OUT" "$pam/common-session:2: error: pam_cocoon.so in common-session confines every service" \
	"the module in a common-* file is an error at file:line"
unlike "$OUT" "service good" "a stack in the documented order passes (includes followed)"
unlike "$OUT" "good.dpkg-old" "package manager leftovers are not services"
like "$OUT" "$pam/late:3: error: service late: pam_systemd.so comes after pam_cocoon.so's confining line" \
	"a module after the confining line is an error at its line"
like "$OUT" "$img/etc/cocoon-admin-extra:1: error: service late2: pam_foo.so comes after" \
	"an absolute include is read from the image"
like "$OUT" "$pam/soft:2: error: service soft: 'optional' lets a session in unconfined" \
	"an optional confining line fails open: error"
like "$OUT" "$pam/dashed:2: error: service dashed: '-session required'" \
	"a -session confining line is skipped when missing: error"
like "$OUT" "$pam/noreturn:2: warning: service noreturn has no 'session required pam_cocoon.so return' first line" \
	"a stack without the return line is warned"
like "$OUT" "$pam/lightdm:2: error: service lightdm is a display manager" \
	"a display manager's stack is refused (continued line read whole)"
like "$OUT" "$pam/skipped:2: error: service skipped: 'sufficient' (pam_rootok.so) can end the stack before or jump over pam_cocoon.so's confining line" \
	"a sufficient line above the confining line is an error"
like "$OUT" "$pam/jumped:2: error: service jumped: '[success=2 default=ignore]' (pam_succeed_if.so) can end" \
	"a jump over the confining line is an error"
like "$OUT" "$pam/spaced:2: error: service spaced: '[success = 1 default = ignore]'" \
	"so is one written with spaces around '=', as libpam reads it"
like "$OUT" "$pam/capital:2: error: service capital: 'Sufficient'" "and a control in capitals"
unlike "$OUT" "service spaced: 'Required'" "(a confining line in capitals is required all the same)"
unlike "$OUT" "service shortjump" "a jump that lands before it is not"
unlike "$OUT" "service harmless" \
	"nor one landing on it, one past the end, a sufficient in a substack, a jump over a substack"
like "$OUT" "warning: confined user ccadm1$T has a crontab" "a confined user's crontab is warned"
unlike "$OUT" "user ccadm2$T has a crontab" "an unconfined user's crontab is not"
like "$OUT" "warning: confined user ccadm3$T has lingering enabled" \
	"a cocoon-shell user with lingering is warned"
unlike "$OUT" "/etc/shells lists it" "cocoon-shell not in /etc/shells: no warning"
echo "$COCOON_ROOT/usr/bin/cocoon-shell" >> "$img/etc/shells"
run "$CTL" check --pam --root "$img"
like "$OUT" "user ccadm3$T logs in through cocoon-shell, and $img/etc/shells lists it" \
	"cocoon-shell listed in /etc/shells is warned (chsh would let the user out)"
rm -f "$pam/common-session" "$pam"/late "$pam"/late2 "$pam"/soft "$pam"/dashed "$pam"/lightdm \
	"$pam"/skipped "$pam"/jumped "$pam"/spaced "$pam"/capital
run "$CTL" check --pam --root "$img"
is "$RC" 0 "with the errors gone, warnings alone exit 0"
run "$CTL" check --root "$img"
is "$RC" 2 "--root without --pam is a usage error"

# --- check --pam: what sshd runs before cocoon-shell (ccadm3's shell)
# This host's sshd reads the image's config (sshd -T); it wants its
# privilege separation directory and a host key.
sshd_rundir_hold || bail_out "/run/sshd"
ssh-keygen -q -t ed25519 -N '' -f "$img/hostkey"
mkdir -p "$img/etc/ssh"
sshd_conf() { printf 'HostKey %s/hostkey\nUsePAM yes\n%s\n' "$img" "$1" > "$img/etc/ssh/sshd_config"; }
sshd_conf 'AcceptEnv LANG LC_*'
cp /etc/pam.d/sshd "$pam/sshd"
envline=$(grep -n '^session.*pam_env.so.*user_readenv=1' "$pam/sshd" | cut -d: -f1)
run "$CTL" check --pam --root "$img"
is "$RC" 1 "Debian's sshd stack and a cocoon-shell account: check --pam refuses"
like "$OUT" "$pam/sshd:$envline: error: service sshd: pam_env user_readenv=1 puts ~/.pam_environment" \
	"at the pam_env line that reads the user's file"
# What sshd runs before cocoon-shell is said once, for the first cocoon-shell
# account on the host: ccadm3$T here, or on a shared host an account made
# before it (a deployed guest, another copy's test user).
account='cocoon-shell account [^ )]+'
like_re "$OUT" "\($account\): add 'session required pam_cocoon.so' as the last session line" \
	"naming the account and the mend"
printf 'session required pam_cocoon.so return\n' | cat - "$pam/sshd" > "$pam/sshd.new"
printf 'session required pam_cocoon.so\n' >> "$pam/sshd.new"
mv "$pam/sshd.new" "$pam/sshd"
run "$CTL" check --pam --root "$img"
is "$RC" 0 "with pam_cocoon's last line the stack passes (Debian's AcceptEnv LANG LC_* too)"
for arg in user_readenv=1 user_readenv=01 '[user_readenv=2]'; do
	printf 'auth optional pam_env.so %s\n' "$arg" >> "$pam/sshd"
	run "$CTL" check --pam --root "$img"
	like "$OUT" "$pam/sshd:$(wc -l < "$pam/sshd"): error: service sshd: pam_env user_readenv=1 in the auth stack" \
		"pam_env reading the user's file at setcred, after the cut, is refused ($arg, as pam_env's atoi reads it)"
	sed -i '$d' "$pam/sshd"
done
printf 'auth optional pam_env.so user_readenv=0\n' >> "$pam/sshd"
run "$CTL" check --pam --root "$img"
is "$RC" 0 "user_readenv=0 reads nothing"
sed -i '$d' "$pam/sshd"
like_re "$OUT" "warning: sshd: TCP forwarding, unix-socket forwarding, agent forwarding stay open for $account:" \
	"what sshd does beside the shell is warned"
sshd_conf "AcceptEnv LANG LC_*
Match User ccadm3$T
	DisableForwarding yes"
run "$CTL" check --pam --root "$img"
unlike "$OUT" "stay open for cocoon-shell account ccadm3$T:" "not once a Match block for the account closes it"
sshd_conf 'PermitUserEnvironment yes'
run "$CTL" check --pam --root "$img"
like "$OUT" "$img/etc/ssh/sshd_config:3: error: sshd: PermitUserEnvironment yes lets ~/.ssh/environment" \
	"PermitUserEnvironment yes is refused at its line"
sshd_conf 'PermitUserEnvironment LANG,TZ'
run "$CTL" check --pam --root "$img"
is "$RC" 0 "a PermitUserEnvironment list within the allow-list passes"
printf 'AcceptEnv LANG\nAcceptEnv LC_* GIT_*\n' > "$img/etc/ssh/extra.conf"
sshd_conf "Include $img/etc/ssh/extra.conf"
run "$CTL" check --pam --root "$img"
like "$OUT" "$img/etc/ssh/extra.conf:2: error: sshd: AcceptEnv GIT_* lets variables the client chose" \
	"an AcceptEnv pattern beyond the allow-list is refused in the included file that has it"
printf 'Match User %s\n\tAcceptEnv *\n' "ccadm3$T" > "$img/etc/ssh/extra.conf"
run "$CTL" check --pam --root "$img"
like "$OUT" "error: sshd: AcceptEnv * lets" "a Match block for the account counts"
printf 'Match Address 10.0.0.0/8\n\tAcceptEnv LD_PRELOAD\n' > "$img/etc/ssh/extra.conf"
run "$CTL" check --pam --root "$img"
like "$OUT" "$img/etc/ssh/extra.conf:2: error: sshd: AcceptEnv LD_PRELOAD lets" \
	"so does one for an address the client may connect from"
sshd_conf ''
mkdir -p "$img/etc/default"
printf '# options\nSSHD_OPTS="-o AcceptEnv=LD_PRELOAD"\n' > "$img/etc/default/ssh"
run "$CTL" check --pam --root "$img"
like "$OUT" "$img/etc/default/ssh:2: error: sshd: AcceptEnv LD_PRELOAD lets" \
	"and one on sshd's command line (Debian's SSHD_OPTS)"
rm "$img/etc/default/ssh"
printf 'HostKey /nonexistent\n' > "$img/etc/ssh/sshd_config"
run "$CTL" check --pam --root "$img"
like_re "$OUT" "$img/etc/ssh/sshd_config: error: cannot tell what sshd runs before cocoon-shell for [^ :]+:" \
	"an sshd config sshd will not read is an error, not a pass"
rm -rf "$img/etc/ssh"

done_testing
