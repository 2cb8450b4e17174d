#!/bin/bash
# preStop hook of a Weir pod: Kubernetes runs it before it sends SIGTERM, on every pod deletion.
#
# A pod that comes back (rolling update, eviction, node drain, `kubectl delete pod`) must keep its
# static group membership, so that its tasks wait for it instead of moving twice: the hook does
# nothing and SIGTERM makes Weir commit and close without leaving the group.
#
# A pod that goes away for good (scale-in) must leave the group so its tasks move at once, not
# after the session timeout. With scaleIn.enabled (the chart's default) Weir decides that itself
# at SIGTERM (shutdown.leave.group=kubernetes_scale_in): it reads the StatefulSet's desired
# replicas through the Kubernetes API and leaves when its ordinal is at or above them, so this hook
# has nothing to do for a scale-down.
#
# This hook is the fallback where the pod may not call the API (scaleIn.enabled=false: no token,
# no Role, as clusters that forbid RBAC for applications require). bash cannot call the API itself
# (it needs TLS) and the downward API does not expose the StatefulSet's replicas, so the operator
# marks the pods being removed with the annotation weir.io/scale-in=true. The downward API writes
# the pod's annotations into a file; when the mark is there the hook sends POST /admin/leave to
# Weir (plain HTTP on localhost, through bash's /dev/tcp: the image needs no curl) and waits until
# the instance has stopped, so SIGTERM finds nothing left to do. The mark works with scaleIn.enabled
# too.
#
# The endpoint is on http.admin.port when one is set, and needs a bearer token when tokens are
# configured (docs/http-security.md): the hook sends the first token of the token file, or of
# http.auth.token. The hook reads these settings as Weir does: WEIR_* variables first, then the
# properties file WEIR_CONFIG_FILE names (the chart's config values).
#
# With TLS (http.tls.keystore.path) bash cannot speak to the endpoint: the hook uses curl, else
# openssl, when the image has one (eclipse-temurin's Ubuntu images, the base of Weir's Dockerfiles,
# hold both). It does not verify the certificate, which names the pod's DNS names and not
# 127.0.0.1: the loopback address reaches only this pod's own containers. It presents no client
# certificate (http.tls.client.auth=optional accepts the token). With neither tool it says so and
# leaves the instance to SIGTERM.
#
# Usage: pre-stop.sh [seconds to wait for the instance to stop]
# Environment: WEIR_HTTP_PORT (the pod sets it), and WEIR_HTTP_ADMIN_PORT, WEIR_HTTP_AUTH_TOKEN_FILE,
# WEIR_HTTP_AUTH_TOKEN, WEIR_HTTP_TLS_KEYSTORE_PATH and WEIR_CONFIG_FILE when the deployment sets them;
# PODINFO_ANNOTATIONS, the annotations file, and PRESTOP_LOG, where to log (the container's stdout),
# let a test run the hook outside a pod.
set -u

annotations="${PODINFO_ANNOTATIONS:-/etc/weir/pod/annotations}"
wait_seconds="${1:-35}"
log_to="${PRESTOP_LOG:-/proc/1/fd/1}"

# Shown by `kubectl logs`: the hook's own output goes nowhere Kubernetes keeps.
log() {
  local line="weir preStop: $*"
  { echo "$line" >> "$log_to"; } 2>/dev/null || echo "$line"
}

# Sleeps with bash alone (no coreutils needed): a read that times out on a pipe nobody writes to.
pause() {
  read -r -t "$1" <> <(:) || true
}

marked=false
if [[ -r "$annotations" ]]; then
  while IFS= read -r line || [[ -n "$line" ]]; do
    [[ "$line" == 'weir.io/scale-in="true"' ]] && marked=true
  done < "$annotations"
fi
if [[ "$marked" != true ]]; then
  exit 0  # a restart: SIGTERM keeps the membership
fi

# The settings of the properties file (name=value or name: value lines), for setting below.
declare -A file_settings=()
if [[ -n "${WEIR_CONFIG_FILE:-}" && -r "${WEIR_CONFIG_FILE}" ]]; then
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%$'\r'}"
    if [[ "$line" =~ ^[[:space:]]*([^#![:space:]=:][^[:space:]=:]*)[[:space:]]*[=:][[:space:]]*(.*)$ ]]; then
      file_settings["${BASH_REMATCH[1]}"]="${BASH_REMATCH[2]}"
    fi
  done < "$WEIR_CONFIG_FILE"
fi

# setting NAME prints the setting as Weir reads it: WEIR_<NAME> (upper case, "." as "_") when set,
# else the properties file's.
setting() {
  local variable="WEIR_${1^^}"
  variable="${variable//./_}"
  if [[ -n "${!variable:-}" ]]; then
    printf '%s' "${!variable}"
  else
    printf '%s' "${file_settings[$1]:-}"
  fi
}

port="$(setting http.admin.port)"
[[ -n "$port" ]] || port="$(setting http.port)"
[[ -n "$port" ]] || port=8080

client=bash
if [[ -n "$(setting http.tls.keystore.path)" ]]; then
  if command -v curl > /dev/null; then
    client=curl
  elif command -v openssl > /dev/null; then
    client=openssl
  else
    log "scale-in: the HTTP server speaks TLS and this image has neither curl nor openssl (bash cannot speak TLS); SIGTERM will stop the instance (scaleIn.enabled lets it leave the group on a scale-down)"
    exit 0
  fi
fi

# The first token Weir accepts: the token file's first non-blank line, else http.auth.token's first.
token=""
token_file="$(setting http.auth.token.file)"
if [[ -n "$token_file" && -r "$token_file" ]]; then
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%$'\r'}"
    line="${line//[[:space:]]/}"
    if [[ -n "$line" ]]; then
      token="$line"
      break
    fi
  done < "$token_file"
elif [[ -n "$(setting http.auth.token)" ]]; then
  token="$(setting http.auth.token)"
  token="${token%%,*}"
  token="${token//[[:space:]]/}"
fi
authorization=""
if [[ -n "$token" ]]; then
  authorization="Authorization: Bearer $token"$'\r\n'
fi

if ! { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
  log "scale-in: nothing answers on port $port; SIGTERM will stop the instance and its tasks move after the session timeout"
  exit 0
fi
exec 3>&-
printf -v request 'POST /admin/leave HTTP/1.1\r\nHost: localhost\r\n%sContent-Length: 0\r\nConnection: close\r\n\r\n' "$authorization"
status=""
case "$client" in
  bash)
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf '%s' "$request" >&3
    read -r -t 10 status <&3 || true
    exec 3>&-
    ;;
  curl)
    # The token goes in on stdin (-H @-), not on the command line other processes could read.
    status=$(printf '%s' "$authorization" | curl --silent --insecure --max-time 10 --http1.1 -X POST \
      ${authorization:+-H @-} --output /dev/null --write-out 'HTTP/%{http_version} %{http_code}' \
      "https://127.0.0.1:$port/admin/leave" 2>/dev/null)
    ;;
  openssl)
    exec 3< <(printf '%s' "$request" | openssl s_client -quiet -connect "127.0.0.1:$port" 2>/dev/null)
    read -r -t 10 status <&3 || true
    exec 3<&-
    ;;
esac
log "scale-in: POST /admin/leave answered ${status%$'\r'}"

# 202: leaving; 409: already stopping. Either way wait until the HTTP server has closed, which
# Weir does once it has committed, left the group and stopped. A connection to the pod's own
# loopback costs next to nothing, so the hook checks five times a second and the pod goes as soon
# as the instance has stopped.
deadline=$((SECONDS + wait_seconds))
while (( SECONDS < deadline )); do
  if ! { exec 4<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
    log "scale-in: the instance has left the group and stopped"
    exit 0
  fi
  exec 4>&-
  pause 0.2
done
log "scale-in: the instance is still up after ${wait_seconds} s; SIGTERM follows"
exit 0
