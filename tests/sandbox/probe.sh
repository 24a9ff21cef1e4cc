# SPDX-License-Identifier: GPL-2.0-or-later
# What a process sees from inside a sandbox, printed so that two sandboxes
# can be compared line by line. Shell builtins only (it must also run in
# a bare chroot with nothing but /bin/sh), so it starts no process that
# would show up in its own process list.

echo "== mounts (outside /proc and /dev), read-only or not"
if [ -r /proc/self/mountinfo ]; then
	while read -r _id _parent _dev _root point opts _rest; do
		case "$point" in /proc | /proc/* | /dev | /dev/*) continue ;; esac
		case ",$opts," in *,ro,*) mode=ro ;; *) mode=rw ;; esac
		echo "mount $point $mode"
	done < /proc/self/mountinfo
else
	echo "no /proc"
fi

echo "== /dev"
for f in /dev/* /dev/.*; do
	case "$f" in /dev/. | /dev/.. | "/dev/*" | "/dev/.*") continue ;; esac
	echo "dev ${f#/dev/}"
done

echo "== processes"
n=0
for p in /proc/[0-9]*; do
	[ -d "$p" ] && n=$((n + 1))
done
echo "visible processes $n"

echo "== network interfaces"
if [ -r /proc/net/dev ]; then
	while read -r name _rest; do
		case "$name" in *:) echo "if ${name%:}" ;; esac
	done < /proc/net/dev
fi

echo "== hostname"
[ -r /proc/sys/kernel/hostname ] && read -r h < /proc/sys/kernel/hostname && echo "hostname $h"

echo "== environment set by the policy"
echo "XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR-unset}"

echo "== cwd"
echo "cwd $PWD"

echo "== identity"
if [ -r /proc/self/status ]; then
	while read -r key a b c d; do
		case "$key" in
		Uid:) echo "uid $a $b $c $d" ;;
		Gid:) echo "gid $a $b $c $d" ;;
		Groups:) echo "groups $a $b $c $d" ;;
		NoNewPrivs:) ;;
		esac
	done < /proc/self/status
fi

echo "== directories created for the policy"
for d in /tmp /run /run/user /run/user/*; do
	[ -d "$d" ] || continue
	if [ -w "$d" ]; then echo "dir $d writable"; else echo "dir $d read-only"; fi
done
