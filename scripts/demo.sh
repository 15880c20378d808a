#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [--kernel stock|debug] [vm.sh options...] -- what `make demo`
# runs: build dmcore.ko for Debian's stock kernel (default), boot that
# kernel in QEMU and run tests/guest/demo.sh, which walks through what
# dmcore does, with dmctl (tools/dmctl, built static by
# scripts/build-guest-tools.sh). Other options go to vm.sh, e.g.
#   scripts/demo.sh --env DMC_DEMO_SCENES="load build tree graph"
# Build and QEMU chatter go to .build/logs/demo-*.log; only the demo is shown.
# The guest's `dmctl graph --dot` (the lines between "DMC-DOT-BEGIN NODES
# EDGES" and "DMC-DOT-END" of its output) is written to
# .build/demo/dmctl-graph.dot and rendered with Graphviz to
# .build/demo/dmctl-graph.svg, which must hold NODES nodes and EDGES edges.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DMC_STAGE=demo

kernel=stock
args=()
graph=1		# does the guest run the graph scene (all scenes do by default)?
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2:?--kernel needs an argument}; shift ;;
	--env)
		args+=("$1" "${2:?--env needs an argument}")
		case "$2" in
		DMC_DEMO_SCENES=*) [[ " ${2#*=} " == *" graph "* ]] || graph=0 ;;
		esac
		shift ;;
	*) args+=("$1") ;;
	esac
	shift
done

logs="$DMC_BUILD/logs"
mkdir -p "$logs"
if [ "$kernel" = stock ]; then
	what="Debian's stock kernel $(stock_release)"
else
	what="the $kernel test kernel"
fi

echo "dmcore demo"
echo "-----------"
echo "Building dmcore.ko for $what ..."
if ! dir=$("$DMC_ROOT/scripts/build-modules.sh" "$kernel" 2>"$logs/demo-build.log"); then
	tail -n 30 "$logs/demo-build.log"
	echo "The build failed; full log: $logs/demo-build.log"
	exit 1
fi
echo "Building dmctl for the guest, installing Graphviz ..."
if ! tdir=$("$DMC_ROOT/scripts/build-guest-tools.sh" 2>"$logs/demo-tools.log"); then
	tail -n 30 "$logs/demo-tools.log"
	echo "Building dmctl failed; full log: $logs/demo-tools.log"
	exit 1
fi
if ! (ensure_pkgs graphviz) >"$logs/demo-graphviz.log" 2>&1; then
	tail -n 10 "$logs/demo-graphviz.log"
	echo "Installing graphviz failed; full log: $logs/demo-graphviz.log"
	exit 1
fi
out="$DMC_BUILD/demo"
mkdir -p "$out"
rm -f "$out/dmctl-graph.dot" "$out/dmctl-graph.svg" "$out/dot-counts"
# The live scene: the bridge's oracle, and on the stock kernel Debian's
# e1000 module as a real driver to load, unbind and bind.
extra=(--add "$DMC_ROOT/tools/dmc-oracle.sh" --add "$tdir/dmctl")
if [ "$kernel" = stock ]; then
	e1000="$(stock_image)/lib/modules/$(stock_release)/kernel/drivers/net/ethernet/intel/e1000/e1000.ko"
	[ -f "$e1000" ] && extra+=(--add "$e1000")
else
	extra+=(--qemu-args "-device virtio-rng-pci,addr=04.0")
fi
echo "Booting it in QEMU (software emulation, 10-30 s) ..."
# The guest's output as it comes, but the DOT block goes to a file (its
# marker's counts to another).
set +e
"$DMC_ROOT/scripts/vm.sh" --kernel "$kernel" --modules "$dir" "${extra[@]}" \
	--script "$DMC_ROOT/tests/guest/demo.sh" --timeout 300 \
	--log "$logs/demo-console.log" "${args[@]}" 2>"$logs/demo-vm.log" |
	tee "$logs/demo-script.log" | awk -v dot="$out/dmctl-graph.dot" -v counts="$out/dot-counts" '
		/^DMC-DOT-BEGIN [0-9]+ [0-9]+$/ { on = 1; print $2, $3 > counts; close(counts); next }
		/^DMC-DOT-END$/ { if (on) close(dot); on = 0; next }
		on { print > dot; next }
		{ print; fflush() }'
rc=${PIPESTATUS[0]}
set -e
echo "-----------"
if [ -f "$out/dot-counts" ]; then
	# The graph as the guest's dmctl drew it, rendered here.
	read -r want_nodes want_edges <"$out/dot-counts"
	if ! dot -Tsvg "$out/dmctl-graph.dot" >"$out/dmctl-graph.svg" 2>"$logs/demo-dot.log"; then
		sed 's/^/  /' "$logs/demo-dot.log"
		echo "dot -Tsvg could not render the guest's graph ($out/dmctl-graph.dot)."
		[ "$rc" -ne 0 ] || rc=1
	else
		nodes=$(grep -c 'class="node"' "$out/dmctl-graph.svg" || true)
		edges=$(grep -c 'class="edge"' "$out/dmctl-graph.svg" || true)
		if [ "$nodes" != "$want_nodes" ] || [ "$edges" != "$want_edges" ]; then
			echo "The SVG has $nodes nodes and $edges edges; dmctl graph said $want_nodes and $want_edges."
			[ "$rc" -ne 0 ] || rc=1
		else
			echo "The model as a graph ($nodes nodes, $edges edges), rendered by dot -Tsvg:"
			echo "  $out/dmctl-graph.svg   (from $out/dmctl-graph.dot)"
		fi
	fi
elif [ $graph -eq 1 ] && [ "$rc" -eq 0 ]; then
	echo "The graph scene ran, but its DOT did not come back (no DMC-DOT-BEGIN line)."
	rc=1
fi
if [ "$rc" -ne 0 ]; then
	sed 's/^/  /' "$logs/demo-vm.log"
	echo "The demo failed (status $rc)."
fi
echo "Full kernel log of this run: $logs/demo-console.log"
exit "$rc"
