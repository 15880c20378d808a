#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profile.sh -- `make profile`: where one device's add and delete spend
# their time, step by step, on the kernel's driver core and on dmcore
# (mirror off), from the function graph tracer of Debian's stock kernel
# (the release kernel has no tracer). Builds the modules for the stock
# kernel, boots it in QEMU (TCG) with 4 GiB and runs bench/guest-profile.sh.
#
# Prints, per side, the roots (device_add, device_del; dmc_device_add,
# dmc_device_unregister) and each function they call directly: calls per device,
# ns per device, and the share of the root's time. The tracer's cost is in
# every figure; `make bench` stays the measure of speed.
#
# Environment: PROFILE_N devices (default 2000). Output also goes to
# .build/profile/: guest.log (raw lines), console.log, table.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=profile

ensure_pkgs gcc python3
out="$DMC_BUILD/profile"
mkdir -p "$out"
moddir=$("$DMC_ROOT/scripts/build-modules.sh" stock)
[ -f "$moddir/bench/dmc_bench.ko" ] || die "no bench/dmc_bench.ko in $moddir"

log "booting the stock kernel"
set +e
"$DMC_ROOT/scripts/vm.sh" --kernel stock --modules "$moddir" \
	--script "$DMC_ROOT/bench/guest-profile.sh" --mem 4G --timeout 1800 \
	--log "$out/console.log" --env "PROFILE_N=${PROFILE_N:-2000}" |
	tee "$out/guest.log" | grep --line-buffered -v '^P '
rc=${PIPESTATUS[0]}
set -e

python3 - "$out/guest.log" >"$out/table.txt" <<'PY'
import re, sys
n = None
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'I kernel=\S+ cpus=\d+ n=(\d+)', line)
    if m:
        n = int(m.group(1))
    if not line.startswith('P '):
        continue
    f = dict(kv.split('=', 1) for kv in line.split()[1:])
    rows.setdefault(f['side'], []).append(f)
if not n or not rows:
    sys.exit("no profile lines in the guest's output")
for side in ('real', 'dmc'):
    print(f"{side}: per device over N = {n} (ns, tracer included)")
    roots = [r for r in rows.get(side, []) if r['depth'] == '0']
    for root in sorted(roots, key=lambda r: r['fn']):
        rt = int(root['total_ns'])
        print(f"  {root['fn']:<40} {int(root['calls']) / n:6.2f} calls {rt / n:10.0f} ns")
        kids = [r for r in rows[side] if r['depth'] == '1' and r['root'] == root['fn']]
        for k in sorted(kids, key=lambda r: -int(r['total_ns'])):
            t = int(k['total_ns'])
            print(f"    {k['fn']:<38} {int(k['calls']) / n:6.2f} calls {t / n:10.0f} ns {100 * t / rt:5.1f} %")
PY
cat "$out/table.txt"
[ "$rc" -eq 0 ]
