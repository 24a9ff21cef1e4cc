#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the engine's test driver and cocoon-init into $ENGINE_BUILD
# (default build/engine), through the project's Makefile for the library.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${ENGINE_BUILD:-$top/build/engine}
cd "$top"
make -s BUILDDIR="$out" "$out/libcocoon.a" "$out/cocoon-init" >&2
cc -D_GNU_SOURCE -Icommon -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla \
	-O2 -g -o "$out/engine-driver" tests/engine/driver.c "$out/libcocoon.a" \
	$(pkg-config --libs inih libcap libseccomp)
chmod 0755 "$out/cocoon-init" "$out/engine-driver"
echo "$out"
