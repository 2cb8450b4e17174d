#!/bin/bash
# Runs the application services of docker-compose.yml (word-count-1, word-count-2, load) in real
# containers with podman-compose, against a Kafka broker outside the containers, and checks what
# docs/deploying.md promises: both replicas turn ready, output arrives, a replica killed with SIGKILL has
# its tasks taken over by the other within seconds (failure detection) and gets tasks back when it
# is started again on its volume, a replica restarted gracefully comes back with its own tasks while
# the other one keeps its tasks and receives no new assignment (a restart moves nothing), and the
# replicas stop gracefully within docker-compose.yml's grace period. Then it tears everything down.
#
#   WEIR_BOOTSTRAP_SERVERS=127.0.0.1:PORT deploy/compose/run-app-services.sh
#
# The broker must have the topics `lines` and `word-counts` (ComposeAppServicesIT starts a testkit
# broker, creates them and runs this script). Only the Kafka and topic services are replaced, by
# deploy/compose/test-override.yml: no registry is needed, only the Weir image:
#   WEIR_IMAGE     the image to run (default localhost/weir-samples:latest); when it is missing,
#                  deploy/containers/build-image.sh builds it
#   WEIR_COMPOSE_PROJECT  the compose project name (default weir-compose-test)
# Installs podman, runc and podman-compose with apt-get when missing (as root). Prints progress on
# stderr and one `RESULT name=value` line per figure on stdout. Exit status: 0 when every check
# passed, 1 when one failed, 3 when there is no image and no way to build it (nothing was run).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
: "${WEIR_BOOTSTRAP_SERVERS:?set WEIR_BOOTSTRAP_SERVERS to the broker, host:port}"
export WEIR_IMAGE=${WEIR_IMAGE:-localhost/weir-samples:latest}
PROJECT=${WEIR_COMPOSE_PROJECT:-weir-compose-test}
# Read by test-override.yml's stand-in Kafka health check.
export WEIR_BROKER_HOST=${WEIR_BOOTSTRAP_SERVERS%%:*}
broker_rest=${WEIR_BOOTSTRAP_SERVERS#*:}
export WEIR_BROKER_PORT=${broker_rest%%,*}
# Runtime and limits for every container this script creates or starts (see the file).
export CONTAINERS_CONF="$ROOT/deploy/compose/podman/containers.conf"
# docker-compose.yml's stop_grace_period; podman-compose 1.0.3 ignores it, so stop and down get it.
GRACE=45
# Weir's HTTP ports on the host: the ports docker-compose.yml publishes, which test-override.yml
# makes the replicas listen on directly.
declare -A PORT=([word-count-1]=8081 [word-count-2]=8082)

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

install_tools() {
  local missing=()
  command -v podman > /dev/null || missing+=(podman)
  [[ -x /usr/sbin/runc ]] || missing+=(runc)
  command -v podman-compose > /dev/null || missing+=(podman-compose)
  command -v curl > /dev/null || missing+=(curl)
  if ((${#missing[@]})); then
    [[ $(id -u) == 0 ]] || { log "missing ${missing[*]}; install them (apt-get install ${missing[*]})"; exit 1; }
    log "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
  fi
}

ensure_image() {
  podman image exists "$WEIR_IMAGE" && return
  if [[ $WEIR_IMAGE == localhost/weir-samples:latest && -x deploy/containers/build-image.sh ]]; then
    log "building $WEIR_IMAGE with deploy/containers/build-image.sh"
    deploy/containers/build-image.sh >&2
    podman image exists "$WEIR_IMAGE" && return
  fi
  log "no image $WEIR_IMAGE, and deploy/containers/build-image.sh did not build it: nothing run"
  exit 3
}

# rm -v: the image declares VOLUME /var/lib/weir, so the services without a named volume there (load
# and the stand-ins) get anonymous ones, which `down -v` of podman-compose 1.0.3 would leave behind.
compose() {
  podman-compose --podman-path "$ROOT/deploy/compose/podman/podman-host-network.sh" --podman-rm-args=-v \
    -p "$PROJECT" -f docker-compose.yml -f deploy/compose/test-override.yml "$@"
}

container_of() {
  podman ps -a --filter "label=io.podman.compose.project=$PROJECT" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -1
}

http() { curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:${PORT[$1]}$2" || true; }
# The sum of a meter's series on a replica's /metrics (0 when absent or unreachable).
metric() {
  { curl -s -m 5 "http://127.0.0.1:${PORT[$1]}/metrics" || true; } |
    awk -v name="$2" '$0 ~ "^" name "[{ ]" { s += $NF } END { printf "%.0f", s }'
}
# The task ids a replica's /info lists, sorted, on one line.
tasks() {
  { curl -s -m 5 "http://127.0.0.1:${PORT[$1]}/info" || true; } |
    grep -o '"[0-9]*_[0-9]*"' | tr -d '"' | sort | tr '\n' ' '
}

# Polls `$2...` once a second until it succeeds or $1 seconds have passed.
await() {
  local seconds=$1 deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 1
  done
}
ready() { [[ $(http "$1" /health/ready) == 200 ]]; }
both_ready() { ready word-count-1 && ready word-count-2; }
produced() { (($(metric "$1" weir_records_out_total) > $2)); }
running() { [[ $(podman inspect -f '{{.State.Running}}' "$1" 2> /dev/null) == true ]]; }
stopped() { ! running "$1"; }

dump_logs() {
  for service in word-count-1 word-count-2 load; do
    local name
    name=$(container_of "$service") || true
    [[ -n $name ]] || continue
    log "--- last lines of $service ($name)"
    podman logs --tail 40 "$name" >&2 2>&1 || true
  done
}

teardown() {
  local status=$?
  ((status == 0 || status == 3)) || dump_logs
  if [[ ${STARTED:-false} == true ]]; then
    log "tearing down (grace ${GRACE} s)"
    compose down -t "$GRACE" -v > /dev/null 2>&1 || log "teardown reported an error"
    # podman-compose 1.0.3 creates the project network but never removes it.
    podman network rm "${PROJECT}_default" > /dev/null 2>&1 || true
  fi
  exit "$status"
}

install_tools
ensure_image
trap teardown EXIT
# Leftovers of an interrupted run would keep the old state and ports.
compose down -t 5 -v > /dev/null 2>&1 || true
STARTED=true

log "up: word-count-1 word-count-2 load (image $WEIR_IMAGE, broker $WEIR_BOOTSTRAP_SERVERS)"
t0=$(now)
compose up -d --no-build word-count-1 word-count-2 load > /dev/null
await 180 both_ready || fail "the replicas were not both ready (/health/ready 200) within 180 s"
echo "RESULT up_to_ready_seconds=$(since "$t0")"
log "both replicas ready: word-count-1 tasks [$(tasks word-count-1)], word-count-2 tasks [$(tasks word-count-2)]"

await 90 produced word-count-1 0 || fail "word-count-1 wrote no output within 90 s"
await 90 produced word-count-2 0 || fail "word-count-2 wrote no output within 90 s"
log "output arrives: records out $(metric word-count-1 weir_records_out_total) + $(metric word-count-2 weir_records_out_total)"

# Readiness does not show a rebalance still under way (the second replica's arrival can take two
# rounds), so the kill waits until the group has settled: both replicas ready, holding tasks, and
# no assignment received by either for 10 s.
settled_since=$SECONDS
last_state=""
settled() {
  local state
  state="$(tasks word-count-1)|$(tasks word-count-2)|$(metric word-count-1 weir_rebalances_total)|$(metric word-count-2 weir_rebalances_total)"
  if [[ $state != "$last_state" ]] || ! both_ready || [[ $state == "|"* || $state == *"||"* ]]; then
    last_state=$state
    settled_since=$SECONDS
    return 1
  fi
  ((SECONDS - settled_since >= 10))
}
await 120 settled || fail "the group did not settle (no assignment for 10 s, both ready) within 120 s"

tasks1=$(tasks word-count-1)
tasks2=$(tasks word-count-2)
[[ -n $tasks1 && -n $tasks2 ]] || fail "a replica holds no task: [$tasks1] [$tasks2]"

# A crash: word-count-1 takes word-count-2's tasks over once word-count-2 has sent no heartbeat for
# failure.detection.ms (3 s by default), without waiting for the 60 s session timeout; started again
# on its volume, word-count-2 gets tasks back through state-aware assignment.
all_tasks=$(printf '%s\n' $tasks1 $tasks2 | sort | tr '\n' ' ')
holds_all() { [[ $(tasks word-count-1) == "$all_tasks" ]] && ready word-count-1; }
victim=$(container_of word-count-2)
log "killing word-count-2 ($victim) with SIGKILL"
t1=$(now)
podman kill --signal KILL "$victim" > /dev/null
await 30 stopped "$victim" || fail "word-count-2 still running 30 s after SIGKILL"
await 60 holds_all || fail "word-count-1 did not take over word-count-2's tasks within 60 s of its SIGKILL: [$(tasks word-count-1)]"
echo "RESULT takeover_seconds=$(since "$t1")"
out1=$(metric word-count-1 weir_records_out_total)
await 60 produced word-count-1 "$out1" || fail "word-count-1 wrote no output within 60 s of the takeover"
log "word-count-1 took over every task [$(tasks word-count-1)] and writes output"

t2=$(now)
compose start word-count-2 > /dev/null
await 120 ready word-count-2 || fail "word-count-2 not ready within 120 s of its start after the SIGKILL"
await 120 settled || fail "the group did not settle after word-count-2 came back from the SIGKILL"
echo "RESULT crash_restart_to_settled_seconds=$(since "$t2")"
out2=$(metric word-count-2 weir_records_out_total)
await 60 produced word-count-2 "$out2" || fail "word-count-2 wrote no output within 60 s of its restart after the SIGKILL"
log "word-count-2 back after the SIGKILL with tasks [$(tasks word-count-2)], restored $(metric word-count-2 weir_restore_records_total) records"

# A graceful restart (SIGTERM, start again on the same volume) moves nothing: Weir closes without
# leaving the group and announces how long it will be away, so neither static membership nor
# failure detection lets a task move, and word-count-1 receives no new assignment.
tasks1=$(tasks word-count-1)
tasks2=$(tasks word-count-2)
rebalances1=$(metric word-count-1 weir_rebalances_total)
log "restarting word-count-2 gracefully (SIGTERM, then start)"
t3=$(now)
compose stop -t "$GRACE" word-count-2 > /dev/null
compose start word-count-2 > /dev/null
await 120 ready word-count-2 || fail "word-count-2 not ready within 120 s of its graceful restart"
echo "RESULT restart_to_ready_seconds=$(since "$t3")"
echo "RESULT restart_restored_records=$(metric word-count-2 weir_restore_records_total)"

[[ $(tasks word-count-2) == "$tasks2" ]] || fail "word-count-2 came back with tasks [$(tasks word-count-2)], not its own [$tasks2]"
[[ $(tasks word-count-1) == "$tasks1" ]] || fail "word-count-1's tasks moved: [$tasks1] -> [$(tasks word-count-1)]"
[[ $(metric word-count-1 weir_rebalances_total) == "$rebalances1" ]] ||
  fail "word-count-1 received a new assignment while word-count-2 restarted"
ready word-count-1 || fail "word-count-1 is not ready after word-count-2's restart"
out2=$(metric word-count-2 weir_records_out_total)
await 60 produced word-count-2 "$out2" || fail "word-count-2 wrote no output within 60 s of its restart"
log "word-count-2 back with its tasks [$tasks2]; word-count-1 kept [$tasks1] without a rebalance"

log "stopping the replicas (SIGTERM, grace ${GRACE} s)"
t2=$(now)
compose stop -t "$GRACE" word-count-1 word-count-2 > /dev/null
echo "RESULT stop_seconds=$(since "$t2")"
for service in word-count-1 word-count-2; do
  code=$(podman inspect -f '{{.State.ExitCode}}' "$(container_of "$service")")
  # 143: the JVM ended on SIGTERM after its shutdown hook (Weir's graceful close) ran; 137 would
  # mean the grace period ran out and podman sent SIGKILL.
  [[ $code == 0 || $code == 143 ]] || fail "$service exited with $code on SIGTERM (137: killed after the grace period)"
done
log "all checks passed"
