#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# /init of the guest initramfs that scripts/mkinitramfs.sh packs (busybox
# sh, PID 1). It must never exit: every path ends in `reboot -f`, which ends
# QEMU because vm.sh runs it with -no-reboot.
#
# Serial ports: ttyS0 is the kernel console (vm.sh logs it to a file);
# ttyS1 carries only the guest script's stdout+stderr. The last line on
# ttyS1 is the marker "DMC-EXIT <rc>". In interactive mode everything goes
# to the console and a shell is started instead of rebooting at once.
#
# Settings come from /etc/dmcore.env, written by mkinitramfs.sh:
#   DMC_KERNEL          debug|release|stock (exported to the script)
#   DMC_LOAD            1: insmod /lib/dmcore/dmcore.ko before the script
#   DMC_INTERACTIVE     1: shell on the console after the script
#   DMC_SCRIPT          path of the script to run (empty: none)
#   DMC_SCRIPT_TIMEOUT  seconds the script may run (0: no limit)
# plus whatever --env NAME=VALUE pairs vm.sh was given.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run /root
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts

DMC_KERNEL=unknown DMC_LOAD=1 DMC_INTERACTIVE=0 DMC_SCRIPT='' DMC_SCRIPT_TIMEOUT=0
# shellcheck disable=SC1091
[ -r /etc/dmcore.env ] && . /etc/dmcore.env
export DMC_KERNEL DMC_SCRIPT_TIMEOUT
export DMC_MODDIR=/lib/dmcore DMC_FILES=/dmc/files DMC_LIB=/dmc/lib.sh

if [ "$DMC_INTERACTIVE" = 1 ]; then
	out=/dev/console
elif [ -c /dev/ttyS1 ]; then
	out=/dev/ttyS1
else
	echo "dmcore-init: no /dev/ttyS1, script output goes to the console" >/dev/console
	out=/dev/console
fi

# Everything the script sees and says happens in this subshell, with its
# output on $out. The marker is printed last, from here, so it is there
# whatever the script did (unless the kernel died).
(
	exec >"$out" 2>&1 </dev/null
	[ "$DMC_INTERACTIVE" = 1 ] && exec </dev/console
	rc=0
	if [ "$DMC_LOAD" = 1 ]; then
		if ! insmod /lib/dmcore/dmcore.ko; then
			rc=1
			echo "DMC-LOAD-FAILED: insmod /lib/dmcore/dmcore.ko failed; script not run"
		fi
	fi
	if [ $rc -eq 0 ] && [ -n "$DMC_SCRIPT" ]; then
		start=$(cut -d. -f1 /proc/uptime)
		if [ "$DMC_SCRIPT_TIMEOUT" -gt 0 ] 2>/dev/null; then
			timeout "$DMC_SCRIPT_TIMEOUT" sh "$DMC_SCRIPT"
			rc=$?
			now=$(cut -d. -f1 /proc/uptime)
			if [ $((now - start)) -ge "$DMC_SCRIPT_TIMEOUT" ]; then
				echo "DMC-SCRIPT-TIMEOUT: killed after ${DMC_SCRIPT_TIMEOUT}s (rc $rc)"
				rc=124
			fi
		else
			sh "$DMC_SCRIPT"
			rc=$?
		fi
	fi
	if [ "$DMC_INTERACTIVE" = 1 ]; then
		echo
		echo "dmcore guest ($DMC_KERNEL kernel, $(uname -r)); dmcore.ko: $(grep -q '^dmcore ' /proc/modules && echo loaded || echo not loaded)"
		echo "modules in /lib/dmcore: $(cd /lib/dmcore 2>/dev/null && echo *.ko)"
		echo "Leave the shell (exit or Ctrl-D) to power off; Ctrl-A x kills QEMU."
		setsid cttyhack sh -l
	fi
	echo "DMC-EXIT $rc"
)

# Let the serial port drain the marker before the machine goes away.
sync
sleep 1
reboot -f
while :; do sleep 60; done
