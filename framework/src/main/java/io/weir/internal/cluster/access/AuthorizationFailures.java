package io.weir.internal.cluster.access;

import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * Names the resource of an ACL the cluster found missing while the instance ran, where the
 * start-up check ({@link AccessCheck}) could not see it coming: Kafka's own messages ("Transactional
 * Id authorization failed.") do not say which id, group or prefix, nor what to grant.
 */
public final class AuthorizationFailures {

    private AuthorizationFailures() {}

    /**
     * {@code failure} explained, if a Kafka {@link AuthorizationException} caused it: a
     * {@link ClusterException} naming the resource and the ACL to add, with {@code failure} as its
     * cause; else {@code failure} itself.
     */
    public static Throwable explained(Throwable failure, WeirConfig config) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AuthorizationException denied) {
                return new ClusterException(
                        config.applicationId() + " is not authorized to " + resource(denied, config)
                                + " (" + denied.getClass().getSimpleName() + "); weir acls plan --app "
                                + config.applicationId()
                                + " prints every ACL the application needs",
                        failure);
            }
        }
        return failure;
    }

    private static String resource(AuthorizationException denied, WeirConfig config) {
        String prefix = config.applicationId() + "-";
        if (denied instanceof TransactionalIdAuthorizationException) {
            return "Write the transactional id prefix '" + prefix + "'";
        }
        if (denied instanceof GroupAuthorizationException g) {
            return "Read the group '" + (g.groupId() != null ? g.groupId() : config.applicationId()) + "'";
        }
        if (denied instanceof TopicAuthorizationException t) {
            return "use the topic(s) " + new java.util.TreeSet<>(t.unauthorizedTopics());
        }
        if (denied instanceof ClusterAuthorizationException) {
            return "use the cluster (IdempotentWrite, on brokers before Kafka 2.8)";
        }
        return "do what it asked: " + denied.getMessage();
    }
}
