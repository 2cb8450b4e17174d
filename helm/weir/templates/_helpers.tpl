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
