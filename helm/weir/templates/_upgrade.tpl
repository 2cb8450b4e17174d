{{/* Helpers of upgrade.mode=savepoint (upgrade-job.yaml, upgrade-rbac.yaml), beside _helpers.tpl; the hooks' objects come from _hooks.tpl. */}}

{{/* The image of the CLI that runs `weir upgrade`: upgrade.cli.image, else the application's own (the samples image holds the CLI). */}}
{{- define "weir.upgradeCliImage" -}}
{{- $cli := .Values.upgrade.cli.image -}}
{{- if not $cli.repository -}}
{{- include "weir.image" . -}}
{{- else if $cli.digest -}}
{{- printf "%s@%s" $cli.repository $cli.digest -}}
{{- else -}}
{{- printf "%s:%s" $cli.repository (default (include "weir.imageTag" .) $cli.tag) -}}
{{- end -}}
{{- end -}}

{{/*
The name of a hook object (or any object of the release beside its StatefulSet): <fullname>-<suffix>,
the fullname shortened so that the whole fits in `max` characters (default 63, a label value and a
Job's limit; a CronJob's is 52, as its Jobs add 11).
*/}}
{{- define "weir.hookName" -}}
{{- $max := .max | default 63 | int -}}
{{- $room := sub $max (add1 (len .suffix)) | int -}}
{{- printf "%s-%s" (include "weir.fullname" .root | trunc $room | trimSuffix "-") .suffix -}}
{{- end -}}

{{/*
Whether the pre-rollback hook is rendered: with upgrade.rollbackHook, in both modes, since Helm runs
the hooks of the revision rolled back to: a rolling revision needs one to undo a savepoint upgrade
made after it (the hook then acts only on the mark that upgrade left). Not with KEDA, which would
scale the StatefulSet back up during a restore.
*/}}
{{- define "weir.rollbackHook" -}}
{{- if and .Values.upgrade.rollbackHook (or (eq .Values.upgrade.mode "savepoint") (not .Values.keda.enabled)) -}}
true
{{- end -}}
{{- end -}}

{{/* The hooks the upgrade objects serve: helm.sh/hook of the ServiceAccount, Role, RoleBinding and ConfigMap. */}}
{{- define "weir.upgradeHooks" -}}
{{- $hooks := list -}}
{{- if eq .Values.upgrade.mode "savepoint" -}}{{- $hooks = append $hooks "pre-upgrade" -}}{{- end -}}
{{- if include "weir.rollbackHook" . -}}{{- $hooks = append $hooks "pre-rollback" -}}{{- end -}}
{{- join "," $hooks -}}
{{- end -}}

{{/*
The savepoint history's limits as `weir savepoint prune` options (savepoints.retention), for the
upgrade hook and the periodic Job; empty without limits.
*/}}
{{- define "weir.retentionArgs" -}}
{{- with .Values.savepoints.retention -}}
{{- if or .maxCount .maxAge }}
- --prefix
- pre-upgrade-
- --prefix
- periodic-
{{- with .maxCount }}
- --keep
- {{ . | int64 | quote }}
{{- end }}
{{- with .maxAge }}
- --max-age
- {{ . | quote }}
{{- end }}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The environment every CLI hook and describe container shares with the pods: the properties file, the secrets, extraEnv. */}}
{{- define "weir.upgradeEnv" -}}
- name: WEIR_CONFIG_FILE
  value: {{ include "weir.configDir" . }}/weir.properties
{{- range $name, $ref := .Values.secretConfig }}
- name: {{ include "weir.envName" $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName | quote }}
      key: {{ $ref.key | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Their mounts: the work and tmp emptyDirs, the properties file, the TLS Secret, extraVolumeMounts (volumes: weir.hookVolumes). */}}
{{- define "weir.upgradeMounts" -}}
- name: work
  mountPath: /work
- name: tmp
  mountPath: /tmp
- name: config
  mountPath: {{ include "weir.configDir" . }}
  readOnly: true
{{- if .Values.tls.secretName }}
- name: tls
  mountPath: {{ .Values.tls.mountPath }}
  readOnly: true
{{- end }}
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
The Role rules of the upgrade hooks: read and scale the release's own StatefulSet, by name (the patch
of the StatefulSet itself writes the weir.io/savepoint-upgrade mark). Call with (dict "fullname" F).
*/}}
{{- define "weir.upgradeRules" -}}
- apiGroups: [apps]
  resources: [statefulsets, statefulsets/scale]
  resourceNames: [{{ .fullname | quote }}]
  verbs: [get, patch]
{{- end -}}

{{/* Values of upgrade.mode=savepoint that must agree with others (the schema checks each alone). */}}
{{- define "weir.validateUpgrade" -}}
{{- if and (eq .Values.upgrade.mode "savepoint") .Values.keda.enabled -}}
{{- fail "upgrade.mode=savepoint cannot be used with keda.enabled: the upgrade scales the StatefulSet to 0 while it restores the savepoint, and KEDA would scale it back up; use upgrade.mode=rolling, or disable KEDA for the upgrade" -}}
{{- end -}}
{{- with .Values.upgrade -}}
{{- if le (int .activeDeadlineSeconds) (add (int .savepointTimeoutSeconds) (int .stopTimeoutSeconds) | int) -}}
{{- fail (printf "upgrade.activeDeadlineSeconds (%d) must exceed upgrade.savepointTimeoutSeconds + upgrade.stopTimeoutSeconds (%d + %d), with room for the restore: otherwise Kubernetes kills the hook before its own time-outs fire and it can put the old version back" (int .activeDeadlineSeconds) (int .savepointTimeoutSeconds) (int .stopTimeoutSeconds)) -}}
{{- end -}}
{{- end -}}
{{- range $old, $new := .Values.upgrade.mapTopics -}}
{{- if or (not $new) (eq $old (toString $new)) -}}
{{- fail (printf "upgrade.mapTopics.%s: give the topic the new version reads instead of %s (a different, non-empty name)" $old $old) -}}
{{- end -}}
{{- end -}}
{{- range $old, $new := .Values.upgrade.mapStores -}}
{{- if or (not $new) (eq $old (toString $new)) -}}
{{- fail (printf "upgrade.mapStores.%s: give the store's new name in the new version (a different, non-empty name)" $old) -}}
{{- end -}}
{{- end -}}
{{- end -}}
