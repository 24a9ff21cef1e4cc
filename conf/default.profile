# The embedded default profile, compiled into cocoon. It is what
# `profile = default` means, and with no policy file installed the whole
# policy is "[default] profile = default".
[profile default]
# A read-only system: programs, libraries and configuration.
ro-bind = /usr
ro-bind = /etc
symlink = usr/bin /bin
symlink = usr/sbin /sbin
symlink = usr/lib /lib
symlink = usr/lib64 /lib64
# Own /proc (needs the pid namespace) and a minimal /dev.
proc = /proc
dev = /dev
# Private, empty temporary and run-time directories.
tmpfs = /tmp
tmpfs = /var/tmp
tmpfs = /run
dir = /run/user/%U mode=0700
# screen's socket directory (Debian's screen is not set-user-ID and
# makes none; the host's comes from tmpfiles.d).
dir = /run/screen mode=1777
# The user's home, read-write.
bind = %h
chdir = %h
setenv = XDG_RUNTIME_DIR /run/user/%U
unshare = pid ipc uts
seccomp = default
no-new-privs = yes
# Set-user-ID and set-group-ID programs gain nothing under no-new-privs:
# each says it is not available in the session instead of failing with
# messages of its own. A program this host lacks is skipped.
unavailable = /usr/bin/su /usr/bin/sudo /usr/bin/newgrp /usr/bin/passwd
unavailable = /usr/bin/chsh /usr/bin/chfn /usr/bin/gpasswd /usr/bin/chage
unavailable = /usr/bin/expiry /usr/bin/crontab /usr/bin/at /usr/bin/pkexec
unavailable = /usr/bin/fusermount /usr/bin/fusermount3
