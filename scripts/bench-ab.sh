#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-ab.sh [BASE] -- `make bench-ab`: dmcore at commit BASE (default
# BENCH_AB_BASE, else HEAD~1) against the working tree, in one boot of the
# release test kernel: what a change costs on the hot path, measured as
# ratios of runs minutes apart, never across boots.
#
# Both trees' dmcore.ko and bench/dmc_bench.ko are built for the release
# kernel; the guest (bench/guest-ab.sh) loads one pair, runs the bench
# module's "bind dmc N" (add with bind, then delete, of N devices: the
# add+bind+del of `make bench`) and "devices dmc N", unloads, loads the
# other, and so on, in the order ABBA BAAB ..., with the mirror off
# (export=0) and on. The host prints, per scenario and mirror, the median
# per-device time of each side and the median of the per-round ratios
# head/base; the lines go to .build/bench/ab.txt.
#
# Environment: BENCH_AB_N (devices per run, default 10000), BENCH_AB_ROUNDS
# (rounds of one run per side, default 8), BENCH_MEM (default 4G).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=bench-ab
ensure_pkgs git python3
base=${1:-${BENCH_AB_BASE:-HEAD~1}}
rev=$(git -C "$DMC_ROOT" rev-parse --verify "$base^{commit}") || die "no commit '$base'"
out="$DMC_BUILD/bench"
ab="$DMC_BUILD/ab"
mkdir -p "$out" "$ab"
rm -rf "$ab/base-src"
mkdir -p "$ab/base-src"
git -C "$DMC_ROOT" archive "$rev" | tar -x -C "$ab/base-src"
log "base: $(git -C "$DMC_ROOT" log -1 --format='%h %s' "$rev")"
basedir=$(DMC_SRC="$ab/base-src" DMC_BUILD="$ab/base" "$DMC_ROOT/scripts/build-modules.sh" release)
headdir=$("$DMC_ROOT/scripts/build-modules.sh" release)
for d in "$basedir" "$headdir"; do
	[ -f "$d/dmcore.ko" ] && [ -f "$d/bench/dmc_bench.ko" ] || die "no modules in $d"
done
mkdir -p "$ab/guest"
cp "$basedir/dmcore.ko" "$ab/guest/base-dmcore.ko"
cp "$basedir/bench/dmc_bench.ko" "$ab/guest/base-dmc_bench.ko"
cp "$headdir/dmcore.ko" "$ab/guest/head-dmcore.ko"
cp "$headdir/bench/dmc_bench.ko" "$ab/guest/head-dmc_bench.ko"
args=()
for f in "$ab"/guest/*.ko; do args+=(--add "$f"); done
log "booting the release kernel"
"$DMC_ROOT/scripts/vm.sh" --kernel release --modules "$headdir" \
	--script "$DMC_ROOT/bench/guest-ab.sh" "${args[@]}" \
	--env "BENCH_AB_N=${BENCH_AB_N:-10000}" --env "BENCH_AB_ROUNDS=${BENCH_AB_ROUNDS:-8}" \
	--mem "${BENCH_MEM:-4G}" --timeout 3000 --log "$out/ab-console.log" \
	>"$out/ab-guest.log" || die "the guest failed: $out/ab-guest.log, $out/ab-console.log"
python3 - "$out/ab-guest.log" "$(git -C "$DMC_ROOT" log -1 --format=%h "$rev")" <<'PY' | tee "$out/ab.txt"
import sys, statistics, collections
runs = collections.defaultdict(dict)	# (scen, export) -> {(round, side): ns/dev}
for line in open(sys.argv[1]):
    if not line.startswith('AB '):
        continue
    f = {}
    for kv in line.split()[1:]:
        k, v = kv.split('=', 1)
        f.setdefault(k, v)	# the guest's side= first, the module's after
    if f.get('err') != '0':
        sys.exit('a run failed: ' + line.strip())
    n = int(f['n'])
    # bind: ns1 add with bind, ns2 delete (ns0: the drivers); devices:
    # ns0 add, ns1 delete.
    ns = int(f['ns1']) + (int(f['ns2']) if f['scen'] == 'bind' else int(f['ns0']))
    mem = int(f['mem'])
    runs[(f['scen'], f['export'])][(int(f['round']), f['side'])] = (ns / n, mem)
print('base %s vs the working tree; per device: add(+bind)+del in ns, slab bytes' % sys.argv[2])
print('%-8s %-6s %9s %9s %9s %s %9s %9s' % ('scenario', 'mirror', 'base ns', 'head ns',
      'head/base', '(min..max)', 'base B', 'head B'))
if not runs:
    sys.exit('no AB lines in the guest log')
for (scen, export), r in sorted(runs.items()):
    rounds = sorted({k[0] for k in r if (k[0], 'base') in r and (k[0], 'head') in r})
    if not rounds:
        continue
    ratios = [r[(k, 'head')][0] / r[(k, 'base')][0] for k in rounds]
    print('%-8s %-6s %9.0f %9.0f %9.3f (%.3f..%.3f) %9.0f %9.0f   %d rounds' % (
          scen, 'on' if export == '1' else 'off',
          statistics.median(r[(k, 'base')][0] for k in rounds),
          statistics.median(r[(k, 'head')][0] for k in rounds),
          statistics.median(ratios), min(ratios), max(ratios),
          statistics.median(r[(k, 'base')][1] for k in rounds),
          statistics.median(r[(k, 'head')][1] for k in rounds), len(rounds)))
PY
