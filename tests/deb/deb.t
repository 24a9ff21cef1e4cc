#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages of `make deb` install, work and go away cleanly in a
# fresh Debian 12 root (debootstrap --variant=minbase, then chroot). Slow
# and it needs the Debian mirror, so it runs only with COCOON_DEB_TEST=1,
# as `make deb-test` sets it.
if [ "${COCOON_DEB_TEST:-}" != 1 ]; then
	echo "1..0 # SKIP set COCOON_DEB_TEST=1 (make deb-test) to run it"
	exit 0
fi
# Every mount of this test lives in a mount namespace of its own, so none
# outlives it, whatever happens.
if [ -z "${COCOON_DEB_TEST_NS:-}" ]; then
	COCOON_DEB_TEST_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi
# Only lib.sh's TAP helpers are used here, not the tree make check installs.
. "$(dirname "$0")/../lib.sh" tap

TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
DEBS=$TOP/build/deb
BASE=$TOP/build/deb-cache/base       # pristine root, kept between runs
ARCHIVES=$TOP/build/deb-cache/archives
ROOT=$TOP/build/deb-root             # this run's root
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ARCH=$(dpkg --print-architecture)
# The mirror this machine's apt uses.
MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n -E 's,^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)(https?://[^[:space:]]*/debian)/?([[:space:]].*)?$,\3,p' |
	head -n 1)
: "${MIRROR:=http://deb.debian.org/debian}"

unmount_root() {
	local m
	for m in $(findmnt -rn -o TARGET | grep -F "$ROOT/" | sort -r); do
		umount "$m"
	done
}
remove_root() {
	unmount_root
	if findmnt -rn -o TARGET | grep -qF "$ROOT/"; then
		echo "# $ROOT still has mounts; left in place" >&2
		return 1
	fi
	rm -rf --one-file-system "$ROOT"
}
trap remove_root EXIT
trap 'exit 1' INT TERM HUP # so that the EXIT trap runs

# is_done NAME: the last run succeeded; its output shown when not.
is_done() {
	is "$RC" 0 "$1"
	[ "$RC" -eq 0 ] || printf '%s\n' "$OUT" | tail -n 30 | sed 's/^/# /'
}

in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
status_of() { in_root dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | tr -d ' '; }

for p in cocoon libpam-cocoon cocoon-shell; do
	[ -f "$DEBS/${p}_${VERSION}_$ARCH.deb" ] || {
		echo "Bail out! no $p package of version $VERSION in $DEBS: run make deb"; exit 1; }
done

# The root: debootstrap once (its time is reported), then a copy per run.
if [ ! -e "$BASE/.complete" ]; then
	rm -rf --one-file-system "$BASE"
	start=$(date +%s)
	run debootstrap --variant=minbase bookworm "$BASE" "$MIRROR"
	is_done "debootstrap bookworm from $MIRROR"
	[ "$RC" -eq 0 ] || { done_testing; exit 1; }
	echo "# debootstrap took $(( $(date +%s) - start ))s"
	touch "$BASE/.complete"
fi
remove_root || exit 1
cp -a "$BASE" "$ROOT"
mount -t proc proc "$ROOT/proc"
# The host's /sys, for its cgroup tree: the recipes' limits need one.
mount --rbind /sys "$ROOT/sys"
mkdir -p "$ARCHIVES/partial"
mount --bind "$ARCHIVES" "$ROOT/var/cache/apt/archives"
mkdir -p "$ROOT/tmp/debs"
for p in cocoon libpam-cocoon cocoon-shell; do
	cp "$DEBS/${p}_${VERSION}_$ARCH.deb" "$ROOT/tmp/debs/$p.deb"
done

# Install: dpkg first, then apt for the dependencies from the mirror.
run in_root apt-get update -qq
is_done "apt-get update in the root"
in_root dpkg -i /tmp/debs/cocoon.deb /tmp/debs/libpam-cocoon.deb /tmp/debs/cocoon-shell.deb \
	>/dev/null 2>&1
run in_root apt-get install -f -y -qq
is_done "apt-get install -f brings the dependencies"
for p in cocoon libpam-cocoon cocoon-shell; do
	is "$(status_of $p)" ii "$p is installed"
	is "$(in_root dpkg-query -W -f='${Version}' $p)" "$VERSION" "$p's version is VERSION's"
done

# Files in place.
for f in /usr/sbin/cocoonctl /usr/libexec/cocoon/cocoon-init /usr/libexec/cocoon/cocoon-launch \
	/usr/lib/$MULTIARCH/security/pam_cocoon.so /usr/bin/cocoon-shell /etc/cocoon/cocoon.conf \
	/etc/apparmor.d/cocoon-shell /usr/share/man/man5/cocoon.conf.5.gz \
	/usr/share/man/man8/cocoonctl.8.gz /usr/share/man/man8/pam_cocoon.8.gz \
	/usr/share/man/man1/cocoon-shell.1.gz /usr/share/doc/libpam-cocoon/README.Debian; do
	[ -f "$ROOT$f" ]; ok $? "$f installed"
done
[ -d "$ROOT/var/lib/cocoon" ]; ok $? "/var/lib/cocoon exists"
# Static, whatever the libc: no loader runs in the session's tree, nor its
# LD_PRELOAD, before cocoon-launch has set the filter.
run readelf -lW "$ROOT/usr/libexec/cocoon/cocoon-launch"
unlike "$OUT" "INTERP" "cocoon-launch has no program interpreter (it is static)"
like "$(in_root dpkg-query -W -f='${Conffiles}' cocoon)" "/etc/cocoon/cocoon.conf " \
	"cocoon.conf is a conffile"
is "$(stat -c '%a %U %G' "$ROOT/usr/bin/cocoon-shell")" "4755 root root" "cocoon-shell is 4755 root"
is "$(stat -c '%a %U' "$ROOT/usr/libexec/cocoon/cocoon-launch")" "711 root" \
	"cocoon-launch is 0711 (started undumpable; pam_cocoon refuses a readable one)"
is "$(stat -c '%a %U' "$ROOT/etc/cocoon/cocoon.conf")" "600 root" \
	"cocoon.conf is root's alone (sessions bind /etc; it holds every user's rules)"
is "$(stat -c '%a' "$ROOT/usr/libexec/cocoon/unavailable")" "755" \
	"the stub of unavailable is installed"
grep -q cocoon-shell "$ROOT/etc/shells"; ok $((! $?)) \
	"cocoon-shell is not in /etc/shells (a user whose shell is listed may chsh to another)"
run in_root ls /etc/pam.d
unlike "$OUT" "cocoon" "no PAM file of ours is installed"
run grep -rls pam_cocoon "$ROOT/etc/pam.d" "$ROOT/usr/share/pam-configs"
is "$OUT" "" "no stack (nor pam-auth-update profile) names the module"

# One version everywhere.
is "$(in_root cocoonctl --version)" "cocoonctl $VERSION" "cocoonctl --version"
is "$(in_root cocoon-shell --version)" "cocoon-shell $VERSION" "cocoon-shell --version"
is "$(in_root /usr/libexec/cocoon/cocoon-init --version)" "cocoon-init $VERSION" "cocoon-init --version"
grep -qaF "cocoon-launch $VERSION" "$ROOT/usr/libexec/cocoon/cocoon-launch"
ok $? "cocoon-launch carries the version"

run in_root cocoonctl check
is_done "cocoonctl check passes on the shipped policy"

# The installed pages and examples name the installed paths, and every
# path of ours they or the programs' messages name is there
# (tests/docs/named-paths.sh; tests/docs/paths.t for make install).
run "$TOP/tests/docs/named-paths.sh" -a "$ROOT" /usr/share/man /usr/share/doc/cocoon/examples \
	/usr/sbin/cocoonctl /usr/bin/cocoon-shell /usr/lib/$MULTIARCH/security/pam_cocoon.so \
	/usr/libexec/cocoon/cocoon-launch
missing=$(printf '%s\n' "$OUT" | grep -v '^ok ')
[ -z "$missing" ]; ok $? "every path of ours the pages, examples and messages name is installed"
printf '%s\n' "$missing" | sed '/^$/d; s/^/# /'
for want in "/usr/libexec/cocoon/kiosk-menu (cocoon.7)" "/usr/libexec/cocoon/kiosk-menu (kiosk.conf)" \
	"/usr/bin/cocoon-shell (cocoon.7)" "/usr/bin/cocoon-shell (cocoon-shell.1)" \
	"/usr/share/doc/cocoon/examples/cocoon-shell.sshd_config (cocoonctl)"; do
	printf '%s\n' "$OUT" | grep -qxF "ok $want"; ok $? "the .debs' path: $want"
done
unlike "$(zcat "$ROOT"/usr/share/man/man*/*cocoon*.gz "$ROOT"/usr/share/man/man*/cocoonctl*.gz; \
	cat "$ROOT"/usr/share/doc/cocoon/examples/*.conf)" "/usr/local/libexec" "no page or example names /usr/local/libexec"

# cocoon(7)'s recipes, word for word from the installed page
# (tests/docs/recipe.sh pulls out the blocks marked `recipe:`), as far as
# a root without systemd, sshd or a cgroup tree runs them: the policy
# files and the commands, then a login through su.
page=$ROOT/usr/share/man/man7/cocoon.7.gz
recipe() { "$TOP/tests/docs/recipe.sh" "$page" "$@"; }
cp "$ROOT/etc/cocoon/cocoon.conf" "$ROOT/tmp/cocoon.conf.shipped"
recipe kiosk policy > "$ROOT/etc/cocoon/cocoon.conf"
ok $? "cocoon(7): the kiosk recipe's policy"
run in_root sh -ec "$(recipe kiosk sh)"
is_done "cocoon(7): the kiosk recipe's commands"
like "$OUT" "kiosk-menu" "explain shows the menu as the kiosk's command"
run in_root sh -c 'printf "1\nq\n" | su - kiosk'
like "$OUT" "kiosk menu" "su - kiosk: the menu"
like "$OUT" "kiosk: goodbye" "and leaving it ends the login"
# Control: the path the page gave before it was made with the build's
# paths, /usr/local/libexec, runs no menu on the .debs.
sed -i 's|/usr/libexec/cocoon/kiosk-menu|/usr/local/libexec/cocoon/kiosk-menu|' "$ROOT/etc/cocoon/cocoon.conf"
run in_root sh -c 'printf "q\n" | su - kiosk'
unlike "$OUT" "kiosk menu" "control: with /usr/local/libexec, no menu on the .debs"
# The bind of the missing menu refuses the login; cocoon-shell shows the
# user the fixed line and a reference, the reason goes to the log.
like "$OUT" "cocoon: this login was refused by the session policy of this host (reference " \
	"but a refusal the user is told of, with a reference (issue 26)"
unlike "$OUT" "/usr/local/libexec" "and nothing of the policy's paths"
in_root useradd -m -s /bin/bash alice
run in_root sh -ec "$(recipe login-shell sh)"
is_done "cocoon(7): the login-shell recipe's commands"
run in_root su - alice -c 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'
is "$OUT" "NoNewPrivs:	1
Seccomp:	2" "su - alice: her shell is confined and filtered"
recipe guest policy > "$ROOT/etc/cocoon/cocoon.conf"
ok $? "cocoon(7): the guest recipe's policy"
run in_root sh -ec "$(recipe guest sh)"
is_done "cocoon(7): the guest recipe's commands"
run in_root su - guest -c 'cat /proc/self/cgroup; echo x > ~/kept'
like "$OUT" "0::/" "su - guest: a session in a cgroup"
run in_root su - guest -c 'ls ~/kept 2>&1'
like "$OUT" "No such file" "and nothing of the last session is kept"
# "Administrators unconfined" through pam_cocoon in su's stack (the
# pam-service recipe's "or login, su, sudo"): its two lines first and last
# among su's session lines, as printed.
recipe admins policy > "$ROOT/etc/cocoon/cocoon.conf"
ok $? "cocoon(7): the administrators recipe's policy"
cp "$ROOT/etc/pam.d/su" "$ROOT/tmp/su.pam"
pam=$(recipe pam-service pam)
is "$(recipe login-shell pam)" "$pam" "the login-shell recipe's PAM block is the pam-service one"
first=$(printf '%s\n' "$pam" | head -n 1); last=$(printf '%s\n' "$pam" | tail -n 1)
awk -v first="$first" -v last="$last" '/^session|^@include common-session/ { if (!f) f = NR; n = NR }
	{ line[NR] = $0 } END { for (i = 1; i <= NR; i++) { if (i == f) print first; print line[i];
	if (i == n) print last } }' "$ROOT/tmp/su.pam" > "$ROOT/etc/pam.d/su"
in_root useradd -m -s /bin/bash -G sudo cocoonadm
in_root useradd -m -s /bin/bash cocoonusr
run in_root su - cocoonadm -c 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'
is "$OUT" "NoNewPrivs:	0
Seccomp:	0" "su - (pam_cocoon): a member of sudo is unconfined"
run in_root su - cocoonusr -c 'grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status'
is "$OUT" "NoNewPrivs:	1
Seccomp:	2" "control: su - of anyone else is confined"
cp "$ROOT/tmp/su.pam" "$ROOT/etc/pam.d/su"
in_root userdel -r cocoonadm 2>/dev/null; in_root userdel -r cocoonusr 2>/dev/null
for u in kiosk alice guest; do in_root userdel -r "$u" 2>/dev/null; done
in_root groupdel cocoon-kiosk; in_root groupdel cocoon-guest
cp "$ROOT/tmp/cocoon.conf.shipped" "$ROOT/etc/cocoon/cocoon.conf"

# cocoonctl edit leaves its lock beside the policy (purge must take it).
run in_root env EDITOR=true VISUAL=true cocoonctl edit
is_done "cocoonctl edit with an editor that changes nothing"
[ -e "$ROOT/etc/cocoon/.cocoon.conf.lock" ]; ok $? "edit's lock is in /etc/cocoon"

# dpkg-statoverride wins over the package's mode, on reinstall too.
in_root dpkg-statoverride --add root root 4750 /usr/bin/cocoon-shell
in_root dpkg -i /tmp/debs/cocoon-shell.deb >/dev/null 2>&1
is "$(stat -c '%a' "$ROOT/usr/bin/cocoon-shell")" 4750 "a statoverride sets cocoon-shell's mode"
in_root dpkg-statoverride --remove /usr/bin/cocoon-shell
in_root dpkg -i /tmp/debs/cocoon-shell.deb >/dev/null 2>&1
is "$(stat -c '%a' "$ROOT/usr/bin/cocoon-shell")" 4755 "without it the package's 4755 again"

# libpam-cocoon: removal refused while a stack names the module.
printf 'session required pam_cocoon.so return\n@include common-session\nsession required pam_cocoon.so\n' \
	> "$ROOT/etc/pam.d/cocoon-deb-test"
run in_root dpkg -i /tmp/debs/libpam-cocoon.deb
is_done "an upgrade of libpam-cocoon is not refused"
run in_root dpkg -r libpam-cocoon
printf '%s\n' "$OUT" | sed 's/^/# /'
ok $((RC == 0)) "libpam-cocoon removal fails while /etc/pam.d names pam_cocoon.so"
like "$OUT" "refusing removal" "with a message"
like "$OUT" "/etc/pam.d/cocoon-deb-test" "that names the file"
is "$(status_of libpam-cocoon | cut -c2)" i "libpam-cocoon stays installed (its state; dpkg keeps the wish to remove it)"
[ -f "$ROOT/usr/lib/$MULTIARCH/security/pam_cocoon.so" ]; ok $? "and so does the module"
# Control: a commented line does not count; then removal goes through.
printf '# session required pam_cocoon.so\n@include common-session\n' \
	> "$ROOT/etc/pam.d/cocoon-deb-test"
run in_root dpkg -r libpam-cocoon
is_done "libpam-cocoon removed once only a comment names it"
[ ! -e "$ROOT/usr/lib/$MULTIARCH/security/pam_cocoon.so" ]; ok $? "the module is gone"
rm -f "$ROOT/etc/pam.d/cocoon-deb-test"

# cocoon-shell: removal refused while an account uses it.
in_root useradd -s /usr/bin/cocoon-shell cocoondeb
run in_root dpkg -i /tmp/debs/cocoon-shell.deb
is_done "an upgrade of cocoon-shell is not refused"
run in_root dpkg -r cocoon-shell
printf '%s\n' "$OUT" | sed 's/^/# /'
ok $((RC == 0)) "cocoon-shell removal fails while an account uses it"
like "$OUT" "refusing removal" "with a message"
like "$OUT" "cocoondeb" "that names the account"
is "$(status_of cocoon-shell | cut -c2)" i "cocoon-shell stays installed (its state; dpkg keeps the wish to remove it)"
# Control: with another shell the removal goes through.
in_root usermod -s /bin/bash cocoondeb
run in_root dpkg -r cocoon-shell
is_done "cocoon-shell removed once no account uses it"
[ ! -e "$ROOT/usr/bin/cocoon-shell" ]; ok $? "the shell is gone"
grep -q cocoon-shell "$ROOT/etc/shells"; ok $((! $?)) "and not in /etc/shells"
in_root userdel cocoondeb

# cocoon: removal with a live session lists it, and goes on only as
# COCOON_REMOVE says (debian/cocoon.prerm). The session is a real one,
# cocoonctl run's sandbox in the root, with a record in its /run/cocoon.
LIVE_PID=""
live_start() { # live_start: a session of cocoonlive; its id in LIVE_ID
	in_root cocoonctl run --user cocoonlive -- /bin/sleep 600 </dev/null >"$ROOT/tmp/live.out" 2>&1 &
	LIVE_PID=$!
	LIVE_ID=
	for _ in $(seq 100); do
		LIVE_ID=$(in_root "${1:-cocoonctl}" list 2>/dev/null | awk '$2 == "cocoonlive" { print $1; exit }')
		[ -n "$LIVE_ID" ] && break
		kill -0 "$LIVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$LIVE_ID" ]; ok $? "a live session in the root ($LIVE_ID)" ||
		sed 's/^/# /' "$ROOT/tmp/live.out"
}
live_gone() { # live_gone NAME: the session's cocoonctl run has ended
	for _ in $(seq 50); do
		kill -0 "$LIVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$LIVE_PID" 2>/dev/null; ok $((! $?)) "$1"
}
trap 'kill "$LIVE_PID" 2>/dev/null; remove_root' EXIT
in_root useradd -m -s /bin/sh cocoonlive
live_start
run in_root dpkg -r cocoon
printf '%s\n' "$OUT" | sed 's/^/# /'
ok $((RC == 0)) "cocoon removal fails while a session is live"
like "$OUT" "$LIVE_ID" "and lists the session"
like "$OUT" "COCOON_REMOVE=stop" "and says how to go on"
[ -x "$ROOT/usr/sbin/cocoonctl" ]; ok $? "cocoonctl stays"
kill -0 "$LIVE_PID" 2>/dev/null; ok $? "the session still runs"
run in_root env COCOON_REMOVE=stop dpkg -r cocoon
is_done "COCOON_REMOVE=stop dpkg -r cocoon"
like "$OUT" "$LIVE_ID" "lists the session it stops"
live_gone "the session was stopped"
[ ! -e "$ROOT/usr/sbin/cocoonctl" ]; ok $? "and cocoon removed"
# Control of the refusal: without a session, removal needs no word.
run in_root dpkg -i /tmp/debs/cocoon.deb
is_done "cocoon installed again"
live_start
run in_root env COCOON_REMOVE=keep dpkg -r cocoon
is_done "COCOON_REMOVE=keep dpkg -r cocoon"
kill -0 "$LIVE_PID" 2>/dev/null; ok $? "the session still runs after removal"
run in_root /run/cocoon-kept/cocoonctl list
like "$OUT" "$LIVE_ID" "the kept cocoonctl lists it"
# Purge with the session still live (#26 section 5): what lists and stops
# it stays, and purge says why. The control is the purge at the end,
# with no session live, which takes both.
run in_root dpkg --purge cocoon
is_done "cocoon purged while a session is live"
like "$OUT" "sessions are still live: $LIVE_ID" "purge names the live session"
[ -x "$ROOT/run/cocoon-kept/cocoonctl" ]; ok $? "and keeps the copy of cocoonctl"
[ -f "$ROOT/run/cocoon/$LIVE_ID" ]; ok $? "and the session's record, which it lists"
[ ! -e "$ROOT/etc/cocoon/cocoon.conf" ] && [ ! -e "$ROOT/var/lib/cocoon" ]
ok $? "the policy and the state go all the same"
run in_root /run/cocoon-kept/cocoonctl list
like "$OUT" "$LIVE_ID" "after the purge, the kept cocoonctl still lists it"
run in_root /run/cocoon-kept/cocoonctl stop "$LIVE_ID"
is_done "the kept cocoonctl stops it"
live_gone "the session ended"
# /run/cocoon-kept stays: the purge at the end must take it.
run in_root dpkg -i /tmp/debs/cocoon.deb
is_done "cocoon installed again"
run in_root dpkg -r cocoon
is_done "without a live session, removal goes through unasked"
run in_root dpkg -i /tmp/debs/cocoon.deb
in_root userdel -r cocoonlive 2>/dev/null

# cocoon: remove keeps the policy and the state; purge takes both.
echo state > "$ROOT/var/lib/cocoon/test-state"
run in_root dpkg -r cocoon
is_done "cocoon removed"
[ -f "$ROOT/etc/cocoon/cocoon.conf" ]; ok $? "remove keeps cocoon.conf"
[ -f "$ROOT/var/lib/cocoon/test-state" ]; ok $? "remove keeps /var/lib/cocoon"
[ ! -e "$ROOT/usr/sbin/cocoonctl" ]; ok $? "remove takes cocoonctl"
run in_root dpkg --purge cocoon libpam-cocoon cocoon-shell
is_done "the three purged"
[ ! -e "$ROOT/etc/cocoon/cocoon.conf" ]; ok $? "purge removes cocoon.conf"
[ ! -e "$ROOT/var/lib/cocoon" ]; ok $? "purge removes /var/lib/cocoon"
[ ! -e "$ROOT/etc/cocoon" ]; ok $? "purge removes /etc/cocoon, edit's lock and all"
[ ! -e "$ROOT/run/cocoon" ]; ok $? "purge removes /run/cocoon (no session is live)"
[ ! -e "$ROOT/run/cocoon-kept" ]; ok $? "and /run/cocoon-kept"
grep -Eq '^Package: (cocoon|libpam-cocoon|cocoon-shell)$' "$ROOT/var/lib/dpkg/status"
ok $((! $?)) "no package of ours is left in dpkg's database"
left=$(cd "$ROOT" && find etc usr var -name '*cocoon*' 2>/dev/null | grep -v '^var/lib/dpkg/')
is "$left" "" "no file of ours is left"

done_testing
