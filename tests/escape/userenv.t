#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Code the user chooses that a service runs before or beside the login
# shell, through a real sshd on a copy of Debian's own /etc/pam.d/sshd
# (pam_env user_readenv=1) with sshd's defaults (PermitUserRC yes): the
# variables of ~/.pam_environment and ~/.ssh/environment, ~/.ssh/rc, and
# xauth for X11 forwarding, all of which sshd runs through /bin/sh with
# the session's environment before any login shell starts.
#   PAM mode: nothing of the user's runs without the session's filter.
#   Shell mode: nothing of the user's runs on the host.
# Every attack is first shown to work with the stock stack, where cocoon
# is not in the way.
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
UP=ccenv1$T # PAM mode: bash, confined by pam_cocoon
US=ccenv2$T # shell mode: cocoon-shell as login shell
dumper=/usr/local/lib/ccenv-xauth.$$
cleanup() {
	sshd_cleanup
	rm -f "$dumper" "/usr/local/bin/ccenv-shell.$$"
	policy_reset; cleanup_users
}
trap cleanup EXIT

add_user $UP || { echo "Bail out! useradd"; exit 1; }
add_user $US -s "$SHELL_BIN"
policy_reset
# The shell-mode account's rule names service shell only: through sshd the
# module does not confine it, it cuts its environment.
printf '[user %s]\nservice = shell\nprofile = default\n[user %s]\nprofile = default\n[default]\nsandbox = none\n' \
	$US $UP |
	policy_write cocoon.conf
host_pidns=$(readlink /proc/self/ns/pid)

# The variables a loader, libc or shell take code or data paths from.
CLASSES="LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT GCONV_PATH GLIBC_TUNABLES LOCPATH NLSPATH
MALLOC_CHECK_ HOSTALIASES RES_OPTIONS BASH_ENV ENV PERL5LIB PYTHONPATH"
for u in $UP $US; do
	h=/home/$u
	install -d -o $u -m 0755 "$h/t" "$h/.ssh"
	cc -shared -fPIC -o "$h/t/r.so" "$HERE/report.c" && chmod 0755 "$h/t/r.so"
done

# plant USER FILE [SEP]: the user names the whole class (LD_PRELOAD is the
# reporter) in ~/.pam_environment (pam_env's "NAME DEFAULT=value") or
# ~/.ssh/environment ("NAME=value"), plus a locale given as a path.
plant() {
	local u=$1 file=$2 sep=$3 h=/home/$1 v
	for v in $CLASSES; do
		case $v in
		LD_PRELOAD) printf '%s%s%s\n' $v "$sep" "$h/t/r.so" ;;
		MALLOC_CHECK_) printf '%s%s3\n' $v "$sep" ;;
		*) printf '%s%s%s\n' $v "$sep" "$h/t/x" ;;
		esac
	done > "$h/$file"
	printf 'LC_ALL%s%s\n' "$sep" "$h/t/locale" >> "$h/$file"
	chown $u "$h/$file"
}
plant_pam_env() { plant "$1" .pam_environment ' DEFAULT='; }
plant_ssh_env() { plant "$1" .ssh/environment '='; }
# rc USER: a ~/.ssh/rc that says where it ran.
rc() {
	printf '{ readlink /proc/self/ns/pid; grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; } > $HOME/t/rc.out\n' \
		> "/home/$1/.ssh/rc"
	chown $1 "/home/$1/.ssh/rc"
}
clean() {
	rm -f "/home/$1/.pam_environment" "/home/$1/.ssh/environment" "/home/$1/.ssh/rc" \
		"/home/$1/t/reports" "/home/$1/t/rc.out" "/home/$1"/t/xauth.*
}
reports() { cat "/home/$1/t/reports" 2>/dev/null; }
# the reports of processes in the host's pid namespace, without the filter
host_reports() { reports "$1" | grep -F "pidns=$host_pidns " | grep 'seccomp=0'; }
unfiltered() { reports "$1" | grep -v 'seccomp=2 nnp=1'; }

STOCK=""
COCOON="session required $PAMDIR/pam_cocoon.so"
# start STACK [CONFIG]: sshd on a copy of /etc/pam.d/sshd, with the
# module's two lines as pam_cocoon(8) gives them when STACK is COCOON.
start() {
	sshd_cleanup
	SSHD_EXTRA_CONFIG="X11Forwarding yes
${2:-}" sshd_start "$1" || { echo "Bail out! sshd"; exit 1; }
	[ -n "$1" ] && sed -i "0,/^session/s||session required $PAMDIR/pam_cocoon.so return\n&|" \
		/etc/pam.d/$SSHD_SERVICE
	sshd_allow $UP
	sshd_allow $US
}
x11() { local u=$1; shift; DISPLAY=:0 ssh_as "$u" -X "$@"; }

# An xauth that writes down the environment sshd gave it and where it
# ran, standing in at XAuthLocation; root's, like the real one.
cat > "$dumper" <<'EOF'
#!/bin/sh
{ echo "pidns=$(readlink /proc/self/ns/pid)"; grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status
  env; } > "$HOME/t/xauth.$$"
cat > /dev/null
EOF
chmod 0755 "$dumper"
dumped() { cat /home/$1/t/xauth.* 2>/dev/null; }
class_in() { # class_in TEXT: the class variables TEXT sets, one line
	local v out=""
	for v in $CLASSES; do printf '%s\n' "$1" | grep -q "^$v=" && out="$out $v"; done
	printf '%s\n' "$1" | grep -q '^LC_ALL=/' && out="$out LC_ALL=/path"
	echo "${out# }"
}
ALL_CLASSES=$(echo $CLASSES LC_ALL=/path)

# ===================== shell mode (cocoon-shell) =====================
# --- 1. ~/.pam_environment's LD_PRELOAD and ~/.ssh/rc: the reproduction
start "$STOCK"
clean $US; plant_pam_env $US; rc $US
run ssh_as $US 'echo in'
like "$OUT" "in" "shell mode, stock stack: the login works"
like "$(host_reports $US)" "exe=/usr/bin/dash" \
	"control: the user's library runs in sshd's /bin/sh on the host, unfiltered"
start "$COCOON"
clean $US; plant_pam_env $US; rc $US
run ssh_as $US 'echo in; cat /proc/1/comm'
is "$OUT" "in
cocoon-init" "shell mode with pam_cocoon's lines: the login works, in cocoon-shell's sandbox"
is "$(reports $US)" "" "the user's library runs nowhere: the environment was cut"
rcout=$(cat /home/$US/t/rc.out 2>/dev/null)
like "$rcout" "Seccomp:	2" "~/.ssh/rc ran, under the seccomp filter"
unlike "$rcout" "$host_pidns" "and not in the host's pid namespace (cocoon-shell's own sandbox)"

# --- 2. the whole class of variables, as sshd hands them to /bin/sh
start "$STOCK" "XAuthLocation $dumper"
clean $US; plant_pam_env $US
x11 $US true >/dev/null 2>&1
is "$(class_in "$(dumped $US)")" "$ALL_CLASSES" \
	"control: every variable of ~/.pam_environment reaches what sshd runs on the host"
start "$COCOON" "XAuthLocation $dumper"
clean $US; plant_pam_env $US
x11 $US true >/dev/null 2>&1
d=$(dumped $US)
like "$d" "pidns=$host_pidns" "with pam_cocoon, sshd still runs xauth on the host (shell mode)"
is "$(class_in "$d")" "" "but none of those variables reaches it"
like "$d" "HOME=/home/$US" "(the variables sshd sets itself are there)"

# --- 3. the real xauth, for X11 forwarding
start "$STOCK"
clean $US; plant_pam_env $US
x11 $US true >/dev/null 2>&1
like "$(host_reports $US)" "exe=/usr/bin/xauth" \
	"control: with X11 forwarding, the user's library runs in xauth on the host"
start "$COCOON"
clean $US; plant_pam_env $US; rm -f /home/$US/.Xauthority
run x11 $US true
unlike "$OUT" "X11 forwarding request failed" "with pam_cocoon, X11 forwarding is still granted"
[ -s /home/$US/.Xauthority ]; ok $? "and xauth wrote the cookie to ~/.Xauthority"
is "$(reports $US)" "" "the user's library runs nowhere"

# --- 4. an account exempt= names, and cocoon-shell under another name:
# cocoon-shell still confines both, so their environment is still cut.
start "session required $PAMDIR/pam_cocoon.so exempt=$US"
clean $US; plant_pam_env $US; rc $US
run ssh_as $US 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "an exempt cocoon-shell account still gets cocoon-shell's sandbox"
is "$(reports $US)" "" "and the module still cuts its environment"
alias_shell=/usr/local/bin/ccenv-shell.$$
ln -s "$SHELL_BIN" "$alias_shell"
usermod -s "$alias_shell" $US
start "$COCOON"
clean $US; plant_pam_env $US; rc $US
run ssh_as $US 'cat /proc/1/comm'
usermod -s "$SHELL_BIN" $US
rm -f "$alias_shell"
is "$OUT" "cocoon-init" "cocoon-shell by another name (a link) confines the login"
is "$(reports $US)" "" "and is known for what it is: the environment is cut"

# ===================== PAM mode (pam_cocoon) =====================
# --- 5. ~/.pam_environment's LD_PRELOAD and ~/.ssh/rc
start "$STOCK"
clean $UP; plant_pam_env $UP; rc $UP
run ssh_as $UP 'cat /proc/1/comm'
like "$(host_reports $UP)" "exe=/usr/bin/dash" \
	"control: without the module, the user's library runs in sshd's /bin/sh on the host"
start "$COCOON"
clean $UP; plant_pam_env $UP; rc $UP
run ssh_as $UP 'cat /proc/1/comm'
is "$OUT" "cocoon-init" "PAM mode: the ssh session is sandboxed"
is "$(reports $UP)" "" "the user's library runs nowhere: the module cut the environment"
rcout=$(cat /home/$UP/t/rc.out 2>/dev/null)
like "$rcout" "Seccomp:	2" "~/.ssh/rc ran under the session's filter"
like "$rcout" "NoNewPrivs:	1" "and with no_new_privs"

# --- 6. what the module cannot cut: ~/.ssh/environment (PermitUserEnvironment)
start "$STOCK" "PermitUserEnvironment yes"
clean $UP; plant_ssh_env $UP; rc $UP
run ssh_as $UP true
like "$(host_reports $UP)" "exe=/usr/bin/dash" \
	"control: ~/.ssh/environment's LD_PRELOAD runs in sshd's /bin/sh, unfiltered"
start "$COCOON" "PermitUserEnvironment yes"
clean $UP; plant_ssh_env $UP; rc $UP
run ssh_as $UP 'echo in'
like_re "$OUT" "^in$" "with the module, the session works"
like "$(reports $UP)" "exe=/run/cocoon/sh vars=" \
	"the library loads in the /bin/sh sshd runs, which is cocoon-launch's"
is "$(unfiltered $UP)" "" "and every process it loads in has the filter and no_new_privs"
unlike "$(reports $UP)" "$host_pidns" "none in the host's pid namespace"

# --- 7. X11 forwarding: the real xauth, and the whole class
start "$STOCK" "PermitUserEnvironment yes"
clean $UP; plant_ssh_env $UP
x11 $UP true >/dev/null 2>&1
like "$(host_reports $UP)" "exe=/usr/bin/xauth" "control: the library runs in xauth, unfiltered"
start "$COCOON" "PermitUserEnvironment yes"
clean $UP; plant_ssh_env $UP
run x11 $UP 'echo $DISPLAY'
like "$OUT" "localhost:" "PAM mode: X11 forwarding works"
like "$(reports $UP)" "exe=/usr/bin/xauth" "xauth ran"
is "$(unfiltered $UP)" "" "under the session's filter, as every process the library reached"
start "$COCOON" "XAuthLocation $dumper"
clean $UP; plant_pam_env $UP
x11 $UP true >/dev/null 2>&1
d=$(dumped $UP)
is "$(class_in "$d")" "" "the module cuts every variable of the class from ~/.pam_environment"
like "$d" "Seccomp:	2" "and what sshd runs for xauth runs filtered"

# --- 8. the launcher is started undumpable, or not at all
launcher=$COCOON_ROOT/usr/libexec/cocoon/cocoon-launch
is "$(stat -c %a "$launcher")" 711 "cocoon-launch is installed readable by root alone"
start "$COCOON"
clean $UP
chmod 0755 "$launcher"
run ssh_as $UP true
chmod 0711 "$launcher"
[ "$RC" -ne 0 ]; ok $? "a launcher others can read refuses the session (it could be traced before its filter)"

done_testing
