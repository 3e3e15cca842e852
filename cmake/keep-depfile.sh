#!/bin/sh
# The compiler launcher of the PTX listings (cmake/MachineCode.cmake): runs the compile given as
# its arguments, then copies the dependency file it wrote (the file after -MF) to FILE.kept.
# Ninja reads a compile's dependency file into its own log and deletes it; the machine-code
# table keys each recorded SASS listing by the project files that file names
# (cmake/MachineCodeScript.cmake, scripts/record-sass.sh), and reads the copy.
dep="" after_mf=0
for a in "$@"; do
    [ "$after_mf" = 1 ] && dep=$a
    after_mf=0
    [ "$a" = "-MF" ] && after_mf=1
done
"$@" || exit $?
if [ -n "$dep" ] && [ -f "$dep" ]; then
    cp "$dep" "$dep.kept.tmp" && mv "$dep.kept.tmp" "$dep.kept"
fi
