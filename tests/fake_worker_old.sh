#!/bin/sh
# A stand-in for a `cuda-lessons-cli serve` built before named parameters: it says hello in
# protocol 1 and writes every line it is sent to the file named by $1 (which should stay empty).
echo '{"type":"hello","protocol":1,"built_with_cuda":false}'
: >"$1"
while IFS= read -r line; do
    printf '%s\n' "$line" >>"$1"
done
