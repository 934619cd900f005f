#!/bin/sh
# Interactive use: a shell on the serial console.
echo "mm-tiering guest shell; 'exit' powers off"
setsid cttyhack sh
