#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script (stock Debian kernel): the real-event bridge on a
# distribution kernel. Debian's e1000 module (a module-backed real PCI
# driver, put into the guest as $DMC_FILES/e1000.ko) binds QEMU's NIC
# before dmcore loads, so the coldplug imports a binding; then one PCI
# remove/rescan, one unbind/bind and the driver module's unload, each
# followed by the oracle (tools/dmc-oracle.sh). Output is TAP; check.sh's
# stock stage runs it through guest-tap.sh.
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

check "kernel is the stock one ($(uname -r))" test "$DMC_KERNEL" = stock
check "rmmod dmcore (to load it after e1000)" dmc_rmmod
check "insmod Debian's e1000.ko" insmod "$DMC_FILES/e1000.ko"
check "e1000 binds $NIC" wait_for "$PCI/devices/$NIC/driver"
check "insmod dmcore.ko: coldplug" insmod "$DMC_MODDIR/dmcore.ko"
check "coldplug: the shadow equals real sysfs" oracle
check "coldplug: $NIC bound to e1000 in dmcore" \
	test "$(basename "$(readlink "$DMC_DIR/bus/pci/devices/$NIC/driver")")" = e1000
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
tap_end
