package io.weir.errors;

/**
 * Kafka did not do what Weir asked of it: the cluster could not be reached in time, refused a
 * request (authorization, an invalid config), or lacks a topic the application needs. The message
 * names the operation and the topics or group involved; check {@code bootstrap.servers}, the
 * cluster's health and the application's permissions, or create the topic it names.
 */
public class ClusterException extends WeirException {

    private static final long serialVersionUID = 1L;

    public ClusterException(String message) {
        super(message);
    }

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
