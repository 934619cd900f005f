# SPDX-License-Identifier: GPL-2.0
# mm-tiering: out-of-tree build (Kbuild does the kernel side) and the
# project's commands.  `make` builds against the running kernel's headers, or
# KDIR=<kernel build dir>.
# (Kbuild, not this file, is what the kernel's build reads: this file is
# only run by hand or by DKMS, which passes KERNELRELEASE on its command line.)

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(shell pwd)

all: modules

# The kernel's features are found by compiling probes against $(KDIR)
# (conftest/); Kbuild refuses to build without their header.  Run every time:
# the header is only rewritten when a result changed.
modules:
	MAKE="$(MAKE)" sh conftest/conftest.sh $(KDIR) $(PWD)/mm-tiering/mmt_config.h
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean 2>/dev/null || \
		rm -rf *.o *.ko *.mod* .*.cmd modules.order Module.symvers \
		mm-tiering/*.o mm-tiering/.*.cmd
	rm -f mm-tiering/mmt_config.h conftest/*.o conftest/.*.cmd \
		conftest/conftest.log
	rm -rf build

# Provision the cached toolchain, kernel and QEMU (see scripts/provision.sh).
provision:
	bash scripts/provision.sh all

# Build the package, install it with apt inside the trixie root (DKMS builds
# the module against Debian's headers there) and stage it for the guests.
dkms:
	bash scripts/build-dkms.sh

# The Debian packages (dh-dkms), built inside the trixie root:
# build/deb/mm-tiering-dkms_<version>_all.deb (the module's source) and
# build/deb/mm-tiering-tools_<version>_all.deb (service, status tool).
deb:
	bash scripts/build-deb.sh

# Boot the Debian guest in QEMU (DRAM + CXL-like node), start the service
# and show pages moving with mm-tiering-status.
demo:
	bash scripts/demo.sh

# Everything: build, DKMS install, QEMU scenarios, KUnit; ends with
# "N passed, N failed".  T="phase tiering": those scenarios only (with
# "kunit", "bench", "reach", "piuparts", "debug", "core": those parts too).
check:
	bash scripts/check.sh $(T)

# One scenario booted N times on each kernel (K="...", default the stock
# kernel and 6.12): each check's passes over the runs, in build/soak/T.
# A measurement for rare failures, not part of make check.
soak:
	bash scripts/soak.sh "$(T)" "$(N)" $(K)

# mm_tiering against the alternatives (not a test): CSV, table, plot in
# build/bench; see Documentation/bench.rst.
bench:
	bash scripts/bench.sh

# KUnit tests of the pure logic in a UML kernel built from linux-source.
kunit:
	bash scripts/kunit.sh

checkpatch:
	bash scripts/checkpatch.sh

.PHONY: all modules clean provision dkms deb demo check soak kunit bench checkpatch
