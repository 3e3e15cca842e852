#!/bin/sh
# A stand-in for a worker gone wrong: it writes 12 MB without a newline, then a line break, then
# says hello like the real worker, then reads its input and writes nothing more.
head -c 12000000 /dev/zero | tr '\0' x
echo
echo '{"type":"hello","protocol":2,"built_with_cuda":false}'
exec cat >/dev/null
