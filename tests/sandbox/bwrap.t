#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Side by side with bubblewrap: the seed article's example and its chroot
# form run through `cocoonctl run` and through Debian's bwrap, as the same
# user; what a process sees inside must be the same. `cocoonctl explain
# --bwrap` run as a command must give that view too.
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
probe=$(cat "$here/probe.sh")
work=$(mktemp -d /run/cocoon-bwrap-test.XXXXXX)
chmod 0755 "$work"
trap 'policy_reset; cleanup_users; rm -rf "$work"' EXIT

if ! command -v bwrap >/dev/null; then
	skip "bubblewrap is not installed"
	done_testing
	exit
fi

add_user ccbw1$T
uid=$(id -u ccbw1$T)
policy_reset
cp "$here/../../conf/examples/bwrap-readme.conf" "$CONF_DIR/cocoon.conf"

# The article's own command line, with the name service's three files
# that conf/examples/bwrap-readme.conf adds to it.
run runuser -u ccbw1$T -- bwrap --ro-bind /usr /usr --dir /tmp --proc /proc --dev /dev \
	--ro-bind /etc/resolv.conf /etc/resolv.conf --ro-bind /etc/nsswitch.conf /etc/nsswitch.conf \
	--ro-bind /etc/passwd /etc/passwd --ro-bind /etc/group /etc/group \
	--symlink usr/lib /lib --symlink usr/lib64 /lib64 \
	--symlink usr/bin /bin --symlink usr/sbin /sbin --chdir / \
	--unshare-pid --unshare-net --dir "/run/user/$uid" \
	--setenv XDG_RUNTIME_DIR "/run/user/$uid" /bin/sh -c "$probe"
bwrap_view=$OUT
is "$RC" 0 "bwrap runs the article's example"

run "$CTL" run --user ccbw1$T -- /bin/sh -c "$probe"
# cocoon's own addition, the session's description for `cocoonctl why`
# (read-only, root's), has no bubblewrap equivalent.
like "$OUT" "mount /run/cocoon ro" "cocoon adds /run/cocoon, read-only"
cocoon_view=$(grep -vx 'mount /run/cocoon ro' <<<"$OUT")
is "$RC" 0 "cocoonctl run runs the same policy"
is "$cocoon_view" "$bwrap_view" "cocoon and bwrap show the same view"
if [ "$cocoon_view" != "$bwrap_view" ]; then
	diff <(echo "$bwrap_view") <(echo "$cocoon_view") | sed 's/^/# /'
fi
like "$cocoon_view" "mount /usr ro" "/usr is read-only"
like "$cocoon_view" "visible processes 2" "only init and the command are visible"
like "$cocoon_view" "if lo" "only loopback in the new network namespace"
like "$cocoon_view" "dir /run/user/$uid writable" "the created /run/user/UID is the user's"

# explain --bwrap, run as a command, gives the same view.
bwrap_cmd=$("$CTL" explain --bwrap ccbw1$T)
like "$bwrap_cmd" "bwrap --ro-bind /usr /usr --dir /tmp --proc /proc" "explain --bwrap prints the options in order"
run runuser -u ccbw1$T -- bash -c "${bwrap_cmd% *} /bin/sh -c \"\$1\"" _ "$probe"
is "$OUT" "$cocoon_view" "explain --bwrap output run as a command gives the same view"

# The article's chroot form: bwrap --bind DIR / CMD.
root=$work/chroot
mkdir -p "$root/bin"
cp /bin/dash "$root/bin/sh"
for lib in $(ldd /bin/dash | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"
	cp "$lib" "$root$lib"
done
chmod -R go-w "$work"
cat > "$CONF_DIR/cocoon.conf" <<CONF
[profile chroot]
bind = $root /
[default]
profile = chroot
CONF
run runuser -u ccbw1$T -- bwrap --bind "$root" / /bin/sh -c "$probe"
bwrap_view=$OUT
is "$RC" 0 "bwrap runs the chroot form"
run "$CTL" run --user ccbw1$T -- /bin/sh -c "$probe"
is "$RC" 0 "cocoonctl run runs the chroot form"
is "$OUT" "$bwrap_view" "the chroot form looks the same in both"
if [ "$OUT" != "$bwrap_view" ]; then
	diff <(echo "$bwrap_view") <(echo "$OUT") | sed 's/^/# /'
fi

done_testing
