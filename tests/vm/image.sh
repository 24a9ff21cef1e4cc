#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# image.sh DIR: a Debian 12 system for `make vm-check`, built from Debian's
# packages with debootstrap into DIR (the build tree's vm/ directory) and
# kept there: DIR/base-KEY.img (an ext4 file system, sparse), with
# DIR/vmlinuz-KEY and DIR/initrd-KEY beside it. KEY is this script's own
# hash, so changing it builds a new image. Prints KEY.
#
# Debian's kernel (6.1) with an initrd of the few modules a qemu disk
# needs, systemd as pid 1 with logind, journald and nss-systemd, dbus,
# sshd, sudo, cron, and what the tests inside need (perl, python3, gcc,
# strace, setcap); the directory packages, none of them enabled.
# Root logs in over ssh with DIR/id_vm, made here.
set -euo pipefail
DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
KEY=$(sha256sum "$HERE/image.sh" | cut -c1-12)
IMG=$DIR/base-$KEY.img
if [ -s "$IMG" ] && [ -s "$DIR/vmlinuz-$KEY" ] && [ -s "$DIR/initrd-$KEY" ]; then
	echo "$KEY"
	exit 0
fi
mkdir -p "$DIR"
[ -s "$DIR/id_vm" ] || ssh-keygen -q -t ed25519 -N '' -C cocoon-vm -f "$DIR/id_vm"

# The mirror this machine's apt uses.
MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	/etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n -E 's,^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)(https?://[^[:space:]]*/debian)/?([[:space:]].*)?$,\3,p' |
	head -n 1) || true
: "${MIRROR:=http://deb.debian.org/debian}"

PACKAGES=linux-image-amd64,initramfs-tools,systemd-sysv,libpam-systemd,libnss-systemd,dbus,udev,kmod
PACKAGES=$PACKAGES,openssh-server,openssh-client,sudo,cron,login,passwd,procps,iproute2
PACKAGES=$PACKAGES,perl,python3,gcc,libc6-dev,strace,util-linux,bsdutils,e2fsprogs,libcap2-bin
PACKAGES=$PACKAGES,xauth,dbus-user-session,pamtester,git,bash-completion
# python3-apt: the apt module of tests/vm/70-ansible.t's playbook; tmux:
# tests/shell/share.t's detached session, attached from the next login;
# screen and mosh: tests/vm/39-share-clients.t.
PACKAGES=$PACKAGES,python3-apt,tmux,screen,mosh

ROOT=$DIR/rootfs.$$
cleanup() {
	local m
	for m in $(findmnt -rn -o TARGET 2>/dev/null | grep -F "$ROOT/" | sort -r); do
		umount "$m" 2>/dev/null || true
	done
	rm -rf --one-file-system "$ROOT"
}
trap cleanup EXIT
echo "image: debootstrap from $MIRROR (a few minutes)" >&2
mkdir -p "$DIR/archives"
debootstrap --variant=minbase --include="$PACKAGES" --cache-dir="$(cd "$DIR/archives" && pwd)" \
	bookworm "$ROOT" "$MIRROR" >&2

# The directory packages (tests/vm/70-directory.t), installed afterwards
# through apt in the root so that the first stage's configuration stays:
# Debian's nsswitch.conf and PAM common-* files are put back as they
# were (libnss-sss adds sss to the one, libpam-sss its lines to the
# others), and slapd, nslcd, nscd and sssd, which their postinsts
# enable, are disabled: a test configures and starts what it needs.
# systemd-userdbd (Debian 12 ships it apart from systemd) stays as
# Debian enables it, socket-activated.
DIRECTORY_PACKAGES="slapd ldap-utils nslcd libnss-ldapd sssd-ldap nscd systemd-userdbd"
(cd "$ROOT" && mkdir -p root/pristine && cp -a --parents etc/nsswitch.conf etc/pam.d/common-* root/pristine/)
printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
[ -s "$ROOT/etc/resolv.conf" ] || cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mount -t proc proc "$ROOT/proc"
mount --bind "$(cd "$DIR/archives" && pwd)" "$ROOT/var/cache/apt/archives"
DEBIAN_FRONTEND=noninteractive chroot "$ROOT" apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive chroot "$ROOT" apt-get install -y -q --no-install-recommends \
	$DIRECTORY_PACKAGES >&2
umount "$ROOT/var/cache/apt/archives" "$ROOT/proc"
rm -f "$ROOT/usr/sbin/policy-rc.d"
cp -a "$ROOT/root/pristine/etc/." "$ROOT/etc/"
rm -rf "$ROOT/root/pristine"
chroot "$ROOT" sh -c 'for u in slapd nslcd nscd sssd $(systemctl list-unit-files --no-legend "sssd*" |
	awk "\$2 == \"enabled\" { print \$1 }"); do systemctl disable -q "$u" || exit 1; done
	for u in slapd nslcd nscd sssd; do echo "image: $u $(systemctl is-enabled "$u" 2>&1)"; done' >&2

# The initrd: only what a qemu virtio disk with ext4 needs.
sed -i 's/^MODULES=.*/MODULES=list/' "$ROOT/etc/initramfs-tools/initramfs.conf"
printf 'virtio_pci\nvirtio_blk\next4\n' > "$ROOT/etc/initramfs-tools/modules"
mount -t proc proc "$ROOT/proc"
chroot "$ROOT" update-initramfs -u -k all >&2
umount "$ROOT/proc"

echo cocoon-vm > "$ROOT/etc/hostname"
printf '127.0.1.1 cocoon-vm\n' >> "$ROOT/etc/hosts"
printf '/dev/vda / ext4 rw,relatime 0 1\n' > "$ROOT/etc/fstab"
# The network qemu's user mode gives: DHCP on the one interface.
mkdir -p "$ROOT/etc/systemd/network"
printf '[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n' > "$ROOT/etc/systemd/network/20-wired.network"
ln -sf /lib/systemd/system/systemd-networkd.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
# Root over ssh with the key made above, nothing else.
install -d -m 0700 "$ROOT/root/.ssh"
install -m 0600 "$DIR/id_vm.pub" "$ROOT/root/.ssh/authorized_keys"
# Said on the serial console once sshd listens, for the harness to wait on
# (qemu's port forward accepts connections before sshd does).
cat > "$ROOT/etc/systemd/system/cocoon-vm-ready.service" <<'UNIT'
[Unit]
Description=Tell the test harness that sshd listens
After=ssh.service
Requires=ssh.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo COCOON-VM-READY > /dev/ttyS0'
[Install]
WantedBy=multi-user.target
UNIT
ln -sf /etc/systemd/system/cocoon-vm-ready.service \
	"$ROOT/etc/systemd/system/multi-user.target.wants/cocoon-vm-ready.service"
# No password for root on the console; apt offline.
chroot "$ROOT" passwd -d root >/dev/null
rm -f "$ROOT"/etc/ssh/ssh_host_*
chroot "$ROOT" ssh-keygen -A >/dev/null
rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/*

cp "$ROOT/boot/vmlinuz-"* "$DIR/vmlinuz-$KEY.tmp"
cp "$ROOT/boot/initrd.img-"* "$DIR/initrd-$KEY.tmp"
rm -f "$IMG.tmp"
mke2fs -q -t ext4 -L cocoon-vm -d "$ROOT" "$IMG.tmp" 3G >&2
mv "$DIR/vmlinuz-$KEY.tmp" "$DIR/vmlinuz-$KEY"
mv "$DIR/initrd-$KEY.tmp" "$DIR/initrd-$KEY"
mv "$IMG.tmp" "$IMG"
echo "$KEY"
