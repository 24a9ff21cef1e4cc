# SPDX-License-Identifier: GPL-2.0-or-later
# A private slapd for the directory tests: lib-directory.sh (nslcd, nscd)
# and lib-sssd.sh (sssd, also in the VM guest, where 70-directory.t copies
# both files beside each other) source it. It serves the base
# dc=cocoon$T,dc=test (an mdb database of its own, anonymous read) on a
# free port of 127.0.0.1, from a work directory the callers keep their
# daemons' files in too. Nothing here reads T as a number, nor needs lib.sh.
#
#   slapd_setup PORTS             cn=config made, slapd started on a free
#                                 port of PORTS (e.g. 32000-32499), with the
#                                 base, ou=people and ou=groups
#   slapd_stop, slapd_start       the server down, and up again on its port
#   ldap_do TOOL [ARGS]           an ldap-utils tool as the root DN
#   ldap_user NAME UID GID SHELL  a posixAccount, home /home/NAME made here
#   ldap_group NAME GID [MEMBER...]  a posixGroup with memberUid
#   pid_stop PID                  a daemon the test started, ended by pid
#   slapd_cleanup                 slapd stopped, the homes and work dir gone

SLAPD_BASE="dc=cocoon$T,dc=test"
SLAPD_ROOTDN="cn=admin,$SLAPD_BASE"
SLAPD_PW="cocoon-test-$T"
SLAPD_DIR=""
SLAPD_PORT=""
SLAPD_URI=""
SLAPD_PID=""
SLAPD_HOMES=""

# slapd_port PORTS: a free TCP port of the range PORTS on 127.0.0.1.
slapd_port() {
	local port
	for port in $(shuf -i "$1" -n 50); do
		ss -ltn | grep -q ":$port " || { echo "$port"; return 0; }
	done
	return 1
}

# slapd_setup PORTS: slapd's cn=config made with slapadd (the schemas
# rfc2307 needs, an mdb database in SLAPD_DIR), the server started on a
# free port of PORTS, and the base entries.
slapd_setup() {
	SLAPD_DIR=$(mktemp -d /run/cocoon-slapd.XXXXXX) || return 1
	chmod 0755 "$SLAPD_DIR"
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
olcDbMaxSize: 104857600
olcDbIndex: objectClass,uid,uidNumber,gidNumber,memberUid,cn eq
olcAccess: to * by * read
LDIF
	slapadd -n 0 -F "$SLAPD_DIR/slapd.d" -l "$SLAPD_DIR/config.ldif" \
		> "$SLAPD_DIR/slapadd.log" 2>&1 || { cat "$SLAPD_DIR/slapadd.log" >&2; return 1; }
	SLAPD_PORT=$(slapd_port "$1") || return 1
	SLAPD_URI=ldap://127.0.0.1:$SLAPD_PORT/
	slapd_start || return 1
	ldap_do ldapadd > /dev/null <<LDIF
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

# slapd_start: slapd on SLAPD_URI, as root, until it answers (10 s at most).
slapd_start() {
	local i
	rm -f "$SLAPD_DIR/slapd.pid"
	slapd -F "$SLAPD_DIR/slapd.d" -h "$SLAPD_URI" || return 1
	for i in $(seq 100); do
		[ -s "$SLAPD_DIR/slapd.pid" ] &&
			ldapsearch -x -H "$SLAPD_URI" -b "" -s base namingContexts > /dev/null 2>&1 && break
		sleep 0.1
	done
	SLAPD_PID=$(cat "$SLAPD_DIR/slapd.pid" 2>/dev/null)
	[ -n "$SLAPD_PID" ]
}

# slapd_stop: the server down, by its pid, and gone from its port.
slapd_stop() {
	local rc=0
	pid_stop "$SLAPD_PID" || rc=1
	SLAPD_PID=""
	return $rc
}

# pid_stop PID: SIGTERM to a daemon the test started, up to 10 s for it
# to end; 1 if it had to be killed (SIGKILL) instead.
pid_stop() {
	local i
	[ -n "$1" ] || return 0
	kill "$1" 2>/dev/null || return 0
	for i in $(seq 100); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	return 1
}

# ldap_do TOOL [ARGS]: an ldap-utils tool as the directory's root DN.
ldap_do() {
	local tool=$1; shift
	"$tool" -x -H "$SLAPD_URI" -D "$SLAPD_ROOTDN" -w "$SLAPD_PW" "$@"
}

# ldap_user NAME UID GID SHELL: a posixAccount under ou=people (gecos
# "directory user NAME"), home /home/NAME made on the host and owned by
# it, removed by slapd_cleanup.
ldap_user() {
	ldap_do ldapadd > /dev/null <<LDIF || return 1
dn: uid=$1,ou=people,$SLAPD_BASE
objectClass: account
objectClass: posixAccount
objectClass: shadowAccount
uid: $1
cn: $1
uidNumber: $2
gidNumber: $3
homeDirectory: /home/$1
loginShell: $4
gecos: directory user $1
LDIF
	rm -rf "/home/$1"
	install -d -m 0755 -o "$2" -g "$3" "/home/$1" || return 1
	SLAPD_HOMES="$SLAPD_HOMES /home/$1"
}

# ldap_group NAME GID [MEMBER...]: a posixGroup under ou=groups.
ldap_group() {
	local name=$1 gid=$2 member
	shift 2
	{
		printf 'dn: cn=%s,ou=groups,%s\nobjectClass: posixGroup\ncn: %s\ngidNumber: %s\n' \
			"$name" "$SLAPD_BASE" "$name" "$gid"
		for member in "$@"; do printf 'memberUid: %s\n' "$member"; done
	} | ldap_do ldapadd > /dev/null
}

# slapd_cleanup: from the caller's EXIT trap, after its daemons in front
# of slapd have stopped: slapd, the homes, the work directory.
slapd_cleanup() {
	local h
	slapd_stop
	for h in $SLAPD_HOMES; do rm -rf "$h"; done
	SLAPD_HOMES=""
	[ -n "$SLAPD_DIR" ] && rm -rf "$SLAPD_DIR"
	SLAPD_DIR=""
}
