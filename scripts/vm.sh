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
#   --machine M       QEMU machine type: pc (default) or q35 (PCIe, native
#                     hotplug: add root ports with --qemu-args)
#   --qmp             give QEMU a QMP socket and send it the commands the
#                     guest prints as "DMC-QMP <id> <json>" lines on ttyS1
#                     (tests/guest/lib.sh: dmc_qmp); replies go to stderr
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
logfile='' machine=pc qemu_args='' append='' moddir='' mem=1G smp=2 qmp=0
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
	--qmp) qmp=1 ;;
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
if [ $qmp -eq 1 ]; then
	ensure_pkgs python3
	# Debian's own interpreter (standard library only), not whatever a
	# version manager put first in PATH.
	py=/usr/bin/python3
	[ -x "$py" ] || py=python3
fi

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
qpid='' tpid='' wpid=''
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# qmp_watch SCRIPTLOG SOCKET QEMU_PID START -- (--qmp) the host side of
# dmc_qmp: follow the guest script's output and send every
# "DMC-QMP <id> <json>" line's command to QEMU's QMP socket, once, in the
# order the lines were printed (a repeated id is ignored). qmp_capabilities
# is sent once, on connecting. Each command gets the QMP "id" "dmc-<id>"
# (unless it has one) and its reply, and any QMP event, is logged on stderr
# with the time since QEMU started. A device_add is held until every earlier
# device_del has been finished by QEMU (DEVICE_DELETED, at most 30 s), so a
# guest that saw its device vanish from sysfs may re-add it with the same id
# or slot at once. Ends when QEMU does; only complete lines are acted upon.
qmp_watch() {
	"$py" - "$@" <<'PY'
import json, os, re, select, socket, sys, time

LOG, SOCK, QPID, START = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
LINE = re.compile(r'^DMC-QMP ([0-9]+) (.*)$')
DEL_WAIT = 30.0


def log(msg):
    sys.stderr.write('[vm] qmp %6.2fs: %s\n' % (time.time() - START, msg))
    sys.stderr.flush()


def qemu_alive():
    try:
        with open('/proc/%d/stat' % QPID) as f:
            return f.read().rsplit(')', 1)[1].split()[0] not in ('Z', 'X')
    except OSError:
        return False


class Qmp:
    def __init__(self):
        self.sock = None
        self.buf = b''
        self.pending_del = set()

    def connect(self):
        deadline = time.time() + 60
        while time.time() < deadline and qemu_alive():
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(SOCK)
            except OSError:
                s.close()
                time.sleep(0.1)
                continue
            self.sock = s
            greeting = self.read_msg(10)
            if greeting is None or 'QMP' not in greeting:
                log('error: no QMP greeting: %r' % (greeting,))
                self.close()
                return False
            reply = self.command({'execute': 'qmp_capabilities', 'id': 'dmc-caps'})
            log('qmp_capabilities -> %s' % json.dumps(reply))
            return reply is not None and 'return' in reply
        log('error: cannot connect to %s' % SOCK)
        return False

    def close(self):
        if self.sock:
            self.sock.close()
        self.sock = None

    def read_msg(self, timeout):
        """One JSON message from QEMU, None on EOF or timeout."""
        deadline = time.time() + timeout
        while b'\n' not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not self.sock:
                return None
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                continue
            data = self.sock.recv(65536)
            if not data:
                log('QEMU closed the QMP socket')
                self.close()
                return None
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        try:
            return json.loads(line)
        except ValueError:
            return {'dmc-unparsed': line.decode('utf-8', 'replace')}

    def event(self, msg):
        log('event %s' % json.dumps(msg))
        if msg.get('event') == 'DEVICE_DELETED':
            self.pending_del.discard(msg.get('data', {}).get('device'))

    def poll_events(self, timeout):
        if not self.sock:
            time.sleep(timeout)
            return
        msg = self.read_msg(timeout)
        while msg is not None:
            self.event(msg)
            msg = self.read_msg(0) if b'\n' in self.buf else None

    def command(self, cmd, timeout=30):
        """Send cmd, return its reply (events meanwhile are logged)."""
        try:
            self.sock.sendall(json.dumps(cmd).encode() + b'\n')
        except OSError as e:
            log('error: sending: %s' % e)
            self.close()
            return None
        deadline = time.time() + timeout
        while self.sock and time.time() < deadline:
            msg = self.read_msg(deadline - time.time())
            if msg is None:
                break
            if 'event' in msg:
                self.event(msg)
            elif msg.get('id') == cmd.get('id'):
                return msg
            else:
                log('unexpected message %s' % json.dumps(msg))
        return None

    def wait_deleted(self):
        deadline = time.time() + DEL_WAIT
        if self.pending_del:
            log('holding device_add until QEMU deleted %s' %
                ', '.join(sorted(self.pending_del)))
        while self.pending_del and self.sock and time.time() < deadline:
            self.poll_events(deadline - time.time())
        if self.pending_del:
            log('warning: still not deleted after %ds: %s' %
                (DEL_WAIT, ', '.join(sorted(self.pending_del))))
            self.pending_del.clear()

    def run(self, n, text):
        try:
            cmd = json.loads(text)
        except ValueError as e:
            log('error: DMC-QMP %d: not JSON (%s), not sent: %s' % (n, e, text))
            return
        if not isinstance(cmd, dict) or 'execute' not in cmd:
            log('error: DMC-QMP %d: not a QMP command, not sent: %s' % (n, text))
            return
        if not self.sock:
            log('error: DMC-QMP %d: no QMP connection, not sent: %s' % (n, text))
            return
        if cmd['execute'] == 'device_add':
            self.wait_deleted()
        cmd.setdefault('id', 'dmc-%d' % n)
        log('DMC-QMP %d -> %s' % (n, json.dumps(cmd)))
        reply = self.command(cmd)
        log('DMC-QMP %d <- %s' % (n, json.dumps(reply) if reply else 'no reply'))
        if reply and 'return' in reply and cmd['execute'] == 'device_del':
            dev = cmd.get('arguments', {}).get('id')
            if dev:
                self.pending_del.add(dev)


def main():
    qmp = Qmp()
    connected = qmp.connect()
    seen = set()
    pos = 0
    partial = b''
    while True:
        alive = qemu_alive()
        try:
            with open(LOG, 'rb') as f:
                f.seek(pos)
                data = f.read()
        except OSError:
            data = b''
        pos += len(data)
        partial += data
        *lines, partial = partial.split(b'\n')
        for raw in lines:
            line = raw.decode('utf-8', 'replace').rstrip('\r')
            if not line.startswith('DMC-QMP'):
                continue
            m = LINE.match(line)
            if not m:
                log('error: malformed line, ignored: %s' % line)
                continue
            n = int(m.group(1))
            if n in seen:
                log('DMC-QMP %d repeated, ignored' % n)
                continue
            seen.add(n)
            if not alive:
                log('DMC-QMP %d: QEMU has ended, not sent' % n)
                continue
            qmp.run(n, m.group(2))
        if not alive:
            break
        if connected:
            qmp.poll_events(0.05)
        else:
            time.sleep(0.05)
    qmp.close()


main()
PY
}

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
	-e "DMC_SCRIPT_TIMEOUT=$guest_timeout" -e "DMC_QMP=$qmp")
[ -n "$script" ] && mk+=(-s "$script")
[ -f "$DMC_ROOT/tests/guest/lib.sh" ] && mk+=(-l "$DMC_ROOT/tests/guest/lib.sh")
for e in "${envs[@]}"; do mk+=(-e "$e"); done
for a in "${adds[@]}"; do mk+=(-a "$a"); done
"$DMC_ROOT/scripts/mkinitramfs.sh" "${mk[@]}" || fail_setup "mkinitramfs failed"

# The debug kernel has ACPI only to find its second CPU: its PCI IRQ
# routing through ACPI runs the AML interpreter under KASAN on every PCI
# remove (acpi_pci_irq_disable(), _PRT), 20 s and more each, a soft
# lockup; "acpi=noirq" routes IRQs without it, as the kernel did before.
boot_args="console=ttyS0 panic=-1 oops=panic"
[ "$kernel" = debug ] && boot_args+=" acpi=noirq"
qemu=(qemu-system-x86_64 -machine "$machine" -m "$mem" -smp "$smp"
	-nographic -no-reboot
	-kernel "$image" -initrd "$work/initrd.gz"
	-append "$boot_args${append:+ $append}")
if [ $kvm -eq 1 ]; then
	qemu+=(-enable-kvm -cpu host)
else
	qemu+=(-accel tcg)
fi
# q35: QEMU (since 6.1) hands hotplug on PCIe root ports to ACPI by
# default; the debug kernel has no ACPI and would never see a device_add.
# Native PCIe hotplug (pciehp) works on both kernels.
[ "$machine" = q35 ] && qemu+=(-global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off)
qmpsock="$work/qmp.sock"
[ $qmp -eq 1 ] && qemu+=(-qmp "unix:$qmpsock,server=on,wait=off")

if [ $interactive -eq 1 ]; then
	qemu+=(-serial mon:stdio -serial null)
	# shellcheck disable=SC2206 # word splitting is the point
	[ -n "$qemu_args" ] && qemu+=($qemu_args)
	log "interactive $kernel guest: $(basename "$image"); Ctrl-A x quits QEMU"
	[ $qmp -eq 1 ] && log "QMP socket (no watcher in interactive mode): $qmpsock"
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
start=$(date +%s) t0=$(date +%s.%N)
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$work/qemu.out" 2>&1 &
qpid=$!
# Stream the script's output while the guest runs: strip the serial line's
# CRs and the marker line.
tail -n +1 -f --pid="$qpid" "$scriptlog" | sed -u 's/\r$//; /^DMC-EXIT [0-9]*$/d' &
tpid=$!
if [ $qmp -eq 1 ]; then
	qmp_watch "$scriptlog" "$qmpsock" "$qpid" "$t0" &
	wpid=$!
fi
set +e
wait "$qpid"
qrc=$?
qpid=
wait "$tpid"
tpid=
if [ -n "$wpid" ]; then
	# The watcher ends by itself within a fraction of a second of QEMU.
	for _ in $(seq 50); do kill -0 "$wpid" 2>/dev/null || break; sleep 0.1; done
	kill "$wpid" 2>/dev/null
	wait "$wpid"
	wpid=
fi
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
