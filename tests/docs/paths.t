#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every path of cocoon's that an installed manual page, an installed
# example or a program's message names exists after `make install
# DESTDIR=...` (named-paths.sh says which paths, and which need not exist
# yet). tests/deb/deb.t does the same on the installed .debs.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${COCOON_BUILD:?run the tests through make check}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
R=$COCOON_ROOT
dest=$work/dest

# The build make check installed, installed again below DESTDIR (nothing
# is compiled: the same paths).
run make -s -C "$top" BUILDDIR="$COCOON_BUILD" PREFIX="$R/usr" SYSCONFDIR="$R/etc" \
	LOCALSTATEDIR="$R/var" RUNSTATEDIR="$R/run" PAMDIR="$R/lib/security" \
	DESTDIR="$dest" install
is "$RC" 0 "make install DESTDIR=..." || printf '%s\n' "$OUT" | tail -n 20 | sed 's/^/# /'

named() {
	run "$top/tests/docs/named-paths.sh" -p "$R" "$dest" "$R/usr/share/man" \
		"$R/usr/share/doc/cocoon/examples" "$R/usr/sbin/cocoonctl" "$R/usr/bin/cocoon-shell" \
		"$R/lib/security/pam_cocoon.so" "$R/usr/libexec/cocoon/cocoon-launch"
}
named
is "$RC" 0 "the paths are read"
missing=$(printf '%s\n' "$OUT" | grep -v '^ok ')
[ -z "$missing" ]; ok $? "every path named exists after make install (or is allowed, with its reason)"
printf '%s\n' "$missing" | sed '/^$/d; s/^/# /'
found=$(printf '%s\n' "$OUT" | grep -c '^ok ')
[ "$found" -ge 40 ]; ok $? "the pages, examples and programs name paths ($found)"
for want in "$R/usr/libexec/cocoon/kiosk-menu (cocoon.7)" "$R/usr/libexec/cocoon/kiosk-menu (kiosk.conf)" \
	"$R/usr/bin/cocoon-shell (cocoon.7)" \
	"$R/usr/share/doc/cocoon/examples/cocoon-shell.sshd_config (cocoonctl)"; do
	printf '%s\n' "$OUT" | grep -qxF "ok $want"; ok $? "named and there: $want"
done
# check --pam's advice names the installed example, not a relative path.
strings "$dest$R/usr/sbin/cocoonctl" | grep -qF "in a Match block: $R/usr/share/doc/cocoon/examples/cocoon-shell.sshd_config)"
ok $? "check --pam's sshd finding names the installed example"

# Control: a page that names /usr/local/libexec, as the pages did before
# they were made with the build's paths, is caught.
page=$dest$R/usr/share/man/man7/cocoon.7
sed "s|$R/usr/libexec/cocoon/kiosk|/usr/local/libexec/cocoon/kiosk|" "$page" > "$page.new" &&
	mv "$page.new" "$page"
named
printf '%s\n' "$OUT" | grep -qxF "MISSING /usr/local/libexec/cocoon/kiosk-menu (cocoon.7)"
ok $? "control: a page naming a path not installed is caught"
done_testing
