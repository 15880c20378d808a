#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# PCIe native hotplug driven from the guest through vm.sh --qmp: device_add
# and device_del on a root port, several times, with the latency of each
# step. Run it with
#   scripts/vm.sh --kernel debug --machine q35 --qmp \
#       --qemu-args "-device pcie-root-port,id=rp1,chassis=1,slot=1" \
#       --script tests/modules/guest/qmp-hotplug.sh
# Variables: HP_ROUNDS (default 3), HP_DRIVERS (default "e1000e
# virtio-rng-pci"), HP_FAST=1 also powers the slot off from the guest after
# device_del instead of waiting out pciehp's 5 s attention-button delay.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

dev=/sys/bus/pci/devices/0000:01:00.0
rounds=${HP_ROUNDS:-3}
drivers=${HP_DRIVERS:-e1000e virtio-rng-pci}

if [ -e $dev ]; then
	notok "slot of rp1 empty before the test"
fi
for drv in $drivers; do
	modes=slow
	[ "${HP_FAST:-0}" = 1 ] && modes="slow fast"
	for mode in $modes; do
		r=0
		while [ $r -lt "$rounds" ]; do
			r=$((r + 1))
			dmc_qmp "{\"execute\":\"device_add\",\"arguments\":{\"driver\":\"$drv\",\"id\":\"hp1\",\"bus\":\"rp1\"}}"
			if dmc_wait_path $dev present 20; then
				ok "$drv round $r ($mode): 0000:01:00.0 appeared after ${DMC_WAIT_MS} ms"
			else
				notok "$drv round $r ($mode): 0000:01:00.0 did not appear within 20 s"
				continue
			fi
			# The driver binds asynchronously to the add.
			dmc_wait_path $dev/driver present 3 &&
				echo "# $drv: bound to $(basename "$(readlink $dev/driver)") after ${DMC_WAIT_MS} ms" ||
				echo "# $drv: no driver bound"
			dmc_qmp '{"execute":"device_del","arguments":{"id":"hp1"}}'
			if [ "$mode" = fast ]; then
				# pciehp got the attention button; turn the slot off now.
				dmc_wait_path /sys/bus/pci/slots/1/power present 2
				sleep 0.5
				echo 0 >/sys/bus/pci/slots/1/power ||
					echo "# writing 0 to slots/1/power failed"
			fi
			if dmc_wait_path $dev absent 30; then
				ok "$drv round $r ($mode): 0000:01:00.0 removed after ${DMC_WAIT_MS} ms"
			else
				notok "$drv round $r ($mode): 0000:01:00.0 still there after 30 s"
			fi
		done
	done
done
echo "1..$n"
dmesg | grep -iE 'pciehp|0000:01:00' | tail -n 40 | sed 's/^/# /'
[ $failed -eq 0 ]
