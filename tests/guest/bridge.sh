#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the real-event bridge (bridge.c). The running kernel's PCI
# and platform buses, mirrored into dmcore, are compared with real sysfs
# (tools/dmc-oracle.sh) after every real event: coldplug at load, PCI
# remove and rescan, a real driver's unbind and bind, real platform devices
# and a real platform driver (tests/modules/dmc_test_platform.ko), devices
# coming and going while dmcore loads, and the "bridge" parameter.
# Output is TAP. vm.sh has loaded dmcore.ko already.
#
# dmc-vm: --qemu-args "-device virtio-rng-pci,addr=04.0"
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

ORACLE=$DMC_FILES/dmc-oracle.sh
oracle() { sh "$ORACLE" "$@"; }
RNG=0000:00:04.0	# virtio-rng-pci, bound to virtio-pci
NIC=0000:00:03.0	# QEMU's e1000: no driver in the debug kernel
PCI=/sys/bus/pci
PLAT=/sys/kernel/debug/dmc_test_platform

EV=/tmp/bridge-events
snap() { timeout 1 cat "$DMC_DIR/events" >"$EV" 2>/dev/null; true; }
# count ACTION DEVPATH -- how many such records the event log holds
count() { snap; grep -c "ACTION=$1 DEVPATH=$2 " "$EV"; }
# grew ACTION DEVPATH BEFORE -- the log holds more such records than BEFORE
grew() { [ "$(count "$1" "$2")" -gt "$3" ]; }
# same_file REAL SHADOW -- two files hold the same text
same_file() { [ "$(cat "$1")" = "$(cat "$2")" ]; }

# ---- coldplug ----------------------------------------------------------------
check "coldplug: the shadow equals real sysfs" oracle
check "coldplug: shadow bus pci exists" test -d "$DMC_DIR/bus/pci/devices"
check "coldplug: shadow bus platform exists" test -d "$DMC_DIR/bus/platform/devices"
check "coldplug: glue device pci0000:00 at the top" test -d "$DMC_DIR/devices/pci0000:00"
check "coldplug: glue device platform at the top" test -d "$DMC_DIR/devices/platform"
check "coldplug: $RNG's shadow is under pci0000:00" \
	test -d "$DMC_DIR/devices/pci0000:00/$RNG"
check "coldplug: an add event for $RNG" \
	grew add "/devices/pci0000:00/$RNG" 0
check "coldplug: a bind event for $RNG to virtio-pci" \
	grep -q "DRIVER=virtio-pci" "$EV"

for rd in "$PCI"/devices/*; do
	name=${rd##*/}
	sd=$DMC_DIR/bus/pci/devices/$name
	for f in vendor device class; do
		check "pci attrs: $name/$f as in sysfs" same_file "$rd/$f" "$sd/$f"
	done
done
check "attrs: sysfs_path of $RNG" \
	test "$(cat "$DMC_DIR/bus/pci/devices/$RNG/sysfs_path")" = \
	"$(readlink -f "$PCI/devices/$RNG")"
check "shadow driver virtio-pci has no bind file (suppress_bind_attrs)" \
	test ! -e "$DMC_DIR/bus/pci/drivers/virtio-pci/bind"
check "shadow driver virtio-pci has no unbind file" \
	test ! -e "$DMC_DIR/bus/pci/drivers/virtio-pci/unbind"
check "shadow driver virtio-pci links its device" \
	test -L "$DMC_DIR/bus/pci/drivers/virtio-pci/$RNG"
check "control: settle with an argument is refused" \
	sh -c "! echo 'settle now' >$DMC_DIR/control"

# ---- PCI remove and rescan -----------------------------------------------------
for dev in $RNG $NIC; do
	dp=/devices/pci0000:00/$dev
	r0=$(count remove "$dp") a0=$(count add "$dp") u0=$(count unbind "$dp")
	check "remove $dev: write 1 to its remove file" sh -c "echo 1 >$PCI/devices/$dev/remove"
	check "remove $dev: gone from real sysfs" test ! -e "$PCI/devices/$dev"
	check "remove $dev: the shadow equals real sysfs" oracle
	check "remove $dev: gone from dmcore" test ! -e "$DMC_DIR/bus/pci/devices/$dev"
	check "remove $dev: a remove event" grew remove "$dp" "$r0"
	if [ $dev = $RNG ]; then
		check "remove $dev: an unbind event first" grew unbind "$dp" "$u0"
	fi
	check "rescan after $dev: write 1 to /sys/bus/pci/rescan" sh -c "echo 1 >$PCI/rescan"
	check "rescan: $dev is back in real sysfs" test -e "$PCI/devices/$dev"
	check "rescan: the shadow equals real sysfs" oracle
	check "rescan: an add event for $dev" grew add "$dp" "$a0"
done

# ---- a real driver's unbind and bind --------------------------------------------
dp=/devices/pci0000:00/$RNG
u0=$(count unbind "$dp") b0=$(count bind "$dp")
check "unbind: $RNG from the real virtio-pci" \
	sh -c "echo $RNG >$PCI/drivers/virtio-pci/unbind"
check "unbind: no driver in real sysfs" test ! -e "$PCI/devices/$RNG/driver"
check "unbind: the shadow equals real sysfs" oracle
check "unbind: no driver link in dmcore" test ! -e "$DMC_DIR/bus/pci/devices/$RNG/driver"
check "unbind: an unbind event" grew unbind "$dp" "$u0"
check "unbind: the shadow driver stays" test -d "$DMC_DIR/bus/pci/drivers/virtio-pci"
check "bind: $RNG to the real virtio-pci" \
	sh -c "echo $RNG >$PCI/drivers/virtio-pci/bind"
check "bind: the shadow equals real sysfs" oracle
check "bind: a bind event" grew bind "$dp" "$b0"
check "bind: dmcore's driver link names virtio-pci" \
	test "$(basename "$(readlink "$DMC_DIR/bus/pci/devices/$RNG/driver")")" = virtio-pci

# ---- real platform devices and a real platform driver -------------------------------
check "platform: insmod dmc_test_platform" insmod "$DMC_MODDIR/dmc_test_platform.ko"
pd=/devices/platform/dmc-test-plat.1
check "platform: add device 1" sh -c "echo 1 >$PLAT/add_device"
check "platform: add device 2" sh -c "echo 2 >$PLAT/add_device"
check "platform: add device 3, a child of device 1" sh -c "echo '3 1' >$PLAT/add_device"
check "platform: device 3's shadow sits under device 1's" \
	test -d "$DMC_DIR/devices/platform/dmc-test-plat.1/dmc-test-plat.3"
check "platform: devices, unbound: the shadow equals real sysfs" oracle platform
check "platform: an add event for dmc-test-plat.1" grew add "$pd" 0
check "platform: register the real driver" sh -c "echo 1 >$PLAT/add_driver"
check "platform: the real driver bound device 1" \
	test -e /sys/bus/platform/devices/dmc-test-plat.1/driver
check "platform: bound: the shadow equals real sysfs" oracle platform
check "platform: a bind event for dmc-test-plat.1" grew bind "$pd" 0
check "platform: a shadow driver dmc-test-plat" \
	test -d "$DMC_DIR/bus/platform/drivers/dmc-test-plat"
u0=$(count unbind "$pd")
check "platform: unbind device 1 through real sysfs" \
	sh -c "echo dmc-test-plat.1 >/sys/bus/platform/drivers/dmc-test-plat/unbind"
check "platform: unbound: the shadow equals real sysfs" oracle platform
check "platform: an unbind event" grew unbind "$pd" "$u0"
check "platform: bind device 1 again" \
	sh -c "echo dmc-test-plat.1 >/sys/bus/platform/drivers/dmc-test-plat/bind"
check "platform: rebound: the shadow equals real sysfs" oracle platform
check "platform: del device 2 (bound)" sh -c "echo 2 >$PLAT/del_device"
check "platform: device 2 removed: the shadow equals real sysfs" oracle platform
check "platform: no shadow of device 2" \
	test ! -e "$DMC_DIR/bus/platform/devices/dmc-test-plat.2"
check "platform: unregister the real driver" sh -c "echo 1 >$PLAT/del_driver"
check "platform: driver gone: the shadow equals real sysfs" oracle platform
check "platform: device 1 unbound in dmcore too" \
	test ! -e "$DMC_DIR/bus/platform/devices/dmc-test-plat.1/driver"
# A real parent removed before its child: the child's shadow goes later,
# and its removal must not touch the parent's freed node.
check "platform: add device 10" sh -c "echo 10 >$PLAT/add_device"
check "platform: add device 11, a child of device 10" sh -c "echo '11 10' >$PLAT/add_device"
check "platform: device 11's shadow under device 10's" \
	sh -c "echo settle >$DMC_DIR/control && test -d $DMC_DIR/devices/platform/dmc-test-plat.10/dmc-test-plat.11"
check "platform: del device 10 before its child 11" sh -c "echo '10 force' >$PLAT/del_device"
# dmcore deletes a device's children with it: 11's shadow went with 10's
# (real sysfs keeps the orphan until its own removal).
check "platform: parent gone: its shadow and its child's are gone" \
	sh -c "echo settle >$DMC_DIR/control && test ! -e $DMC_DIR/devices/platform/dmc-test-plat.10 -a ! -e $DMC_DIR/bus/platform/devices/dmc-test-plat.11"
check "platform: del device 11" sh -c "echo 11 >$PLAT/del_device"
check "platform: child gone: the shadow equals real sysfs" oracle platform
check "platform: no shadow of device 11" \
	test ! -e "$DMC_DIR/bus/platform/devices/dmc-test-plat.11"

# Control never changes what the real kernel decides.
CTL=$DMC_DIR/control
# ctlerr COMMAND -- OK or the error text of COMMAND on the control file
ctlerr() {
	printf '%s\n' "$1" >/tmp/bridge-cmd
	if o=$(dd if=/tmp/bridge-cmd of="$CTL" bs=4096 count=1 conv=notrunc 2>&1); then
		echo OK
	else
		printf '%s\n' "$o" | sed -n 's/^dd: error writing.*: //p'
	fi
}
EPERM="Operation not permitted"
check "shadows: control bus cb" test "$(ctlerr "bus add cb")" = OK
check "shadows: control device cz" test "$(ctlerr "device add cz bus=cb")" = OK
check "shadows: no control device under glue platform (EPERM)" \
	test "$(ctlerr "device add cx parent=/devices/platform")" = "$EPERM"
check "shadows: no control device under $RNG's shadow (EPERM)" \
	test "$(ctlerr "device add cy parent=/devices/pci0000:00/$RNG")" = "$EPERM"
check "shadows: no link from $RNG's shadow (EPERM)" \
	test "$(ctlerr "link add /devices/pci0000:00/$RNG /devices/cz")" = "$EPERM"
check "shadows: no link to $RNG's shadow (EPERM)" \
	test "$(ctlerr "link add /devices/cz /devices/pci0000:00/$RNG")" = "$EPERM"
check "shadows: no control device at /devices/pci0000:00 (EPERM)" \
	test "$(ctlerr "device add pci0000:00 bus=cb")" = "$EPERM"
check "shadows: the refusals are logged" \
	sh -c "dmesg | grep -q 'is a shadow of the bridge'"
check "shadows: del cz" test "$(ctlerr "device del /devices/cz")" = OK
check "shadows: del cb" test "$(ctlerr "bus del cb")" = OK
check "shadows: the shadow equals real sysfs" oracle

check "platform: rmmod dmc_test_platform (devices 1 and 3 still there)" rmmod dmc_test_platform
check "platform: module gone: the shadow equals real sysfs" oracle
check "platform: no shadow of device 1" \
	test ! -e "$DMC_DIR/bus/platform/devices/dmc-test-plat.1"
check "platform: no shadow of device 3" \
	test ! -e "$DMC_DIR/bus/platform/devices/dmc-test-plat.3"

# ---- coldplug while real devices come and go -------------------------------------
check "churn: insmod dmc_test_platform" insmod "$DMC_MODDIR/dmc_test_platform.ko"
check "churn: register the real driver" sh -c "echo 1 >$PLAT/add_driver"
# Three rounds: the coldplug walk racing removals is a narrow window (a
# device the walk holds, removed before the walk reaches it, came back as a
# shadow that was never deleted).
for round in 1 2 3; do
	check "churn $round: rmmod dmcore" dmc_rmmod
	rm -f /tmp/churn.stop
	(
		i=0
		while [ ! -e /tmp/churn.stop ]; do
			i=$((i % 20 + 100))
			echo $i >$PLAT/add_device 2>/dev/null
			echo $((i + 1)) >$PLAT/add_device 2>/dev/null
			echo $i >$PLAT/del_device 2>/dev/null
			i=$((i + 1))
		done
	) &
	churn=$!
	sleep 1
	check "churn $round: insmod dmcore while platform devices come and go" \
		insmod "$DMC_MODDIR/dmcore.ko"
	sleep 2
	touch /tmp/churn.stop
	wait $churn
	check "churn $round: after the churn: the shadow equals real sysfs" oracle
done
check "churn: rmmod dmc_test_platform" rmmod dmc_test_platform
check "churn: after the module: the shadow equals real sysfs" oracle

# ---- the "bridge" parameter ------------------------------------------------------
check "param: rmmod dmcore with shadows present" dmc_rmmod
check "param: bridge=usb is refused" sh -c "! insmod $DMC_MODDIR/dmcore.ko bridge=usb"
check "param: the refusal names the bus" sh -c "dmesg | grep -q \"unknown bus 'usb'\""
check "param: nothing left after the refusal" test ! -e "$DMC_DIR"
check "param: bridge= (off) loads" insmod "$DMC_MODDIR/dmcore.ko" bridge=
check "param: off: no shadow bus pci" test ! -e "$DMC_DIR/bus/pci"
check "param: off: no shadow bus platform" test ! -e "$DMC_DIR/bus/platform"
check "param: off: settle is harmless" sh -c "echo settle >$DMC_DIR/control"
check "param: rmmod" dmc_rmmod
check "param: bridge=pci loads" insmod "$DMC_MODDIR/dmcore.ko" bridge=pci
check "param: pci only: the shadow equals real sysfs" oracle pci
check "param: pci only: no shadow bus platform" test ! -e "$DMC_DIR/bus/platform"
check "param: rmmod" dmc_rmmod
check "param: default again" insmod "$DMC_MODDIR/dmcore.ko"
check "param: default: the shadow equals real sysfs" oracle

tap_end
