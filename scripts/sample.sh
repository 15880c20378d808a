#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sample.sh -- the first half of `make profile`: a sampled flat profile of
# the release kernel (the one `make bench` measures) while the devices and
# bind scenarios run on the kernel's driver core and on dmcore (mirror
# off), from the benchmark's own sampler (bench/sample.c, a cpu-clock perf
# event once a tick). Unlike the function graph of profile.sh it costs
# nothing per call, so small functions keep their true share; it sees
# only whole functions (inlined code counts for its caller).
#
# Environment: SAMPLE_N devices (default 100000), SAMPLE_SECS per side and
# scenario (default 20), SAMPLE_SCEN (default "devices bind"), SAMPLE_SIDES
# (default "real dmc"). Output in .build/profile/: sample-guest.log,
# sample-console.log, sample.txt (the table).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=sample

ensure_pkgs gcc python3
out="$DMC_BUILD/profile"
mkdir -p "$out"
moddir=$("$DMC_ROOT/scripts/build-modules.sh" release)
[ -f "$moddir/bench/dmc_bench.ko" ] || die "no bench/dmc_bench.ko in $moddir"

log "booting the release kernel"
set +e
"$DMC_ROOT/scripts/vm.sh" --kernel release --modules "$moddir" \
	--script "$DMC_ROOT/bench/guest-sample.sh" --mem 4G --timeout 1800 \
	--log "$out/sample-console.log" \
	--env "SAMPLE_N=${SAMPLE_N:-100000}" --env "SAMPLE_SECS=${SAMPLE_SECS:-20}" \
	--env "SAMPLE_SCEN=${SAMPLE_SCEN:-devices bind}" \
	--env "SAMPLE_SIDES=${SAMPLE_SIDES:-real dmc}" |
	tee "$out/sample-guest.log" | grep --line-buffered -v '^S '
rc=${PIPESTATUS[0]}
set -e

python3 - "$out/sample-guest.log" >"$out/sample.txt" <<'PY'
import sys
rows, info = {}, {}
for line in open(sys.argv[1]):
    if not line.startswith(('S ', 'I side=')):
        continue
    f = dict(kv.split('=', 1) for kv in line.split()[1:])
    key = (f['scen'], f['side'])
    if line.startswith('I '):
        info[key] = f
    else:
        rows.setdefault(key, []).append(f)
if not rows:
    sys.exit("no samples in the guest's output")
for scen in ('devices', 'bind'):
    for side in ('real', 'dmc'):
        i = info.get((scen, side))
        if not i:
            continue
        total = int(i['samples'])
        print(f"{scen}, {side}: {total} samples over {i['reps']} runs of N = {i['n']} "
              f"({i['secs']} s); functions with >= 0.5 % of them")
        for r in rows.get((scen, side), []):
            print(f"  {r['fn']:<44} {100 * int(r['n']) / total:5.1f} %")
        print()
PY
cat "$out/sample.txt"
[ "$rc" -eq 0 ]
