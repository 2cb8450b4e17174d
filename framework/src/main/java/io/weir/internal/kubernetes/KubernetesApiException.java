package io.weir.internal.kubernetes;

import java.util.OptionalInt;

/**
 * A Kubernetes API call that failed, or a pod that cannot make one. The message names the call
 * (method, resource, namespace), the HTTP status and the API's reason, and what to change: for a
 * 403 the RBAC rule the pod's service account lacks. {@link #status()} is empty when no answer came
 * (not in a pod, no connection, a time-out).
 */
public final class KubernetesApiException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The HTTP status, 0 when there was no answer (kept as an int: the exception is serializable). */
    private final int status;

    KubernetesApiException(String message, int status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    KubernetesApiException(String message) {
        this(message, 0, null);
    }

    /** The HTTP status of the API's answer; empty when there was none. */
    public OptionalInt status() {
        return status == 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /**
     * True when the API answered that the call can never succeed as configured (401: the token,
     * 403: a missing RBAC rule, 404: no such StatefulSet), as opposed to a failure that may pass
     * (no connection, a time-out, a 5xx).
     */
    public boolean refused() {
        return status == 401 || status == 403 || status == 404;
    }
}
