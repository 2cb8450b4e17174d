package io.weir.deploy.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Turns a pod as the StatefulSet controller made it into YAML that {@code podman kube play} (4.3)
 * runs the same way, doing at play time what the kubelet does on a node and working around what
 * Podman lacks (each measured in docs/kubernetes-podman.md):
 * <ul>
 *   <li>{@code $(VAR)} references in env values, {@code command} and {@code args} expanded as the
 *       kubelet does ({@link EnvExpansion}): Podman passes them on as written;</li>
 *   <li>downward-API values: env {@code fieldRef}s resolved to their values; a {@code downwardAPI}
 *       volume (refused by Podman) becomes a ConfigMap holding the same files, in the kubelet's
 *       {@code key="value"} format, with the full annotation values;</li>
 *   <li>references to ConfigMaps and Secrets ({@code configMapKeyRef}, {@code secretKeyRef},
 *       {@code envFrom}, {@code secret} volumes) resolved from the API server, as the kubelet reads
 *       them; ConfigMap volumes are played from the object the API server holds;</li>
 *   <li>the service account: {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} always, and, when the pod
 *       and its ServiceAccount allow it ({@code automountServiceAccountToken}), {@code token},
 *       {@code ca.crt} and {@code namespace} at {@value #SERVICE_ACCOUNT_DIR};</li>
 *   <li>the claim of each volume: a Podman named volume of the claim's name, created from the
 *       PersistentVolumeClaim document only when it does not exist yet (Podman refuses to create it
 *       twice);</li>
 *   <li>emptyDir volumes named per pod (Podman shares an emptyDir between pods that use the same
 *       volume name); annotation values cut to 63 characters on the Podman object (Podman refuses
 *       longer ones; the downward-API file keeps them whole);</li>
 *   <li>each container port published on the host at {@code containerPort + 10000 + 100 *
 *       ordinal} (Podman publishes every container port on the host, so replicas would collide;
 *       a pod's ports, such as 8080 and an admin port 8081, stay apart from its neighbours');</li>
 *   <li>probes and lifecycle hooks taken out, and {@code restartPolicy: Never}: the runner is the
 *       kubelet ({@link Kubelet}) and runs probes, hooks and restarts itself.</li>
 * </ul>
 */
public final class PlayManifest {

    public static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final int MAX_PODMAN_ANNOTATION = 63;
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** What the kubelet reads from the cluster while it sets a pod up. */
    public interface Cluster {
        String apiHost();

        int apiPort();

        String caCertificatePem();

        String token(String namespace, String serviceAccount);

        /** The ServiceAccount's own automountServiceAccountToken, when it sets one. */
        Optional<Boolean> automount(String namespace, String serviceAccount);

        Optional<ConfigMap> configMap(String namespace, String name);

        Optional<Secret> secret(String namespace, String name);
    }

    /** The YAML to play, and the host port each container port ({@code name} or number) is published on. */
    public record Played(String yaml, Map<String, Integer> hostPorts) {
        int hostPort(String portNameOrNumber) {
            Integer port = hostPorts.get(portNameOrNumber);
            if (port == null) {
                throw new IllegalArgumentException(
                        "no container port " + portNameOrNumber + " (ports: " + hostPorts + ")");
            }
            return port;
        }
    }

    private PlayManifest() {}

    public static Played of(StatefulSetPods.OrdinalPod ordinalPod, Cluster cluster, Predicate<String> volumeExists) {
        Pod pod = SERIALIZATION.clone(ordinalPod.pod());
        String name = pod.getMetadata().getName();
        String namespace = pod.getMetadata().getNamespace();
        PodSpec spec = pod.getSpec();
        List<HasMetadata> documents = new ArrayList<>();
        Map<String, Integer> hostPorts = new LinkedHashMap<>();
        Map<String, String> fullAnnotations = pod.getMetadata().getAnnotations();

        String serviceAccount =
                Optional.ofNullable(spec.getServiceAccountName()).orElse("default");
        List<Volume> volumes = new ArrayList<>(spec.getVolumes());
        for (Volume v : spec.getVolumes()) {
            if (v.getEmptyDir() != null) {
                rename(spec, v.getName(), name + "-" + v.getName(), volumes);
            } else if (v.getDownwardAPI() != null) {
                ConfigMap files = downwardApiFiles(pod, name + "-" + v.getName(), v);
                documents.add(files);
                replace(volumes, v, configMapVolume(v, files));
            } else if (v.getSecret() != null) {
                Secret secret = cluster.secret(namespace, v.getSecret().getSecretName())
                        .orElseThrow(() -> missing("Secret", v.getSecret().getSecretName(), name));
                ConfigMap files = new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name + "-" + v.getName())
                        .endMetadata()
                        .withData(textOf(secret))
                        .withBinaryData(bytesOf(secret))
                        .build();
                documents.add(files);
                replace(
                        volumes,
                        v,
                        new VolumeBuilder(configMapVolume(v, files))
                                .editConfigMap()
                                .withItems(v.getSecret().getItems())
                                .endConfigMap()
                                .build());
            } else if (v.getConfigMap() != null) {
                String cm = v.getConfigMap().getName();
                documents.add(cluster.configMap(namespace, cm)
                        .map(PlayManifest::bare)
                        .orElseThrow(() -> missing("ConfigMap", cm, name)));
            } else if (v.getPersistentVolumeClaim() != null) {
                String claim = v.getPersistentVolumeClaim().getClaimName();
                if (!volumeExists.test(claim)) {
                    ordinalPod.claims().stream()
                            .filter(c -> c.getMetadata().getName().equals(claim))
                            .findFirst()
                            .map(PlayManifest::bare)
                            .ifPresent(documents::add);
                }
            } else {
                throw new IllegalArgumentException(
                        "pod " + name + ": volume " + v.getName()
                                + " is of a kind the Podman runner cannot play (emptyDir, configMap, secret, downwardAPI and persistentVolumeClaim can)");
            }
        }
        boolean mountToken = !Boolean.FALSE.equals(spec.getAutomountServiceAccountToken())
                && (Boolean.TRUE.equals(spec.getAutomountServiceAccountToken())
                        || cluster.automount(namespace, serviceAccount).orElse(true));
        if (mountToken) {
            ConfigMap access = new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName(name + "-kube-api-access")
                    .endMetadata()
                    .addToData("token", cluster.token(namespace, serviceAccount))
                    .addToData("ca.crt", cluster.caCertificatePem())
                    .addToData("namespace", namespace)
                    .build();
            documents.add(access);
            volumes.add(new VolumeBuilder()
                    .withName("kube-api-access")
                    .withNewConfigMap()
                    .withName(access.getMetadata().getName())
                    .endConfigMap()
                    .build());
        }
        spec.setVolumes(volumes);

        for (Container c : containers(spec)) {
            c.setEnv(resolvedEnv(c, pod, cluster));
            c.setEnvFrom(null);
            Map<String, String> defined = new LinkedHashMap<>();
            c.getEnv().forEach(e -> defined.put(e.getName(), e.getValue()));
            if (c.getCommand() != null) {
                c.setCommand(c.getCommand().stream()
                        .map(a -> EnvExpansion.expand(a, defined))
                        .toList());
            }
            if (c.getArgs() != null) {
                c.setArgs(c.getArgs().stream()
                        .map(a -> EnvExpansion.expand(a, defined))
                        .toList());
            }
            if (mountToken) {
                c.getVolumeMounts()
                        .add(new VolumeMountBuilder()
                                .withName("kube-api-access")
                                .withMountPath(SERVICE_ACCOUNT_DIR)
                                .withReadOnly(true)
                                .build());
            }
            if (c.getPorts() != null) {
                for (ContainerPort p : c.getPorts()) {
                    int hostPort = p.getContainerPort() + 10000 + 100 * ordinalPod.ordinal();
                    p.setHostPort(hostPort);
                    hostPorts.put(Integer.toString(p.getContainerPort()), hostPort);
                    if (p.getName() != null) {
                        hostPorts.put(p.getName(), hostPort);
                    }
                }
            }
            c.setStartupProbe(null);
            c.setReadinessProbe(null);
            c.setLivenessProbe(null);
            c.setLifecycle(null);
        }
        spec.setRestartPolicy("Never");

        Map<String, String> shortened = new LinkedHashMap<>();
        fullAnnotations.forEach((k, v) ->
                shortened.put(k, v.length() > MAX_PODMAN_ANNOTATION ? v.substring(0, MAX_PODMAN_ANNOTATION) : v));
        pod.getMetadata().setAnnotations(shortened);
        pod.getMetadata().setOwnerReferences(null);
        documents.add(pod);

        StringBuilder yaml = new StringBuilder();
        for (HasMetadata d : documents) {
            String text = SERIALIZATION.asYaml(d);
            yaml.append(text.startsWith("---") ? text : "---\n" + text);
        }
        return new Played(yaml.toString(), Map.copyOf(hostPorts));
    }

    /**
     * The container's env with every reference resolved to its value, as the kubelet passes it: a
     * literal value's {@code $(VAR)} is expanded with the variables defined before it (envFrom's and
     * earlier entries), a value from a reference is taken as it is.
     */
    private static List<EnvVar> resolvedEnv(Container c, Pod pod, Cluster cluster) {
        String namespace = pod.getMetadata().getNamespace();
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVar("KUBERNETES_SERVICE_HOST", cluster.apiHost(), null));
        env.add(new EnvVar("KUBERNETES_SERVICE_PORT", Integer.toString(cluster.apiPort()), null));
        env.add(new EnvVar("KUBERNETES_SERVICE_PORT_HTTPS", Integer.toString(cluster.apiPort()), null));
        if (c.getEnvFrom() != null) {
            for (EnvFromSource from : c.getEnvFrom()) {
                String prefix = Optional.ofNullable(from.getPrefix()).orElse("");
                if (from.getConfigMapRef() != null) {
                    cluster.configMap(namespace, from.getConfigMapRef().getName())
                            .map(ConfigMap::getData)
                            .orElse(Map.of())
                            .forEach((k, v) -> env.add(new EnvVar(prefix + k, v, null)));
                }
                if (from.getSecretRef() != null) {
                    cluster.secret(namespace, from.getSecretRef().getName())
                            .map(PlayManifest::decoded)
                            .orElse(Map.of())
                            .forEach((k, v) -> env.add(new EnvVar(prefix + k, v, null)));
                }
            }
        }
        if (c.getEnv() != null) {
            for (EnvVar e : c.getEnv()) {
                EnvVarSource from = e.getValueFrom();
                if (from == null) {
                    Map<String, String> defined = new LinkedHashMap<>();
                    env.forEach(d -> defined.put(d.getName(), d.getValue()));
                    env.add(new EnvVar(e.getName(), EnvExpansion.expand(e.getValue(), defined), null));
                } else if (from.getFieldRef() != null) {
                    env.add(new EnvVar(e.getName(), field(pod, from.getFieldRef()), null));
                } else if (from.getSecretKeyRef() != null) {
                    var ref = from.getSecretKeyRef();
                    Optional<String> value = cluster.secret(namespace, ref.getName())
                            .map(s -> decoded(s).get(ref.getKey()));
                    if (value.isEmpty() && !Boolean.TRUE.equals(ref.getOptional())) {
                        throw missing(
                                "Secret key",
                                ref.getName() + "/" + ref.getKey(),
                                pod.getMetadata().getName());
                    }
                    value.ifPresent(v -> env.add(new EnvVar(e.getName(), v, null)));
                } else if (from.getConfigMapKeyRef() != null) {
                    var ref = from.getConfigMapKeyRef();
                    Optional<String> value = cluster.configMap(namespace, ref.getName())
                            .map(m -> m.getData().get(ref.getKey()));
                    if (value.isEmpty() && !Boolean.TRUE.equals(ref.getOptional())) {
                        throw missing(
                                "ConfigMap key",
                                ref.getName() + "/" + ref.getKey(),
                                pod.getMetadata().getName());
                    }
                    value.ifPresent(v -> env.add(new EnvVar(e.getName(), v, null)));
                } else {
                    env.add(e); // resourceFieldRef: Podman resolves limits itself
                }
            }
        }
        return env;
    }

    /** A downward-API field of the pod, as the kubelet resolves it. */
    private static String field(Pod pod, ObjectFieldSelector selector) {
        String path = selector.getFieldPath();
        var md = pod.getMetadata();
        if (path.startsWith("metadata.labels['") || path.startsWith("metadata.annotations['")) {
            String key = path.substring(path.indexOf("['") + 2, path.length() - 2);
            Map<String, String> map = path.startsWith("metadata.labels") ? md.getLabels() : md.getAnnotations();
            return map == null ? "" : map.getOrDefault(key, "");
        }
        return switch (path) {
            case "metadata.name" -> md.getName();
            case "metadata.namespace" -> md.getNamespace();
            case "metadata.labels" -> keyValueLines(md.getLabels());
            case "metadata.annotations" -> keyValueLines(md.getAnnotations());
            case "spec.serviceAccountName" ->
                Optional.ofNullable(pod.getSpec().getServiceAccountName()).orElse("default");
            case "spec.nodeName" -> "podman-host";
            default ->
                throw new IllegalArgumentException(
                        "pod " + md.getName() + ": the Podman runner cannot resolve fieldRef " + path
                                + " (known before the pod starts: metadata.name, namespace, labels, annotations, spec.serviceAccountName)");
        };
    }

    private static ConfigMap downwardApiFiles(Pod pod, String name, Volume v) {
        Map<String, String> data = new TreeMap<>();
        for (var item : v.getDownwardAPI().getItems()) {
            if (item.getFieldRef() == null) {
                throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + ": downwardAPI item "
                        + item.getPath() + " uses resourceFieldRef, which the Podman runner does not resolve");
            }
            data.put(item.getPath(), field(pod, item.getFieldRef()));
        }
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(data)
                .build();
    }

    /** The kubelet's format for labels and annotations files: {@code key="value"} lines, sorted, Go-quoted. */
    private static String keyValueLines(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(values == null ? Map.of() : values)
                .forEach((k, v) -> out.append(k)
                        .append("=\"")
                        .append(v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                        .append("\"\n"));
        return out.toString();
    }

    /**
     * A secret volume's files as a ConfigMap's: UTF-8 text as {@code data}, anything else (a PKCS12
     * key store) as {@code binaryData}, still base64, which Podman writes as bytes. Decoding a key
     * store to text would mangle it.
     */
    private static Map<String, String> textOf(Secret secret) {
        Map<String, String> text = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData()
                    .forEach((k, v) -> utf8(Base64.getDecoder().decode(v)).ifPresent(t -> text.put(k, t)));
        }
        if (secret.getStringData() != null) {
            text.putAll(secret.getStringData());
        }
        return text;
    }

    private static Map<String, String> bytesOf(Secret secret) {
        Map<String, String> bytes = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((k, v) -> {
                if (utf8(Base64.getDecoder().decode(v)).isEmpty()) {
                    bytes.put(k, v);
                }
            });
        }
        return bytes;
    }

    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static Map<String, String> decoded(Secret secret) {
        Map<String, String> data = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData()
                    .forEach(
                            (k, v) -> data.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        }
        if (secret.getStringData() != null) {
            data.putAll(secret.getStringData());
        }
        return data;
    }

    /** A ConfigMap or claim with only what Podman reads (name and content), as a new object. */
    private static <T extends HasMetadata> T bare(T object) {
        T copy = SERIALIZATION.clone(object);
        var md = new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
                .withName(object.getMetadata().getName())
                .build();
        copy.setMetadata(md);
        if (copy instanceof PersistentVolumeClaim pvc) {
            pvc.setStatus(null);
        }
        return copy;
    }

    private static void rename(PodSpec spec, String from, String to, List<Volume> volumes) {
        volumes.stream().filter(v -> v.getName().equals(from)).forEach(v -> v.setName(to));
        for (Container c : containers(spec)) {
            for (VolumeMount m : c.getVolumeMounts()) {
                if (m.getName().equals(from)) {
                    m.setName(to);
                }
            }
        }
    }

    /** The init containers (a hook Job's describe step), then the containers: the kubelet sets each up alike. */
    private static List<Container> containers(PodSpec spec) {
        List<Container> all = new ArrayList<>();
        if (spec.getInitContainers() != null) {
            all.addAll(spec.getInitContainers());
        }
        all.addAll(spec.getContainers());
        return all;
    }

    /** A volume named as {@code v} that mounts {@code files}: the played pod's stand-in for {@code v}. */
    private static Volume configMapVolume(Volume v, ConfigMap files) {
        return new VolumeBuilder()
                .withName(v.getName())
                .withNewConfigMap()
                .withName(files.getMetadata().getName())
                .endConfigMap()
                .build();
    }

    private static void replace(List<Volume> volumes, Volume old, Volume replacement) {
        volumes.set(volumes.indexOf(old), replacement);
    }

    private static IllegalStateException missing(String kind, String name, String pod) {
        return new IllegalStateException(
                "pod " + pod + " refers to " + kind + " " + name + ", which the API server does not hold");
    }
}
