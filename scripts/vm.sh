#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh -- boot a kernel in QEMU with dmcore's modules and run a guest script.
# See docs/harness.md for examples.
#
# usage: vm.sh [--kernel debug|release|stock] [--script FILE] [options]
#
#   --kernel K        debug (default): the cached test kernel (KASAN, lockdep,
#                     kmemleak, KUnit); stock: Debian's current amd64 kernel;
#                     release: the release test kernel, once it exists
#   --script FILE     guest script, run with busybox sh after dmcore.ko is
#                     loaded; its stdout+stderr become vm.sh's stdout
#   --timeout SEC     kill QEMU after SEC seconds (default 600); the script
#                     itself is stopped inside the guest 20-60 s earlier
#   --kvm             -enable-kvm -cpu host instead of TCG (hangs on some hosts)
#   --no-load         do not insmod dmcore.ko before the script
#   --interactive     console on this terminal, busybox shell after loading
#                     (and after --script, if given); no timeout
#   --log FILE        save the kernel console log there (default: a temp file,
#                     path printed on stderr)
#   --machine M       QEMU machine type: pc (default) or q35
#   --qemu-args "..." extra QEMU arguments (word-split)
#   --append "..."    extra kernel command line
#   --env NAME=VALUE  export a variable to the guest script (repeatable)
#   --add FILE        put FILE into the guest as /dmc/files/<name> (repeatable)
#   --modules DIR     use the *.ko under DIR instead of building them
#   --mem SIZE        guest memory (default 1G)    --smp N   CPUs (default 2)
#
# Exit status: the script's, as reported by the guest ("DMC-EXIT <rc>" on
# ttyS1); 124 if QEMU was killed by the timeout; 125 if the guest ended
# without reporting (panic, crash, reboot); 2 for usage errors; 3 if the
# modules, the kernel or the initramfs could not be made. A failed insmod of
# dmcore.ko is the script's failure (rc 1, "DMC-LOAD-FAILED" in the output).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=vm

usage() { sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

kernel=debug script='' timeout=600 timeout_set=0 kvm=0 load=1 interactive=0
logfile='' machine=pc qemu_args='' append='' moddir='' mem=1G smp=2
envs=() adds=()
need() { [ $# -ge 2 ] || { echo "vm.sh: $1 needs an argument" >&2; usage; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) need "$@"; kernel=$2; shift ;;
	--script) need "$@"; script=$2; shift ;;
	--timeout) need "$@"; timeout=$2; timeout_set=1; shift ;;
	--kvm) kvm=1 ;;
	--no-load) load=0 ;;
	--interactive) interactive=1 ;;
	--log) need "$@"; logfile=$2; shift ;;
	--machine) need "$@"; machine=$2; shift ;;
	--qemu-args) need "$@"; qemu_args=$2; shift ;;
	--append) need "$@"; append=$2; shift ;;
	--env) need "$@"; envs+=("$2"); shift ;;
	--add) need "$@"; adds+=("$2"); shift ;;
	--modules) need "$@"; moddir=$2; shift ;;
	--mem) need "$@"; mem=$2; shift ;;
	--smp) need "$@"; smp=$2; shift ;;
	-h|--help) usage ;;
	*) echo "vm.sh: unknown argument '$1'" >&2; usage ;;
	esac
	shift
done
case "$kernel" in debug|release|stock) ;; *) echo "vm.sh: --kernel debug|release|stock" >&2; exit 2 ;; esac
case "$machine" in pc|q35) ;; *) echo "vm.sh: --machine pc|q35" >&2; exit 2 ;; esac
[[ "$timeout" =~ ^[0-9]+$ ]] && [ "$timeout" -gt 0 ] || { echo "vm.sh: bad --timeout '$timeout'" >&2; exit 2; }
[ -z "$script" ] || [ -f "$script" ] || { echo "vm.sh: no script $script" >&2; exit 2; }
if [ -z "$script" ] && [ $interactive -eq 0 ]; then
	echo "vm.sh: nothing to do: give --script FILE or --interactive" >&2
	exit 2
fi

# shellcheck disable=SC2086 # a list of names
ensure_pkgs $VM_PKGS coreutils util-linux

fail_setup() { log "error: $*"; exit 3; }

# Modules: build them for this kernel unless a directory was given.
if [ -z "$moddir" ]; then
	moddir=$("$DMC_ROOT/scripts/build-modules.sh" "$kernel") ||
		fail_setup "building the modules for the $kernel kernel failed"
fi
[ -d "$moddir" ] || fail_setup "no module directory $moddir"
image=$(kimage_for "$kernel") || fail_setup "no $kernel kernel image"
[ -f "$image" ] || fail_setup "no kernel image $image"

work=$(mktemp -d /tmp/dmcore-vm.XXXXXX)
qpid='' tpid=''
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Inside the guest the script gets a little less time than QEMU, so a hung
# script is reported by the guest itself (DMC-EXIT 124) with the kernel
# log intact; QEMU's timeout stays as the last resort (hung kernel).
# The margin covers boot and shutdown: a quarter of the timeout, at least
# 20 s, at most 60 s.
margin=$((timeout / 4))
[ $margin -ge 20 ] || margin=20
[ $margin -le 60 ] || margin=60
if [ $interactive -eq 1 ]; then
	guest_timeout=0
elif [ "$timeout" -gt $((margin * 2)) ]; then
	guest_timeout=$((timeout - margin))
else
	guest_timeout=$((timeout / 2))
fi

mk=(-o "$work/initrd.gz" -m "$moddir"
	-e "DMC_KERNEL=$kernel" -e "DMC_LOAD=$load" -e "DMC_INTERACTIVE=$interactive"
	-e "DMC_SCRIPT_TIMEOUT=$guest_timeout")
[ -n "$script" ] && mk+=(-s "$script")
[ -f "$DMC_ROOT/tests/guest/lib.sh" ] && mk+=(-l "$DMC_ROOT/tests/guest/lib.sh")
for e in "${envs[@]}"; do mk+=(-e "$e"); done
for a in "${adds[@]}"; do mk+=(-a "$a"); done
"$DMC_ROOT/scripts/mkinitramfs.sh" "${mk[@]}" || fail_setup "mkinitramfs failed"

qemu=(qemu-system-x86_64 -machine "$machine" -m "$mem" -smp "$smp"
	-nographic -no-reboot
	-kernel "$image" -initrd "$work/initrd.gz"
	-append "console=ttyS0 panic=-1 oops=panic${append:+ $append}")
if [ $kvm -eq 1 ]; then
	qemu+=(-enable-kvm -cpu host)
else
	qemu+=(-accel tcg)
fi

if [ $interactive -eq 1 ]; then
	qemu+=(-serial mon:stdio -serial null)
	# shellcheck disable=SC2206 # word splitting is the point
	[ -n "$qemu_args" ] && qemu+=($qemu_args)
	log "interactive $kernel guest: $(basename "$image"); Ctrl-A x quits QEMU"
	set +e
	if [ $timeout_set -eq 1 ]; then
		timeout --foreground -k 10 "$timeout" "${qemu[@]}"
	else
		"${qemu[@]}"
	fi
	exit $?
fi

console="$work/console.log" scriptlog="$work/script.log"
: >"$console"; : >"$scriptlog"
qemu+=(-monitor none
	-chardev "file,id=con,path=$console,append=on" -serial chardev:con
	-chardev "file,id=out,path=$scriptlog,append=on" -serial chardev:out)
# shellcheck disable=SC2206 # word splitting is the point
[ -n "$qemu_args" ] && qemu+=($qemu_args)

log "booting the $kernel kernel ($(basename "$image"), $machine, $([ $kvm -eq 1 ] && echo kvm || echo tcg)), timeout ${timeout}s"
start=$(date +%s)
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!
# Stream the script's output while the guest runs: strip the serial line's
# CRs and the marker line.
tail -n +1 -f --pid="$qpid" "$scriptlog" | sed -u 's/\r$//; /^DMC-EXIT [0-9]*$/d' &
tpid=$!
set +e
wait "$qpid"
qrc=$?
qpid=
wait "$tpid"
tpid=
set -e
elapsed=$(( $(date +%s) - start ))

if [ -z "$logfile" ]; then
	logfile=$(mktemp /tmp/dmcore-console.XXXXXX.log)
fi
mkdir -p "$(dirname "$logfile")"
tr -d '\r' <"$console" >"$logfile"
log "kernel console log: $logfile"

marker=$(tr -d '\r' <"$scriptlog" | grep -a '^DMC-EXIT [0-9]*$' | tail -n1 || true)
if [ -n "$marker" ]; then
	rc=${marker#DMC-EXIT }
	log "guest script exited with status $rc after ${elapsed}s"
	exit "$rc"
fi

if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	log "error: timeout: QEMU killed after ${timeout}s, the guest never reported an exit status"
	rc=124
else
	log "error: the guest ended without reporting an exit status (QEMU rc $qrc after ${elapsed}s: kernel panic, crash or reboot?)"
	rc=125
fi
if [ -s "$work/qemu.out" ]; then
	log "QEMU said:"; sed 's/^/    /' "$work/qemu.out" >&2
fi
log "last lines of the kernel console:"
tail -n 40 "$logfile" | sed 's/^/    /' >&2
exit $rc
