#!/bin/sh
# A stand-in remote shell for the tests of runs across hosts (CUDA_LESSONS_RSH), on one machine
# with several GPUs: "host" nodeN runs its command here with only GPU N visible, as if each GPU
# were a machine of its own. Called as: rsh-as-hosts.sh HOST COMMAND ARGS...
# Like OpenSSH, it joins the command's words with spaces into one line for a shell to parse, so a
# word the caller did not quote is split and expanded here as it would be on the remote host.
host=$1
shift
case $host in
node[0-9]*) CUDA_VISIBLE_DEVICES=${host#node}; export CUDA_VISIBLE_DEVICES ;;
*) echo "rsh-as-hosts.sh: unknown host '$host' (use node0, node1, ...)" >&2; exit 255 ;;
esac
exec sh -c "$*"
