#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# TAP test of tests/modules/dmc_test_platform.ko on a guest kernel:
#   scripts/vm.sh --kernel debug --script tests/modules/guest/platform.sh
# Real platform devices appear, bind, unbind through sysfs, refuse bad input
# with exact errnos, and go away at rmmod; then kmemleak.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

D=$DMC_DEBUGFS/dmc_test_platform
P=/sys/bus/platform
# expect ERRTEXT FILE VALUE: one write(2) of VALUE fails with that
# strerror text (dd reports it; the shell's printf does not)
expect() {
	out=$(printf '%s' "$3" | dd of="$D/$2" bs=64 2>&1)
	case "$out" in
	*"error"*"$1"*) ok "'$3' > $2: $1" ;;
	*) notok "'$3' > $2: want $1, got '${out:-success}'" ;;
	esac
}

[ -w "$DMC_KMEMLEAK" ] && dmc_kmemleak_clear
check "insmod" insmod "$DMC_MODDIR/dmc_test_platform.ko"
before=$(cat $D/state)
echo 1 >$D/add_device
echo "2 1" >$D/add_device
echo 3 >$D/add_device
check "device 1 on the platform bus" [ -e $P/devices/dmc-test-plat.1 ]
check "device 2 is a child of 1" [ -e /sys/devices/platform/dmc-test-plat.1/dmc-test-plat.2 ]
check "no driver yet" [ ! -e $P/devices/dmc-test-plat.1/driver ]
echo 1 >$D/add_driver
check "driver registered" [ -d $P/drivers/dmc-test-plat ]
for i in 1 2 3; do
	check "dmc-test-plat.$i bound" [ "$(basename "$(readlink $P/devices/dmc-test-plat.$i/driver)")" = dmc-test-plat ]
done
echo dmc-test-plat.3 >$P/drivers/dmc-test-plat/unbind
check "sysfs unbind" [ ! -e $P/devices/dmc-test-plat.3/driver ]
echo dmc-test-plat.3 >$P/drivers/dmc-test-plat/bind
check "sysfs bind" [ -e $P/devices/dmc-test-plat.3/driver ]
before=$(cat $D/state)
expect "Invalid argument" add_device "x"
expect "Invalid argument" add_device "-1"
expect "Invalid argument" add_device "+4"
expect "Invalid argument" add_device "4 "
expect "Invalid argument" add_device "4  1"
expect "Invalid argument" add_device "4 4"
expect "Invalid argument" add_device "99999999999"
expect "File exists" add_device "1"
expect "No such file or directory" add_device "4 9"
expect "No such file or directory" del_device "9"
expect "Device or resource busy" del_device "1"
expect "Invalid argument" del_device "1 2"
expect "Invalid argument" add_driver "2"
expect "File exists" add_driver "1"
check "refused writes changed nothing" [ "$(cat $D/state)" = "$before" ]
cat $D/state | sed 's/^/# /'
echo 1 >$D/del_driver
check "del_driver unbinds" [ ! -e $P/devices/dmc-test-plat.1/driver ]
expect "No such file or directory" del_driver "1"
echo 3 >$D/del_device
check "del_device" [ ! -e $P/devices/dmc-test-plat.3 ]
echo 1 >$D/add_driver
echo 4 >$D/add_device
check "a device added after the driver binds" [ -e $P/devices/dmc-test-plat.4/driver ]
# Leave 1, 2 (child) and 4 and the driver for the unload.
check "rmmod with devices and driver left" rmmod dmc_test_platform
check "devices gone" [ ! -e $P/devices/dmc-test-plat.1 ] && [ ! -e $P/devices/dmc-test-plat.2 ]
check "driver gone" [ ! -e $P/drivers/dmc-test-plat ]
check "insmod again" insmod "$DMC_MODDIR/dmc_test_platform.ko"
echo 7 >$D/add_device
check "rmmod again" rmmod dmc_test_platform
echo "1..$n"
if [ -w "$DMC_KMEMLEAK" ]; then
	dmc_kmemleak_report
fi
dmesg | grep -E 'dmc-test-plat|KASAN|BUG|WARNING' | tail -n 20 | sed 's/^/# /'
[ $failed -eq 0 ]
