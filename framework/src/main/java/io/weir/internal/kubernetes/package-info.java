/**
 * Weir's few calls to the Kubernetes API, made from inside a pod with its service account
 * ({@link io.weir.internal.kubernetes.KubernetesApi}: read and set a StatefulSet's desired replicas
 * through its {@code scale} subresource), and what the shutdown path decides from them
 * ({@link io.weir.internal.kubernetes.ScaleInCheck}: is this pod being removed by a scale-down?).
 * Uses the JDK's HTTP client and {@code internal.json}; no Kubernetes client library.
 */
package io.weir.internal.kubernetes;
