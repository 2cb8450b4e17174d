#!/usr/bin/env bash
# Runs the Weir chart's pods under Podman through install, a rolling update, a forced pod deletion,
# scale-downs (kubectl scale, helm upgrade --set replicaCount), helm test and the state-changing upgrade
# in savepoint mode, against a test broker,
# with a load and exact counts throughout. Prints one JSON object per line (steps with figures and
# what was real or simulated, and the runner's events); Maven's and Kafka's logs go to stderr.
#
#   deploy/kubernetes/run-scenario.sh [--build-image] [--runs N] [--variant plain|tls] [extra mvn arguments, e.g. -o]
#
# --variant tls runs the same steps with HTTPS (a key store Secret the runner makes), the token
# required on every endpoint but the probes (http.auth.scope=all) and queries on http.adminPort.
#
# --runs N runs the scenario N times, keeps each run's output in
# deploy/kubernetes/results/<UTC time>[-tls]/run-<i>.jsonl and writes the variant's results section
# of README.md here from them (a run that fails is kept and reported; the script then exits 1).
#
# Needs podman (apt-get install podman runc) and the samples image localhost/weir-samples:latest;
# --build-image builds the jars (mvn package -DskipTests) and the image first. See README.md here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=false
runs=0
variant=plain
while [[ $# -gt 0 ]]; do
    case $1 in
        --build-image) build=true; shift ;;
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --variant) variant=${2:?--variant needs plain or tls}; shift 2 ;;
        *) break ;;
    esac
done
if $build; then
    mvn -B -q package -DskipTests "$@" >&2
    bash deploy/containers/build-image.sh >&2
fi
command -v podman >/dev/null || { echo "run-scenario.sh: podman is missing (apt-get install podman runc)" >&2; exit 3; }

# Maven writes a colour reset on stdout even when told not to colour: taken out, so every line is JSON.
scenario() {
    mvn -B -q -Dstyle.color=never -pl deploy -am verify -Pkubernetes-podman -DskipTests "$@" | sed -u 's/\x1b\[[0-9;]*m//g'
}
case $variant in
    plain | tls) ;;
    *) echo "run-scenario.sh: unknown variant '$variant' (plain or tls)" >&2; exit 2 ;;
esac

if [[ $runs -eq 0 ]]; then
    scenario -Dscenario.variant="$variant" "$@"
    exit
fi
dir=deploy/kubernetes/results/$(date -u +%Y-%m-%dT%H%MZ)$([[ $variant == plain ]] || echo "-$variant")
mkdir -p "$dir"
failed=0
for ((i = 1; i <= runs; i++)); do
    echo "run-scenario.sh: run $i of $runs, output in $dir/run-$i.jsonl" >&2
    scenario -Dscenario.variant="$variant" "$@" | tee "$dir/run-$i.jsonl" || failed=$((failed + 1))
done
scenario "$@" -Dscenario.main=io.weir.deploy.kubernetes.scenario.ScenarioResults -Dscenario.args="$root/$dir" -Dscenario.variant="$variant" >&2
[[ $failed -eq 0 ]] || { echo "run-scenario.sh: $failed of $runs run(s) failed; see $dir" >&2; exit 1; }
