#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the engine's test driver; print the directory that holds it and a
# cocoon-init. Under `make check` ($COCOON_BUILD set) the driver links
# against that build's library; otherwise the library and cocoon-init are
# built into $ENGINE_BUILD (default build/engine) through the Makefile.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if [ -n "${COCOON_BUILD:-}" ] && [ -f "$COCOON_BUILD/libcocoon.a" ]; then
	lib=$COCOON_BUILD/libcocoon.a
	out=$COCOON_BUILD/engine
	mkdir -p "$out"
	cp "$COCOON_BUILD/cocoon-init" "$out/cocoon-init"
else
	out=${ENGINE_BUILD:-$top/build/engine}
	make -s BUILDDIR="$out" "$out/libcocoon.a" "$out/cocoon-init" >&2
	lib=$out/libcocoon.a
fi
# shellcheck disable=SC2046 # the flags are words
cc -D_GNU_SOURCE -Icommon -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla \
	-O2 -g -o "$out/engine-driver" tests/engine/driver.c "$lib" \
	$(pkg-config --libs inih libcap libseccomp)
chmod 0755 "$out/cocoon-init" "$out/engine-driver"
echo "$out"
