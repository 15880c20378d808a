#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh -- `make bench`: dmcore against the kernel's own driver core, in
# one boot of the release test kernel (6.1, no KASAN/lockdep/kmemleak/
# DEBUG_OBJECTS; scripts/kconfig/release.config, built once and cached).
#
# Builds the release kernel (cached) and the modules, boots the kernel in
# QEMU (TCG) with 4 GiB, loads dmcore.ko and bench/dmc_bench.ko, and runs
# bench/guest-bench.sh: every scenario on the real driver core and on
# dmcore with the mirror on, then dmcore reloaded with export=0. Prints the
# table (bench/report.py) and writes it as JSON.
#
# Environment:
#   BENCH_JSON    where the JSON goes (default .build/bench/results.json)
#   BENCH_NS      sizes, comma-separated (default 1000,10000,100000)
#   BENCH_BIG     dmcore-only size without the mirror (default 1000000)
#   BENCH_REPS    N:reps,... (default 1000:5,10000:3,100000:5)
#   BENCH_CHAIN   deferral chain length (default 1000; 0: none)
#   BENCH_SCEN    scenarios (default "devices bind bindkey lookup events")
#   BENCH_MIRROR  0: no pass with the mirror on (default 1)
#   BENCH_PHASES  sizes for the phase-clock runs (default 100000)
#   BENCH_WALK    N for the walk of the tree and of real sysfs, with the
#                 memory before and after it (default the largest of
#                 BENCH_NS; 0: none)
#   BENCH_MEM     guest memory (default 4G); BENCH_TIMEOUT seconds (3600)
# Output also goes to .build/bench/: guest.log (raw result lines) and
# console.log (the guest kernel's log).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=bench

ensure_pkgs gcc libc6-dev python3
out="$DMC_BUILD/bench"
mkdir -p "$out"
json=${BENCH_JSON:-$out/results.json}

kdir=$(kdir_for release)
log "release kernel: $kdir"
moddir=$("$DMC_ROOT/scripts/build-modules.sh" release)
[ -f "$moddir/bench/dmc_bench.ko" ] || die "no bench/dmc_bench.ko in $moddir"
gcc -O2 -Wall -static -o "$out/evread" "$DMC_ROOT/bench/evread.c" ||
	die "cannot build bench/evread.c"
gcc -O2 -Wall -static -o "$out/walk" "$DMC_ROOT/bench/walk.c" ||
	die "cannot build bench/walk.c"

envs=()
for v in BENCH_NS BENCH_BIG BENCH_REPS BENCH_CHAIN BENCH_SCEN BENCH_MIRROR BENCH_PHASES BENCH_WALK; do
	[ -n "${!v+set}" ] && envs+=(--env "$v=${!v}")
done

log "booting the release kernel; the guest prints progress as it goes"
start=$(date +%s)
set +e
"$DMC_ROOT/scripts/vm.sh" --kernel release --modules "$moddir" \
	--script "$DMC_ROOT/bench/guest-bench.sh" --add "$out/evread" --add "$out/walk" \
	--mem "${BENCH_MEM:-4G}" --timeout "${BENCH_TIMEOUT:-3600}" \
	--log "$out/console.log" "${envs[@]}" | tee "$out/guest.log" | grep --line-buffered -v '^[REW] '
rc=${PIPESTATUS[0]}
set -e
log "guest finished in $(( $(date +%s) - start ))s with status $rc"

prc=0
python3 "$DMC_ROOT/bench/report.py" "$out/guest.log" --json "$json" \
	--command "make bench" --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	--host "$(uname -n) $(nproc) cores, $(qemu-system-x86_64 --version | head -n1)" ||
	prc=$?
log "JSON written to $json"
[ "$rc" -eq 0 ] && [ "$prc" -eq 0 ]
