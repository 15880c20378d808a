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
# shellcheck source=tests/guest/lib.sh
. "$DMC_LIB"

DEMO_SCENES="load tree events unload"

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

scene_tree() {
	scene_heading "The model as dmcore exports it ($DMC_DIR)"
	dmc_say "dmcore mirrors its objects into debugfs, as the kernel does in sysfs:" \
		"directories are objects, 'a -> b' are links between them, and small" \
		"files are shown with their contents."
	echo
	dmc_tree "$DMC_DIR" 300 | sed 's/^/    /'
}

scene_events() {
	scene_heading "The event log ($DMC_DIR/events)"
	dmc_say "Every add, remove and change in the model is logged as an event" \
		"(the kernel's uevents play this part):"
	echo
	if [ -r "$DMC_DIR/events" ]; then
		out=$(timeout 5 cat "$DMC_DIR/events")
		if [ -n "$out" ]; then
			printf '%s\n' "$out" | sed 's/^/    /'
		else
			echo "    (no events yet)"
		fi
	else
		echo "    (this build has no events file)"
	fi
}

scene_unload() {
	scene_heading "Unloading dmcore"
	dmc_say "On unload dmcore releases every object and counts those whose" \
		"reference count never reached zero; it should say 0:"
	echo
	dmc_run rmmod dmcore || return 1
	dmesg | grep 'dmcore: \(unloaded\|LEAK\)' | sed 's/^/    /'
}

rc=0
for s in ${DMC_DEMO_SCENES:-$DEMO_SCENES}; do
	"scene_$s" || { echo "(scene $s failed)"; rc=1; }
done
echo
exit $rc
