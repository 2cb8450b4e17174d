/**
 * The Kubernetes API server of tests and of the Podman runner ({@link
 * io.weir.testkit.kubernetes.KubernetesApiServer}): fabric8's CRUD mock behind TLS, tokens, RBAC
 * and the StatefulSet scale subresource.
 */
package io.weir.testkit.kubernetes;
