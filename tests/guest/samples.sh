#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script: the sample subsystem (samples/), a bus module and a driver
# module that use only dmcore's exported API. Loads them, checks that the
# driver bound the widgets (through dmcore's event log), then unloads
# them in both orders. Output is TAP ("ok N - what"), read by check.sh.
# vm.sh has loaded dmcore.ko already.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

# The events file blocks for new events (like udevadm monitor): take a
# snapshot of the log with a bounded read.
EV=/tmp/samples-events
snap() { timeout 1 cat "$DMC_DIR/events" >"$EV" 2>/dev/null; true; }
# events_has PATTERN -- the event log holds a record header matching it
events_has() { snap; grep -q -- "$1" "$EV"; }
# bound_now DEV -- more bind than unbind events for DEV
bound_now() {
	snap
	b=$(grep -c "ACTION=bind DEVPATH=/devices/sample-root/$1 " "$EV")
	u=$(grep -c "ACTION=unbind DEVPATH=/devices/sample-root/$1 " "$EV")
	[ "$b" -gt "$u" ]
}

for order in driver-first bus-first; do
	check "$order: insmod dmc_sample_bus" insmod "$DMC_MODDIR/dmc_sample_bus.ko"
	check "$order: bus 'sample' announced" events_has "ACTION=add DEVPATH=/bus/sample SUBSYSTEM=bus"
	check "$order: widget0 added with SAMPLE_KIND" events_has "SAMPLE_KIND=widget"
	check "$order: insmod dmc_sample_driver" insmod "$DMC_MODDIR/dmc_sample_driver.ko"
	check "$order: widget0 bound" bound_now widget0
	check "$order: widget1 bound" bound_now widget1
	if bound_now gadget0; then notok "$order: gadget0 unbound (no gadget driver)"; else ok "$order: gadget0 unbound (no gadget driver)"; fi
	# The driver's managed resources, oldest first: its state, its label,
	# the action that logs the unbind (devres.c, the device's devres file).
	W0=$DMC_DIR/devices/sample-root/widget0
	# Lines "SIZE NAME [MODULE]"; the action is named by its function.
	check "$order: widget0's devres lists state, label and action" \
		test "$(cut -d' ' -f2 "$W0/devres" | tr '\n' ' ')" = "devm_kmalloc devm_kmalloc widget_unbound "
	check "$order: the action's line names its module" \
		grep -q "^[0-9]* widget_unbound \[dmc_sample_driver\]$" "$W0/devres"
	check "$order: widget0's label is 10 bytes (widget0#N and its NUL)" \
		test "$(sed -n 2p "$W0/devres")" = "10 devm_kmalloc"
	check "$order: gadget0 (unbound) has no managed resources" \
		test -z "$(cat "$DMC_DIR/devices/sample-root/gadget0/devres")"
	# The driver's dev_groups while bound: serial and label; debug hidden
	# by is_visible(); nothing on the unbound gadget.
	check "$order: widget0's serial (a driver dev_groups file) is a number" \
		grep -qx "[0-9][0-9]*" "$W0/serial"
	check "$order: widget0's label is widget0#serial" \
		test "$(cat "$W0/label")" = "widget0#$(cat "$W0/serial")"
	check "$order: widget0's serial is read-only (0444)" \
		test "$(stat -c %a "$W0/serial")" = 444
	check "$order: widget0's debug is hidden by is_visible()" test ! -e "$W0/debug"
	check "$order: widget0's listing has serial and label, not debug" \
		sh -c "ls '$W0' | grep -qx serial && ls '$W0' | grep -qx label && ! ls '$W0' | grep -qx debug"
	check "$order: gadget0 (unbound) has no serial" \
		test ! -e "$DMC_DIR/devices/sample-root/gadget0/serial"

	if [ $order = driver-first ]; then
		check "$order: rmmod dmc_sample_driver" rmmod dmc_sample_driver
		if bound_now widget0; then notok "$order: widget0 unbound by driver removal"; else ok "$order: widget0 unbound by driver removal"; fi
		check "$order: widget0's resources released at the unbind" \
			test -z "$(cat "$W0/devres")"
		check "$order: widget0's dev_groups files gone at the unbind" \
			test ! -e "$W0/serial" -a ! -e "$W0/label"
		check "$order: the managed action logged the unbind" \
			sh -c "dmesg | grep -q 'dmc_sample_driver: unbound widget0#'"
		check "$order: rmmod dmc_sample_bus" rmmod dmc_sample_bus
	else
		check "$order: rmmod dmc_sample_bus (driver still loaded)" rmmod dmc_sample_bus
		if bound_now widget1; then notok "$order: widget1 unbound by bus removal"; else ok "$order: widget1 unbound by bus removal"; fi
		check "$order: rmmod dmc_sample_driver (its bus gone)" rmmod dmc_sample_driver
	fi
	check "$order: devices removed" events_has "ACTION=remove DEVPATH=/devices/sample-root/widget0 "
	check "$order: no sample device left in the tree" test ! -e "$DMC_DIR/devices/sample-root"
	check "$order: no sample bus left in the tree" test ! -e "$DMC_DIR/bus/sample"
done

# debug_attrs=1: is_visible() shows the debug file.
check "debug_attrs: insmod dmc_sample_bus" insmod "$DMC_MODDIR/dmc_sample_bus.ko"
check "debug_attrs: insmod dmc_sample_driver debug_attrs=1" \
	insmod "$DMC_MODDIR/dmc_sample_driver.ko" debug_attrs=1
check "debug_attrs: widget0's debug shows its name" \
	test "$(cat "$DMC_DIR/devices/sample-root/widget0/debug")" = widget0
check "debug_attrs: rmmod dmc_sample_driver" rmmod dmc_sample_driver
check "debug_attrs: widget0's debug gone with the binding" \
	test ! -e "$DMC_DIR/devices/sample-root/widget0/debug"
check "debug_attrs: rmmod dmc_sample_bus" rmmod dmc_sample_bus

# Loading the driver without its bus fails cleanly.
if insmod "$DMC_MODDIR/dmc_sample_driver.ko" 2>/dev/null; then
	notok "driver without bus: insmod refused"
	rmmod dmc_sample_driver
else
	ok "driver without bus: insmod refused"
fi

tap_end
