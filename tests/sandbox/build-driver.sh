#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the engine's test driver; print the directory that holds it. It
# runs the engine in run mode, whose pid 1 is its own image (no
# cocoon-init). Under `make check` ($COCOON_BUILD set) the driver links
# against that build's library; otherwise the library is built into
# $ENGINE_BUILD (default build/engine) through the Makefile.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if [ -n "${COCOON_BUILD:-}" ] && [ -f "$COCOON_BUILD/libcocoon.a" ]; then
	lib=$COCOON_BUILD/libcocoon.a
	out=$COCOON_BUILD/engine
	mkdir -p "$out"
else
	out=${ENGINE_BUILD:-$top/build/engine}
	make -s BUILDDIR="$out" "$out/libcocoon.a" >&2
	lib=$out/libcocoon.a
fi
# Every layer of common/, as the Makefile includes them.
inc=""
for dir in common/*/; do inc="$inc -I$dir"; done
# shellcheck disable=SC2046,SC2086 # the flags are words
cc -D_GNU_SOURCE $inc -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla \
	-O2 -g -o "$out/engine-driver" tests/sandbox/driver.c "$lib" \
	$(pkg-config --libs inih libcap libseccomp)
chmod 0755 "$out/engine-driver"
echo "$out"
