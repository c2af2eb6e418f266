#!/bin/bash
# Smoke test of scripts/slurm/datagen.sbatch on a real (one-node) Slurm cluster: starts the
# cluster in a temporary folder (setup_local_slurm.sh), plays a tiny data set's 3 shards one
# after another in this process for reference, submits the sbatch script as an array of 3
# tasks, requeues the array once a shard has written a block (every task restarts and
# continues its shard), waits, compares every shard's store with the reference's, and checks
# that `fit` reads both folders as the same data set. Needs root and the Slurm packages
# (setup_local_slurm.sh install); not part of `cargo test`.
#
#   cargo build --release && sudo scripts/slurm/datagen_smoke.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${CHECKERS_TUNER:-$repo/target/release/checkers-tuner}")
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "datagen_smoke.sh: Slurm is not installed here (sudo $repo/scripts/slurm/setup_local_slurm.sh install)"
    exit 0
fi
work=$(mktemp -d /tmp/checkers-datagen.XXXXXX)
cleanup() { "$repo/scripts/slurm/setup_local_slurm.sh" stop "$work/cluster"; }
trap cleanup EXIT
"$repo/scripts/slurm/setup_local_slurm.sh" start "$work/cluster" > "$work/cluster.log"
export SLURM_CONF=$work/cluster/slurm.conf

cat > "$work/tiny.toml" <<'CONF'
name = "datagen-smoke"
weights = "material"
games = 120
batch = 4
nodes = [400, 800]
book_plies = 6
database_pieces = 0
max_plies = 160
CONF

echo "== reference: the 3 shards in this process, one after another"
for k in 1 2 3; do
    "$bin" datagen "$work/tiny.toml" --out "$work/reference" --shard "$k/3" --quiet --threads 1 > /dev/null
done

echo "== sbatch --array=0-2: one task of 1 CPU per shard"
export CHECKERS_TUNER=$bin
start=$(date +%s.%N)
job=$(sbatch --parsable --array=0-2 --cpus-per-task=1 --output="$work/job-%a.out" \
    "$repo/scripts/slurm/datagen.sbatch" "$work/tiny.toml" "$work/slurm-data")
echo "   job $job submitted"
for _ in $(seq 1 600); do
    [[ $(stat -c %s "$work/slurm-data/shard-2-of-3/positions.bin" 2> /dev/null || echo 0) -gt 400 ]] && break
    sleep 0.1
done
echo "   shard 2 wrote a block: scontrol requeue $job"
scontrol requeue "$job" || true

for _ in $(seq 1 1800); do
    states=$(squeue -h -j "$job" -o %T 2> /dev/null | sort -u | tr '\n' ' ')
    [[ -z $states ]] && break
    if [[ $states == *PENDING* ]]; then scontrol release "$job" 2> /dev/null || true; fi
    sleep 0.5
done
echo "   job $job done after $(echo "$(date +%s.%N) - $start" | bc) s"
for k in 0 1 2; do
    echo "   task $k: $(grep -E '^job|continued|games,' "$work/job-$k.out" | tr '\n' ' ')"
done

echo "== compare with the reference"
status=0
for k in 1 2 3; do
    file=shard-$k-of-3/positions.bin
    if cmp -s "$work/reference/$file" "$work/slurm-data/$file"; then
        echo "   identical: $file ($(stat -c %s "$work/slurm-data/$file") bytes)"
    else
        echo "   DIFFERS: $file"
        status=1
    fi
done
for dir in reference slurm-data; do
    "$bin" fit "$work/$dir" -o "$work/$dir.json" --unique --first-ply 6 --threads 2 \
        2> /dev/null | grep -E "^(games|positions):" | sed "s/^/   $dir: /"
done
if ! diff <(grep -v '"source"' "$work/reference.json") <(grep -v '"source"' "$work/slurm-data.json") > /dev/null; then
    echo "   the fits differ"
    status=1
fi
echo "== folder $work"
exit $status
