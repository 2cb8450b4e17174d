{{/* Names and labels follow Helm's conventions, so `kubectl get -l app.kubernetes.io/instance=<release>` finds everything. */}}

{{- define "weir.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The full name is also the StatefulSet's name, so pods are <fullname>-<ordinal> and that is each
instance's instance.id. Kept to 52 characters: the StatefulSet controller adds the ordinal and a
controller-revision-hash label of the pod name must stay within 63.
*/}}
{{- define "weir.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 52 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 52 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "weir.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels never change after install (a StatefulSet's selector is immutable). */}}
{{- define "weir.selectorLabels" -}}
app.kubernetes.io/name: {{ include "weir.name" . }}
app.kubernetes.io/instance: {{ .Release.Name | quote }}
{{- end -}}

{{- define "weir.labels" -}}
helm.sh/chart: {{ include "weir.chart" . }}
{{ include "weir.selectorLabels" . }}
app.kubernetes.io/version: {{ include "weir.imageTag" . | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: stream-processor
{{- end -}}

{{/*
Objects beside the application's pods (the `helm test` objects, the upgrade hooks): the release's
labels with a component of their own and without the selector's app.kubernetes.io/name, so no
Service or PodDisruptionBudget selects their pods. Call with (dict "root" $ "component" "upgrade").
*/}}
{{- define "weir.componentLabels" -}}
helm.sh/chart: {{ include "weir.chart" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name | quote }}
app.kubernetes.io/version: {{ include "weir.imageTag" .root | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "weir.testLabels" -}}
{{ include "weir.componentLabels" (dict "root" . "component" "test") }}
{{- end -}}

{{- define "weir.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "weir.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "weir.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag -}}
{{- end -}}

{{/* A digest pins the image exactly; otherwise the tag (the chart's appVersion by default). */}}
{{- define "weir.image" -}}
{{- $repository := required "image.repository is required: the image of your Weir application, e.g. --set image.repository=registry.example.com/orders-app" .Values.image.repository -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository (include "weir.imageTag" .) -}}
{{- end -}}
{{- end -}}

{{/* Where the chart mounts its ConfigMap: WEIR_CONFIG_FILE and the preStop hook live there. */}}
{{- define "weir.configDir" -}}/etc/weir/config{{- end -}}
{{/* Where the downward API writes the pod's annotations, read by the preStop hook. */}}
{{- define "weir.podInfoDir" -}}/etc/weir/pod{{- end -}}

{{/* WEIR_<NAME> of a setting, Weir's documented mapping: upper case, "." as "_". */}}
{{- define "weir.envName" -}}
{{- printf "WEIR_%s" (. | upper | replace "." "_") -}}
{{- end -}}

{{/*
A value as a properties-file value. Helm reads numbers from values files as float64, which would
print 268435456 as 2.68435456e+08: whole numbers are printed as integers. Backslashes and line
breaks are escaped as the properties format needs (a JAAS config may contain either).
*/}}
{{- define "weir.propertyValue" -}}
{{- $v := . -}}
{{- if and (kindIs "float64" $v) (eq $v (float64 (int64 $v))) -}}
{{- int64 $v -}}
{{- else -}}
{{- toString $v | replace "\\" "\\\\" | replace "\n" "\\n" -}}
{{- end -}}
{{- end -}}

{{/* An IntOrString value (2, "50%") as YAML: a number unquoted, a percentage quoted. */}}
{{- define "weir.intOrPercent" -}}
{{- if kindIs "string" . -}}
{{- quote . -}}
{{- else -}}
{{- int64 . -}}
{{- end -}}
{{- end -}}

{{/* shutdown.timeout.ms as the application will see it: from extraEnv or config, else Weir's default. */}}
{{- define "weir.shutdownTimeoutMs" -}}
{{- include "weir.checkedSetting" (dict "root" . "name" "shutdown.timeout.ms" "default" 30000) -}}
{{- end -}}

{{/*
Checks that values.schema.json cannot express (it cannot compare two values). Each message names
the value to change and what is allowed, like Weir's own configuration errors.
*/}}
{{- define "weir.validate" -}}
{{- $_ := include "weir.image" . -}}
{{- $_ := required "applicationId is required: Weir's application.id (consumer group id and prefix of internal topics), e.g. --set applicationId=orders" .Values.applicationId -}}
{{- $_ := required "kafka.bootstrapServers is required: host:port pairs of the Kafka cluster, e.g. --set kafka.bootstrapServers=kafka:9092" .Values.kafka.bootstrapServers -}}
{{- /* Settings the chart sets itself: the same setting in config would be overridden or contradict the pods' volumes and probes. */ -}}
{{- $owned := dict
  "application.id" "applicationId"
  "bootstrap.servers" "kafka.bootstrapServers"
  "instance.id" "nothing: the chart sets it to the pod name"
  "state.dir" "persistence.mountPath"
  "http.port" "http.port"
  "session.timeout.ms" "kafka.sessionTimeoutMs"
  "consumer.session.timeout.ms" "kafka.sessionTimeoutMs" -}}
{{- $owned = merge $owned (include "weir.http.owned" . | fromYaml) -}}
{{- if .Values.scaleIn.enabled }}{{ $_ := set $owned "shutdown.leave.group" "scaleIn.enabled=false to set it yourself" }}{{ end -}}
{{- if .Values.tls.truststoreKey }}{{ $_ := set $owned "ssl.truststore.location" "tls.truststoreKey" }}{{ end -}}
{{- if .Values.tls.keystoreKey }}{{ $_ := set $owned "ssl.keystore.location" "tls.keystoreKey" }}{{ end -}}
{{- range $name, $value := .Values.config -}}
{{- if hasKey $owned $name -}}
{{- fail (printf "config.%s: the chart sets %s; set %s instead" $name $name (get $owned $name)) -}}
{{- end -}}
{{- if hasKey $.Values.secretConfig $name -}}
{{- fail (printf "config.%s: also in secretConfig; set it in one place (the secret's value would win)" $name) -}}
{{- end -}}
{{- end -}}
{{- range $name, $ref := .Values.secretConfig -}}
{{- if hasKey $owned $name -}}
{{- fail (printf "secretConfig.%s: the chart sets %s; set %s instead" $name $name (get $owned $name)) -}}
{{- end -}}
{{- end -}}
{{- include "weir.validateSettingNames" (dict "root" . "owned" $owned) -}}
{{- if and (or .Values.tls.truststoreKey .Values.tls.keystoreKey) (not .Values.tls.secretName) -}}
{{- fail "tls.truststoreKey and tls.keystoreKey need tls.secretName: the existing Secret holding the stores" -}}
{{- end -}}
{{- $shutdownMs := include "weir.shutdownTimeoutMs" . | int64 -}}
{{- if le (mul (int64 .Values.terminationGracePeriodSeconds) 1000) $shutdownMs -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must exceed shutdown.timeout.ms (%d ms): Kubernetes kills the pod at the end of the grace period, before its commit and clean close" (int64 .Values.terminationGracePeriodSeconds) $shutdownMs) -}}
{{- end -}}
{{- include "weir.validateMemory" . -}}
{{- include "weir.http.validate" . -}}
{{- if .Values.keda.enabled -}}
{{- $partitions := int64 .Values.keda.inputPartitions -}}
{{- if lt $partitions 1 -}}
{{- fail "keda.inputPartitions is required with keda.enabled: the partition count of the input topics, which bounds keda.maxReplicas" -}}
{{- end -}}
{{- if gt (int64 .Values.keda.maxReplicas) $partitions -}}
{{- fail (printf "keda.maxReplicas (%d) must not exceed keda.inputPartitions (%d): an instance beyond the partition count gets no task" (int64 .Values.keda.maxReplicas) $partitions) -}}
{{- end -}}
{{- if gt (int64 .Values.keda.minReplicas) (int64 .Values.keda.maxReplicas) -}}
{{- fail (printf "keda.minReplicas (%d) must not exceed keda.maxReplicas (%d)" (int64 .Values.keda.minReplicas) (int64 .Values.keda.maxReplicas)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* ---- JVM and native memory (jvm.*) ---- */}}

{{/*
Bytes of a Kubernetes memory quantity (1536Mi, 2Gi, 268435456), as a whole number: called with
(dict "value" <quantity> "name" <the value's name, for the error>).
*/}}
{{- define "weir.bytes" -}}
{{- $q := include "weir.propertyValue" .value -}}
{{- $units := dict "" 1.0 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "k" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 -}}
{{- if not (regexMatch "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$" $q) -}}
{{- fail (printf "%s (%s) is not a memory quantity Weir's chart can check: use a number of bytes or one with Ki, Mi, Gi, Ti, k, M, G or T" .name $q) -}}
{{- end -}}
{{- $number := regexReplaceAll "[A-Za-z]+$" $q "" -}}
{{- $unit := regexReplaceAll "^[0-9.]+" $q "" -}}
{{- mulf (float64 $number) (get $units $unit) | printf "%.0f" -}}
{{- end -}}

{{- define "weir.mebibytes" -}}
{{- printf "%.0fMi" (divf (float64 .) 1048576.0) -}}
{{- end -}}

{{- define "weir.gcOption" -}}
{{- get (dict "G1" "-XX:+UseG1GC" "Parallel" "-XX:+UseParallelGC" "Serial" "-XX:+UseSerialGC" "Z" "-XX:+UseZGC" "" "") . -}}
{{- end -}}

{{/*
JDK_JAVA_OPTIONS of the container. It replaces the image's (Weir's Dockerfile sets the heap share
and ExitOnOutOfMemoryError there) and is read by the java launcher only, so the weir CLI run with
kubectl exec is not affected. JAVA_TOOL_OPTIONS stays free for extraEnv; the JVM reads it first,
so options here win over the same options there.
- The GC is named: without it the JVM picks SerialGC whenever the container has less than 1792 MiB
  or fewer than 2 CPUs (the default limit is 1536Mi), and a stream thread pausing for a full
  serial collection of a large heap stops processing for that long.
- ExitOnOutOfMemoryError: a JVM out of heap exits and the kubelet restarts it (same pod, same
  instance.id, state on its volume), instead of limping on with threads that died of it.
*/}}
{{- define "weir.jvmOptions" -}}
{{- $options := list (printf "-XX:MaxRAMPercentage=%.1f" (float64 .Values.jvm.maxRAMPercentage)) -}}
{{- with include "weir.gcOption" .Values.jvm.gc }}{{ $options = append $options . }}{{ end -}}
{{- $options = append $options "-XX:+ExitOnOutOfMemoryError" -}}
{{- join " " (concat $options .Values.jvm.extraOptions) -}}
{{- end -}}

{{- define "weir.rocksdbMemoryBytes" -}}
{{- include "weir.bytes" (dict "value" (include "weir.checkedSetting" (dict "root" . "name" "rocksdb.memory.bytes" "default" 268435456)) "name" "config.rocksdb.memory.bytes") -}}
{{- end -}}

{{/*
The JVM's options and environment come from jvm.* only, so the memory check below sees the real
heap; and heap + RocksDB + native headroom must fit in the memory limit, or the kernel's OOM
killer ends the pod under load (a crash, not an OutOfMemoryError the JVM could report).
*/}}
{{- define "weir.validateMemory" -}}
{{- $owned := dict "JDK_JAVA_OPTIONS" "jvm.maxRAMPercentage, jvm.gc and jvm.extraOptions (JAVA_TOOL_OPTIONS is yours to set)" "MALLOC_ARENA_MAX" "jvm.mallocArenaMax" -}}
{{- range .Values.extraEnv -}}
{{- if and (kindIs "map" .) (hasKey $owned (toString .name)) -}}
{{- fail (printf "extraEnv %s: the chart sets %s from %s; set those instead" .name .name (get $owned (toString .name))) -}}
{{- end -}}
{{- end -}}
{{- range .Values.jvm.extraOptions -}}
{{- if regexMatch "^-Xmx|^-XX:MaxHeapSize=|^-XX:(Max|Min|Initial)RAMPercentage=|^-XX:MaxRAM=" . -}}
{{- fail (printf "jvm.extraOptions %s: size the heap with jvm.maxRAMPercentage, which the memory check counts" .) -}}
{{- end -}}
{{- if regexMatch "^-XX:[+-]Use[A-Za-z]*GC$" . -}}
{{- fail (printf "jvm.extraOptions %s: choose the collector with jvm.gc (G1, Parallel, Serial, Z)" .) -}}
{{- end -}}
{{- end -}}
{{- $limitValue := dig "limits" "memory" "" .Values.resources -}}
{{- if $limitValue -}}
{{- $limit := include "weir.bytes" (dict "value" $limitValue "name" "resources.limits.memory") | float64 -}}
{{- $heap := mulf $limit (divf (float64 .Values.jvm.maxRAMPercentage) 100.0) -}}
{{- $rocksdb := include "weir.rocksdbMemoryBytes" . | float64 -}}
{{- $headroom := include "weir.bytes" (dict "value" .Values.jvm.nativeHeadroom "name" "jvm.nativeHeadroom") | float64 -}}
{{- $needed := addf $heap $rocksdb $headroom -}}
{{- if gt $needed $limit -}}
{{- fail (printf "resources.limits.memory (%s = %s) is less than the heap (jvm.maxRAMPercentage %v%% = %s) + RocksDB (rocksdb.memory.bytes = %s) + jvm.nativeHeadroom (%s) = %s: raise resources.limits.memory, or lower jvm.maxRAMPercentage, config.rocksdb.memory.bytes or jvm.nativeHeadroom" (include "weir.propertyValue" $limitValue) (include "weir.mebibytes" $limit) .Values.jvm.maxRAMPercentage (include "weir.mebibytes" $heap) (include "weir.mebibytes" $rocksdb) (include "weir.mebibytes" $headroom) (include "weir.mebibytes" $needed)) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* ---- Weir's HTTP server: queries between pods, TLS and tokens (http.*) ---- */}}

{{/* Where the chart mounts the HTTP server's Secrets. */}}
{{- define "weir.http.tlsDir" -}}/etc/weir/http-tls{{- end -}}
{{- define "weir.http.truststoreDir" -}}/etc/weir/http-truststore{{- end -}}
{{- define "weir.http.caDir" -}}/etc/weir/http-ca{{- end -}}
{{- define "weir.http.tokenDir" -}}/etc/weir/http-token{{- end -}}

{{/* "true" when Weir's HTTP server speaks HTTPS (http.tls.keystore.path), else empty. */}}
{{- define "weir.http.tls" -}}
{{- if .Values.http.tls.keystore.secretName }}true{{ end -}}
{{- end -}}

{{- define "weir.http.scheme" -}}
{{- if include "weir.http.tls" . }}https{{ else }}http{{ end -}}
{{- end -}}

{{/* Where /admin/ and /stores/ answer: http.admin.port when set, else http.port. */}}
{{- define "weir.http.queryPort" -}}
{{- if .Values.http.adminPort }}{{ .Values.http.adminPort | int }}{{ else }}{{ .Values.http.port | int }}{{ end -}}
{{- end -}}

{{- define "weir.http.tokenFile" -}}
{{- printf "%s/%s" (include "weir.http.tokenDir" .) .Values.http.auth.tokenKey -}}
{{- end -}}

{{/* The trust store's Secret and the CA's: the key store's unless named. */}}
{{- define "weir.http.truststoreSecret" -}}
{{- default .Values.http.tls.keystore.secretName .Values.http.tls.truststore.secretName -}}
{{- end -}}
{{- define "weir.http.caSecret" -}}
{{- default .Values.http.tls.keystore.secretName .Values.http.tls.ca.secretName -}}
{{- end -}}

{{- define "weir.http.truststorePath" -}}
{{- if .Values.http.tls.truststore.secretName -}}
{{- printf "%s/%s" (include "weir.http.truststoreDir" .) .Values.http.tls.truststore.key -}}
{{- else -}}
{{- printf "%s/%s" (include "weir.http.tlsDir" .) .Values.http.tls.truststore.key -}}
{{- end -}}
{{- end -}}

{{/*
The settings the chart sets from http.* values, with the value to set instead, as YAML: merged
into weir.validate's owned settings, so config and secretConfig cannot contradict the probes, the
ServiceMonitor, the test and the peers' URLs the chart derives from them.
*/}}
{{- define "weir.http.owned" -}}
http.admin.port: http.adminPort
http.auth.scope: http.auth.scope
http.auth.token: "http.auth.existingSecret (a token file, rotated without a restart)"
http.auth.token.file: http.auth.existingSecret and http.auth.tokenKey
http.tls.keystore.path: http.tls.keystore.secretName and http.tls.keystore.key
http.tls.keystore.type: http.tls.keystore.type
http.tls.keystore.password: "http.tls.keystore.password.secretName and .key"
http.tls.truststore.path: http.tls.truststore.key (and http.tls.truststore.secretName)
http.tls.truststore.type: http.tls.truststore.type
http.tls.truststore.password: "http.tls.truststore.password.secretName and .key"
http.tls.client.auth: http.tls.clientAuth
{{- if .Values.http.advertiseStableName }}
http.advertised.url: "nothing: the chart sets it to each pod's stable name (http.advertiseStableName=false to set it yourself)"
{{- end }}
{{- end -}}

{{/* Checks of http.* that the schema cannot express; each message names the value to change. */}}
{{- define "weir.http.validate" -}}
{{- $http := .Values.http -}}
{{- $tls := include "weir.http.tls" . -}}
{{- if and $http.adminPort (eq (int $http.adminPort) (int $http.port)) -}}
{{- fail (printf "http.adminPort (%d) must differ from http.port: leave it 0 to serve /admin/ and /stores/ on http.port" (int $http.adminPort)) -}}
{{- end -}}
{{- if eq $http.tls.clientAuth "required" -}}
{{- fail "http.tls.clientAuth=required is not supported by the chart: the TLS handshake would refuse the kubelet's probes, which present no client certificate, so no pod would ever be ready; use optional (a client certificate still authenticates, and callers without one reach only /health/*, or the open paths of http.auth.scope)" -}}
{{- end -}}
{{- if and (not $tls) (or $http.tls.truststore.secretName $http.tls.truststore.key $http.tls.ca.secretName $http.tls.clientAuth $http.tls.keystore.password.secretName) -}}
{{- fail "http.tls.* needs http.tls.keystore.secretName: the Secret holding the key store of Weir's HTTPS server (trust store, CA, password and client auth go with it)" -}}
{{- end -}}
{{- if and $tls (not $http.tls.keystore.key) -}}
{{- fail "http.tls.keystore.key is required with http.tls.keystore.secretName: the key store's key in that Secret (cert-manager's PKCS12: keystore.p12)" -}}
{{- end -}}
{{- if and $http.tls.truststore.secretName (not $http.tls.truststore.key) -}}
{{- fail "http.tls.truststore.key is required with http.tls.truststore.secretName: the trust store's key in that Secret" -}}
{{- end -}}
{{- if and (eq $http.tls.clientAuth "optional") (not $http.tls.truststore.key) -}}
{{- fail "http.tls.clientAuth=optional needs http.tls.truststore.key: the CAs client certificates must chain to" -}}
{{- end -}}
{{- range $store := list "keystore" "truststore" -}}
{{- $password := get (get $http.tls $store) "password" -}}
{{- if and $password.secretName (not $password.key) -}}
{{- fail (printf "http.tls.%s.password.key is required with http.tls.%s.password.secretName: the password's key in that Secret" $store $store) -}}
{{- end -}}
{{- end -}}
{{- $tokenless := and (eq $http.auth.scope "all") (not $http.auth.existingSecret) -}}
{{- if and $tokenless .Values.serviceMonitor.enabled -}}
{{- fail "serviceMonitor.enabled with http.auth.scope=all needs http.auth.existingSecret: /metrics then answers only callers with a token, and Prometheus sends the Secret's token" -}}
{{- end -}}
{{- if and $tokenless .Values.tests.enabled -}}
{{- fail "tests.enabled with http.auth.scope=all needs http.auth.existingSecret: /info then answers only callers with a token, and the test pod sends the Secret's token (or set tests.enabled=false)" -}}
{{- end -}}
{{- end -}}

{{/* The container's WEIR_HTTP_* variables for http.* values, after WEIR_INSTANCE_ID. */}}
{{- define "weir.http.env" -}}
{{- $http := .Values.http -}}
{{- if $http.adminPort }}
# /admin/ and /stores/ (queries) answer on this port only; health, /metrics and /info on http.port.
- name: WEIR_HTTP_ADMIN_PORT
  value: {{ $http.adminPort | int | quote }}
{{- end }}
{{- if $http.advertiseStableName }}
# What peers forward queries to: the pod's stable name under the headless Service (the bare host
# name does not resolve from other pods). $(WEIR_INSTANCE_ID) is expanded by the kubelet.
- name: WEIR_HTTP_ADVERTISED_URL
  value: {{ printf "%s://$(WEIR_INSTANCE_ID).%s.%s.svc:%s" (include "weir.http.scheme" .) (include "weir.fullname" .) .Release.Namespace (include "weir.http.queryPort" .) | quote }}
{{- end }}
- name: WEIR_HTTP_AUTH_SCOPE
  value: {{ $http.auth.scope | quote }}
{{- if $http.auth.existingSecret }}
# A file, not a variable: a rotated Secret reaches the running instance (and the preStop hook).
- name: WEIR_HTTP_AUTH_TOKEN_FILE
  value: {{ include "weir.http.tokenFile" . | quote }}
{{- end }}
{{- if include "weir.http.tls" . }}
- name: WEIR_HTTP_TLS_KEYSTORE_PATH
  value: {{ printf "%s/%s" (include "weir.http.tlsDir" .) $http.tls.keystore.key | quote }}
- name: WEIR_HTTP_TLS_KEYSTORE_TYPE
  value: {{ $http.tls.keystore.type | quote }}
{{- with $http.tls.keystore.password }}{{ if .secretName }}
- name: WEIR_HTTP_TLS_KEYSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName | quote }}
      key: {{ .key | quote }}
{{- end }}{{ end }}
{{- if $http.tls.truststore.key }}
- name: WEIR_HTTP_TLS_TRUSTSTORE_PATH
  value: {{ include "weir.http.truststorePath" . | quote }}
- name: WEIR_HTTP_TLS_TRUSTSTORE_TYPE
  value: {{ $http.tls.truststore.type | quote }}
{{- with $http.tls.truststore.password }}{{ if .secretName }}
- name: WEIR_HTTP_TLS_TRUSTSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName | quote }}
      key: {{ .key | quote }}
{{- end }}{{ end }}
{{- end }}
{{- with $http.tls.clientAuth }}
- name: WEIR_HTTP_TLS_CLIENT_AUTH
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Volume mounts of the HTTP server's Secrets (whole Secrets, no subPath: rotations reach the pod). */}}
{{- define "weir.http.volumeMounts" -}}
{{- if .Values.http.auth.existingSecret }}
- name: http-token
  mountPath: {{ include "weir.http.tokenDir" . }}
  readOnly: true
{{- end }}
{{- if include "weir.http.tls" . }}
- name: http-tls
  mountPath: {{ include "weir.http.tlsDir" . }}
  readOnly: true
{{- if .Values.http.tls.truststore.secretName }}
- name: http-truststore
  mountPath: {{ include "weir.http.truststoreDir" . }}
  readOnly: true
{{- end }}
{{- end }}
{{- end -}}

{{- define "weir.http.volumes" -}}
{{- if .Values.http.auth.existingSecret }}
- name: http-token
  secret:
    secretName: {{ .Values.http.auth.existingSecret | quote }}
{{- end }}
{{- if include "weir.http.tls" . }}
- name: http-tls
  secret:
    secretName: {{ .Values.http.tls.keystore.secretName | quote }}
{{- if .Values.http.tls.truststore.secretName }}
- name: http-truststore
  secret:
    secretName: {{ .Values.http.tls.truststore.secretName | quote }}
{{- end }}
{{- end }}
{{- end -}}
