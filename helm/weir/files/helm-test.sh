#!/bin/bash
# `helm test <release>`: what an operator checks after an install or an upgrade, from inside the
# cluster. Every pod of the release must answer /health/ready with 200 (its tasks restored and
# processing) and /info with state RUNNING under the release's application.id, and no active task
# may run on two pods. Right after an upgrade a pod may still be restoring, so the test retries
# until WEIR_TEST_TIMEOUT_SECONDS have passed; then it prints one line per pod and exits 0, or one
# line per problem and exits 1 (`kubectl logs <release>-weir-test` shows them).
#
# Runs in the application's image with bash alone (the image needs no curl): plain HTTP/1.0
# through bash's /dev/tcp, so it cannot check an HTTP server that speaks TLS (the chart renders no
# test then).
#
# Environment: WEIR_TEST_PODS (host:port of every pod, separated by spaces), WEIR_TEST_APPLICATION_ID,
# WEIR_TEST_TIMEOUT_SECONDS (default 120).
set -u

pods="${WEIR_TEST_PODS:?WEIR_TEST_PODS names no pod}"
application_id="${WEIR_TEST_APPLICATION_ID:?WEIR_TEST_APPLICATION_ID is empty}"
timeout_seconds="${WEIR_TEST_TIMEOUT_SECONDS:-120}"
read -r -a pod_list <<< "$pods"

# Sleeps with bash alone: a read that times out on a pipe nobody writes to.
pause() {
  read -r -t "$1" <> <(:) || true
}

# get HOST:PORT PATH sets status (000 when nothing answers) and body.
get() {
  local host="${1%:*}" port="${1##*:}" line
  status=000
  body=""
  if ! { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
    return 1
  fi
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\nAccept: application/json\r\n\r\n' "$2" "$host" >&3
  if ! read -r -t 5 _ status _ <&3; then
    status=000
    exec 3>&-
    return 1
  fi
  while IFS= read -r -t 5 line <&3; do
    [[ -z "${line%$'\r'}" ]] && break
  done
  while IFS= read -r -t 5 line <&3 || [[ -n "$line" ]]; do
    body+="$line"
  done
  exec 3>&-
}

# check HOST:PORT sets problem (empty when the pod is fine), state and tasks (its active tasks).
check() {
  local pod="$1" rest
  problem=""
  state=""
  tasks=()
  if ! get "$pod" /health/ready; then
    problem="$pod: nothing answers (not started, or its HTTP port is not reachable from this pod)"
    return
  fi
  if [[ "$status" != 200 ]]; then
    problem="$pod: /health/ready answered $status ${body:0:300}"
    return
  fi
  if ! get "$pod" /info || [[ "$status" != 200 ]]; then
    problem="$pod: /info answered $status"
    return
  fi
  if [[ "$body" =~ \"applicationId\":\"([^\"]*)\" ]] && [[ "${BASH_REMATCH[1]}" != "$application_id" ]]; then
    problem="$pod: runs application.id ${BASH_REMATCH[1]}, not $application_id"
    return
  fi
  [[ "$body" =~ \"state\":\"([^\"]*)\" ]] && state="${BASH_REMATCH[1]}"
  if [[ "$state" != RUNNING ]]; then
    problem="$pod: state ${state:-unknown}, not RUNNING"
    return
  fi
  # The active tasks are the strings in the arrays of "tasksByThread":{"<thread>":["0_1",...],...}.
  rest="${body#*\"tasksByThread\":\{}"
  rest="${rest%%\}*}"
  while [[ "$rest" =~ \"([0-9]+_[0-9]+)\" ]]; do
    tasks+=("${BASH_REMATCH[1]}")
    rest="${rest#*\"${BASH_REMATCH[1]}\"}"
  done
}

deadline=$((SECONDS + timeout_seconds))
while true; do
  problems=()
  report=()
  declare -A owner=()
  for pod in "${pod_list[@]}"; do
    check "$pod"
    if [[ -n "$problem" ]]; then
      problems+=("$problem")
      continue
    fi
    for task in "${tasks[@]}"; do
      if [[ -n "${owner[$task]:-}" ]]; then
        problems+=("task $task is active on both ${owner[$task]} and $pod")
      fi
      owner[$task]="$pod"
    done
    report+=("$pod: ready, RUNNING, ${#tasks[@]} active tasks")
  done
  unset owner
  if (( ${#problems[@]} == 0 )); then
    printf 'weir helm test: %s\n' "${report[@]}"
    echo "weir helm test: passed (${#pod_list[@]} pods of $application_id)"
    exit 0
  fi
  if (( SECONDS >= deadline )); then
    printf 'weir helm test: %s\n' "${problems[@]}"
    echo "weir helm test: FAILED after ${timeout_seconds} s"
    exit 1
  fi
  pause 2
done
