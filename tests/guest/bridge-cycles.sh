#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: 100 PCI remove/rescan cycles of a bound device (QEMU's
# virtio-rng, driver virtio-pci) with dmcore's real-event bridge watching.
# After each cycle the shadow must equal real sysfs (tools/dmc-oracle.sh);
# at the end the event log must hold one remove and one add per cycle for
# the device, and (checked by check.sh) no sanitizer report and no leak.
# Output is TAP. vm.sh has loaded dmcore.ko already.
#
# dmc-vm: --qemu-args "-device virtio-rng-pci,addr=04.0"
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

CYCLES=${DMC_CYCLES:-100}
RNG=0000:00:04.0
DP=/devices/pci0000:00/$RNG
PCI=/sys/bus/pci

EV=/tmp/cycles-events
# count ACTION -- records of ACTION for the device; the log must be large
# enough to hold them all (event_log_size is 4096 by default).
count() { timeout 1 cat "$DMC_DIR/events" >"$EV" 2>/dev/null; grep -c "ACTION=$1 DEVPATH=$DP " "$EV"; }

r0=$(count remove) a0=$(count add)
i=1
while [ $i -le "$CYCLES" ]; do
	if ! echo 1 >"$PCI/devices/$RNG/remove"; then
		notok "cycle $i: remove $RNG"
	elif [ -e "$PCI/devices/$RNG" ]; then
		notok "cycle $i: $RNG still in real sysfs after remove"
	elif ! echo 1 >"$PCI/rescan"; then
		notok "cycle $i: rescan"
	elif [ ! -e "$PCI/devices/$RNG/driver" ]; then
		notok "cycle $i: $RNG not back and bound after rescan"
	elif out=$(sh "$DMC_FILES/dmc-oracle.sh" pci); then
		ok "cycle $i: remove, rescan: the shadow equals real sysfs"
	else
		notok "cycle $i: remove, rescan: the shadow differs from real sysfs"
		echo "$out" | sed 's/^/# /'
	fi
	i=$((i + 1))
done

r1=$(count remove) a1=$(count add)
if [ $((r1 - r0)) -eq "$CYCLES" ]; then
	ok "$CYCLES remove events for $RNG"
else
	notok "$CYCLES remove events for $RNG (got $((r1 - r0)))"
fi
if [ $((a1 - a0)) -eq "$CYCLES" ]; then
	ok "$CYCLES add events for $RNG"
else
	notok "$CYCLES add events for $RNG (got $((a1 - a0)))"
fi
if sh "$DMC_FILES/dmc-oracle.sh"; then
	ok "after the cycles: pci and platform equal real sysfs"
else
	notok "after the cycles: pci and platform equal real sysfs"
fi
tap_end
