#!/bin/bash
# Smoke test of scripts/slurm/tune.sbatch on a real (one-node) Slurm cluster: starts the cluster
# in a temporary folder (setup_local_slurm.sh), runs a tiny 3-island config (pattern evaluator,
# fits every 2 rounds on the pooled games of all islands) in one process for
# reference, submits the sbatch script with 3 tasks, requeues the job once an island has saved
# a round (the job restarts and every island resumes), waits, compares every file with the
# reference, and stops the daemons it started. Needs root and the Slurm packages
# (setup_local_slurm.sh install); not part of `cargo test`.
#
#   cargo build --release && sudo scripts/slurm/smoke.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${CHECKERS_TUNER:-$repo/target/release/checkers-tuner}")
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "smoke.sh: Slurm is not installed here (sudo $repo/scripts/slurm/setup_local_slurm.sh install)"
    exit 0
fi
work=$(mktemp -d /tmp/checkers-slurm.XXXXXX)
cleanup() { "$repo/scripts/slurm/setup_local_slurm.sh" stop "$work/cluster"; }
trap cleanup EXIT
"$repo/scripts/slurm/setup_local_slurm.sh" start "$work/cluster" > "$work/cluster.log"
export SLURM_CONF=$work/cluster/slurm.conf

cat > "$work/tiny.toml" <<'CONF'
name = "slurm-smoke"
seed = 3
[population]
size = 12
[tournament]
rounds = 6
openings = "random:6"
max_plies = 100
playoff_openings = 1
[weights]
evaluator = "patterns"
[search]
min_depth = 3
max_depth = 6
[evolution]
fit_every = 2
[validation]
every = 3
openings = 4
[islands]
count = 3
migration_interval = 2
migrants = 2
CONF

echo "== reference: the 3 islands in one process"
start=$(date +%s.%N)
"$bin" tune "$work/tiny.toml" --out "$work/reference" --quiet --threads 2
echo "   $(echo "$(date +%s.%N) - $start" | bc) s"

echo "== sbatch: 3 tasks (one per island) of 1 CPU on the one node"
export CHECKERS_TUNER=$bin
start=$(date +%s.%N)
job=$(sbatch --parsable --nodes=1 --ntasks=3 --ntasks-per-node=3 --cpus-per-task=1 \
    --output="$work/job.out" \
    "$repo/scripts/slurm/tune.sbatch" "$work/tiny.toml" "$work/slurm-run")
echo "   job $job submitted"

# Requeue once island 1 has saved a round: Slurm kills every task and runs the script again.
for _ in $(seq 1 600); do
    [[ -f $work/slurm-run/island-1/checkpoint.json ]] && break
    sleep 0.1
done
rounds=$(grep -o '"completed_rounds": [0-9]*' "$work/slurm-run/island-1/checkpoint.json" || true)
echo "   island 1 saved ($rounds): scontrol requeue $job"
scontrol requeue "$job"

state=
for _ in $(seq 1 1800); do
    state=$(scontrol show job "$job" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    [[ $state == COMPLETED || $state == FAILED || $state == CANCELLED ]] && break
    # A requeued job waits for its begin time; let it go at once.
    if [[ $state == PENDING ]]; then scontrol release "$job" 2> /dev/null || true; fi
    sleep 0.5
done
echo "   job $job: $state after $(echo "$(date +%s.%N) - $start" | bc) s"
scontrol show job "$job" | grep -oE '(Restarts|ExitCode)=[^ ]*' | tr '\n' ' '
echo
echo "== job output"
sed 's/^/   /' "$work/job.out"

echo "== compare with the reference (every file but timings.csv and .lock)"
status=0
count=0
while IFS= read -r file; do
    count=$((count + 1))
    if ! cmp -s "$work/reference/$file" "$work/slurm-run/$file"; then
        echo "   DIFFERS: $file"
        status=1
    fi
done < <(cd "$work/reference" && find . -type f ! -name timings.csv ! -name .lock | sort)
extra=$(diff <(cd "$work/reference" && find . -type f ! -name .lock | sort) \
    <(cd "$work/slurm-run" && find . -type f ! -name .lock | sort) || true)
[[ -z $extra ]] || { echo "   other files: $extra"; status=1; }
if [[ $status == 0 ]]; then
    echo "   identical: $count files ($(cd "$work/slurm-run" && ls | tr '\n' ' '))"
fi
echo "   best: $(head -3 "$work/slurm-run/playoff.csv" | tail -2 | tr '\n' ' ')"
echo "== folder $work"
exit $status
