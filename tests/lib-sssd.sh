# SPDX-License-Identifier: GPL-2.0-or-later
# Fixtures for the tests of directory accounts served by SSSD: a private
# slapd on 127.0.0.1 holding dc=cocoon$T,dc=test (lib-slapd.sh, sourced
# from beside this file), an sssd whose LDAP domain (cocoon$T) reads it,
# and `sss` in nsswitch.conf. Source it after tests/lib.sh; the caller's
# EXIT trap calls sssd_cleanup.
#
#   slapd_setup "$SSSD_PORTS"   the server, empty base; SLAPD_URI
#   ldap_user, ldap_group       entries into it (lib-slapd.sh)
#   ldap_free_ids N             ids for them, free on this host
#   sssd_conf FILE              sssd.conf for the domain
#   sssd_start GROUP            sssd with it; waits until it answers for GROUP
#   sssd_stop                   ends it by its pid; 1 if it had to be killed
#   sssd_nsswitch               sss after files for passwd, group, shadow
#
# sssd's sockets and memory caches have fixed paths (/var/lib/sss/pipes,
# /var/lib/sss/mc): the test holds `host_lock sssd` and runs only where
# no other sssd does. Its cache files of the cocoon$T domain are removed
# at the end, nothing else of /var/lib/sss. nsswitch.conf is changed only
# in the test's own mount namespace (sssd_nsswitch).

. "$(dirname "${BASH_SOURCE[0]}")/lib-slapd.sh"

SSSD_DOMAIN="cocoon$T"
SSSD_PID=""
NSSWITCH_SAVED=""
# Ports for sssd.t's slapd (a range of its own).
SSSD_PORTS=${SSSD_PORTS:-32500-32999}

# ldap_free_ids N: the first of N consecutive ids, free as uids and gids
# on this host, in a range of this copy of the suite.
ldap_free_ids() {
	local base i ok
	for base in $(shuf -i 6000-6999 -n 20); do
		base=$((base * 10))
		ok=yes
		for i in $(seq 0 $(($1 - 1))); do
			getent passwd $((base + i)) >/dev/null && ok=""
			getent group $((base + i)) >/dev/null && ok=""
		done
		[ -n "$ok" ] && { echo "$base"; return 0; }
	done
	return 1
}

# sssd_hold: the host's one sssd socket set, for this test; 1 when
# another sssd runs (a deployed one, whose sockets these are).
sssd_hold() {
	host_lock sssd || return 1
	! pgrep -x sssd >/dev/null
}

# sssd_conf FILE: a configuration (root's, 0600) for the domain cocoon$T
# against the test slapd: no enumeration, caches short enough that the
# tests see changes and outages within seconds.
sssd_conf() {
	install -m 0600 /dev/null "$1" || return 1
	cat > "$1" <<CONF
[sssd]
services = nss, pam
domains = $SSSD_DOMAIN

[nss]
memcache_timeout = 2
entry_negative_timeout = 1

[domain/$SSSD_DOMAIN]
id_provider = ldap
auth_provider = none
access_provider = permit
ldap_uri = $SLAPD_URI
ldap_search_base = $SLAPD_BASE
ldap_schema = rfc2307
ldap_id_use_start_tls = false
ldap_tls_reqcert = never
enumerate = false
cache_credentials = false
entry_cache_timeout = 2
CONF
}

# sssd_answers GROUP: wait (30 s at most) until sssd's NSS responder
# answers for GROUP; 1 if it does not.
sssd_answers() {
	local i
	for i in $(seq 300); do
		[ -S /var/lib/sss/pipes/nss ] && getent -s sss group "$1" >/dev/null 2>&1 && return 0
		[ -z "$SSSD_PID" ] || kill -0 "$SSSD_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# sssd_start GROUP: sssd with sssd_conf's file, in the foreground as the
# test's child (-i), until it answers for GROUP.
sssd_start() {
	SSSD_CONF=$SLAPD_DIR/sssd.conf
	sssd_conf "$SSSD_CONF" || return 1
	sssd -i --logger=stderr -c "$SSSD_CONF" >> "$SLAPD_DIR/sssd.log" 2>&1 &
	SSSD_PID=$!
	sssd_answers "$1"
}

# sssd_stop: sssd, which ends its responders and providers; reaped, as
# the test's child. 1 if it had to be killed.
sssd_stop() {
	local rc=0
	pid_stop "$SSSD_PID" || rc=1
	[ -z "$SSSD_PID" ] || wait "$SSSD_PID" 2>/dev/null
	SSSD_PID=""
	return $rc
}

# sssd_nsswitch: `sss` after `files` for passwd, group and shadow, in
# the caller's own mount namespace: a copy bound over /etc/nsswitch.conf
# there (tests/directory/sssd.t runs in one), never the host's file.
sssd_nsswitch() {
	local own
	[ -n "${COCOON_DIRECTORY_NS:-}" ] || { echo "# sssd_nsswitch: not in a namespace of the test's" >&2; return 1; }
	own=$(mktemp /run/cocoon-nsswitch.XXXXXX) || return 1
	NSSWITCH_SAVED=$own
	sed -E 's/^((passwd|group|shadow):[[:space:]]+files)([[:space:]]|$)/\1 sss\3/' \
		/etc/nsswitch.conf > "$own" && chmod 0644 "$own" && mount --bind "$own" /etc/nsswitch.conf
}

sssd_cleanup() {
	sssd_stop
	if [ -n "$NSSWITCH_SAVED" ]; then
		umount /etc/nsswitch.conf 2>/dev/null
		rm -f "$NSSWITCH_SAVED"
		NSSWITCH_SAVED=""
	fi
	# The domain's own cache files; config.ldb is rebuilt at each start.
	rm -f "/var/lib/sss/db/cache_$SSSD_DOMAIN.ldb" "/var/lib/sss/db/timestamps_$SSSD_DOMAIN.ldb" \
		"/var/lib/sss/db/ccache_$SSSD_DOMAIN"
	slapd_cleanup
	host_unlock sssd
}
