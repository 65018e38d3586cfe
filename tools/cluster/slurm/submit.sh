#!/bin/bash
# Submits a tilekit study to Slurm: an array job of N slices (study.sbatch), then the merge
# (merge.sbatch) once every slice has succeeded; prints the merge job's id.
#
#   submit.sh [--wait] N DIR [simulate arguments...]
#
# --wait returns when the merge has ended, with its exit status (sbatch --wait). A study that
# stopped (a node lost, a time limit) resumes by submitting it again: the slices already in DIR
# are kept. Set TILEKIT to the binary's path if it is not on the PATH of the nodes.
set -euo pipefail
wait=()
if [ "${1:-}" = --wait ]; then
  wait=(--wait)
  shift
fi
shards=${1:?usage: submit.sh [--wait] N DIR [simulate arguments...]}
dir=${2:?usage: submit.sh [--wait] N DIR [simulate arguments...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
array=$(sbatch --parsable --array="1-$shards" --output="$dir/slurm-%A_%a.out" \
  "$here/study.sbatch" "$shards" "$dir" "$@")
# A failed slice cancels the merge (kill-on-invalid-dep) rather than leaving it pending.
sbatch --parsable "${wait[@]}" --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes \
  --output="$dir/slurm-merge-%j.out" "$here/merge.sbatch" "$dir"
