{{/* ---- Weir's setting names (files/settings.yaml) and the WEIR_* variables of secretConfig and extraEnv ---- */}}

{{/*
files/settings.yaml: every setting name Weir accepts and those that are byte counts, generated from
Weir's code (io.weir.internal.config.SettingNames) and checked current by its tests.
*/}}
{{- define "weir.settingNames" -}}
{{- .Files.Get "files/settings.yaml" -}}
{{- end -}}

{{/*
A config value as written to the properties file: a byte setting given as a memory quantity
(512Mi, 1Gi) as its number of bytes, which is all Weir and the Kafka clients parse; everything
else as weir.propertyValue writes it. Call with (dict "root" $ "name" <setting> "value" <value>).
*/}}
{{- define "weir.settingValue" -}}
{{- $bytes := (include "weir.settingNames" .root | fromYaml).bytes -}}
{{- if and (has .name $bytes) (kindIs "string" .value) (regexMatch "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)$" .value) -}}
{{- include "weir.bytes" (dict "value" .value "name" (printf "config.%s" .name)) -}}
{{- else -}}
{{- include "weir.propertyValue" .value -}}
{{- end -}}
{{- end -}}

{{/*
The value of a setting the chart checks, as the application will see it: a WEIR_* variable of
extraEnv wins over config (Weir's precedence), else `default`. Call with
(dict "root" $ "name" <setting> "default" <value>).
*/}}
{{- define "weir.checkedSetting" -}}
{{- $env := include "weir.envName" .name -}}
{{- $value := index .root.Values.config .name | default .default -}}
{{- range .root.Values.extraEnv -}}
{{- if and (kindIs "map" .) (eq (toString .name) $env) (hasKey . "value") -}}
{{- $value = .value -}}
{{- end -}}
{{- end -}}
{{- include "weir.propertyValue" $value -}}
{{- end -}}

{{/*
Weir ignores a WEIR_* variable whose name is not that of a setting (one WARN at start-up), while a
properties file with an unknown name fails the start: secretConfig and extraEnv are checked here,
config by Weir. extraEnv must not set what the chart sets (`owned`, from weir.validate), nor what
config or secretConfig already set, and the settings the chart checks against other values must be
visible to it: no Secret, and whole numbers. Call with (dict "root" $ "owned" <dict>).
extraEnvFrom cannot be checked (its variables are known only in the cluster).
*/}}
{{- define "weir.validateSettingNames" -}}
{{- $root := .root -}}
{{- $owned := .owned -}}
{{- $names := include "weir.settingNames" $root | fromYaml -}}
{{- $checked := dict "shutdown.timeout.ms" "terminationGracePeriodSeconds" "rocksdb.memory.bytes" "resources.limits.memory" -}}
{{- range $name, $ref := $root.Values.secretConfig -}}
{{- if not (has $name $names.accepted) -}}
{{- fail (printf "secretConfig.%s: not a Weir or Kafka client setting, so Weir would ignore %s; the names Weir accepts are in the chart's files/settings.yaml" $name (include "weir.envName" $name)) -}}
{{- end -}}
{{- if hasKey $checked $name -}}
{{- fail (printf "secretConfig.%s: the chart checks %s against %s and cannot read a Secret; set config.%s" $name $name (get $checked $name) $name) -}}
{{- end -}}
{{- end -}}
{{- range $root.Values.extraEnv -}}
{{- $env := toString (and (kindIs "map" .) .name) -}}
{{- if hasPrefix "WEIR_" $env -}}
{{- $name := trimPrefix "WEIR_" $env | lower | replace "_" "." -}}
{{- if eq $env "WEIR_CONFIG_FILE" -}}
{{- fail "extraEnv WEIR_CONFIG_FILE: the chart sets it to the properties file of its ConfigMap; put settings in config" -}}
{{- end -}}
{{- if hasKey $owned $name -}}
{{- fail (printf "extraEnv %s: the chart sets %s; set %s instead" $env $name (get $owned $name)) -}}
{{- end -}}
{{- if not (and (regexMatch "^WEIR_[A-Z0-9]+(_[A-Z0-9]+)*$" $env) (has $name $names.accepted)) -}}
{{- fail (printf "extraEnv %s: not WEIR_<NAME> of a Weir or Kafka client setting (upper case, _ for .), so Weir would ignore it; the names Weir accepts are in the chart's files/settings.yaml" $env) -}}
{{- end -}}
{{- if or (hasKey $root.Values.config $name) (hasKey $root.Values.secretConfig $name) -}}
{{- fail (printf "extraEnv %s: %s is also in config or secretConfig; set it in one place (the variable would win)" $env $name) -}}
{{- end -}}
{{- if hasKey $checked $name -}}
{{- if not (regexMatch "^[0-9]+$" (toString .value)) -}}
{{- fail (printf "extraEnv %s: the chart checks %s against %s, so it needs a whole number as value (not valueFrom); or set config.%s" $env $name (get $checked $name) $name) -}}
{{- end -}}
{{- else if and (has $name $names.bytes) (regexMatch "^[0-9.]+[A-Za-z]+$" (toString .value)) -}}
{{- fail (printf "extraEnv %s (%s): Weir reads a number of bytes from a variable; set config.%s, which takes memory quantities" $env (toString .value) $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
