# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common helpers for dmcore's harness scripts. Sourced, never run.
#
# Everything the harness downloads or builds lives under $DMC_CACHE (outside
# the checkout), keyed by what it was made from, so a fresh clone reuses it.

DMC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DMC_CACHE=${DMCORE_CACHE:-/var/cache/dmcore}
DMC_SRC_PKG=linux-source-6.1

if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi

log() { printf '[%s] %s\n' "${DMC_STAGE:-dmcore}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ensure_pkgs PKG... -- install the Debian packages that are missing.
ensure_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing: ${missing[*]}"
	if [ ! -e /tmp/.dmcore-apt-updated ]; then
		$SUDO apt-get update -q >&2 || die "apt-get update failed"
		touch /tmp/.dmcore-apt-updated
	fi
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "${missing[@]}" >&2 ||
		die "apt-get install ${missing[*]} failed"
}

ensure_cache() {
	$SUDO mkdir -p "$DMC_CACHE"
	[ -w "$DMC_CACHE" ] || $SUDO chown "$(id -u):$(id -g)" "$DMC_CACHE"
}

# Build tools for a kernel from source and for out-of-tree modules.
BUILD_PKGS="build-essential bc flex bison libelf-dev libssl-dev cpio dwarves kmod xz-utils"
# shellcheck disable=SC2034 # used by the scripts that source this file
VM_PKGS="qemu-system-x86 busybox-static cpio gzip"

src_version() {
	dpkg-query -W -f='${Version}' "$DMC_SRC_PKG" 2>/dev/null
}

# src_tree -- print the path of the extracted linux-source-6.1 tree,
# extracting it on first use.
src_tree() {
	# shellcheck disable=SC2086 # a list of names
	ensure_pkgs "$DMC_SRC_PKG" $BUILD_PKGS
	ensure_cache
	local ver dir tarball
	ver=$(src_version)
	dir="$DMC_CACHE/src/linux-source-$ver"
	if [ ! -e "$dir/.extracted" ]; then
		# shellcheck disable=SC2012
		tarball=$(ls /usr/src/linux-source-6.1.tar.* | head -n1)
		[ -n "$tarball" ] || die "no /usr/src/linux-source-6.1 tarball"
		log "extracting $tarball"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xf "$tarball" -C "$dir.tmp" --strip-components=1 ||
			die "extracting $tarball failed"
		mv "$dir.tmp" "$dir"
		touch "$dir/.extracted"
	fi
	echo "$dir"
}

# stock_release -- the version string of Debian's current stock kernel,
# e.g. 6.1.0-57-amd64, discovered from the metapackage.
stock_release() {
	local pkg
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^  Depends: linux-image-\(.*\)$/\1/p' | head -n1)
	if [ -z "$pkg" ]; then
		$SUDO apt-get update -q >&2
		touch /tmp/.dmcore-apt-updated
		pkg=$(apt-cache depends linux-image-amd64 |
			sed -n 's/^  Depends: linux-image-\(.*\)$/\1/p' | head -n1)
	fi
	[ -n "$pkg" ] || die "cannot find Debian's stock kernel package"
	echo "$pkg"
}

# stock_kdir -- headers tree for the stock kernel (installs it).
stock_kdir() {
	local rel
	rel=$(stock_release)
	# shellcheck disable=SC2086 # a list of names
	ensure_pkgs "linux-headers-$rel" $BUILD_PKGS
	echo "/usr/src/linux-headers-$rel"
}

# stock_image -- directory holding the extracted stock kernel package:
# boot/vmlinuz-REL and lib/modules/REL/. Never touches the host's /boot.
stock_image() {
	local rel dir deb
	rel=$(stock_release)
	ensure_cache
	dir="$DMC_CACHE/stock/linux-image-$rel"
	if [ ! -e "$dir/.extracted" ]; then
		log "fetching linux-image-$rel"
		rm -rf "$dir" "$dir.dl"
		mkdir -p "$dir.dl"
		(cd "$dir.dl" && apt-get download -q "linux-image-$rel" >&2) ||
			die "apt-get download linux-image-$rel failed"
		# shellcheck disable=SC2012
		deb=$(ls "$dir.dl"/*.deb | head -n1)
		mkdir -p "$dir"
		dpkg-deb -x "$deb" "$dir" || die "dpkg-deb -x $deb failed"
		rm -rf "$dir.dl"
		touch "$dir/.extracted"
	fi
	echo "$dir"
}

# kernel_dir FLAVOUR -- the cached build directory of a test kernel flavour
# (debug or release); empty if it was never built.
kernel_key() {
	local flavour=$1 frag="$DMC_ROOT/scripts/kconfig/$1.config"
	[ -f "$frag" ] || die "unknown kernel flavour '$flavour'"
	local h
	h=$( { cat "$frag"; src_version; gcc --version | head -n1; } |
		sha256sum | cut -c1-12)
	echo "$flavour-$(src_version)-$h"
}

kernel_dir() {
	local d
	d="$DMC_CACHE/kernel/$(kernel_key "$1")"
	[ -e "$d/.done" ] && echo "$d"
	return 0
}

# ---------------------------------------------------------------------------
# Module builds and guest runs (build-modules.sh, vm.sh, check.sh).

# Out-of-tree build copies live here, one per kernel flavour (git-ignored).
DMC_BUILD=${DMC_BUILD:-$DMC_ROOT/.build}
# The tree that build-modules.sh copies; override only to test the harness
# itself with a stand-in module.
DMC_SRC=${DMC_SRC:-$DMC_ROOT}

# build_kernel FLAVOUR -- build (or reuse) a test kernel; prints its dir.
# build-kernel.sh locks the directory, so concurrent callers are safe.
build_kernel() {
	"$DMC_ROOT/scripts/build-kernel.sh" "$1"
}

# kdir_for FLAVOUR -- the kernel build tree to compile modules against:
# debug|release -> the cached test kernel (built on first use),
# stock -> Debian's headers for its current stock kernel.
kdir_for() {
	case "$1" in
	stock) stock_kdir ;;
	debug|release) build_kernel "$1" ;;
	*) die "unknown kernel flavour '$1' (debug, release or stock)" ;;
	esac
}

# kimage_for FLAVOUR -- the bootable kernel image of that flavour.
kimage_for() {
	local d
	case "$1" in
	stock)
		d=$(stock_image) || return 1
		echo "$d/boot/vmlinuz-$(stock_release)" ;;
	debug|release)
		d=$(build_kernel "$1") || return 1
		echo "$d/arch/x86/boot/bzImage" ;;
	*) die "unknown kernel flavour '$1' (debug, release or stock)" ;;
	esac
}

# sync_tree DEST -- mirror the working tree (tracked and untracked files,
# minus .git, .build and build products) into DEST with rsync. Excluded
# paths are neither copied nor deleted on the receiving side, so objects of
# an earlier build in DEST survive (incremental kbuild) while sources that
# were deleted or renamed disappear from the copy.
sync_tree() {
	ensure_pkgs rsync
	mkdir -p "$1"
	rsync -a --delete \
		--exclude=/.git --exclude=/.build \
		--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='*.a' --exclude='*.symvers' \
		--exclude=modules.order --exclude=.tmp_versions --exclude=.cache.mk \
		--exclude='*.dwo' --exclude='/.dmc-*' \
		"$DMC_SRC"/ "$1"/
}

# clean_objects DIR -- delete kbuild's products under DIR (forces a full
# rebuild, e.g. for W=1 whose warnings show only when a file is compiled).
clean_objects() {
	find "$1" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name modules.order -o -name Module.symvers \) -delete
}
