# SPDX-License-Identifier: GPL-2.0
#
# make          build dmcore.ko (and the KUnit module when KDIR has KUnit)
#               against KDIR, the usual out-of-tree way
# make check    build the debug test kernel, run every test, lint; prints
#               a per-stage summary and "N passed, N failed"
# make demo     boot Debian's stock kernel in QEMU and show dmcore at work
# make shell    interactive guest (KERNEL=debug|stock) with dmcore loaded
# make torture  the torture run: 4 threads x 10 minutes of random
#               concurrent operations on the debug kernel, with invariant
#               checks (TORTURE_SEED=N replays a run's op sequences)
# make bench    dmcore against the kernel's driver core in one boot of the
#               release test kernel: a table and .build/bench/results.json
# make tools    dmctl, the command-line tool (tools/dmctl), and the JSON
#               checker its tests use, native: .build/tools/
# make bench-ab BASE=REV  dmcore at REV against the working tree on the
#               hot path (add+bind+del), in one boot: .build/bench/ab.txt
# make profile  where a device's add and delete spend their time, step by
#               step, on both cores (Debian's stock kernel's function graph
#               tracer): .build/profile/table.txt
#
# KDIR defaults to the running kernel's build tree when it exists, else to
# the harness's cached debug test kernel (built on first use).

KDIR ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then \
		echo /lib/modules/$$(uname -r)/build; \
	else \
		$(CURDIR)/scripts/build-kernel.sh debug; \
	fi)
KERNEL ?= debug

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# dmctl and its tests' JSON checker (userspace, no external libraries).
TOOLS_CFLAGS ?= -Wall -Wextra -O2
DMCTL_SRC := $(wildcard $(CURDIR)/tools/dmctl/*.c)
DMCTL_HDR := $(wildcard $(CURDIR)/tools/dmctl/*.h)

tools: $(CURDIR)/.build/tools/dmctl $(CURDIR)/.build/tools/dmc-json-check

$(CURDIR)/.build/tools/dmctl: $(DMCTL_SRC) $(DMCTL_HDR)
	@mkdir -p $(dir $@)
	gcc $(TOOLS_CFLAGS) -o $@ $(DMCTL_SRC)

$(CURDIR)/.build/tools/dmc-json-check: $(CURDIR)/tests/tools/dmc-json-check.c
	@mkdir -p $(dir $@)
	gcc $(TOOLS_CFLAGS) -o $@ $<

clean:
	rm -rf .build
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

check:
	scripts/check.sh

demo:
	scripts/demo.sh

shell:
	scripts/vm.sh --kernel $(KERNEL) --interactive

lint:
	scripts/lint.sh

bench:
	scripts/bench.sh

bench-ab:
	scripts/bench-ab.sh $(BASE)

profile:
	scripts/sample.sh
	scripts/profile.sh

torture:
	scripts/torture.sh

.PHONY: all modules clean check demo shell lint bench bench-ab profile torture tools
