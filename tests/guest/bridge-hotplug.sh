#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: hotplug from the hypervisor, seen through dmcore's bridge.
# The guest is a q35 machine with a PCIe root port (rp1); the script asks
# the host (vm.sh --qmp, dmc_qmp) to send QMP device_add and device_del of
# a virtio-rng-pci device on that port. The real kernel's pciehp adds the
# device under the root port and virtio-pci binds it; the shadow must
# follow (tools/dmc-oracle.sh), with dmcore's add, bind, unbind and remove
# events. Output is TAP. vm.sh has loaded dmcore.ko already.
#
# The debug kernel's own pciehp reports a lock-order problem of its own
# (pci_rescan_remove_lock against ctrl->reset_lock in
# pciehp_configure_device) at the first hot-add, whatever dmcore does;
# check.sh allows that one report, and only when it names nothing of dmcore.
# Lockdep turns itself off after a report: this boot checks dmcore's locking
# only until the first hot-add (bridge.sh and bridge-cycles.sh run the
# same bridge paths with lockdep on throughout).
# dmc-allow-kernel-splat: pciehp_configure_device
#
# dmc-vm: --machine q35 --qmp --qemu-args "-device pcie-root-port,id=rp1,chassis=1,slot=1"
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

oracle() { sh "$DMC_FILES/dmc-oracle.sh" "$@"; }

ROUNDS=${DMC_HOTPLUG_ROUNDS:-3}
HP=0000:01:00.0
REAL=/sys/bus/pci/devices/$HP
EV=/tmp/hotplug-events
# count ACTION -- the event log's records of ACTION for the hotplugged device
count() {
	timeout 1 cat "$DMC_DIR/events" >"$EV" 2>/dev/null
	grep -c "ACTION=$1 DEVPATH=$dp " "$EV"
}

check "coldplug (q35): the shadow equals real sysfs" oracle
check "the root port's slot is empty" test ! -e "$REAL"
# The root port: the PCI device whose secondary bus will hold the new one.
# .../pci0000:00/<port>/pci_bus/0000:01
port=$(readlink -f /sys/bus/pci/devices/*/pci_bus/0000:01)
port=$(basename "$(dirname "$(dirname "$port")")")
check "root port found ($port)" test -d "/sys/bus/pci/devices/$port"
check "the root port's shadow is bound like the real one (pcieport)" \
	test "$(basename "$(readlink "$DMC_DIR/bus/pci/devices/$port/driver")")" = pcieport
dp=/devices/pci0000:00/$port/$HP

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	a0=$(count add) b0=$(count bind) u0=$(count unbind) d0=$(count remove)
	dmc_qmp '{"execute":"device_add","arguments":{"driver":"virtio-rng-pci","id":"hp1","bus":"rp1"}}'
	check "round $r: device_add: $HP appears in real sysfs" dmc_wait_path "$REAL" present 20
	check "round $r: virtio-pci binds it" dmc_wait_path "$REAL/driver" present 10
	check "round $r: added: the shadow equals real sysfs" oracle pci
	check "round $r: the shadow sits under the root port's shadow" \
		test -d "$DMC_DIR/devices/pci0000:00/$port/$HP"
	check "round $r: an add event" test "$(count add)" -gt "$a0"
	check "round $r: a bind event" test "$(count bind)" -gt "$b0"
	check "round $r: vendor 0x1af4 as in sysfs" \
		test "$(cat "$DMC_DIR/bus/pci/devices/$HP/vendor")" = "$(cat "$REAL/vendor")"
	dmc_qmp '{"execute":"device_del","arguments":{"id":"hp1"}}'
	check "round $r: device_del: $HP leaves real sysfs" dmc_wait_path "$REAL" absent 30
	check "round $r: removed: the shadow equals real sysfs" oracle pci
	check "round $r: an unbind event" test "$(count unbind)" -gt "$u0"
	check "round $r: a remove event" test "$(count remove)" -gt "$d0"
done
check "after the rounds: pci and platform equal real sysfs" oracle
tap_end
