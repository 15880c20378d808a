#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest script of `make demo`: shows dmcore at work, for a person to read.
# vm.sh has loaded dmcore.ko before this runs.
#
# The demo is a list of scenarios, each a function named scene_<name>,
# run in the order of DMC_DEMO_SCENES (vm.sh --env DMC_DEMO_SCENES="...";
# default: all of DEMO_SCENES below). To add one: write scene_<name>
# (start it with scene_heading and a few dmc_say lines saying what the reader
# is about to see) and add <name> to DEMO_SCENES, before "unload". Use
# scene_heading for the title: scenes are numbered in the order they run.
# "build" makes the bus soc, class tty, drivers clkdrv and uartdrv and
# devices soc0, clk0 and uart0 through the control file; views, bind,
# power and attr use them, and teardown deletes them, so those scenes
# need build to have run first.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

DEMO_SCENES="load build views bind power attr events teardown live unload"

C=$DMC_DIR/control
D=$DMC_DIR/devices
SOC=$DMC_DIR/bus/soc

# ctl COMMAND -- show a control command, then write it (one line, one write).
ctl() {
	echo "# echo '$1' > control"
	echo "$1" >"$C" || { echo "    (refused)"; return 1; }
}

# dev_path NAME -- where device NAME of this demo lives under devices/.
dev_path() {
	case "$1" in
	soc0) echo "$D/soc0" ;;
	*) echo "$D/soc0/$1" ;;
	esac
}

# binding NAME... -- one line per device: which driver it is bound to.
binding() {
	for d in "$@"; do
		p=$(dev_path "$d")
		if [ ! -d "$p" ]; then
			printf '    %-6s (not in the tree)\n' "$d"
		elif [ -L "$p/driver" ]; then
			printf '    %-6s bound to %s\n' "$d" "$(basename "$(readlink "$p/driver")")"
		else
			printf '    %-6s unbound\n' "$d"
		fi
	done
}

# power_states NAME... -- one line per device: its power/state.
power_states() {
	for d in "$@"; do
		printf '    %-6s %s\n' "$d" "$(cat "$(dev_path "$d")/power/state" 2>&1)"
	done
}

# wr VALUE FILE -- show and do "echo VALUE > FILE", FILE relative to $DMC_DIR.
wr() {
	echo "# echo $1 > $2"
	echo "$1" >"$DMC_DIR/$2"
}

# events_raw -- the event log so far. The file blocks for new events, so
# the read is bounded; the subshell's stderr is dropped so that the shell's
# "Terminated" when timeout ends cat does not show.
events_raw() {
	(exec 2>/dev/null; timeout 2 cat "$DMC_DIR/events"; :)
}

# show_events SEQ -- the events after number SEQ, one line each.
show_events() {
	out=$(events_raw | awk -v after="$1" 'BEGIN { RS = "" } {
		gsub(/\n/, " "); n = $1; sub(/^SEQNUM=/, "", n)
		if (n + 0 > after + 0) print "    " $0 }')
	if [ -n "$out" ]; then
		printf '%s\n' "$out"
	else
		echo "    (no events)"
	fi
}

# last_seqnum -- the number of the last event logged.
last_seqnum() { sed -n 's/^last_seqnum //p' "$DMC_DIR/stats"; }

# resolved DIR -- where each link in DIR leads (relative to $DMC_DIR).
resolved() {
	for l in "$1"/*; do
		[ -L "$l" ] || continue
		echo "  ${l#"$DMC_DIR"/} is $(cd -P "$l" && pwd | sed "s|^$DMC_DIR/||")"
	done
}

# settle -- let deferred and asynchronous probes run.
settle() { sleep 1; }

scene_no=0
scene_heading() {
	scene_no=$((scene_no + 1))
	dmc_heading "$scene_no. $*"
}

scene_load() {
	scene_heading "Loading dmcore"
	dmc_say "dmcore.ko reimplements the kernel's device model (kobjects, ksets," \
		"events) as a module. It was just loaded into Debian's own kernel:"
	echo
	echo "kernel: $(uname -r)"
	grep '^dmcore ' /proc/modules | awk '{ print "module: " $1 ", " $2 " bytes, state " $5 }'
	echo
	dmc_say "What it said while loading (kernel log):"
	dmesg | grep 'dmcore:' | grep -v 'taints kernel\|verification failed' | sed 's/^/    /'
}

scene_build() {
	scene_heading "Building a small system through $DMC_DIR/control"
	dmc_say "Each line written to the control file makes one object, as a" \
		"platform's code would: a bus 'soc' (how devices meet drivers), a" \
		"class 'tty' (what a device is for), drivers on the bus, devices."
	dmc_say "uartdrv only probes once device clk0 is bound to a driver (it needs" \
		"the clock); it is registered first, with uart0, so its probe defers."
	dmc_say "(Paths from here on are relative to $DMC_DIR.)"
	echo
	BUILD_SEQ=$(last_seqnum)
	ctl "bus add soc" || return 1
	ctl "class add tty" || return 1
	ctl "driver add uartdrv bus=soc match=uart* probe=defer:clk0" || return 1
	ctl "device add soc0" || return 1
	ctl "device add clk0 bus=soc parent=/devices/soc0" || return 1
	ctl "device add uart0 bus=soc parent=/devices/soc0 class=tty attr=baud=115200" || return 1
	settle
	echo
	dmc_say "uartdrv matched uart0 but its probe deferred (clk0 has no driver yet):"
	binding clk0 uart0
	echo
	dmc_say "Now the clock driver arrives. It binds clk0, which retries the" \
		"deferred probe of uart0:"
	ctl "driver add clkdrv bus=soc match=clk*" || return 1
	settle
	binding clk0 uart0
}

scene_views() {
	scene_heading "One model, three views"
	dmc_say "devices/ is the device hierarchy (parent and children): uart0 and" \
		"clk0 sit under soc0. Each device links to its driver and subsystem." \
		"(devices/ also holds the shadows of the running kernel's PCI and" \
		"platform devices, pci0000:00/ and platform/: see the live scene.)"
	echo
	dmc_tree "$D/soc0" | sed 's/^/    /'
	echo
	dmc_say "bus/soc/ is the same devices seen from their bus: the devices on it" \
		"and its drivers, each driver listing the devices it is bound to."
	resolved "$SOC/devices"
	echo
	dmc_tree "$SOC" | sed 's/^/    /'
	echo
	dmc_say "class/tty/ groups devices by what they do, whatever their bus:"
	resolved "$DMC_DIR/class/tty"
	echo
	dmc_tree "$DMC_DIR/class/tty" | sed 's/^/    /'
}

scene_bind() {
	scene_heading "Unbinding and binding by hand (bus/soc/drivers/uartdrv/)"
	dmc_say "Writing a device's name to a driver's unbind file detaches it" \
		"(the driver's remove runs); bind attaches it again (probe runs)."
	echo
	wr uart0 bus/soc/drivers/uartdrv/unbind || return 1
	binding uart0
	wr uart0 bus/soc/drivers/uartdrv/bind || return 1
	binding uart0
}

scene_power() {
	scene_heading "System suspend and resume"
	dmc_say "'suspend' suspends every device, children before their parents;" \
		"'resume' wakes them in the reverse order. power/state of each:"
	echo
	power_states soc0 clk0 uart0
	ctl "suspend" || return 1
	power_states soc0 clk0 uart0
	ctl "resume" || return 1
	power_states soc0 clk0 uart0
}

scene_attr() {
	scene_heading "A device attribute (devices/soc0/uart0/baud)"
	dmc_say "Attributes are a device's small files, read and written like sysfs:"
	echo
	echo "# cat devices/soc0/uart0/baud"
	cat "$D/soc0/uart0/baud"
	wr 9600 devices/soc0/uart0/baud || return 1
	echo "# cat devices/soc0/uart0/baud"
	cat "$D/soc0/uart0/baud"
}

scene_events() {
	scene_heading "The event log ($DMC_DIR/events)"
	dmc_say "Every add, remove, bind and unbind in the model is logged as an" \
		"event, as the kernel sends uevents to udev. The file waits for new" \
		"events like 'udevadm monitor'; here we read for 2 seconds." \
		"soc0 has neither bus nor class, so, as in Linux, it sends none." \
		"SUBSYSTEM is the device's bus (or class), or bus/drivers/class." \
		"The events of the system built above:"
	echo
	show_events "${BUILD_SEQ:-0}"
}

scene_teardown() {
	scene_heading "Taking the system down through control"
	dmc_say "Devices go first (their drivers unbind), then drivers, class, bus:"
	echo
	seq=$(last_seqnum)
	ctl "device del /devices/soc0/uart0"
	ctl "device del /devices/soc0/clk0"
	ctl "device del /devices/soc0"
	ctl "driver del uartdrv"
	ctl "driver del clkdrv"
	ctl "class del tty"
	ctl "bus del soc"
	sleep 1
	echo
	dmc_say "What is left: the roots devices/ (with devices/virtual/), bus/" \
		"and class/, and the bridge's shadows of the real kernel (pci, platform):"
	for v in devices bus class; do
		echo "$v/: $(ls "$DMC_DIR/$v" | tr '\n' ' ')"
	done | sed "s/^/    /"
	echo
	dmc_say "The events of the teardown (unbind before remove, children first):"
	show_events "$seq"
}

# real_drv DIR -- the driver a device directory's "driver" link names, or "-".
real_drv() {
	if [ -L "$1/driver" ]; then basename "$(readlink "$1/driver")"; else echo -; fi
}

# side_by_side BUS -- each device of BUS: its driver in real sysfs and in dmcore.
side_by_side() {
	printf '    %-22s %-14s %s\n' "device ($1)" "real driver" "dmcore driver"
	for d in /sys/bus/"$1"/devices/*; do
		n=${d##*/}
		printf '    %-22s %-14s %s\n' "$n" "$(real_drv "$d")" \
			"$(real_drv "$DMC_DIR/bus/$1/devices/$n")"
	done
}

# real_do COMMAND -- run a command on the REAL kernel, then show what dmcore
# saw: its events since, once the bridge has settled.
real_do() {
	seq=$(last_seqnum)
	echo "# $1"
	sh -c "$1" || return 1
	echo settle >"$DMC_DIR/control"
	dmc_say "dmcore's events:"
	show_events "$seq"
}

scene_live() {
	scene_heading "The real kernel, live: PCI and platform devices through the bridge"
	dmc_say "bridge.c subscribes to the running kernel's PCI and platform buses" \
		"(bus notifiers) and keeps a shadow of each in dmcore: the same device" \
		"names, the same parent paths as under /sys/devices, the same bindings."
	echo
	side_by_side pci
	echo
	side_by_side platform
	echo
	nic=$(ls "$DMC_DIR/bus/pci/devices" | tail -n 1)
	[ -e "$DMC_DIR/bus/pci/devices/0000:00:03.0" ] && nic=0000:00:03.0
	dmc_say "A shadow PCI device carries real facts as attributes (devices/pci0000:00/$nic):"
	dmc_tree "$D/pci0000:00/$nic" | sed 's/^/    /'
	echo
	drv=e1000
	if [ -f "$DMC_FILES/e1000.ko" ]; then
		dmc_say "Loading Debian's real e1000 driver module binds QEMU's NIC;" \
			"the bridge mirrors the binding:"
		real_do "insmod $DMC_FILES/e1000.ko && sleep 1" || return 1
	else
		drv=$(real_drv "/sys/bus/pci/devices/$nic")
	fi
	echo
	dmc_say "Removing the real device through sysfs (like a hot-unplug):"
	real_do "echo 1 > /sys/bus/pci/devices/$nic/remove" || return 1
	echo "# ls /sys/bus/pci/devices:  $(ls /sys/bus/pci/devices | tr '\n' ' ')"
	echo "# ls bus/pci/devices:       $(ls "$DMC_DIR/bus/pci/devices" | tr '\n' ' ')"
	echo
	dmc_say "Rescanning the real bus finds it again (and its driver binds):"
	real_do "echo 1 > /sys/bus/pci/rescan && sleep 1" || return 1
	echo
	if [ "$drv" != - ]; then
		dmc_say "Unbinding and binding the real driver by hand, in real sysfs:"
		real_do "echo $nic > /sys/bus/pci/drivers/$drv/unbind" || return 1
		real_do "echo $nic > /sys/bus/pci/drivers/$drv/bind" || return 1
		echo
	fi
	dmc_say "The oracle compares the shadow with real sysfs (names, parent" \
		"paths, driver links); make check runs it after every real event:"
	sh "$DMC_FILES/dmc-oracle.sh" | sed 's/^/    /'
}

scene_unload() {
	scene_heading "Unloading dmcore"
	dmc_say "On unload dmcore releases every object and counts those whose" \
		"reference count never reached zero; it should say 0:"
	echo
	dmc_say "The tree is a filesystem mounted on first use; it holds the module:" \
		"unmount it (it also expires by itself after some idle seconds), then unload."
	dmc_run umount "$DMC_DIR"
	dmc_run rmmod dmcore || return 1
	echo "# dmesg | grep dmcore"
	dmesg | grep 'dmcore' | grep -v 'taints kernel\|verification failed' | sed 's/^/    /'
}

rc=0
for s in ${DMC_DEMO_SCENES:-$DEMO_SCENES}; do
	"scene_$s" || { echo "(scene $s failed)"; rc=1; }
done
echo
exit $rc
