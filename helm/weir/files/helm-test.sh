#!/bin/bash
# `helm test <release>`: what an operator checks after an install or an upgrade, from inside the
# cluster. Every pod of the release's StatefulSet must answer /health/ready with 200 (its tasks
# restored and processing) and /info with state RUNNING under the release's application.id, and no
# active task may run on two pods. Right after an upgrade a pod may still be restoring, so the test
# retries until WEIR_TEST_TIMEOUT_SECONDS have passed; then it prints one line per pod and exits 0,
# or one line per problem and exits 1 (`kubectl logs <release>-weir-test` shows them).
#
# The pods checked are the ones that exist, found in the cluster's DNS, not the count in the
# values: after `kubectl scale` or a KEDA scaling the values do not know, the test checks what runs.
# The headless Service publishes every pod, ready or not, as <statefulset>-<ordinal>.<service domain>;
# the test resolves ordinals 0, 1, ... and stops after MISSES_AFTER_LAST names in a row resolve to
# nothing. A name that does not resolve below one that does is a pod missing or being replaced: a
# problem, retried like the others.
#
# Runs in the application's image with bash and getent alone (the image needs no curl): plain
# HTTP/1.0 through bash's /dev/tcp, so it cannot check an HTTP server that speaks TLS (the chart
# renders no test then).
#
# Environment: WEIR_TEST_POD_PREFIX (the StatefulSet's name and a dash), WEIR_TEST_POD_DOMAIN (the
# headless Service's domain, <service>.<namespace>.svc), WEIR_TEST_PORT (the HTTP port),
# WEIR_TEST_APPLICATION_ID, WEIR_TEST_TIMEOUT_SECONDS (default 120).
set -u

prefix="${WEIR_TEST_POD_PREFIX:?WEIR_TEST_POD_PREFIX is empty}"
domain="${WEIR_TEST_POD_DOMAIN:?WEIR_TEST_POD_DOMAIN is empty}"
port="${WEIR_TEST_PORT:?WEIR_TEST_PORT is empty}"
application_id="${WEIR_TEST_APPLICATION_ID:?WEIR_TEST_APPLICATION_ID is empty}"
timeout_seconds="${WEIR_TEST_TIMEOUT_SECONDS:-120}"
readonly MISSES_AFTER_LAST=5

# Sleeps with bash alone: a read that times out on a pipe nobody writes to.
pause() {
  read -r -t "$1" <> <(:) || true
}

# get ADDRESS PATH sets status (000 when nothing answers) and body.
get() {
  local host="$1" line
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
  # Weir writes its JSON pretty-printed ("state" : "RUNNING", one field per line); none of the
  # values read here (states, application ids, task ids) holds white space, so the body is matched
  # without any.
  body="${body//[[:space:]]/}"
}

# discover sets pods (the names that resolve, by ordinal), addresses (name -> address) and problems
# (a missing ordinal below the highest found).
discover() {
  local ordinal=0 misses=0 name address highest=-1
  local -a missing=() pending=()
  pods=()
  problems=()
  declare -gA addresses=()
  while (( misses < MISSES_AFTER_LAST )); do
    name="$prefix$ordinal.$domain"
    address=""
    read -r address _ < <(getent hosts "$name" 2>/dev/null)
    if [[ -n "$address" ]]; then
      pods+=("$name")
      addresses[$name]="$address"
      missing+=("${pending[@]+"${pending[@]}"}")
      pending=()
      highest=$ordinal
      misses=0
    else
      pending+=("$name")
      misses=$((misses + 1))
    fi
    ordinal=$((ordinal + 1))
  done
  for name in "${missing[@]+"${missing[@]}"}"; do
    problems+=("$name: does not resolve, though $prefix$highest.$domain does (the pod is missing or being replaced)")
  done
  if (( highest < 0 )); then
    problems+=("no pod found: ${prefix}0.$domain does not resolve (no pod of the StatefulSet, or the test runs outside its namespace's DNS)")
  fi
}

# check NAME sets problem (empty when the pod is fine), state and tasks (its active tasks).
check() {
  local pod="$1" address="${addresses[$1]}" rest
  problem=""
  state=""
  tasks=()
  if ! get "$address" /health/ready; then
    problem="$pod: nothing answers on $address:$port (not started, or its HTTP port is not reachable from this pod)"
    return
  fi
  if [[ "$status" != 200 ]]; then
    problem="$pod: /health/ready answered $status ${body:0:300}"
    return
  fi
  if ! get "$address" /info || [[ "$status" != 200 ]]; then
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
  discover
  report=()
  declare -A owner=()
  for pod in "${pods[@]+"${pods[@]}"}"; do
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
    echo "weir helm test: passed (${#pods[@]} pods of $application_id)"
    exit 0
  fi
  if (( SECONDS >= deadline )); then
    printf 'weir helm test: %s\n' "${problems[@]}"
    echo "weir helm test: FAILED after ${timeout_seconds} s"
    exit 1
  fi
  pause 2
done
