#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dmc-oracle.sh [BUS...] -- compare dmcore's shadow of the running kernel's
# buses with real sysfs (the real-event bridge's oracle).
#
# For each BUS (default: pci platform) it checks that
#   - /sys/bus/BUS/devices and DMC/bus/BUS/devices name the same devices;
#   - each device sits at the same path under /sys/devices and under
#     DMC/devices (the whole parent chain, e.g. pci0000:00/0000:00:03.0);
#   - each device is bound to a driver of the same name, or unbound in both.
# DMC is $DMC_DIR or /sys/kernel/debug/dmcore. It writes "settle" to
# DMC/control first, so that every real event seen so far is applied.
#
# Prints one line per difference ("oracle: pci: ...") and a summary line
# "oracle: BUS: N devices, M differences"; exits 0 when all match, 1 when
# something differs, 2 when a tree is missing. Runs under busybox sh.

DMC=${DMC_DIR:-/sys/kernel/debug/dmcore}
[ $# -gt 0 ] || set -- pci platform

if [ ! -d "$DMC" ]; then
	echo "oracle: no $DMC (dmcore not loaded, or export=0)"
	exit 2
fi
echo settle >"$DMC/control" || { echo "oracle: settle failed"; exit 2; }

# The entries of a directory, one per line, and a last line "/" (no name
# holds a '/'): busybox grep takes an empty -f file as "match everything",
# so no list may be empty.
entries() {
	ls -1 "$1"
	echo /
}

# The driver a device directory's "driver" link names, or "-".
driver_of() {
	if [ -L "$1/driver" ]; then
		basename "$(readlink "$1/driver")"
	else
		echo -
	fi
}

rc=0
for bus in "$@"; do
	real=/sys/bus/$bus/devices shadow=$DMC/bus/$bus/devices
	if [ ! -d "$real" ] || [ ! -d "$shadow" ]; then
		echo "oracle: $bus: missing $([ -d "$real" ] || echo "$real ")$([ -d "$shadow" ] || echo "$shadow")"
		rc=2
		continue
	fi
	n=0 bad=0
	entries "$real" >/tmp/oracle.real.$$
	entries "$shadow" >/tmp/oracle.shadow.$$
	# Busybox has no comm: set differences through grep -vxF -f.
	for d in $(grep -vxF -f /tmp/oracle.shadow.$$ /tmp/oracle.real.$$); do
		echo "oracle: $bus: $d is in real sysfs only"
		bad=$((bad + 1))
	done
	for d in $(grep -vxF -f /tmp/oracle.real.$$ /tmp/oracle.shadow.$$); do
		echo "oracle: $bus: $d is in dmcore only"
		bad=$((bad + 1))
	done
	for d in $(grep -xF -f /tmp/oracle.shadow.$$ /tmp/oracle.real.$$); do
		[ "$d" != / ] || continue
		n=$((n + 1))
		rp=$(readlink -f "$real/$d") sp=$(readlink -f "$shadow/$d")
		rrel=${rp#/sys/devices/} srel=${sp#"$DMC"/devices/}
		if [ "$rrel" != "$srel" ]; then
			echo "oracle: $bus: $d: path $rrel in sysfs, $srel in dmcore"
			bad=$((bad + 1))
		fi
		rd=$(driver_of "$rp") sd=$(driver_of "$sp")
		if [ "$rd" != "$sd" ]; then
			echo "oracle: $bus: $d: driver $rd in sysfs, $sd in dmcore"
			bad=$((bad + 1))
		fi
	done
	rm -f /tmp/oracle.real.$$ /tmp/oracle.shadow.$$
	echo "oracle: $bus: $n devices, $bad differences"
	[ $bad -eq 0 ] || rc=1
done
exit $rc
