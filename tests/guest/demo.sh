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
# power, attr and the dmctl scenes (tree, why, monitor, trace, graph) use
# them, and teardown deletes them, so those scenes need build to have run
# first. The dmctl scenes run /dmc/files/dmctl (scripts/demo.sh adds it);
# graph prints `dmctl graph --dot` between the lines "DMC-DOT-BEGIN
# NODES EDGES" and "DMC-DOT-END", which scripts/demo.sh takes out of the
# output and renders with Graphviz. A dmctl that fails or says something
# else than the model holds fails its scene, and so the demo.
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

DEMO_SCENES="load build views bind power attr events tree why monitor trace graph teardown live unload"

C=$DMC_DIR/control
D=$DMC_DIR/devices
SOC=$DMC_DIR/bus/soc
W=/tmp/demo
mkdir -p $W

# dmctl ARGS... -- the command-line tool (tools/dmctl), put in by demo.sh.
dmctl() { "$DMC_FILES/dmctl" "$@"; }

# show_dmctl ARGS... -- show and run "dmctl ARGS", its output indented;
# returns dmctl's status (its output is also left in $W/out).
show_dmctl() {
	echo "# dmctl $*"
	dmctl "$@" >"$W/out" 2>&1
	_rc=$?
	sed 's/^/    /' "$W/out"
	[ "$_rc" -eq 0 ] || echo "    (dmctl exited with status $_rc)"
	return "$_rc"
}

# expect WHAT PATTERN FILE -- fail (say so) unless FILE has a line
# matching the extended regular expression PATTERN.
expect() {
	grep -qE -e "$2" "$3" && return 0
	echo "(expected and not found: $1)"
	return 1
}

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

scene_tree() {
	scene_heading "dmctl tree: the device hierarchy in one view"
	dmc_say "dmctl (tools/dmctl) is the model's command-line tool, as udevadm is" \
		"for the kernel's: it reads the tree's root file 'snapshot', one" \
		"consistent record of every device, and never writes. 'dmctl tree'" \
		"draws the devices by parent, each with its bus, class, driver and" \
		"power state: the system built above under soc0, and the bridge's" \
		"shadows of the real kernel's PCI and platform devices, bound to" \
		"the drivers the real kernel bound them to (i8042, serial8250, ...)."
	echo
	show_dmctl tree || return 1
	expect "uart0 bound to uartdrv" '-- uart0  bus=soc class=tty driver=uartdrv ' "$W/out" || return 1
	# Every real platform device bound in /sys is bound to the same driver here.
	for d in /sys/bus/platform/devices/*; do
		[ -L "$d/driver" ] || continue
		drv=$(basename "$(readlink "$d/driver")")
		expect "${d##*/} bound to $drv" "-- ${d##*/}  bus=platform class=[^ ]* driver=$drv " "$W/out" || return 1
	done
}

scene_why() {
	scene_heading "dmctl why: why a device is (not) bound"
	dmc_say "A GPS chip that is not there: its driver's probe finds nothing and" \
		"fails with ENODEV, as a real driver does when its hardware does not" \
		"answer. gps0 stays without a driver; 'dmctl why' says why, then the" \
		"facts it rests on (the bus, each driver's match, the last probe):"
	echo
	ctl "driver add gpsdrv bus=soc match=gps* probe=fail:19" || return 1
	ctl "device add gps0 bus=soc parent=/devices/soc0" || return 1
	settle
	show_dmctl why gps0 || return 1
	expect "gps0's verdict" '^gps0: not bound: its last probe failed with ENODEV \(errno 19\)$' "$W/out" || return 1
	echo
	dmc_say "uart0 needs the clock clk0; a device link records that (clk0 the" \
		"supplier, uart0 the consumer). For a bound device, why says how long" \
		"its probe took and whether its suppliers are bound:"
	ctl "link add /devices/soc0/clk0 /devices/soc0/uart0" || return 1
	show_dmctl why uart0 || return 1
	expect "uart0's verdict" '^uart0: bound to driver uartdrv \(bus soc\)' "$W/out" || return 1
	expect "uart0's supplier" '^  supplier: +/devices/soc0/clk0 \(link .*\): bound$' "$W/out"
}

scene_monitor() {
	scene_heading "dmctl monitor: events as they come"
	dmc_say "'dmctl monitor' prints the event log as 'udevadm monitor' prints" \
		"uevents. One runs in the background, for bus soc's events, while" \
		"uart0 is unbound from its driver and bound again:"
	echo
	echo "# dmctl monitor --subsystem-match soc --count 2 --timeout 15 &"
	dmctl monitor --subsystem-match soc --count 2 --timeout 15 >"$W/mon" 2>&1 &
	mp=$!
	# It takes "now" from stats when it starts: let it start.
	sleep 1
	wr uart0 bus/soc/drivers/uartdrv/unbind || return 1
	wr uart0 bus/soc/drivers/uartdrv/bind || return 1
	wait "$mp"
	mrc=$?
	echo "# (the monitor's output)"
	sed 's/^/    /' "$W/mon"
	[ "$mrc" -eq 0 ] || { echo "(dmctl monitor exited with status $mrc)"; return 1; }
	n=$(sed -n 's|^DMCORE \[\([0-9]*\)\] unbind /devices/soc0/uart0 (soc)$|\1|p' "$W/mon")
	want="DMCORE [$n] unbind /devices/soc0/uart0 (soc)|DMCORE [$((n + 1))] bind /devices/soc0/uart0 (soc)|"
	[ -n "$n" ] && [ "$(tr '\n' '|' <"$W/mon")" = "$want" ] && return 0
	echo "(dmctl monitor: not the unbind, then the bind, of uart0)"
	return 1
}

# tracefs -- where tracefs is (mounted if need be); empty without one.
tracefs() {
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$t/events" ] || mount -t tracefs nodev "$t" 2>/dev/null
		[ -d "$t/events" ] && { echo "$t"; return 0; }
	done
}

scene_trace() {
	scene_heading "Tracepoints: one bind, as trace-cmd would record it"
	dmc_say "dmcore's probe, bind, unbind, uevent, suspend and resume are" \
		"tracepoints of the system 'dmcore' (dmc_trace.h), as Linux's driver" \
		"core has its own: enable events/dmcore in tracefs, bind uart0 once," \
		"read the trace (the probe's duration in ns), disable."
	echo
	T=$(tracefs)
	if [ -z "$T" ]; then
		dmc_say "(this kernel has no tracefs: scene skipped)"
		return 0
	fi
	[ -d "$T/events/dmcore" ] || { echo "($T/events/dmcore is missing)"; return 1; }
	echo uart0 >"$SOC/drivers/uartdrv/unbind" || return 1
	echo "# mount -t tracefs nodev $T       (if it is not mounted)"
	wr_abs 1 "$T/events/dmcore/enable" || return 1
	echo >"$T/trace"
	wr uart0 bus/soc/drivers/uartdrv/bind || return 1
	wr_abs 0 "$T/events/dmcore/enable"
	echo "# cat $T/trace"
	grep 'dmcore_' "$T/trace" >"$W/trace"
	sed 's/^ */    /' "$W/trace"
	expect "probe_start of uart0" 'dmcore_probe_start: dev=uart0 driver=uartdrv' "$W/trace" || return 1
	expect "probe_end of uart0" 'dmcore_probe_end: dev=uart0 driver=uartdrv ret=0 ns=[0-9]+' "$W/trace" || return 1
	expect "bind of uart0" 'dmcore_bind: dev=uart0 driver=uartdrv' "$W/trace" || return 1
	expect "the bind uevent" 'dmcore_uevent: seqnum=[0-9]+ action=bind devpath=/devices/soc0/uart0' "$W/trace"
}

# wr_abs VALUE FILE -- show and do "echo VALUE > FILE", FILE absolute.
wr_abs() {
	echo "# echo $1 > $2"
	echo "$1" >"$2"
}

scene_graph() {
	scene_heading "dmctl graph: the model as a graph"
	dmc_say "'dmctl graph' reads the snapshot once and makes a graph of it:" \
		"devices, buses, drivers and classes are nodes; parent, bus, bound," \
		"class and link are edges. --dot writes it for Graphviz; the demo" \
		"copies it out of the guest and renders it on the host (dot -Tsvg)." \
		"Most drivers in it are the real kernel's PCI and platform drivers," \
		"mirrored by the bridge, that find no device in this small machine."
	echo
	dmctl graph >"$W/graph" 2>&1 || { sed 's/^/    /' "$W/graph"; echo "(dmctl graph failed)"; return 1; }
	echo "# dmctl graph | head -n 1"
	head -n 1 "$W/graph" | sed 's/^/    /'
	echo "# dmctl graph | grep soc0/uart0"
	grep 'soc0/uart0' "$W/graph" | sed 's/^/    /'
	nodes=$(grep -c '^node ' "$W/graph")
	edges=$(grep -c '^edge ' "$W/graph")
	expect "the summary's counts" "^generation [0-9]+ seqnum [0-9]+: $nodes nodes .*, $edges edges " "$W/graph" || return 1
	dmctl graph --dot >"$W/graph.dot" 2>&1 || { sed 's/^/    /' "$W/graph.dot"; echo "(dmctl graph --dot failed)"; return 1; }
	echo "# dmctl graph --dot > dmctl-graph.dot"
	echo "DMC-DOT-BEGIN $nodes $edges"
	cat "$W/graph.dot"
	echo "DMC-DOT-END"
}

scene_teardown() {
	scene_heading "Taking the system down through control"
	dmc_say "Devices go first (their drivers unbind), then drivers, class, bus:"
	echo
	seq=$(last_seqnum)
	[ -d "$D/soc0/gps0" ] && ctl "device del /devices/soc0/gps0"
	ctl "device del /devices/soc0/uart0"
	ctl "device del /devices/soc0/clk0"
	ctl "device del /devices/soc0"
	ctl "driver del uartdrv"
	ctl "driver del clkdrv"
	[ -d "$SOC/drivers/gpsdrv" ] && ctl "driver del gpsdrv"
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
		dmc_say "dmctl sees the real driver's binding in the shadow too:"
		show_dmctl tree /devices/pci0000:00 || return 1
		expect "$nic bound to $drv" "-- $nic  bus=pci class=[^ ]* driver=$drv " "$W/out" || return 1
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
