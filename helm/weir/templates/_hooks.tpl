{{/*
Helpers of every object that runs the weir CLI (upgrade-job.yaml, upgrade-rbac.yaml, reset-job.yaml,
cleanup-job.yaml, and the containers and volumes of savepoints-cronjob.yaml): their metadata, account
and Role, properties file, pod settings, CLI container and volumes. The CLI image and command
(upgrade.cli), its resources (upgrade.resources), its environment and mounts (weir.upgradeEnv,
weir.upgradeMounts in _upgrade.tpl) are the same for all, so every hook runs the same CLI the same way.
*/}}

{{/* Object names: weir.hookName in _upgrade.tpl, one definition for every hook (Helm keeps only one of two). */}}

{{/* The ConfigMap where `weir replay` records the last replay: written by the reset hook, deleted by the clean-up hook. */}}
{{- define "weir.replayRecordName" -}}
{{- include "weir.hookName" (dict "root" . "suffix" "replay") -}}
{{- end -}}

{{/*
A hook object's metadata. Deleted before the next attempt creates it again and once its hooks
succeeded; a failed Job stays for `kubectl logs`. Call with
(dict "root" $ "name" NAME "component" COMPONENT "hook" "pre-install,pre-upgrade" "weight" -10).
*/}}
{{- define "weir.hookMetadata" -}}
name: {{ .name }}
namespace: {{ .root.Release.Namespace }}
labels:
  {{- include "weir.componentLabels" (dict "root" .root "component" .component) | nindent 2 }}
annotations:
  helm.sh/hook: {{ .hook }}
  helm.sh/hook-weight: {{ .weight | quote }}
  helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
{{- end -}}

{{/*
A CLI hook's ServiceAccount, Role (the rules given, as YAML) and RoleBinding, created before its
Job (lower weights). Call with (dict "root" $ "name" NAME "component" C "hook" H "rules" RULES).
*/}}
{{- define "weir.hookRbac" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  {{- include "weir.hookMetadata" (merge (dict "weight" -10) .) | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  {{- include "weir.hookMetadata" (merge (dict "weight" -10) .) | nindent 2 }}
rules:
  {{- .rules | nindent 2 }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  {{- include "weir.hookMetadata" (merge (dict "weight" -9) .) | nindent 2 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: {{ .name }}
subjects:
  - kind: ServiceAccount
    name: {{ .name }}
    namespace: {{ .root.Release.Namespace }}
{{- end -}}

{{/*
A hook's own copy of the properties file: while pre-install or pre-upgrade hooks run, the release's
ConfigMap is missing or holds the old version's; after a delete it is gone.
*/}}
{{- define "weir.hookConfigMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  {{- include "weir.hookMetadata" (merge (dict "weight" -10) .) | nindent 2 }}
data:
  weir.properties: |
    {{- get (include (print .root.Template.BasePath "/configmap.yaml") .root | fromYaml).data "weir.properties" | nindent 4 }}
{{- end -}}

{{/*
Pod settings of a CLI hook: one attempt's pod, its account (with a token: the CLI calls the API, unless
"automount" is false), the pods' placement and security. Call with (dict "root" $ "name" ACCOUNT).
*/}}
{{- define "weir.hookPodSettings" -}}
restartPolicy: Never
serviceAccountName: {{ .name }}
automountServiceAccountToken: {{ dig "automount" true . }}
enableServiceLinks: false
{{- with .root.Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . | quote }}
  {{- end }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The CLI container's settings beside its name and arguments: upgrade.cli's image and command, the environment, upgrade.resources and the mounts. */}}
{{- define "weir.hookCliContainer" -}}
image: {{ include "weir.upgradeCliImage" . }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
command:
  {{- toYaml .Values.upgrade.cli.command | nindent 2 }}
env:
  {{- include "weir.upgradeEnv" . | nindent 2 }}
{{- with .Values.extraEnvFrom }}
envFrom:
  {{- toYaml . | nindent 2 }}
{{- end }}
resources:
  {{- toYaml .Values.upgrade.resources | nindent 2 }}
securityContext:
  {{- toYaml .Values.securityContext | nindent 2 }}
volumeMounts:
  {{- include "weir.upgradeMounts" . | nindent 2 }}
{{- end -}}

{{/*
The init container of the upgrade hooks and of a savepoint replay: the version being installed, with
its pods' image, arguments, config and secrets but WEIR_RUN_MODE=describe, writes the topology it would
run into /work/topology.json and exits without contacting Kafka.
*/}}
{{- define "weir.hookDescribeContainer" -}}
- name: describe
  image: {{ include "weir.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  {{- with .Values.command }}
  command:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.args }}
  args:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  env:
    - name: WEIR_RUN_MODE
      value: describe
    - name: WEIR_DESCRIBE_FILE
      value: /work/topology.json
    {{- include "weir.upgradeEnv" . | nindent 4 }}
  {{- with .Values.extraEnvFrom }}
  envFrom:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  resources:
    {{- toYaml .Values.upgrade.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    {{- include "weir.upgradeMounts" . | nindent 4 }}
{{- end -}}

{{/* The volumes weir.upgradeMounts mounts, the properties file from the hook's ConfigMap NAME. Call with (dict "root" $ "name" NAME). */}}
{{- define "weir.hookVolumes" -}}
- name: work
  emptyDir:
    sizeLimit: 16Mi
- name: tmp
  emptyDir:
    sizeLimit: {{ .root.Values.tmpSizeLimit }}
- name: config
  configMap:
    name: {{ .name }}
{{- if .root.Values.tls.secretName }}
- name: tls
  secret:
    secretName: {{ .root.Values.tls.secretName | quote }}
{{- end }}
{{- with .root.Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Values of the reset and clean-up hooks that must agree with others (the schema checks each alone). */}}
{{- define "weir.validateHooks" -}}
{{- if .Values.reset.enabled -}}
{{- if not .Values.reset.id -}}
{{- fail "reset.enabled: give reset.id, a name for this replay (it runs once per id; change it to replay again)" -}}
{{- end -}}
{{- if eq (empty .Values.reset.to) (empty .Values.reset.savepoint) -}}
{{- fail "reset.enabled: give exactly one of reset.to (earliest, latest, an ISO-8601 instant or a duration) and reset.savepoint (a savepoint id)" -}}
{{- end -}}
{{- if and .Values.reset.savepoint .Values.reset.topics -}}
{{- fail "reset.topics goes with reset.to: a savepoint (reset.savepoint) holds its own input offsets" -}}
{{- end -}}
{{- if .Values.keda.enabled -}}
{{- fail "reset.enabled cannot be used with keda.enabled: the reset scales the StatefulSet to 0 and KEDA would scale it back up while the offsets move; disable KEDA for the replay" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The Role rules of the reset hook. */}}
{{- define "weir.resetRules" -}}
# Read and scale the release's StatefulSet, as the upgrade hook does.
{{ include "weir.upgradeRules" . }}
# Read and write the replay record; create cannot be limited to a name in RBAC.
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [{{ .record | quote }}]
  verbs: [get, patch]
- apiGroups: [""]
  resources: [configmaps]
  verbs: [create]
{{- end -}}

{{/* The Role rules of the clean-up hook. */}}
{{- define "weir.cleanupRules" -}}
# Tell whether the release's StatefulSet is gone (the clean-up waits for it).
- apiGroups: [apps]
  resources: [statefulsets]
  resourceNames: [{{ .fullname | quote }}]
  verbs: [get]
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [{{ .record | quote }}]
  verbs: [delete]
{{- if .root.Values.cleanup.deleteVolumes }}
# RBAC cannot select by label: the CLI deletes only claims with the release's selector labels named
# state-<fullname>-<ordinal>.
- apiGroups: [""]
  resources: [persistentvolumeclaims]
  verbs: [list, delete]
{{- end }}
{{- end -}}
