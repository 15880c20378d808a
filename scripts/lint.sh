#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh [checkpatch|sparse|w1|layers]... -- static checks of dmcore's C
# code. With no argument all four run. Each is a separate pass/fail check:
#
#   checkpatch  scripts/checkpatch.pl --no-tree --strict -f FILE from the
#               extracted linux-source tree, on every tracked *.c and *.h
#   sparse      make -C <debug kernel> M=.build/sparse C=2 modules; any
#               line with "warning:" or "error:" fails
#   w1          make -C <debug kernel> M=.build/w1 W=1 modules, rebuilt
#               from scratch; any "warning:" fails
#   layers      the objects of w1's build when w1 ran before it in the
#               same call, else a fresh build in .build/layers; nm lists
#               what each object of dmcore.ko defines and uses, and no
#               object may use a symbol of a higher floor (FLOOR below:
#               base, klist, kobject, device, self-check, clients,
#               module), and
#               no two objects may use each other, directly or through
#               others (a cycle in the graph of files); the references
#               are listed in .build/logs/lint-layers.log
#
# Builds happen in .build/ copies of the tree (like build-modules.sh), so
# nothing is written into the source tree. Logs: .build/logs/lint-*.log.
# Prints "lint: NAME: PASS|FAIL" per check and the offending output; exits
# non-zero when any check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=lint

checks=("$@")
rm -f "$DMC_BUILD/w1/.lint-built"
[ ${#checks[@]} -gt 0 ] || checks=(checkpatch sparse w1 layers)
for c in "${checks[@]}"; do
	case "$c" in checkpatch|sparse|w1|layers) ;; *) echo "usage: $0 [checkpatch|sparse|w1|layers]..." >&2; exit 2 ;; esac
done

logdir="$DMC_BUILD/logs"
mkdir -p "$logdir"

# Show at most N lines of a report, saying how much was left out.
show() {
	local f=$1 n=${2:-80} total
	total=$(wc -l <"$f")
	sed -n "1,${n}p" "$f" | sed 's/^/    /'
	[ "$total" -le "$n" ] || echo "    ... ($((total - n)) more lines in $f)"
}

# C sources to check: tracked ones, as the brief of `make check` says.
c_files() {
	if git -C "$DMC_SRC" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$DMC_SRC" ls-files -- '*.c' '*.h'
	else
		(cd "$DMC_SRC" && find . -path ./.build -prune -o \( -name '*.c' -o -name '*.h' \) -print |
			sed 's|^\./||' | grep -v '\.mod\.c$')
	fi
}

lint_checkpatch() {
	local src out="$logdir/lint-checkpatch.log" files=() f bad=0
	ensure_pkgs perl git
	src=$(src_tree) || return 1
	export CP="$src/scripts/checkpatch.pl" D="$out.d" DMC_ROOT DMC_SRC
	mapfile -t files < <(c_files)
	: >"$out"
	if [ ${#files[@]} -eq 0 ]; then
		echo "  (no tracked .c/.h files)"
		return 0
	fi
	# One checkpatch per file, $(nproc) at a time; each writes its own
	# report (.build/logs/lint-checkpatch.d/), joined in file order.
	local d="$out.d" i=0
	rm -rf "$d"
	mkdir -p "$d"
	for f in "${files[@]}"; do
		printf '%s\0%s\0' "$i" "$f"
		i=$((i + 1))
	done | xargs -0 -n 2 -P "$(nproc)" bash -c '
		n=$1 f=$2
		# Documented, per-file exceptions: scripts/checkpatch.exceptions.
		ignore=$(awk -v f="$f" "!/^#/ && \$1 == f { printf \"%s%s\", sep, \$2; sep = \",\" }" \
			"$DMC_ROOT/scripts/checkpatch.exceptions")
		if (cd "$DMC_SRC" && "$CP" --no-tree --strict --show-types --color=never \
			${ignore:+--ignore "$ignore"} -f "$f") >"$D/$n.log" 2>&1; then
			: >"$D/$n.ok"
		fi' lint-checkpatch
	for ((i = 0; i < ${#files[@]}; i++)); do
		cat "$d/$i.log" >>"$out"
		if [ ! -e "$d/$i.ok" ]; then
			bad=$((bad + 1))
			echo "  ${files[$i]}: not clean"
		fi
	done
	echo "  ${#files[@]} file(s) checked, $bad with findings"
	if [ $bad -gt 0 ]; then
		grep -E '^(ERROR|WARNING|CHECK):|^#[0-9]+: FILE:|^\+|^total: [1-9]|^total: 0 errors, ([1-9]|0 warnings, [1-9])' \
			"$out" >"$out.findings" || true
		show "$out.findings" 120
		return 1
	fi
}

# kbuild_lint NAME MAKEARGS... -- build a fresh copy with extra make
# arguments; the output is left in $logdir/lint-NAME.log.
kbuild_lint() {
	local name=$1 kdir dir out
	shift
	kdir=$(build_kernel debug) || { echo "  no debug kernel to build against"; return 2; }
	dir="$DMC_BUILD/$name"
	out="$logdir/lint-$name.log"
	sync_tree "$dir"
	clean_objects "$dir"
	# Paths in the log are made relative to the tree, as in the sources.
	if ! make -C "$kdir" M="$dir" -j"$(nproc)" "$@" modules 2>&1 |
		sed "s|$dir/||g" >"$out"; then
		echo "  the build failed:"
		show "$out" 60
		return 2
	fi
}

lint_sparse() {
	local out="$logdir/lint-sparse.log" rc=0
	ensure_pkgs sparse make gcc
	kbuild_lint sparse C=2 || rc=$?
	[ $rc -ne 2 ] || return 1
	if grep -i -E 'warning:|error:' "$out" >"$out.findings"; then
		echo "  sparse reported:"
		show "$out.findings" 80
		return 1
	fi
	echo "  $(grep -c '^  CHECK' "$out" || true) file(s) checked, no warnings"
}

lint_w1() {
	local out="$logdir/lint-w1.log" rc=0
	ensure_pkgs make gcc
	kbuild_lint w1 W=1 || rc=$?
	[ $rc -ne 2 ] || return 1
	# Its objects are a whole build of this tree: layers reads them.
	: >"$DMC_BUILD/w1/.lint-built"
	if grep -i -E 'warning:' "$out" >"$out.findings"; then
		echo "  W=1 warnings:"
		grep -i -E -A3 'warning:' "$out" >"$out.context" || true
		show "$out.context" 80
		return 1
	fi
	echo "  $(grep -c '^  CC \[M\]' "$out" || true) file(s) compiled, no warnings"
}

# The floors of dmcore.ko (README, "Layout"): a file may call files of its
# own floor and of floors below it, never above. Every object file of
# dmcore.ko must be placed here.
declare -A FLOOR=(
	[hashtab]=0 [phase]=0 [model_lock]=0
	[klist]=1
	[kobject]=2 [kobject_tree]=2 [kobject_attr]=2 [kobject_group]=2 [kobject_links]=2 [kobject_debug]=2 [kset]=2 [listener]=2
	[event]=2
	[device]=3 [devres]=3 [devres_group]=3 [device_add]=3 [device_sysfs]=3 [device_children]=3 [bus]=3 [driver]=3 [dd]=3 [deferred]=3 [device_move]=3
	[class]=3 [link]=3 [devlink]=3 [power]=3 [subsys]=3 [match]=3 [shutdown]=3 [device_online]=3 [link_state]=3 [runtime]=3 [runtime_ops]=3
	[invariants]=4 [snapshot]=4
	[sysfs_export]=5 [tree_files]=5 [dmcfs]=5 [dmcfs_node]=5 [dmcfs_file]=5 [control]=5 [control_objects]=5 [control_verbs]=5
	[control_devices]=5
	[bridge]=5 [bridge_shadow]=5
	[dm_core]=6
)
FLOOR_NAME=([0]=base [1]=klist [2]=kobject [3]=device [4]=self-check [5]=client [6]=module)

# The cycles (strongly connected groups of two or more files) in the
# "a -> b: sym" lines of $1, one per line, names sorted.
layer_cycles() {
	python3 - "$1" <<'PY'
import sys, collections
g = collections.defaultdict(set)
for line in open(sys.argv[1]):
    a, rest = line.split(' -> ', 1)
    g[a].add(rest.split(':', 1)[0])
index, low, stack, on, out = {}, {}, [], set(), []
def visit(root):
    work = [(root, iter(sorted(g[root])))]
    index[root] = low[root] = len(index); stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = len(index); stack.append(w); on.add(w)
                work.append((w, iter(sorted(g[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(' '.join(sorted(comp)))
for v in sorted(g):
    if v not in index:
        visit(v)
print('\n'.join(sorted(out)))
PY
}

lint_layers() {
	local out="$logdir/lint-layers.log" rc=0 dir objs o f sym def bad=0 calls=0
	ensure_pkgs make gcc binutils python3
	# The objects of w1's build when it ran just before (the code is the
	# same; W=1 only adds warnings), else a build of its own.
	dir="$DMC_BUILD/w1"
	if [ ! -e "$dir/.lint-built" ]; then
		kbuild_lint layers || rc=$?
		[ $rc -ne 2 ] || return 1
		dir="$DMC_BUILD/layers"
	fi
	mapfile -t objs < <(sed -n 's/^dmcore-y[ :+]*=//p; /^[[:space:]]/p' "$dir/Kbuild" |
		tr ' \\\t' '\n\n\n' | sed -n 's/\.o$//p')
	declare -A defined=()
	for o in "${objs[@]}"; do
		if [ -z "${FLOOR[$o]:-}" ]; then
			echo "  $o.o: not placed on a floor (scripts/lint.sh, FLOOR)"
			bad=$((bad + 1))
			continue
		fi
		while read -r sym; do defined[$sym]=$o; done < <(nm --defined-only "$dir/$o.o" |
			awk '$2 ~ /^[TDRB]$/ { print $3 }')
	done
	: >"$out"
	for o in "${objs[@]}"; do
		f=${FLOOR[$o]:-0}
		[ "$f" -gt 0 ] || continue
		while read -r sym; do
			def=${defined[$sym]:-}
			[ -n "$def" ] && [ "$def" != "$o" ] || continue
			calls=$((calls + 1))
			echo "$o -> $def: $sym" >>"$out"
			if [ "${FLOOR[$def]}" -gt "$f" ]; then
				echo "  $o.o (${FLOOR_NAME[$f]} floor) uses $sym of $def.o (${FLOOR_NAME[${FLOOR[$def]}]} floor)"
				bad=$((bad + 1))
			fi
		done < <(nm -u "$dir/$o.o" | awk '{ print $2 }')
	done
	local cycle
	while read -r cycle; do
		[ -n "$cycle" ] || continue
		echo "  cycle among files: $cycle"
		grep -E "^($(echo "$cycle" | tr ' ' '|')) -> ($(echo "$cycle" | tr ' ' '|')):" "$out" |
			sed 's/^/    /'
		bad=$((bad + 1))
	done < <(layer_cycles "$out")
	if [ $bad -gt 0 ]; then
		return 1
	fi
	echo "  ${#objs[@]} object files on 6 floors, $calls cross-file references, none upwards, no cycle among files"
}

failed=0
for c in "${checks[@]}"; do
	echo "lint: $c ..."
	if ( "lint_$c" ); then
		echo "lint: $c: PASS"
	else
		echo "lint: $c: FAIL (log: $logdir/lint-$c.log)"
		failed=$((failed + 1))
	fi
done
[ $failed -eq 0 ]
