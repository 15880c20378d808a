#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script (stock Debian kernel): the real-event bridge on a
# distribution kernel. Debian's e1000 module (a module-backed real PCI
# driver, put into the guest as $DMC_FILES/e1000.ko) binds QEMU's NIC
# before dmcore loads, so the coldplug imports a binding; then one PCI
# remove/rescan, one unbind/bind and the driver module's unload, each
# followed by the oracle (tools/dmc-oracle.sh). After the coldplug and
# after e1000's unload, dmctl (tools/dmctl) is compared with real sysfs:
# `dmctl tree --json` (checked by dmc-json-check, its tree walked) and
# `dmctl tree` must show every device of /sys/bus/pci and
# /sys/bus/platform at its /sys/devices path, on its bus, bound to the
# driver its real "driver" link names (or none). Needs $DMC_FILES/dmctl
# and dmc-json-check (scripts/build-guest-tools.sh; check.sh adds them).
# Output is TAP; check.sh's stock stage runs it through guest-tap.sh.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

oracle() { sh "$DMC_FILES/dmc-oracle.sh" "$@"; }
NIC=0000:00:03.0
PCI=/sys/bus/pci
# wait_for PATH -- up to 10 s for PATH to exist
wait_for() {
	i=0
	while [ ! -e "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ]
}

DM=$DMC_FILES/dmctl
JC=$DMC_FILES/dmc-json-check
T=/tmp/stock-dmctl
mkdir -p $T

# flat_tree JSON OUT -- one line "PATH BUS DRIVER" per device of the
# `dmctl tree --json` document JSON (null as "-"), its children walked
# breadth first through dmc-json-check's paths.
flat_tree() {
	: >"$2"
	: >$T/queue
	cnt=$("$JC" -f "$1" '.devices|length') || return 1
	i=0
	while [ "$i" -lt "$cnt" ]; do echo ".devices[$i]" >>$T/queue; i=$((i + 1)); done
	k=0
	while [ "$k" -lt "$(wc -l <$T/queue)" ]; do
		k=$((k + 1))
		p=$(sed -n "${k}p" $T/queue)
		"$JC" -f "$1" "$p.path" "$p.bus" "$p.driver" "$p.children|length" >$T/fields || return 1
		{ read -r fpath; read -r fbus; read -r fdrv; read -r fkids; } <$T/fields
		[ "$fbus" = null ] && fbus=-
		[ "$fdrv" = null ] && fdrv=-
		echo "$fpath $fbus $fdrv" >>"$2"
		i=0
		while [ "$i" -lt "$fkids" ]; do echo "$p.children[$i]" >>$T/queue; i=$((i + 1)); done
	done
}

# real_devices BUS -- one line "DEVPATH NAME DRIVER" per device of real
# /sys/bus/BUS (DEVPATH as under /sys, DRIVER "-" when unbound).
real_devices() {
	for d in /sys/bus/"$1"/devices/*; do
		[ -e "$d" ] || continue
		drv=-
		[ -L "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
		echo "$(readlink -f "$d" | sed 's|^/sys||') ${d##*/} $drv"
	done
}

# in_json BUS -- every real device of BUS is in the flat JSON tree at its
# path, on BUS, with its real driver; as many BUS devices in both.
in_json() {
	bad=0
	while read -r path name drv; do
		grep -qxF "$path $1 $drv" $T/flat || { echo "$name: want '$path $1 $drv', dmctl has '$(grep "^$path " $T/flat)'"; bad=1; }
	done <$T/real-"$1"
	want=$(wc -l <$T/real-"$1")
	got=$(awk -v b="$1" '$2 == b' $T/flat | wc -l)
	[ "$got" = "$want" ] || { echo "dmctl has $got devices on $1, /sys/bus/$1 $want"; bad=1; }
	[ $bad = 0 ]
}

# in_text BUS -- every real device of BUS has its line in `dmctl tree`.
in_text() {
	bad=0
	while read -r path name drv; do
		grep -qF -- "-- $name  bus=$1 class=" $T/tree &&
			grep -F -- "-- $name  bus=$1 class=" $T/tree | grep -qF " driver=$drv power=" ||
			{ echo "$name: no line '-- $name  bus=$1 ... driver=$drv' in dmctl tree"; bad=1; }
	done <$T/real-"$1"
	[ $bad = 0 ]
}

# dmctl_vs_sysfs WHEN -- dmctl tree and tree --json against real sysfs.
dmctl_vs_sysfs() {
	"$DM" tree >$T/tree 2>&1
	check "$1: dmctl tree exits 0" test $? = 0
	"$DM" tree --json >$T/tree.json 2>&1
	check "$1: dmctl tree --json exits 0, valid JSON" "$JC" -f $T/tree.json
	check "$1: dmctl tree --json: its tree walked with dmc-json-check" flat_tree $T/tree.json $T/flat
	check "$1: dmctl tree --json: every device once (its count)" sh -c \
		"[ \"\$(wc -l <$T/flat)\" = \"\$('$JC' -f $T/tree.json .count)\" ]"
	for b in pci platform; do
		real_devices $b >$T/real-$b
		nb=$(wc -l <$T/real-$b)
		nd=$(awk '$3 != "-"' $T/real-$b | wc -l)
		check "$1: dmctl tree --json: the $nb $b devices, at their paths, with their real drivers ($nd bound)" in_json $b
		check "$1: dmctl tree: the $nb $b devices with their real drivers" in_text $b
	done
	sed 's/^/# /' $T/tree
}

check "kernel is the stock one ($(uname -r))" test "$DMC_KERNEL" = stock
check "rmmod dmcore (to load it after e1000)" dmc_rmmod
check "insmod Debian's e1000.ko" insmod "$DMC_FILES/e1000.ko"
check "e1000 binds $NIC" wait_for "$PCI/devices/$NIC/driver"
check "insmod dmcore.ko: coldplug" insmod "$DMC_MODDIR/dmcore.ko"
check "coldplug: the shadow equals real sysfs" oracle
check "coldplug: $NIC bound to e1000 in dmcore" \
	test "$(basename "$(readlink "$DMC_DIR/bus/pci/devices/$NIC/driver")")" = e1000
check "dmctl and dmc-json-check are in the guest" test -x "$DM" -a -x "$JC"
dmctl_vs_sysfs coldplug
check "coldplug: dmctl tree shows $NIC bound to e1000" \
	grep -qE -- "-- $NIC  bus=pci class=[^ ]* driver=e1000 " $T/tree
check "remove $NIC" sh -c "echo 1 >$PCI/devices/$NIC/remove"
check "removed: the shadow equals real sysfs" oracle pci
check "rescan" sh -c "echo 1 >$PCI/rescan"
check "rescan: e1000 binds $NIC again" wait_for "$PCI/devices/$NIC/driver"
check "rescan: the shadow equals real sysfs" oracle pci
check "unbind $NIC from e1000" sh -c "echo $NIC >$PCI/drivers/e1000/unbind"
check "unbound: the shadow equals real sysfs" oracle pci
check "bind $NIC to e1000" sh -c "echo $NIC >$PCI/drivers/e1000/bind"
check "bound: the shadow equals real sysfs" oracle pci
check "rmmod e1000 (the real driver goes)" rmmod e1000
check "driver gone: the shadow equals real sysfs" oracle
dmctl_vs_sysfs "e1000 gone"
check "e1000 gone: dmctl tree shows $NIC unbound" \
	grep -qE -- "-- $NIC  bus=pci class=[^ ]* driver=- " $T/tree
tap_end
