#!/bin/sh
# A stand-in for a worker that starts but never says hello (a wrong program, or one that hangs):
# it reads its input and writes nothing.
exec cat >/dev/null
