#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh -o OUT.cpio.gz [options] -- pack the busybox initramfs that
# vm.sh boots. Usually called by vm.sh, not by hand.
#
#   -o FILE         output (gzip'd newc cpio)
#   -m DIR|FILE.ko  kernel modules: every *.ko under DIR (or the file) goes
#                   to /lib/dmcore/<basename> (two modules with one name fail)
#   -s FILE         the guest script, installed as /dmc/script.sh
#   -l FILE         a helper library for guest scripts, as /dmc/lib.sh
#   -a FILE         any other file, as /dmc/files/<basename>
#   -e NAME=VALUE   a variable for /etc/dmcore.env (read by /init, exported
#                   to the script when NAME is not one of /init's own)
#
# Layout in the guest: /init (scripts/guest-init.sh), /bin/busybox and its
# applets, /lib/dmcore/*.ko, /dmc/script.sh, /dmc/lib.sh, /dmc/files/,
# /etc/dmcore.env.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=initramfs

out='' script='' lib=''
mods=() adds=() envs=()
while getopts "o:m:s:l:a:e:" opt; do
	case $opt in
	o) out=$OPTARG ;;
	m) mods+=("$OPTARG") ;;
	s) script=$OPTARG ;;
	l) lib=$OPTARG ;;
	a) adds+=("$OPTARG") ;;
	e) envs+=("$OPTARG") ;;
	*) echo "usage: $0 -o OUT [-m DIR|KO]... [-s SCRIPT] [-l LIB] [-a FILE]... [-e NAME=VALUE]..." >&2
	   exit 2 ;;
	esac
done
[ -n "$out" ] || die "-o OUT is required"

ensure_pkgs busybox-static cpio gzip
bb=/bin/busybox
[ -x "$bb" ] || die "no $bb (package busybox-static)"

stage=$(mktemp -d /tmp/dmcore-initramfs.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,lib/dmcore,dmc/files}
cp "$bb" "$stage/bin/busybox"
install -m 755 "$DMC_ROOT/scripts/guest-init.sh" "$stage/init"

add_ko() {
	local ko=$1 dst
	dst="$stage/lib/dmcore/$(basename "$ko")"
	[ -e "$dst" ] && die "two modules named $(basename "$ko") (second: $ko)"
	cp "$ko" "$dst"
}
for m in "${mods[@]}"; do
	if [ -d "$m" ]; then
		while IFS= read -r ko; do add_ko "$ko"; done < <(find "$m" -name '*.ko' | sort)
	elif [ -f "$m" ]; then
		add_ko "$m"
	else
		die "no module or directory $m"
	fi
done
for a in "${adds[@]}"; do
	[ -f "$a" ] || die "no file $a"
	cp "$a" "$stage/dmc/files/"
done
if [ -n "$script" ]; then
	[ -f "$script" ] || die "no script $script"
	install -m 755 "$script" "$stage/dmc/script.sh"
	envs+=("DMC_SCRIPT=/dmc/script.sh")
fi
if [ -n "$lib" ]; then
	[ -f "$lib" ] || die "no library $lib"
	install -m 644 "$lib" "$stage/dmc/lib.sh"
fi

# /etc/dmcore.env: NAME='value' lines, single-quoted for busybox sh.
for e in "${envs[@]}"; do
	name=${e%%=*} val=${e#*=}
	[[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && [ "$name" != "$e" ] ||
		die "bad -e '$e' (want NAME=VALUE)"
	printf "%s='%s'\nexport %s\n" "$name" "${val//\'/\'\\\'\'}" "$name"
done >"$stage/etc/dmcore.env"

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
