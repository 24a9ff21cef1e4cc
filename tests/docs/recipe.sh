#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# recipe.sh PAGE NAME KIND: the text of the blocks of a manual page (gzipped
# or not) marked `.\" recipe: NAME KIND` in its source (the .nf/.fi or
# .EX/.EE block after the mark), as a reader copies it: groff's escapes
# undone. Exits 1 when there is no such block. cocoon(7)'s recipes are run
# word for word from the installed page by tests/deb/deb.t and
# tests/vm/80-recipes.t.
set -u
page=$1; name=$2; kind=$3
case $page in
*.gz) zcat -- "$page" ;;
*) cat -- "$page" ;;
esac | NAME=$name KIND=$kind /usr/bin/perl -ne '
	$on = ($1 eq $ENV{NAME} && $2 eq $ENV{KIND}) if /^\.\\" recipe: (\S+) (\S+)/;
	if ($on && /^\.(nf|EX)/) { $in = 1; $found = 1; next }
	if ($in && /^\.(fi|EE)/) { $in = $on = 0; next }
	next unless $in;
	next if /^\.(RS|RE|PP)/;
	s/\\-/-/g; s/\\&//g; s/\\e/\\/g; s/\\f[BIRP]//g;
	print;
	END { exit($found ? 0 : 1) }'
