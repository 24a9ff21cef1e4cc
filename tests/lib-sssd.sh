# SPDX-License-Identifier: GPL-2.0-or-later
# Fixtures for the tests of directory accounts served by SSSD: a private
# slapd on 127.0.0.1 holding dc=cocoon$T,dc=test, an sssd whose LDAP
# domain (cocoon$T) reads it, and `sss` in nsswitch.conf. Source it after
# tests/lib.sh; the caller's EXIT trap calls sssd_cleanup.
#
#   slapd_start                 the server, empty base; SLAPD_URI
#   ldap_add < LDIF             entries into it, as its root DN
#   sssd_conf FILE              sssd.conf for the domain
#   sssd_start GROUP            sssd with it; waits until it answers for GROUP
#   sssd_stop                   ends it by its pid; 1 if it stays
#   sssd_nsswitch               sss after files for passwd, group, shadow
#
# sssd's sockets and memory caches have fixed paths (/var/lib/sss/pipes,
# /var/lib/sss/mc): the test holds `host_lock sssd` and runs only where
# no other sssd does. Its cache files of the cocoon$T domain are removed
# at the end, nothing else of /var/lib/sss. nsswitch.conf is changed only
# in the test's own mount namespace (sssd_nsswitch).

SLAPD_DIR=""
SLAPD_PID=""
SLAPD_URI=""
SLAPD_BASE="dc=cocoon$T,dc=test"
SLAPD_ROOTDN="cn=admin,$SLAPD_BASE"
SLAPD_PW="cocoon-test-$T"
SSSD_DOMAIN="cocoon$T"
SSSD_PID=""
NSSWITCH_SAVED=""

# sssd_port_pick: a free port of 32500-32999 on 127.0.0.1.
sssd_port_pick() {
	local p
	for p in $(shuf -i 32500-32999 -n 30); do
		ss -ltn | grep -q ":$p " || { echo "$p"; return 0; }
	done
	return 1
}

# slapd_start: a slapd of its own (cn=config in a directory of its own,
# an mdb database for the base), anonymous read, on a free port.
slapd_start() {
	local port i
	SLAPD_DIR=$(mktemp -d /var/lib/cocoon-slapd.XXXXXX) || return 1
	mkdir -m 0700 "$SLAPD_DIR/slapd.d" "$SLAPD_DIR/db"
	cat > "$SLAPD_DIR/config.ldif" <<LDIF
dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: $SLAPD_DIR/slapd.pid

dn: cn=module,cn=config
objectClass: olcModuleList
cn: module
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file:///etc/ldap/schema/core.ldif
include: file:///etc/ldap/schema/cosine.ldif
include: file:///etc/ldap/schema/nis.ldif
include: file:///etc/ldap/schema/inetorgperson.ldif

dn: olcDatabase=mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: mdb
olcSuffix: $SLAPD_BASE
olcRootDN: $SLAPD_ROOTDN
olcRootPW: $SLAPD_PW
olcDbDirectory: $SLAPD_DIR/db
olcDbMaxSize: 16777216
olcDbIndex: objectClass,uid,uidNumber,gidNumber,memberUid,cn eq
olcAccess: to * by * read
LDIF
	slapadd -n 0 -F "$SLAPD_DIR/slapd.d" -l "$SLAPD_DIR/config.ldif" >/dev/null 2>&1 ||
		return 1
	port=$(sssd_port_pick) || return 1
	SLAPD_URI=ldap://127.0.0.1:$port/
	slapd -F "$SLAPD_DIR/slapd.d" -h "$SLAPD_URI" || return 1
	for i in $(seq 50); do
		[ -s "$SLAPD_DIR/slapd.pid" ] && ldapsearch -x -H "$SLAPD_URI" -b "" -s base \
			>/dev/null 2>&1 && break
		sleep 0.1
	done
	SLAPD_PID=$(cat "$SLAPD_DIR/slapd.pid" 2>/dev/null)
	[ -n "$SLAPD_PID" ] || return 1
	ldap_add <<LDIF
dn: $SLAPD_BASE
objectClass: dcObject
objectClass: organization
o: cocoon test $T
dc: cocoon$T

dn: ou=people,$SLAPD_BASE
objectClass: organizationalUnit
ou: people

dn: ou=groups,$SLAPD_BASE
objectClass: organizationalUnit
ou: groups
LDIF
}

ldap_add() { ldapadd -x -H "$SLAPD_URI" -D "$SLAPD_ROOTDN" -w "$SLAPD_PW" >/dev/null; }

# ldap_user NAME UID GID SHELL: a posixAccount under ou=people, home
# /home/NAME (made on the host, owned by it).
ldap_user() {
	ldap_add <<LDIF || return 1
dn: uid=$1,ou=people,$SLAPD_BASE
objectClass: inetOrgPerson
objectClass: posixAccount
uid: $1
cn: $1
sn: $1
uidNumber: $2
gidNumber: $3
homeDirectory: /home/$1
loginShell: $4
LDIF
	install -d -m 0755 -o "$2" -g "$3" "/home/$1"
	SLAPD_HOMES="${SLAPD_HOMES:-} /home/$1"
}

# ldap_group NAME GID [MEMBER...]: a posixGroup under ou=groups.
ldap_group() {
	local name=$1 gid=$2 m
	shift 2
	{
		printf 'dn: cn=%s,ou=groups,%s\nobjectClass: posixGroup\ncn: %s\ngidNumber: %s\n' \
			"$name" "$SLAPD_BASE" "$name" "$gid"
		for m in "$@"; do printf 'memberUid: %s\n' "$m"; done
	} | ldap_add
}

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

slapd_stop() { pid_stop "$SLAPD_PID" && SLAPD_PID=""; }

# pid_stop PID: TERM to a daemon the test started, then a wait (10 s at
# most) for it; 1 if it did not end.
pid_stop() {
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null
	local i
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$1" 2>/dev/null
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
# the test's child.
sssd_stop() {
	pid_stop "$SSSD_PID" || return 1
	[ -z "$SSSD_PID" ] || wait "$SSSD_PID" 2>/dev/null
	SSSD_PID=""
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
	local h
	sssd_stop
	if [ -n "$NSSWITCH_SAVED" ]; then
		umount /etc/nsswitch.conf 2>/dev/null
		rm -f "$NSSWITCH_SAVED"
		NSSWITCH_SAVED=""
	fi
	# The domain's own cache files; config.ldb is rebuilt at each start.
	rm -f "/var/lib/sss/db/cache_$SSSD_DOMAIN.ldb" "/var/lib/sss/db/timestamps_$SSSD_DOMAIN.ldb" \
		"/var/lib/sss/db/ccache_$SSSD_DOMAIN"
	slapd_stop
	for h in ${SLAPD_HOMES:-}; do rm -rf "$h"; done
	SLAPD_HOMES=""
	[ -n "$SLAPD_DIR" ] && rm -rf "$SLAPD_DIR"
	SLAPD_DIR=""
	host_unlock sssd
}
