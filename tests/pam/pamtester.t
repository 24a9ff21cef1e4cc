#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pam_cocoon driven by pamtester through a test service of its own
# (/etc/pam.d/cocoon-test-pam-$T): what it does for covered, uncovered,
# root and exempt users, with broken and unsafe policies, and that
# closing leaves nothing behind.
. "$(dirname "$0")/../lib.sh"
SERVICE=cocoon-test-pam-$T
work=$(mktemp -d /run/cocoon-pam-test.XXXXXX)
chmod 0755 "$work"
cleanup() {
	chmod 0755 "$COCOON_ROOT/usr/libexec/cocoon/cocoon-init"
	syslog_release
	rm -f "/etc/pam.d/$SERVICE" "/etc/pam.d/$SERVICE-auth" "/etc/pam.d/$SERVICE-made"
	policy_reset; cleanup_users; rm -rf "$work"
}
trap cleanup EXIT

# Its assertions read syslog: it needs a receiver of its own at /dev/log.
syslog_capture "$work/syslog" || { echo "1..0 # skip /dev/log exists already"; exit 0; }

add_user ccpt1$T
add_user ccpt2$T
policy_reset
cat > "/etc/pam.d/$SERVICE" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required $PAMDIR/pam_cocoon.so debug exempt=ccpt2$T
session optional pam_permit.so
PAM

# log_since MARK: what was logged after line MARK. setcred(4) is PAM_DELETE_CRED,
# which pamtester has no name for.
log_lines() { wc -l < "$work/syslog"; }
# The receiver writes a moment after the line is sent: up to 10 s (a busy
# host) for the service's first line after MARK, then 0.3 s for the rest.
log_since() {
	local i
	for i in $(seq 100); do
		tail -n "+$(($1 + 1))" "$work/syslog" | grep -qF "($SERVICE:" && break
		sleep 0.1
	done
	sleep 0.3
	tail -n "+$(($1 + 1))" "$work/syslog"
}
# refused LINES NAME REASON: under the default profile plus LINES, the
# session is refused, and syslog says REASON.
refused() {
	printf '[default]\nprofile = default\n%s\n' "$1" | policy_write cocoon.conf
	local m
	m=$(log_lines)
	run pamtester "$SERVICE" ccpt1$T open_session close_session
	[ "$RC" -ne 0 ]; ok $? "$2"
	like "$(log_since "$m")" "$3" "with the reason"
}

mounts=$(mount_count)
inits_before=$(inits)
m=$(log_lines)
run pamtester -I tty=pts/9 -I rhost=198.51.100.7 -I "ruser=some one" "$SERVICE" ccpt1$T \
	open_session 'setcred(PAM_ESTABLISH_CRED)' 'setcred(PAM_ESTABLISH_CRED)' \
	'setcred(4)' close_session
is "$RC" 0 "open, setcred twice, delete, close: all succeed"
log=$(log_since "$m")
like_re "$log" "pam_cocoon\($SERVICE:session\): v=1 event=start user=ccpt1$T uid=[0-9]+ service=$SERVICE rhost=198.51.100.7 tty=pts/9 ruser=\"some one\" rule=\"\[default\] at [^\"]+\" profile=default plan=[0-9a-f]{16} ns=mnt,pid,ipc,uts session=[0-9a-f]{32} result=sandboxed\$" \
	"the start record: every field, in order, values with spaces quoted"
id=$(printf '%s\n' "$log" | sed -n 's/.*event=start.* session=\([0-9a-f]*\).*/\1/p')
like_re "$log" "v=1 event=end user=ccpt1$T service=$SERVICE rhost=198.51.100.7 tty=pts/9 ruser=\"some one\" rule=.* session=$id result=ended duration=[0-9]+\$" \
	"the end record: the same session id, and the duration"
is "$(inits_back_to "$inits_before")" "$inits_before" "no cocoon-init is left"
is "$(mount_count)" "$mounts" "no mount is left on the host"

# libsystemd is loaded when a session first needs systemd (cpu-max on the
# logind scope, a shared sandbox's scope), not with the module: a login
# that needs neither maps none of it, nor the five libraries it needs.
# The loader's LD_DEBUG=files names each library it maps; the control
# preloads libsystemd to show that it would be named.
run env LD_DEBUG=files pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "a sandboxed login with the loader's trace on"
unlike "$OUT" "file=libsystemd.so.0" "maps no libsystemd: nothing in its plan needs systemd"
run env LD_DEBUG=files LD_PRELOAD=libsystemd.so.0 pamtester "$SERVICE" ccpt1$T open_session close_session
like "$OUT" "file=libsystemd.so.0" "control: the trace names libsystemd where it is mapped"

# Back on the host after deleting credentials (the auth stack's return
# line, as login and su use it), the service may not have a second open
# report a sandbox it is no longer in.
{ echo "auth optional $PAMDIR/pam_cocoon.so return"; cat "/etc/pam.d/$SERVICE"; } \
	> "/etc/pam.d/$SERVICE-auth"
m=$(log_lines)
run pamtester "$SERVICE-auth" ccpt1$T open_session open_session close_session
is "$RC" 0 "control: a second open while inside succeeds"
m=$(log_lines)
run pamtester "$SERVICE-auth" ccpt1$T open_session 'setcred(4)' open_session close_session
[ "$RC" -ne 0 ]; ok $? "a second open after going back to the host is refused"
like "$(log_since "$m")" "the session went back to the host and is not opened again" "with the reason"
is "$(inits_back_to "$inits_before")" "$inits_before" "and its session ends"

# A service already under no_new_privs (systemd's NoNewPrivileges=) would
# make every launch look nested, so that none applied the filter.
m=$(log_lines)
run setpriv --no-new-privs pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "a service with no_new_privs already set is refused"
like "$(log_since "$m")" "the service already runs with a seccomp filter or no_new_privs" \
	"with the reason"

m=$(log_lines)
run pamtester "$SERVICE" root open_session close_session
is "$RC" 0 "root's session opens"
like "$(log_since "$m")" "v=1 event=start user=root uid=0 service=$SERVICE result=exempt" "root's start record"
like "$(log_since "$m")" "result=exempt reason=root" "unsandboxed, before the policy is read"

printf '[default]\nprofile = nosuch\n' | policy_write cocoon.conf
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "a broken policy refuses a covered user"
like_re "$(log_since "$m")" "v=1 event=refuse user=ccpt1$T uid=[0-9]+ service=$SERVICE .*result=refused reason=\".*unknown profile 'nosuch'" \
	"a refusal record with the reason, quoted"
run pamtester "$SERVICE" ccpt2$T open_session close_session
is "$RC" 0 "an exempt user gets in despite the broken policy"
# exempt=@GROUP: the groups are looked up for it (elsewhere the session
# process does that).
add_group ccptg$T
usermod -aG ccptg$T ccpt2$T
sed -i "s/debug exempt=ccpt2$T/debug exempt=nobody-here,@ccptg$T/" "/etc/pam.d/$SERVICE"
run pamtester "$SERVICE" ccpt2$T open_session close_session
is "$RC" 0 "a member of an exempt group gets in despite the broken policy"
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "control: a user outside it is refused"
sed -i "s/debug exempt=nobody-here,@ccptg$T/debug exempt=ccpt2$T/" "/etc/pam.d/$SERVICE"

printf '[default]\nservice = sshd\nprofile = default\n' | policy_write cocoon.conf
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "a user no rule covers gets in"
like "$(log_since "$m")" "result=unconfined reason=\"no rule\"" "unsandboxed, and said so"

# A name NSS does not know is refused, even one of digits (a virtual FTP
# user): taken as a uid, "0" would be root, whom pam_cocoon lets through.
run "$CTL" explain 0
like "$OUT" "user:        root (uid 0)" "control: read as a uid, '0' is root"
m=$(log_lines)
run pamtester "$SERVICE" 0 open_session close_session
[ "$RC" -ne 0 ]; ok $? "a session for the unknown user '0' is refused, not let through as root"
like "$(log_since "$m")" "unknown user '0'" "with the reason"

refused "unshare = pid ipc uts user" "a plan with a user namespace is refused" \
	"'unshare = user' is refused for PAM sessions"
refused "no-new-privs = no" "seccomp without no-new-privs is refused" \
	"needs 'no-new-privs = yes'"
install -d -o ccpt1$T -m 0755 "$work/usr"
refused "bind = $work/usr /usr/local" "a user-writable bind below /usr is refused" \
	"/usr comes from a source a non-root user can write"

printf '[default]\nprofile = default\ndir = /etc\n' | policy_write cocoon.conf
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "a user-owned dir at /etc is refused"

# Below /etc the service and the modules after pam_cocoon read their
# configuration and code (pam_motd runs /etc/update-motd.d/* as root).
printf '[default]\nprofile = default\ntmpfs = /etc/pam.d\n' | policy_write cocoon.conf
run "$CTL" run --user ccpt1$T -- /bin/sh -c 'echo x > /etc/pam.d/other && echo WROTE'
like "$OUT" "WROTE" "control: the user writes into a tmpfs /etc/pam.d of the plan's tree"
refused "tmpfs = /etc/pam.d" "a tmpfs below /etc without mode= is refused" \
	"tmpfs /etc/pam.d: a tmpfs there is writable by others"
printf '[default]\nprofile = default\ntmpfs = /etc/pam.d mode=0755\n' | policy_write cocoon.conf
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "with mode=0755 (root's in service mode) it is accepted"
refused "dir = /etc/update-motd.d" "a dir below /etc is refused" \
	"a \`dir\` there belongs to the session's user, and root (the service, its PAM modules"
refused "symlink = /home/ccpt1$T /etc/security/limits.d" "a symlink below /etc into a home is refused" \
	"a symlink there leads out of the paths root reads"

printf '[default]\nprofile = default\nclearenv = yes\nnew-session = yes\n' | policy_write cocoon.conf
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "clearenv and new-session do not refuse the session"
like "$(log_since "$m")" "new-session ignored in PAM mode" "a notice says new-session is ignored"

# A bind source the user can write is opened with the user's
# credentials, supplementary groups included (looked up by pid 2 in
# service mode): a directory below one only the group may enter.
install -d -o root -g ccptg$T -m 2770 "$work/shared"
install -d -o root -g root -m 0755 "$work/shared/inner"
add_user ccpt3$T
usermod -aG ccptg$T ccpt3$T
printf '[default]\nprofile = default\nbind = %s /srv/shared\n' "$work/shared/inner" | policy_write cocoon.conf
run pamtester "$SERVICE" ccpt3$T open_session close_session
is "$RC" 0 "a group member's session binds a source below a directory only the group may enter"
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "control: outside the group the same bind refuses the session"
like "$(log_since "$m")" "as ccpt1$T, refusing symlinks: Permission denied" "with the reason"

# pid 1 runs in the service's memory until it executes cocoon-init:
# when that exec fails, pid 1 says why, the login is refused, and no pid
# 1, no session process and no mount is left.
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
init=$COCOON_ROOT/usr/libexec/cocoon/cocoon-init
inits_before=$(inits)
mounts_before=$(mount_count)
chmod 0644 "$init"
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
chmod 0755 "$init"
[ "$RC" -ne 0 ]; ok $? "a cocoon-init that cannot be executed refuses the session"
like "$(log_since "$m")" "exec cocoon-init ($init): error 13" "and syslog says why"
is "$(inits_back_to "$inits_before")" "$inits_before" "no pid 1 is left"
is "$(live_procs ccpt1$T)" 0 "no process of the user"
is "$(mount_count)" "$mounts_before" "no mount is left at the test's paths either"
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "control: executable again, the session opens"

# Service mode builds on a stack of 1 MiB: a home skeleton as deep as
# allowed (16 directories, a file in each) still copies, and a deeper
# one is refused with the reason (neither overflows it).
skel=$work/skel
d=$skel
for i in $(seq 16); do d=$d/d$i; mkdir -p "$d"; echo "$i" > "$d/file"; done
chmod -R go-w "$skel"
printf '[default]\nprofile = default\nhome = tmpfs\nhome-skel = %s\n' "$skel" | policy_write cocoon.conf
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "a home skeleton 16 directories deep is copied"
mkdir "$d/d17"
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "one 17 deep refuses the session"
like "$(log_since "$m")" "is nested deeper than 16 directories" "with the reason"
printf '[default]\nprofile = default\n' | policy_write cocoon.conf

sed -i "s/debug exempt=ccpt2$T/mode=audit/" "/etc/pam.d/$SERVICE"
m=$(log_lines)
inits_before=$(inits)
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "mode=audit lets the session in"
like_re "$(log_since "$m")" "event=start user=ccpt1$T .* plan=[0-9a-f]{16} ns=[a-z,]+ mode=audit result=unconfined" \
	"and logs the plan it would apply"
is "$(inits_back_to "$inits_before")" "$inits_before" "without building a sandbox"
printf '[default]\nprofile = nope\n' | policy_write cocoon.conf
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
is "$RC" 0 "mode=audit: a policy that would refuse lets the session in"
like "$(log_since "$m")" "event=start user=ccpt1$T" "mode=audit logs a start"
like "$(log_since "$m")" "mode=audit result=would-refuse reason=" "and why it would refuse"

# A mistyped module argument refuses everyone but root.
sed -i 's/mode=audit/mode=audti/' "/etc/pam.d/$SERVICE"
printf '[default]\nprofile = default\n' | policy_write cocoon.conf
m=$(log_lines)
run pamtester "$SERVICE" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "a bad module argument refuses a covered user"
like "$(log_since "$m")" "unknown argument 'mode=audti'" "and syslog names the argument"
# The record names the account by uid too, as every other refusal of a known account does.
like_re "$(log_since "$m")" "v=1 event=refuse user=ccpt1$T uid=$(id -u ccpt1$T) service=$SERVICE session=[0-9a-f]{32} result=refused reason=\"bad module arguments\"" \
	"with a refusal record"
run pamtester "$SERVICE" root open_session close_session
is "$RC" 0 "root still gets in"

# A bind source that a module between the two lines makes (pam_mkhomedir
# the home, pam_mount what it mounts) does not refuse the login: the
# return line, before that module, leaves it to the confining line.
made=$work/made-between
printf '[default]\nprofile = default\nbind = %s /data\n' "$made" | policy_write cocoon.conf
cat > "/etc/pam.d/$SERVICE-made" <<PAM
auth required pam_permit.so
account required pam_permit.so
session required $PAMDIR/pam_cocoon.so return
session required pam_exec.so /bin/mkdir -p $made
session required $PAMDIR/pam_cocoon.so
PAM
rm -rf "$made"
run pamtester "$SERVICE-made" ccpt1$T open_session close_session
is "$RC" 0 "a bind source made between the lines (as pam_mkhomedir makes a home): the session opens"
rm -rf "$made"
sed -i '/pam_exec.so/d' "/etc/pam.d/$SERVICE-made"
run pamtester "$SERVICE-made" ccpt1$T open_session close_session
[ "$RC" -ne 0 ]; ok $? "control: without the module that makes it, the missing source refuses"
rm -rf "$made"

done_testing
