#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Negative control of hotplug.sh: the module loaded with hotplug=N.
NEG=1 . /mmt/hotplug.sh
