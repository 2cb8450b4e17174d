{{/* Helpers of upgrade.mode=savepoint (upgrade-job.yaml), beside _helpers.tpl. */}}

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

{{/* The environment both hook containers share with the pods: the properties file, the secrets, extraEnv. */}}
{{- define "weir.upgradeEnv" -}}
- name: WEIR_CONFIG_FILE
  value: {{ include "weir.configDir" . }}/weir.properties
{{- range $name, $ref := .Values.secretConfig }}
- name: {{ include "weir.envName" $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName }}
      key: {{ $ref.key }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

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

{{/* Values of upgrade.mode=savepoint that must agree with others (the schema checks each alone). */}}
{{- define "weir.validateUpgrade" -}}
{{- if and (eq .Values.upgrade.mode "savepoint") .Values.keda.enabled -}}
{{- fail "upgrade.mode=savepoint cannot be used with keda.enabled: the upgrade scales the StatefulSet to 0 while it restores the savepoint, and KEDA would scale it back up; use upgrade.mode=rolling, or disable KEDA for the upgrade" -}}
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
