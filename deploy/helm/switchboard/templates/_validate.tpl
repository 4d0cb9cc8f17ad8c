{{- /*
Refuses values that would deploy something broken, with the reason and the fix: several
replicas without Redis lose sessions and OAuth state between them (docs/scale-out.md).
*/ -}}
{{- define "switchboard.replicaCount" -}}
{{- if hasKey .Values "replicas" }}
{{- fail "the value `replicas` was renamed `replicaCount` (docs/changelog.md); set replicaCount instead" }}
{{- end }}
{{- $n := .Values.replicaCount }}
{{- if not (kindIs "float64" $n) }}{{- if not (kindIs "int64" $n) }}{{- if not (kindIs "int" $n) }}
{{- fail (printf "replicaCount must be a whole number of at least 1, not %v" $n) }}
{{- end }}{{- end }}{{- end }}
{{- if or (lt (float64 $n) 1.0) (ne (float64 $n) (float64 (int $n))) }}
{{- fail (printf "replicaCount must be a whole number of at least 1, not %v" $n) }}
{{- end }}
{{- int $n }}
{{- end -}}

{{- define "switchboard.redisUrl" -}}
{{- $fromConfig := "" }}
{{- with .Values.config }}{{- with .aggregator }}{{- with .cluster }}{{- with .redis }}{{- $fromConfig = .url | default "" }}{{- end }}{{- end }}{{- end }}{{- end }}
{{- .Values.cluster.redis.url | default $fromConfig }}
{{- end -}}

{{- define "switchboard.validate" -}}
{{- $replicas := int (include "switchboard.replicaCount" .) }}
{{- $redis := .Values.cluster.redis }}
{{- $url := include "switchboard.redisUrl" . }}
{{- if and (gt $replicas 1) (not $url) }}
{{- fail (printf "replicaCount is %d but cluster.redis.url is empty: more than one replica needs Redis to share sessions, OAuth state, limits and events (docs/scale-out.md); set cluster.redis.url, or replicaCount: 1" $replicas) }}
{{- end }}
{{- if $redis.url }}
{{- if not (regexMatch "^rediss?://[^\\s@/?#]+(/[0-9]{1,2})?$" $redis.url) }}
{{- fail (printf "cluster.redis.url must be redis://host:port[/db] or rediss://host:port[/db], without credentials (use cluster.redis.passwordSecret), not %q" (regexReplaceAll "//[^@/]*@" $redis.url "//***@")) }}
{{- end }}
{{- end }}
{{- if and $redis.password $redis.passwordSecret.name }}
{{- fail "cluster.redis.password and cluster.redis.passwordSecret.name are both set: give the password one way" }}
{{- end }}
{{- if and (or $redis.password $redis.passwordSecret.name $redis.username $redis.keyPrefix $redis.tls.enabled) (not $redis.url) }}
{{- fail "cluster.redis settings are given but cluster.redis.url is empty: set the URL of the Redis server" }}
{{- end }}
{{- $pdb := .Values.podDisruptionBudget }}
{{- if and (not (kindIs "invalid" $pdb.minAvailable)) (not (kindIs "invalid" $pdb.maxUnavailable)) }}
{{- fail "podDisruptionBudget: set minAvailable or maxUnavailable, not both" }}
{{- end }}
{{- end -}}
