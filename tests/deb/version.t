#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One version everywhere: the VERSION file, debian/changelog and every
# program's --version (cocoon-launch, whose arguments are the real shell's,
# carries it as a string instead).
. "$(dirname "$0")/../lib.sh"

TOP=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(cat "$TOP/VERSION")
INIT_BIN=$COCOON_ROOT/usr/libexec/cocoon/cocoon-init
LAUNCH_BIN=$COCOON_ROOT/usr/libexec/cocoon/cocoon-launch

is "$(cd "$TOP" && dpkg-parsechangelog -S Version)" "$VERSION" "debian/changelog is at VERSION"
is "$("$CTL" --version)" "cocoonctl $VERSION" "cocoonctl --version"
is "$("$SHELL_BIN" --version)" "cocoon-shell $VERSION" "cocoon-shell --version"
is "$("$INIT_BIN" --version)" "cocoon-init $VERSION" "cocoon-init --version"
grep -qaF "cocoon-launch $VERSION" "$LAUNCH_BIN"
ok $? "cocoon-launch carries the version"

# cocoon-shell takes --version only from a direct call: as a login shell
# ('-' argv[0]) or with more arguments it is the real shell's, so these
# reach the usual checks (here: root is refused).
run bash -c 'exec -a -cocoon-shell "$0" --version' "$SHELL_BIN"
unlike "$OUT" "$VERSION" "a login shell's --version is not taken"
like "$OUT" "refusing to run for root" "it goes on to the usual checks"
run "$SHELL_BIN" --version -x
unlike "$OUT" "$VERSION" "nor --version with other arguments"

done_testing
