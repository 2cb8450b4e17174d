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
# Runs in the application's image. Plain HTTP needs bash and getent alone (HTTP/1.0 through bash's
# /dev/tcp; the image needs no curl). HTTPS (WEIR_TEST_SCHEME=https) needs curl, else openssl,
# from the image (eclipse-temurin's Ubuntu images, the base of Weir's Dockerfiles, hold both): each
# pod's certificate is verified against the CA file and the pod's stable name, which is also what
# peers forwarding queries check. Without either tool the test fails at once, saying so.
#
# Environment: WEIR_TEST_POD_PREFIX (the StatefulSet's name and a dash), WEIR_TEST_POD_DOMAIN (the
# headless Service's domain, <service>.<namespace>.svc), WEIR_TEST_PORT (the HTTP port),
# WEIR_TEST_APPLICATION_ID, WEIR_TEST_TIMEOUT_SECONDS (default 120), WEIR_TEST_SCHEME (http or
# https), WEIR_TEST_CA_FILE (the CA certificate in PEM, with https) and WEIR_TEST_TOKEN_FILE (Weir's
# token file, when /info wants a token: the first non-blank line is sent).
set -u

prefix="${WEIR_TEST_POD_PREFIX:?WEIR_TEST_POD_PREFIX is empty}"
domain="${WEIR_TEST_POD_DOMAIN:?WEIR_TEST_POD_DOMAIN is empty}"
port="${WEIR_TEST_PORT:?WEIR_TEST_PORT is empty}"
application_id="${WEIR_TEST_APPLICATION_ID:?WEIR_TEST_APPLICATION_ID is empty}"
timeout_seconds="${WEIR_TEST_TIMEOUT_SECONDS:-120}"
scheme="${WEIR_TEST_SCHEME:-http}"
ca_file="${WEIR_TEST_CA_FILE:-}"
token_file="${WEIR_TEST_TOKEN_FILE:-}"
readonly MISSES_AFTER_LAST=5

# How requests are sent: bash's /dev/tcp for plain HTTP; curl or openssl for HTTPS.
client=bash
if [[ "$scheme" == https ]]; then
  if command -v curl > /dev/null; then
    client=curl
  elif command -v openssl > /dev/null; then
    client=openssl
  else
    echo "weir helm test: Weir's HTTP server speaks HTTPS and this image has neither curl nor openssl to call it; add one of them to the image (bash cannot speak TLS), or set tests.enabled=false"
    echo "weir helm test: FAILED"
    exit 1
  fi
  if [[ ! -r "$ca_file" ]]; then
    echo "weir helm test: the CA certificate ${ca_file:-(WEIR_TEST_CA_FILE is empty)} is not readable: the chart mounts http.tls.ca's Secret and key there"
    echo "weir helm test: FAILED"
    exit 1
  fi
fi

# The first non-blank line of the token file, as Weir's instances send it to each other.
token=""
if [[ -n "$token_file" ]]; then
  if [[ ! -r "$token_file" ]]; then
    echo "weir helm test: the token file $token_file is not readable: the chart mounts http.auth.existingSecret there"
    echo "weir helm test: FAILED"
    exit 1
  fi
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line//[[:space:]]/}"
    if [[ -n "$line" ]]; then
      token="$line"
      break
    fi
  done < "$token_file"
fi
authorization=""
[[ -n "$token" ]] && authorization="Authorization: Bearer $token"$'\r\n'

# Sleeps with bash alone: a read that times out on a pipe nobody writes to.
pause() {
  read -r -t "$1" <> <(:) || true
}

# get ADDRESS PATH NAME sets status (000 when nothing answers), body, and failure (why nothing
# answered, when the HTTPS client said).
get() {
  local host="$1" line
  status=000
  body=""
  failure=""
  if [[ "$client" != bash ]]; then
    get_https "$@"
    return
  fi
  if ! { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
    return 1
  fi
  printf 'GET %s HTTP/1.0\r\nHost: %s\r\nAccept: application/json\r\n%s\r\n' "$2" "$host" "$authorization" >&3
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

# get_https ADDRESS PATH NAME: get over TLS, to ADDRESS but verifying the certificate for NAME. The
# whole response (status line, headers, body) is read into a variable: the image's root file system
# is read-only and the test pod has no writable directory for temporary files.
get_https() {
  local host="$1" path="$2" name="$3" response target="$1"
  [[ "$host" == *:* ]] && target="[$host]"
  if [[ "$client" == curl ]]; then
    # The token goes in on stdin (-H @-), not on the command line other processes could read.
    response=$(printf '%s' "$authorization" | curl --silent --show-error --include --http1.1 --max-time 5 \
      --cacert "$ca_file" --resolve "$name:$port:$target" -H 'Accept: application/json' \
      ${authorization:+-H @-} "https://$name:$port$path" 2>&1)
  else
    # s_client prints its verification lines on stderr before the response.
    response=$(printf 'GET %s HTTP/1.0\r\nHost: %s\r\nAccept: application/json\r\n%s\r\n' "$path" "$name" "$authorization" \
      | openssl s_client -quiet -connect "$target:$port" -servername "$name" -verify_hostname "$name" \
          -CAfile "$ca_file" -verify_return_error 2>&1)
  fi
  if [[ "$response" != HTTP/* ]]; then
    if [[ "$response" == *$'\n'HTTP/* ]]; then
      response="HTTP/${response#*$'\n'HTTP/}"
    else
      response="${response//$'\r'/}"
      failure="${response//$'\n'/ }"
      failure="${failure:0:300}"
      return 1
    fi
  fi
  [[ "$response" =~ ^HTTP/[0-9.]+\ ([0-9]+) ]] && status="${BASH_REMATCH[1]}"
  body="${response#*$'\r\n\r\n'}"
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
  if ! get "$address" /health/ready "$pod"; then
    problem="$pod: nothing answers on $address:$port (not started, or its HTTP port is not reachable from this pod)"
    [[ -n "$failure" ]] && problem="$pod: no HTTPS answer from $address:$port: $failure"
    return
  fi
  if [[ "$status" != 200 ]]; then
    problem="$pod: /health/ready answered $status ${body:0:300}"
    return
  fi
  if ! get "$address" /info "$pod" || [[ "$status" != 200 ]]; then
    problem="$pod: /info answered $status"
    [[ "$status" == 401 ]] && problem+=" (a token is needed: http.auth.scope=all wants the one of http.auth.existingSecret)"
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
