/**
 * Weir's few calls to the Kubernetes API, made from inside a pod with its service account
 * ({@link io.weir.internal.kubernetes.KubernetesApi}: read and set a StatefulSet's desired replicas
 * through its {@code scale} subresource). Uses the JDK's HTTP client and {@code internal.json}; no
 * Kubernetes client library.
 */
package io.weir.internal.kubernetes;
