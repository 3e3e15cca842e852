#!/usr/bin/env bash
# scripts/install-deps.sh on distributions this machine is not, with /etc/os-release, dpkg-query,
# apt-get, apt-cache and cmake replaced by stand-ins on PATH: nothing is installed. Checks that
# every refusal names its reason (a package the archive lacks, an old cmake), that an unknown
# system is told it is untried, and that Debian 12, 13 and Ubuntu 24.04 with everything pass.
# Usage: install_deps.sh SCRIPT OUT_DIR
set -u
script=$1 out=$2
rm -rf "$out" && mkdir -p "$out/bin"
fail() {
    echo "FAILED: $*"
    exit 1
}
os() {  # os NAME ID VERSION_ID CODENAME
    printf 'ID=%s\nVERSION_ID="%s"\nVERSION_CODENAME=%s\nPRETTY_NAME="%s"\n' "$2" "$3" "$4" \
        "$2 $3" >"$out/$1"
}
os bookworm debian 12 bookworm
os trixie debian 13 trixie
os jammy ubuntu 22.04 jammy
os noble ubuntu 24.04 noble
printf 'ID=arch\nPRETTY_NAME="Arch Linux"\n' >"$out/arch"
# Stand-ins: $MISSING are not installed, $UNAVAILABLE have no candidate, cmake is $CMAKE_VERSION.
cat >"$out/bin/dpkg-query" <<'EOF'
#!/bin/sh
for a; do last=$a; done
case " $MISSING " in *" $last "*) exit 1 ;; esac
echo "install ok installed"
EOF
cat >"$out/bin/apt-cache" <<'EOF'
#!/bin/sh
case " $UNAVAILABLE " in *" $2 "*) echo "  Candidate: (none)" ;; *) echo "  Candidate: 1.0" ;; esac
EOF
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$out" >"$out/bin/apt-get"
printf '#!/bin/sh\necho "cmake version $CMAKE_VERSION"\n' >"$out/bin/cmake"
printf '#!/bin/sh\necho 0\n' >"$out/bin/id"  # root: no sudo
chmod +x "$out/bin/"*

run() {  # run OS: runs the script, output in $out/log, exit code in $rc
    rm -f "$out/apt.log"
    LESSONS_OS_RELEASE="$out/$1" PATH="$out/bin:$PATH" bash "$script" >"$out/log" 2>&1
    rc=$?
}
expect() {  # expect RC TEXT WHAT
    [ "$rc" = "$1" ] || { cat "$out/log"; fail "$3: exit $rc, not $1"; }
    [ -z "$2" ] || grep -qF -- "$2" "$out/log" || { cat "$out/log"; fail "$3: no '$2'"; }
}

export MISSING="" UNAVAILABLE="" CMAKE_VERSION=3.25.1
for d in bookworm trixie noble; do
    run $d
    expect 0 "" "$d with everything installed"
    [ ! -e "$out/apt.log" ] || fail "$d: apt-get ran with nothing missing"
done

MISSING="libimgui-dev xdotool" UNAVAILABLE=""
run trixie
expect 0 "Installing: libimgui-dev xdotool" "trixie, two packages missing"
grep -q "install .*libimgui-dev xdotool" "$out/apt.log" || fail "trixie: apt-get install not run"

MISSING="libimgui-dev xdotool" UNAVAILABLE="libimgui-dev"
run noble
expect 1 "has no package named: libimgui-dev." "noble without universe"
expect 1 "add-apt-repository universe" "noble without universe"
grep -q " install " "$out/apt.log" && fail "noble: apt-get install ran although a package is missing"
run bookworm
expect 1 "has no package named: libimgui-dev." "bookworm without libimgui-dev"
grep -qF universe "$out/log" && fail "bookworm: the Ubuntu hint was given on Debian"

MISSING="" UNAVAILABLE="" CMAKE_VERSION=3.22.1
run jammy
expect 1 "cmake 3.22.1 is installed; CUDA Lessons needs 3.25 or newer" "jammy's cmake"
CMAKE_VERSION=3.28.3
run jammy
expect 0 "" "jammy with a newer cmake"

CMAKE_VERSION=3.25.1
run arch
expect 0 "Arch Linux is not one of Debian 12, Debian 13, Ubuntu 22.04, Ubuntu 24.04" "arch"
echo "install_deps: every case passed"
