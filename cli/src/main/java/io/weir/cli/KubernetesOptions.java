package io.weir.cli;

import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.internal.kubernetes.KubernetesApiException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How a command reaches the Kubernetes API: inside a pod, as the pod's service account (the
 * in-cluster environment every pod has, {@link KubernetesApi#inCluster()}); elsewhere, with
 * {@code --kubernetes-server}, a token file and the namespace.
 */
final class KubernetesOptions {

    @Option(
            names = "--kubernetes-server",
            paramLabel = "URL",
            description = "the Kubernetes API server (default: the pod's, from KUBERNETES_SERVICE_HOST and its"
                    + " service account)")
    URI server;

    @Option(
            names = "--kubernetes-token-file",
            paramLabel = "FILE",
            description = "with --kubernetes-server: a file holding the bearer token")
    Path tokenFile;

    @Option(
            names = "--kubernetes-ca-file",
            paramLabel = "FILE",
            description = "with --kubernetes-server: the CA certificate of the server (default: the JDK's trust)")
    Path caFile;

    @Option(
            names = "--namespace",
            paramLabel = "NAMESPACE",
            description = "with --kubernetes-server: the namespace of the StatefulSet")
    String namespace;

    /**
     * The StatefulSet {@code name} of the namespace, through the API.
     *
     * @throws CommandFailedException outside a pod without {@code --kubernetes-server}, or when the
     *     token file cannot be read
     */
    StatefulSetScale statefulSet(String name) {
        KubernetesApi api = api();
        return new StatefulSetScale() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int replicas() {
                return api.statefulSetReplicas(name);
            }

            @Override
            public void scaleTo(int replicas) {
                api.scaleStatefulSet(name, replicas);
            }

            @Override
            public java.util.Optional<String> annotation(String key) {
                return api.statefulSetAnnotation(name, key);
            }

            @Override
            public void annotate(String key, String value) {
                api.annotateStatefulSet(name, key, value);
            }
        };
    }

    /**
     * The API, as the pod's service account or with {@code --kubernetes-server}.
     *
     * @throws CommandFailedException outside a pod without {@code --kubernetes-server}, or when the
     *     token file cannot be read
     */
    KubernetesApi api() {
        if (server == null) {
            try {
                return KubernetesApi.requireInCluster();
            } catch (KubernetesApiException e) {
                throw new CommandFailedException(e.getMessage() + "; outside a pod, give --kubernetes-server,"
                        + " --kubernetes-token-file and --namespace");
            }
        }
        return KubernetesApi.of(server, token(), caFile, requireNamespace());
    }

    private String token() {
        if (tokenFile == null) {
            throw new CommandFailedException("--kubernetes-server needs --kubernetes-token-file");
        }
        try {
            return Files.readString(tokenFile).trim();
        } catch (IOException e) {
            throw new CommandFailedException("cannot read --kubernetes-token-file " + tokenFile + ": " + e);
        }
    }

    private String requireNamespace() {
        if (namespace == null || namespace.isBlank()) {
            throw new CommandFailedException("--kubernetes-server needs --namespace");
        }
        return namespace;
    }
}
