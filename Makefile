# SPDX-License-Identifier: GPL-2.0-or-later
# cocoon: confine whole login sessions.  `make` builds, `make check` tests,
# `make deps` installs the Debian packages needed to build and test.

VERSION    := $(shell cat VERSION)
PREFIX     ?= /usr/local
SYSCONFDIR ?= /etc
# Root-only state kept across sessions (persistent private /tmp instances).
LOCALSTATEDIR ?= /var
STATEDIR   = $(LOCALSTATEDIR)/lib/cocoon
# Live session records (cocoonctl list): $(RUNSTATEDIR)/cocoon, root's 0700.
RUNSTATEDIR ?= /run
# journald's native socket, for the audit records' fields; under the test
# trees' RUNSTATEDIR there is none, so their records go to syslog, where
# the tests capture them.
JOURNAL_SOCKET ?= $(RUNSTATEDIR)/systemd/journal/socket
LIBEXECDIR ?= $(PREFIX)/libexec
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR     ?= $(PREFIX)/share/doc/cocoon
EXAMPLESDIR ?= $(DOCDIR)/examples
# The directory that holds the system's pam_unix.so: where libpam finds
# a module named without a path.
SYSTEM_PAMDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard /usr/lib/*/security/pam_unix.so /lib/*/security/pam_unix.so /usr/lib/security/pam_unix.so /lib/security/pam_unix.so))))
ifeq ($(SYSTEM_PAMDIR),)
SYSTEM_PAMDIR := /usr/lib/security
endif
PAMDIR     ?= $(SYSTEM_PAMDIR)
DESTDIR    ?=
BUILDDIR   ?= build

CC         ?= cc
PKGS       := inih libcap libseccomp pam
PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# inih, libcap and libseccomp are linked in statically: loading three more
# shared objects cost 0.17 ms of every `cocoonctl run`, cocoon-shell start
# and pam_cocoon load (tests/bench). SHARED_LIBS=1 links them as shared
# objects instead (a distribution that rebuilds on library updates may
# prefer that).
ifeq ($(SHARED_LIBS),1)
PKG_LIBS    = $(shell pkg-config --libs inih libcap libseccomp 2>/dev/null)
else
PKG_LIBS    = -Wl,-Bstatic $(shell pkg-config --libs inih libcap libseccomp 2>/dev/null) -Wl,-Bdynamic
endif
WARN       := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla -Wno-missing-field-initializers \
	      $(if $(findstring clang,$(CC)),,-Wno-format-truncation)
CFLAGS     ?= -O2 -g
# common/ in layers, each using only those below it: util, plan, policy,
# engine, host, session (CONTRIBUTING.md). Headers are included by bare name.
COMMON_DIRS := util plan policy engine host session
COMMON_INC  := $(COMMON_DIRS:%=-Icommon/%)
COMMON_HDR  := $(wildcard $(COMMON_DIRS:%=common/%/*.h))
CPPFLAGS   += -MMD -MP -D_GNU_SOURCE $(COMMON_INC) -I$(BUILDDIR)/gen \
	      -DCOCOON_VERSION='"$(VERSION)"' \
	      -DCOCOON_SYSCONFDIR='"$(SYSCONFDIR)"' \
	      -DCOCOON_STATEDIR='"$(STATEDIR)"' \
	      -DCOCOON_RUNDIR='"$(RUNSTATEDIR)/cocoon"' \
	      -DCOCOON_JOURNAL_SOCKET='"$(JOURNAL_SOCKET)"' \
	      -DCOCOON_LIBEXECDIR='"$(LIBEXECDIR)/cocoon"' \
	      -DCOCOON_BINDIR='"$(PREFIX)/bin"' \
	      -DCOCOON_EXAMPLESDIR='"$(EXAMPLESDIR)"' \
	      -DCOCOON_PAM_MODULE='"$(PAMDIR)/pam_cocoon.so"' \
	      -DCOCOON_PAM_SYSTEM_DIR='"$(SYSTEM_PAMDIR)"'
ALL_CFLAGS  = $(WARN) -fPIC -ffunction-sections -fdata-sections -fstack-protector-strong -fstack-clash-protection -D_FORTIFY_SOURCE=2 $(CFLAGS) $(PKG_CFLAGS)
LDFLAGS    += -Wl,-z,relro,-z,now -Wl,--gc-sections

COMMON_SRC := $(sort $(wildcard $(COMMON_DIRS:%=common/%/*.c)))
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILDDIR)/%.o) $(BUILDDIR)/gen/default_profile.o
LIB        := $(BUILDDIR)/libcocoon.a

PROGRAMS   := $(BUILDDIR)/cocoonctl $(BUILDDIR)/cocoon-init $(BUILDDIR)/cocoon-shell \
	      $(BUILDDIR)/cocoon-launch $(BUILDDIR)/pam_cocoon.so $(BUILDDIR)/unavailable
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILDDIR)/tests/%)
MANPAGES   := $(sort $(wildcard man/*.[1-8]))
# Generated with this build's paths (below) into $(BUILDDIR)/doc/.
EXAMPLE_SRC := $(sort $(wildcard conf/examples/*.conf)) conf/examples/cocoon-shell.sshd_config \
	       conf/examples/kiosk-menu
DOCS       := $(MANPAGES:%=$(BUILDDIR)/doc/%) $(EXAMPLE_SRC:%=$(BUILDDIR)/doc/%)
# tests/vm/ runs on a booted guest, through make vm-check only.
TESTS      := $(sort $(filter-out tests/vm/%,$(wildcard tests/*/*.t)))

DEB_PACKAGES := build-essential pkg-config libinih-dev libpam0g-dev libcap-dev \
	libseccomp-dev libsystemd-dev musl-tools perl groff-base clang libclang-rt-14-dev bubblewrap pamtester openssh-server \
	openssh-client xauth iproute2 procps util-linux sudo login passwd rsync git tmux screen mosh cron bsdextrautils python3 valgrind \
	bash-completion debhelper dpkg-dev fakeroot lintian debootstrap \
	qemu-system-x86 qemu-utils e2fsprogs strace linux-perf libcap2-bin \
	slapd ldap-utils nslcd libnss-ldapd sssd-ldap nscd ansible-core

.PHONY: FORCE all docs deps bench check layers check-build check-build-fault check-deps soak unit sanitize fuzz fuzz-short demo install uninstall clean deb deb-test deb-prev vm-check

all: $(PROGRAMS) $(DOCS)

# The manual pages and examples alone (tests/docs/manpages.t makes them
# with other paths).
docs: $(DOCS)

$(BUILDDIR)/common/%.o: common/%.c $(COMMON_HDR) $(BUILDDIR)/gen/default_profile.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The embedded default profile is the text of conf/default.profile.
$(BUILDDIR)/gen/default_profile.c: conf/default.profile
	@mkdir -p $(dir $@)
	{ printf '/* generated from conf/default.profile */\nconst char cocoon_default_profile[] = \n'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  printf ';\n'; } > $@.tmp && mv $@.tmp $@
$(BUILDDIR)/gen/default_profile.h:
	@mkdir -p $(dir $@)
	printf '/* generated */\n' > $@
$(BUILDDIR)/gen/default_profile.o: $(BUILDDIR)/gen/default_profile.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The manual pages and the example files are templates: @BINDIR@,
# @SBINDIR@, @LIBEXECDIR@, @SYSCONFDIR@, @DOCDIR@, @EXAMPLESDIR@,
# @STATEDIR@, @RUNDIR@, @BASHCOMPDIR@ and @PAMDIR@ become this build's paths (the
# ones compiled into the programs) in $(BUILDDIR)/doc/, which install
# copies: a page then names the files as installed (/usr/bin on the .debs,
# /usr/local/bin from `make install`). A token left over fails the build.
DOC_SUBST   = -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SBINDIR@|$(PREFIX)/sbin|g' \
	      -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	      -e 's|@DOCDIR@|$(DOCDIR)|g' -e 's|@EXAMPLESDIR@|$(EXAMPLESDIR)|g' \
	      -e 's|@STATEDIR@|$(STATEDIR)|g' -e 's|@RUNDIR@|$(RUNSTATEDIR)/cocoon|g' \
	      -e 's|@BASHCOMPDIR@|$(BASHCOMPDIR)|g' -e 's|@PAMDIR@|$(PAMDIR)|g'
# The paths above, rewritten only when they change, so that a build with
# other paths regenerates the documents.
DOC_STAMP  := $(BUILDDIR)/gen/doc-paths
$(DOC_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo "$(DOC_SUBST)" | cmp -s - $@ || echo "$(DOC_SUBST)" > $@
$(BUILDDIR)/doc/%: % $(DOC_STAMP)
	@mkdir -p $(dir $@)
	sed $(DOC_SUBST) $< > $@.tmp
	@if grep -nE '@[A-Z_]+@' $@.tmp; then echo "$<: a path token this Makefile does not know" >&2; \
		rm -f $@.tmp; exit 1; fi
	chmod --reference=$< $@.tmp && mv $@.tmp $@

# The program of `seccomp = default` is the same for every session: it is
# built once here, by common/engine/seccomp_filter.c's own code (compiled without
# the header it is about to write) through libseccomp, and embedded.
GEN_SECCOMP := $(BUILDDIR)/gen/gen-seccomp
GEN_SECCOMP_OBJ := $(BUILDDIR)/gen/seccomp_filter_gen.o \
	$(filter-out $(BUILDDIR)/common/engine/seccomp_filter.o $(BUILDDIR)/common/engine/systemd_scope.o,$(COMMON_OBJ))
$(BUILDDIR)/gen/seccomp_filter_gen.o: common/engine/seccomp_filter.c $(COMMON_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DCOCOON_FILTER_GENERATOR $(ALL_CFLAGS) -c -o $@ $<
$(GEN_SECCOMP): tools/gen-seccomp.c $(GEN_SECCOMP_OBJ)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)
$(BUILDDIR)/gen/default_filter.h: $(GEN_SECCOMP)
	$(GEN_SECCOMP) > $@.tmp && mv $@.tmp $@
$(BUILDDIR)/common/engine/seccomp_filter.o: $(BUILDDIR)/gen/default_filter.h

$(LIB): $(COMMON_OBJ)
	rm -f $@
	ar rcs $@ $^

# One file per subcommand (ctl/main.c dispatches). -MMD's lists are read
# back so that a header of common/ recompiles what includes it.
CTL_OBJ    := $(patsubst %.c,$(BUILDDIR)/%.o,$(sort $(wildcard ctl/*.c)))
-include $(CTL_OBJ:.o=.d)
$(BUILDDIR)/ctl/%.o: ctl/%.c $(wildcard ctl/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
$(BUILDDIR)/cocoonctl: $(CTL_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CTL_OBJ) $(LIB) $(PKG_LIBS)

$(BUILDDIR)/cocoon-shell: shell/cocoon-shell.c $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -fPIE $(LDFLAGS) -pie -o $@ $< $(LIB) $(PKG_LIBS)

# pid 1 of pam_cocoon's sessions (service mode only: in run mode the
# engine's own image is pid 1), exec'd on the critical path of every PAM
# login, and cocoon-launch, exec'd at every ssh channel's and su's start
# in those sessions. Linked statically against musl: no loader, no
# relocations, and none of glibc's start-up probing of the CPU (cpuid,
# a trap to the hypervisor in a virtual machine: 3.6 us each here; an
# empty program starts in 0.52 ms statically against glibc, 0.21 ms
# against musl), 55 and 75 KB.
# Not PIEs (Debian's musl-gcc turns -static-pie into a dynamic program
# loaded by ld-musl), so their code sits at a fixed address, as glibc's
# -static gives too; musl applies no RELRO to static programs. pid 1
# takes in nothing but wait statuses and signals and reads no file;
# cocoon-launch reads two root-owned files and runs as the user.
# cocoon-init against glibc, dynamically, added 0.45 ms to pamtester
# open+close and 311 KiB of Pss per session (libc's pages), statically
# 688 KiB (most of a 780 KB binary mapped); with musl Pss is 40 KiB.
# cocoon-launch's start took 0.62 ms statically against glibc, 0.29 ms
# against musl (tests/bench).
# Without musl-gcc (`make deps` installs musl-tools) cocoon-init is
# linked dynamically and cocoon-launch statically against glibc, which
# works the same, slower. Decided when the recipe runs: `make check`
# installs musl-tools after this file is read.
MUSL_CC    ?= $(shell command -v musl-gcc 2>/dev/null)
# Debian's musl-tools brings no kernel headers: cocoon-launch's
# <linux/...> come from the system's (linux-libc-dev), and only those,
# so that no glibc header stands in for a missing musl one; asm/ is the
# one of musl-gcc's target. musl has no _FORTIFY_SOURCE; musl-gcc is gcc
# whatever CC is.
MUSL_INC   := $(BUILDDIR)/gen/musl-include
MUSL_FLAGS  = -D_GNU_SOURCE $(COMMON_INC) -isystem $(MUSL_INC) -DCOCOON_VERSION='"$(VERSION)"' \
	      $(filter-out -Wno-format-truncation,$(WARN)) -Wno-format-truncation \
	      -fstack-protector-strong -fstack-clash-protection $(CFLAGS) -static
# Which compiler and flags those were, rewritten only when they change:
# installing musl-tools relinks both and remakes the header links.
INIT_CC_STAMP := $(BUILDDIR)/gen/cocoon-init.cc
$(INIT_CC_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo "$(MUSL_CC) $(MUSL_FLAGS)" | cmp -s - $@ || echo "$(MUSL_CC) $(MUSL_FLAGS)" > $@
$(MUSL_INC)/.made: $(INIT_CC_STAMP)
	@if [ -n "$(MUSL_CC)" ]; then \
		asm=/usr/include/$$($(MUSL_CC) -print-multiarch 2>/dev/null)/asm; \
		[ -d "$$asm" ] || asm=/usr/include/asm; \
		if [ ! -d "$$asm" ] || [ ! -d /usr/include/linux ]; then \
			echo "no kernel headers for musl-gcc (/usr/include/linux, $$asm; Debian's linux-libc-dev)" >&2; \
			exit 1; \
		fi; \
		mkdir -p $(MUSL_INC); \
		ln -sfn /usr/include/linux $(MUSL_INC)/linux; \
		ln -sfn /usr/include/asm-generic $(MUSL_INC)/asm-generic; \
		ln -sfn "$$asm" $(MUSL_INC)/asm; \
	fi
	@mkdir -p $(dir $@) && touch $@
INIT_SRC   := init/cocoon-init.c common/engine/session_init.c common/engine/session_terminals.c \
	      common/engine/session_stderr.c common/engine/credentials_ids.c
LAUNCH_SRC := pam/cocoon-launch.c common/engine/landlock.c common/plan/forced_command.c
$(BUILDDIR)/cocoon-init: $(INIT_SRC) common/engine/session_init.h common/engine/report.h VERSION \
		common/engine/session_terminals.h common/engine/session_stderr.h \
		common/engine/credentials_ids.h \
		$(BUILDDIR)/common/engine/session_init.o $(BUILDDIR)/common/engine/session_terminals.o \
		$(BUILDDIR)/common/engine/session_stderr.o $(BUILDDIR)/common/engine/credentials_ids.o \
		$(INIT_CC_STAMP) | $(MUSL_INC)/.made
	@mkdir -p $(dir $@)
	@if [ -n "$(MUSL_CC)" ]; then \
		set -x; $(MUSL_CC) $(MUSL_FLAGS) -o $@ $(INIT_SRC); \
	else \
		echo "cocoon-init: no musl-gcc, linked dynamically against glibc (slower PAM logins; make deps installs musl-tools)" >&2; \
		set -x; $(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ init/cocoon-init.c \
			$(BUILDDIR)/common/engine/session_init.o \
			$(BUILDDIR)/common/engine/session_terminals.o \
			$(BUILDDIR)/common/engine/session_stderr.o \
			$(BUILDDIR)/common/engine/credentials_ids.o; \
	fi

# Static whatever the libc: it runs inside the sandbox, as the user,
# before any filter is on; no loader work in a tree the user may shape,
# and no LD_PRELOAD from the session's environment running before the
# filter. It execs the real shell at once, so its size costs nothing
# while the session runs.
$(BUILDDIR)/cocoon-launch: $(LAUNCH_SRC) $(COMMON_HDR) VERSION $(BUILDDIR)/common/engine/landlock.o \
		$(BUILDDIR)/common/plan/forced_command.o $(INIT_CC_STAMP) | $(MUSL_INC)/.made
	@mkdir -p $(dir $@)
	@if [ -n "$(MUSL_CC)" ]; then \
		set -x; $(MUSL_CC) $(MUSL_FLAGS) -o $@ $(LAUNCH_SRC); \
	else \
		echo "cocoon-launch: no musl-gcc, linked statically against glibc (slower ssh and su logins; make deps installs musl-tools)" >&2; \
		set -x; $(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -static -o $@ pam/cocoon-launch.c \
			$(BUILDDIR)/common/engine/landlock.o $(BUILDDIR)/common/plan/forced_command.o; \
	fi

# The stub `unavailable` binds over programs that cannot work in a
# session: static like cocoon-launch, for the same reasons (it runs as
# the user, on the session's environment, in a tree the user may shape).
$(BUILDDIR)/unavailable: unavailable/unavailable.c $(INIT_CC_STAMP) | $(MUSL_INC)/.made
	@mkdir -p $(dir $@)
	@if [ -n "$(MUSL_CC)" ]; then \
		set -x; $(MUSL_CC) $(MUSL_FLAGS) -DCOCOON_CTL='"$(PREFIX)/sbin/cocoonctl"' -o $@ $<; \
	else \
		set -x; $(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -static \
			-DCOCOON_CTL='"$(PREFIX)/sbin/cocoonctl"' -o $@ $<; \
	fi

# Only the pam_sm_* entry points are exported: libcocoon's names
# (xmalloc...) must neither clash with nor bind to the service's own.
# libsystemd (sd-bus: cpu-max on the logind session's scope, a shared
# sandbox's own scope) is not linked: common/engine/systemd_scope.c loads
# it when a session first needs systemd, so that a login that does not
# maps none of it.
$(BUILDDIR)/pam_cocoon.so: pam/pam_cocoon.c pam/pam_cocoon.map $(LIB)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -shared -fPIC $(LDFLAGS) -Wl,-Bsymbolic \
		-Wl,--version-script=pam/pam_cocoon.map -o $@ $< $(LIB) $(PKG_LIBS) -lpam

# Test NSS sources, never installed (tests/nss/libnss_cocoontest.c):
# libnss_SOURCE.so.2, answering what $(NSS_TEST_DIR)/SOURCE.state says;
# "enum" ones have no initgroups_dyn, "systemd" stands in for
# libnss_systemd where a test puts this directory first.
NSS_TEST_DIR := $(abspath $(BUILDDIR))/tests/nss
NSS_TEST_MODULES := $(foreach s,cocoontest cocoontestenum systemd,$(NSS_TEST_DIR)/libnss_$(s).so.2)
$(NSS_TEST_DIR)/libnss_%.so.2: tests/nss/libnss_cocoontest.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -fPIC -shared -O2 -g -DSOURCE=$* $(if $(findstring enum,$*),-DNO_INITGROUPS) \
		-DSTATE_DIR='"$(NSS_TEST_DIR)"' -o $@ $<
.SECONDARY: $(NSS_TEST_MODULES)

# The unit tests' name_service.o has name_service_configure (a private
# nsswitch.conf and module directory), which the shipped library leaves
# out; linked before $(LIB), it stands in for the archive's.
NSS_TEST_OBJ := $(BUILDDIR)/tests/name_service_test.o
$(NSS_TEST_OBJ): common/util/name_service.c $(COMMON_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DCOCOON_NAME_SERVICE_TESTS $(ALL_CFLAGS) -c -o $@ $<

$(BUILDDIR)/tests/%: tests/unit/%.c tests/unit/tap.h $(NSS_TEST_OBJ) $(LIB) $(NSS_TEST_MODULES)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit -DNSS_TEST_DIR='"$(NSS_TEST_DIR)"' $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(NSS_TEST_OBJ) $(LIB) $(PKG_LIBS)

PROBES     := $(BUILDDIR)/tests/seccomp-probe

# An explicit rule, so it wins over the tests/unit pattern rule.
$(BUILDDIR)/tests/seccomp-probe: tests/seccomp/probe.c tests/unit/tap.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS)

unit: $(UNIT_BIN) $(PROBES) $(NSS_TEST_MODULES)

# common/'s layers (CONTRIBUTING.md): no file uses one above its own.
layers: $(LIB)
	tools/check-layers.sh $(BUILDDIR)

# Without questions, no daemon started, nsswitch.conf and
# /etc/pam.d/common-* left as they were (tools/deps.sh says how).
deps:
	tools/deps.sh $(DEB_PACKAGES)

# Install the packages only when one is missing, so `make check` on a
# fresh machine needs nothing else.
check-deps:
	@missing=; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then echo "make check: installing$$missing"; $(MAKE) deps; fi

# Tests run against an installed tree whose compiled-in paths point into
# a directory of its own under /run, never to /etc/cocoon. /run because
# policy files must sit below root-owned directories that nobody else can
# write, wherever this checkout is (/tmp would not do). One per checkout;
# removed when the tests end.
TREE_ID    := $(shell printf '%s' '$(CURDIR)' | cksum | cut -d' ' -f1)
CHECK_ROOT := /run/cocoon-check.$(TREE_ID)
check-build:
	$(MAKE) BUILDDIR=build/check PREFIX=$(CHECK_ROOT)/usr SYSCONFDIR=$(CHECK_ROOT)/etc LOCALSTATEDIR=$(CHECK_ROOT)/var \
		RUNSTATEDIR=$(CHECK_ROOT)/run PAMDIR=$(CHECK_ROOT)/lib/security install unit
	install -d -m 0755 $(CHECK_ROOT)/run

# A second tree for tests/fault/inject.t, built with fault injection
# (common/util/fault.h) and installed under the check tree's fault/ (removed
# with it). Never part of an ordinary build.
FAULT_ROOT := $(CHECK_ROOT)/fault
check-build-fault:
	$(MAKE) BUILDDIR=build/fault CFLAGS="$(CFLAGS) -DCOCOON_FAULT_INJECTION" \
		PREFIX=$(FAULT_ROOT)/usr SYSCONFDIR=$(FAULT_ROOT)/etc LOCALSTATEDIR=$(FAULT_ROOT)/var \
		RUNSTATEDIR=$(FAULT_ROOT)/run PAMDIR=$(FAULT_ROOT)/lib/security install
	install -d -m 0755 $(FAULT_ROOT)/run

# The builds after check-deps, not beside it (make -j): they need what it
# installs.
check: check-deps
	$(MAKE) check-build check-build-fault
	status=0; \
	COCOON_ROOT=$(CHECK_ROOT) COCOON_BUILD=$(CURDIR)/build/check \
		prove -f $(UNIT_SRC:tests/unit/%.c=build/check/tests/%) $(TESTS) || status=1; \
	rm -rf $(CHECK_ROOT); \
	$(MAKE) BUILDDIR=build/check layers || status=1; \
	$(MAKE) sanitize && prove -f $(UNIT_SRC:tests/unit/%.c=build/asan/tests/%) || status=1; \
	$(MAKE) fuzz-short || status=1; \
	exit $$status

# The soak at full size (make check runs tests/soak/soak.t, a short one):
# 200 guest sessions through sshd, 20 at a time; the numbers go to
# tests/bench/soak.md.
SOAK_SESSIONS ?= 200
SOAK_CONCURRENCY ?= 20
soak: check-build
	status=0; \
	COCOON_ROOT=$(CHECK_ROOT) COCOON_BUILD=$(CURDIR)/build/check \
		REPORT=$(CURDIR)/tests/bench/soak.md \
		bash tests/soak/soak.sh $(SOAK_SESSIONS) $(SOAK_CONCURRENCY) < /dev/null || status=1; \
	rm -rf $(CHECK_ROOT); \
	exit $$status

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize:
	$(MAKE) BUILDDIR=build/asan CC=clang CFLAGS="-O1 -g $(SAN_FLAGS)" \
		LDFLAGS="$(SAN_FLAGS)" unit

# libFuzzer over policy parsing and resolution (clang, libclang-rt-14-dev).
FUZZ_SECONDS ?= 600
FUZZ_BIN := build/fuzz/fuzz_policy
$(FUZZ_BIN): tests/fuzz/fuzz_policy.c $(COMMON_SRC) $(COMMON_HDR) conf/default.profile
	$(MAKE) BUILDDIR=build/fuzz CC=clang \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
		build/fuzz/libcocoon.a
	clang $(CPPFLAGS) -Ibuild/fuzz/gen -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $< build/fuzz/libcocoon.a $(PKG_LIBS)
fuzz: $(FUZZ_BIN)
	@mkdir -p build/fuzz/corpus
	$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
		build/fuzz/corpus tests/fuzz/corpus
fuzz-short:
	$(MAKE) fuzz FUZZ_SECONDS=45

# Benchmarks beside bubblewrap, firejail and bare namespaces; writes
# tests/bench/{README.md,results.csv,results.json,setup-vs-binds.svg}.
# The tree under test sits under /run like the tests'. BENCH_FLAGS=--quick
# (short) or --profile; SSHD_PORTS=LO-HI picks its sshds' ports. Not part
# of `make check`: figures, not verdicts.
BENCH_ROOT := /run/cocoon-bench.$(TREE_ID)
bench: check-deps
	$(MAKE) BUILDDIR=build/bench PREFIX=$(BENCH_ROOT)/usr SYSCONFDIR=$(BENCH_ROOT)/etc LOCALSTATEDIR=$(BENCH_ROOT)/var \
		RUNSTATEDIR=$(BENCH_ROOT)/run PAMDIR=$(BENCH_ROOT)/lib/security install
	install -d -m 0755 $(BENCH_ROOT)/run
	status=0; COCOON_ROOT=$(BENCH_ROOT) tests/bench/run $(BENCH_FLAGS) || status=$$?; \
	rm -rf $(BENCH_ROOT); exit $$status

# The README's first command: a sandboxed shell on the embedded default
# (no policy file in the demo tree). The tree sits under /run for the same
# reason as the tests' and goes away afterwards.
DEMO_ROOT := /run/cocoon-demo.$(TREE_ID)
demo: check-deps
	$(MAKE) BUILDDIR=build/demo PREFIX=$(DEMO_ROOT)/usr SYSCONFDIR=$(DEMO_ROOT)/etc LOCALSTATEDIR=$(DEMO_ROOT)/var \
		RUNSTATEDIR=$(DEMO_ROOT)/run PAMDIR=$(DEMO_ROOT)/lib/security install
	install -d -m 0755 $(DEMO_ROOT)/run
	status=0; tests/demo-session.sh $(DEMO_ROOT) || status=$$?; \
	rm -rf $(DEMO_ROOT); exit $$status

install: all
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBEXECDIR)/cocoon \
		$(DESTDIR)$(SYSCONFDIR)/cocoon/cocoon.d \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -d -m 0755 $(DESTDIR)$(STATEDIR)
	install -m 0755 $(BUILDDIR)/cocoonctl $(DESTDIR)$(PREFIX)/sbin/cocoonctl
	install -m 0755 $(BUILDDIR)/cocoon-init $(DESTDIR)$(LIBEXECDIR)/cocoon/cocoon-init
	# Readable by root alone: the kernel makes what it starts undumpable,
	# so nothing of the user's traces it before it sets the filter.
	install -m 0711 $(BUILDDIR)/cocoon-launch $(DESTDIR)$(LIBEXECDIR)/cocoon/cocoon-launch
	install -m 0755 $(BUILDDIR)/unavailable $(DESTDIR)$(LIBEXECDIR)/cocoon/unavailable
	install -d $(DESTDIR)$(PAMDIR)
	install -m 0644 $(BUILDDIR)/pam_cocoon.so $(DESTDIR)$(PAMDIR)/pam_cocoon.so
	# setuid root: it builds the sandbox for the calling user.
	install -m 4755 $(BUILDDIR)/cocoon-shell $(DESTDIR)$(PREFIX)/bin/cocoon-shell
	# Never overwrite an administrator's policy. Root's alone: sessions
	# bind /etc, and its rules are other users' business.
	[ -e $(DESTDIR)$(SYSCONFDIR)/cocoon/cocoon.conf ] || \
		install -m 0600 conf/cocoon.conf $(DESTDIR)$(SYSCONFDIR)/cocoon/cocoon.conf
	for m in $(MANPAGES); do \
		s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
		install -m 0644 $(BUILDDIR)/doc/$$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 0644 conf/completion/cocoonctl $(DESTDIR)$(BASHCOMPDIR)/cocoonctl
	# The examples with this installation's paths; the kiosk menu is a
	# program of its own.
	install -d $(DESTDIR)$(EXAMPLESDIR)
	install -m 0755 $(BUILDDIR)/doc/conf/examples/kiosk-menu $(DESTDIR)$(LIBEXECDIR)/cocoon/kiosk-menu
	install -m 0644 $(BUILDDIR)/doc/conf/examples/cocoon-shell.sshd_config $(BUILDDIR)/doc/conf/examples/*.conf \
		$(DESTDIR)$(EXAMPLESDIR)/
	install -d $(DESTDIR)$(EXAMPLESDIR)/ansible
	install -m 0644 conf/examples/ansible/* $(DESTDIR)$(EXAMPLESDIR)/ansible/
	@echo "cocoon: for accounts whose login shell is cocoon-shell, sshd runs the host's /bin/sh"
	@echo "  with their environment before the shell: add pam_cocoon's two session lines to"
	@echo "  /etc/pam.d/sshd and $(EXAMPLESDIR)/cocoon-shell.sshd_config to"
	@echo "  /etc/ssh/sshd_config.d, then run cocoonctl check --pam (cocoon-shell(1))."

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/cocoonctl $(DESTDIR)$(LIBEXECDIR)/cocoon/cocoon-init \
		$(DESTDIR)$(LIBEXECDIR)/cocoon/cocoon-launch $(DESTDIR)$(PAMDIR)/pam_cocoon.so \
		$(DESTDIR)$(PREFIX)/bin/cocoon-shell $(DESTDIR)$(LIBEXECDIR)/cocoon/kiosk-menu \
		$(DESTDIR)$(LIBEXECDIR)/cocoon/unavailable
	rm -rf $(DESTDIR)$(EXAMPLESDIR)
	-rmdir $(DESTDIR)$(LIBEXECDIR)/cocoon
	for m in $(MANPAGES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(DESTDIR)$(BASHCOMPDIR)/cocoonctl
	@echo "left $(SYSCONFDIR)/cocoon in place (it holds the policy)"

clean:
	rm -rf build

# Debian packages into build/deb/, built from a copy of the tree so that
# dpkg-buildpackage's output (written to the parent directory) stays
# under build/. debian/changelog must carry the VERSION file's version.
# lintian fails the target on errors; its temporary files go to a
# folder of the build's, removed after it (Debian 12's lintian leaves
# mldbm-elf-* files in /tmp).
DEB_OUT    := build/deb
deb: check-deps
	@v=$$(dpkg-parsechangelog -S Version); [ "$$v" = "$(VERSION)" ] || \
		{ echo "debian/changelog is at $$v, VERSION at $(VERSION)" >&2; exit 1; }
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)/src
	rsync -a --exclude=/build --exclude=/.git ./ $(DEB_OUT)/src/
	cd $(DEB_OUT)/src && dpkg-buildpackage -b -us -uc
	rm -rf $(DEB_OUT)/src
	mkdir -p $(DEB_OUT)/lintian-tmp
	status=0; TMPDIR=$(CURDIR)/$(DEB_OUT)/lintian-tmp \
		lintian --fail-on error $(DEB_OUT)/cocoon_$(VERSION)_*.changes || status=$$?; \
	rm -rf $(DEB_OUT)/lintian-tmp; exit $$status

# Install, check and remove the packages in a minimal Debian 12 root
# (debootstrap, kept under build/deb-cache between runs).
deb-test: deb
	COCOON_DEB_TEST=1 prove -v tests/deb/deb.t

# The build `make vm-check` upgrades from: this tree as version
# VERSION~prev (below VERSION), into build/deb-prev/.
DEB_PREV   := build/deb-prev
deb-prev: check-deps
	rm -rf $(DEB_PREV) && mkdir -p $(DEB_PREV)/src
	rsync -a --exclude=/build --exclude=/.git ./ $(DEB_PREV)/src/
	printf '%s~prev\n' '$(VERSION)' > $(DEB_PREV)/src/VERSION
	{ printf 'cocoon (%s~prev) unstable; urgency=medium\n\n  * The build make vm-check upgrades from.\n\n' '$(VERSION)'; \
	  sed -n 's/^\( -- .*>\)  .*/\1  '"$$(date -R)"'/p' debian/changelog | head -n 1; echo; \
	  cat debian/changelog; } > $(DEB_PREV)/src/debian/changelog
	cd $(DEB_PREV)/src && dpkg-buildpackage -b -us -uc >/dev/null
	rm -rf $(DEB_PREV)/src

# A Debian 12 system with systemd and Debian's kernel, under qemu (TCG):
# the packages installed with apt and checked through the real services
# (tests/vm/). The image is built once with debootstrap and kept under
# build/vm. The runner dies with make (a CI timeout's kill -9 of make),
# and the guest with the runner.
vm-check: check-deps deb deb-prev
	setpriv --pdeathsig KILL tests/vm/run
-include $(wildcard $(BUILDDIR)/common/*/*.d)
