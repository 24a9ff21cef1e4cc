#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# deps.sh PACKAGE...: make deps. Installs Debian packages without a
# question and leaves the host as it was: the directory servers the tests
# run (slapd, nslcd, nscd, sssd) neither configured nor started, nor cron
# (installed for its crontab, which the sandbox tests refuse),
# /etc/nsswitch.conf and /etc/pam.d/common-* unchanged.
#
# What the packages would do otherwise, and what stops it:
# - slapd's postinst makes a database for the host's domain and nslcd's
#   asks for a server: debconf answers first (slapd/no_configuration;
#   nslcd's uri and base, which its postinst writes to /etc/nslcd.conf and
#   the tests replace while they run).
# - libnss-ldapd's postinst adds ldap to the nsswitch.conf lines chosen in
#   libnss-ldapd/nsswitch (answered: none); libnss-sss's adds sss to
#   passwd, group, shadow... unasked: the file is put back as it was.
# - libpam-sss (and libpam-pwquality, which it needs) run
#   `pam-auth-update --package`, which adds every profile marked
#   "Default: yes" that is not listed in /var/lib/pam/seen (the profiles
#   an administrator has already been offered). Listing sss, ldap and
#   pwquality there first keeps common-* as they are; the profiles stay
#   available to `pam-auth-update --enable`. Where debconf already lists
#   them as chosen (libpam-runtime/profiles, kept from an earlier install
#   on the image) pam-auth-update enables them anyway: the ones enabled
#   during the install are disabled again with `pam-auth-update --disable`,
#   which rewrites common-* from its own record and remembers the choice.
# - postinsts start their daemons through invoke-rc.d: a policy-rc.d that
#   exits 101 refuses it (made only when the host has none, removed
#   after), and any daemon started anyway is stopped by its pid.
set -eu
[ "$(id -u)" = 0 ] || { echo "make deps: run as root" >&2; exit 1; }

PAM_PROFILES="sss ldap pwquality"
DAEMONS="slapd nslcd nscd sssd sssd_nss sssd_be cron"
work=$(mktemp -d /run/cocoon-deps.XXXXXX)
made_policy=""
finish() {
	[ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
	rm -rf "$work"
}
trap finish EXIT

debconf-set-selections <<'ANSWERS'
slapd slapd/no_configuration boolean true
nslcd nslcd/ldap-uris string ldap://127.0.0.1/
nslcd nslcd/ldap-base string dc=cocoon,dc=test
libnss-ldapd libnss-ldapd/nsswitch multiselect
libnss-ldapd libnss-ldapd/clean_nsswitch boolean false
ANSWERS

if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\n# make deps: no daemon starts while it installs\nexit 101\n' \
		> /usr/sbin/policy-rc.d
	chmod 0755 /usr/sbin/policy-rc.d
	made_policy=yes
fi

# Listed whether installed or not: an installed profile missing from seen
# is one pam-auth-update has not offered yet, and enables at its next run
# (an upgrade of libpam-runtime runs it too). One already enabled stays
# enabled: pam-auth-update keeps what common-* have.
if [ -d /var/lib/pam ]; then
	touch /var/lib/pam/seen
	for p in $PAM_PROFILES; do
		grep -qx "$p" /var/lib/pam/seen || echo "$p" >> /var/lib/pam/seen
	done
fi

# pam-auth-update's record of what common-* hold: "Module: NAME" lines.
enabled_profiles() {
	cat /var/lib/pam/auth /var/lib/pam/account /var/lib/pam/password \
		/var/lib/pam/session /var/lib/pam/session-noninteractive 2>/dev/null |
		sed -n 's/^Module: //p' | sort -u
}
enabled_profiles > "$work/profiles-before"

cp -p /etc/nsswitch.conf "$work/nsswitch.conf"
for f in /etc/pam.d/common-*; do cp -p "$f" "$work/${f##*/}"; done
pidof $DAEMONS 2>/dev/null | tr ' ' '\n' | sort > "$work/before" || true

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"

newly_enabled=""
for p in $PAM_PROFILES; do
	if enabled_profiles | grep -qx "$p" && ! grep -qx "$p" "$work/profiles-before"; then
		newly_enabled="$newly_enabled $p"
	fi
done
if [ -n "$newly_enabled" ]; then
	echo "make deps: disabling the PAM profiles the install enabled:$newly_enabled"
	# shellcheck disable=SC2086 # a list of profile names
	pam-auth-update --package --disable $newly_enabled
fi

status=0
for pid in $(pidof $DAEMONS 2>/dev/null | tr ' ' '\n' | sort | comm -13 "$work/before" -); do
	echo "make deps: stopping $(cat "/proc/$pid/comm" 2>/dev/null) (pid $pid), started by its package"
	kill "$pid" 2>/dev/null || true
done
if ! cmp -s "$work/nsswitch.conf" /etc/nsswitch.conf; then
	echo "make deps: /etc/nsswitch.conf put back as it was (a package changed it)"
	cat "$work/nsswitch.conf" > /etc/nsswitch.conf
fi
for f in /etc/pam.d/common-*; do
	if [ ! -e "$work/${f##*/}" ] || ! cmp -s "$work/${f##*/}" "$f"; then
		echo "make deps: $f changed during the install; check it by hand" >&2
		status=1
	fi
done
exit "$status"
