#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Interactive use: a shell on the serial console.
echo "mm-tiering guest shell; 'exit' powers off"
setsid cttyhack sh
