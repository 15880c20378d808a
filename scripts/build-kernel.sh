#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh [debug|release] -- build (or reuse) a test kernel from
# Debian's linux-source-6.1 and print its build directory on stdout.
#
# The build lives in $DMC_CACHE/kernel/<flavour>-<srcversion>-<hash>, where
# the hash covers the config fragment, the source package version and the
# compiler, so a changed fragment gives a new kernel and an unchanged one is
# reused by every clone. Progress goes to stderr while make runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-debug}
DMC_STAGE="kernel:$flavour"
frag="$DMC_ROOT/scripts/kconfig/$flavour.config"
[ -f "$frag" ] || die "no fragment $frag"

src=$(src_tree)
out="$DMC_CACHE/kernel/$(kernel_key "$flavour")"

# One build per directory at a time: a second caller (another make, a
# parallel check) waits here and then finds the finished kernel.
mkdir -p "$DMC_CACHE/kernel"
exec 9>"$out.lock"
if ! flock -n 9; then
	log "another build of $out is running; waiting for it"
	flock 9
fi

if [ -e "$out/.done" ]; then
	log "cached: $out"
	echo "$out"
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
log "configuring in $out"
make -C "$src" O="$out" ARCH=x86_64 tinyconfig >"$out/config.log" 2>&1 ||
	die "tinyconfig failed (see $out/config.log)"
(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$frag") \
	>>"$out/config.log" 2>&1 || die "merge_config failed"
make -C "$src" O="$out" ARCH=x86_64 olddefconfig >>"$out/config.log" 2>&1 ||
	die "olddefconfig failed"

# Options with unmet dependencies vanish silently: check each one survived.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx -- "$line" "$out/.config" || { log "option lost: $line"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		if grep -q "^$opt=" "$out/.config"; then log "option still set: $opt"; bad=1; fi ;;
	esac
done <"$frag"
[ $bad -eq 0 ] || die "config fragment did not survive olddefconfig"

jobs=$(nproc)
log "building bzImage and modules with -j$jobs (about 5 minutes on 2 cores)"
start=$(date +%s)
make -C "$src" O="$out" ARCH=x86_64 -j"$jobs" bzImage modules >"$out/build.log" 2>&1 &
mpid=$!
while kill -0 $mpid 2>/dev/null; do
	sleep 20
	n=$(grep -c '^  CC' "$out/build.log" 2>/dev/null || true)
	log "$(( $(date +%s) - start ))s: $n files compiled"
done
if ! wait $mpid; then
	tail -n 30 "$out/build.log" >&2
	die "kernel build failed (see $out/build.log)"
fi
[ -f "$out/arch/x86/boot/bzImage" ] || die "no bzImage after build"
[ -f "$out/Module.symvers" ] || die "no Module.symvers after build"
touch "$out/.done"
log "built in $(( $(date +%s) - start ))s: $out"
echo "$out"
