package io.weir.internal.cluster.access;

import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * One ACL an application needs: an operation allowed on a resource (a topic, a group, a
 * transactional id or the cluster), by literal name or by prefix, with the reason Weir needs it.
 * Written as Kafka's tools write it ({@link #operationName()} is {@code DescribeConfigs}, as
 * {@code kafka-acls.sh --operation} takes it).
 *
 * @param why what the application does with it, for people reading a plan
 */
public record Acl(ResourceType resourceType, String name, PatternType pattern, AclOperation operation, String why) {

    /** {@code Read}, {@code DescribeConfigs}, {@code IdempotentWrite}: the operation as kafka-acls.sh names it. */
    public String operationName() {
        return name(operation);
    }

    /** {@code DescribeConfigs} for {@link AclOperation#DESCRIBE_CONFIGS}. */
    static String name(AclOperation operation) {
        return camel(operation.name());
    }

    /** {@code topic}, {@code group}, {@code transactional id}, {@code cluster}. */
    public String resourceLabel() {
        return resourceType.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** For example {@code the topic prefix 'app-'} or {@code the group 'app'}. */
    public String describeResource() {
        if (resourceType == ResourceType.CLUSTER) {
            return "the cluster";
        }
        return "the " + resourceLabel() + (pattern == PatternType.PREFIXED ? " prefix '" : " '") + name + "'";
    }

    /** The ACL as Kafka's admin API takes it, allowing {@code principal} ({@code User:app}) from any host. */
    public AclBinding binding(String principal) {
        return new AclBinding(
                new ResourcePattern(resourceType, name, pattern),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }

    /**
     * The {@code kafka-acls.sh} command line that adds this ACL for {@code principal}; values are
     * quoted for a POSIX shell where they need it.
     */
    public String kafkaAclsCommand(String bootstrapServers, String principal) {
        StringBuilder b = new StringBuilder("kafka-acls.sh --bootstrap-server ")
                .append(quoted(bootstrapServers))
                .append(" --add --allow-principal ")
                .append(quoted(principal))
                .append(" --operation ")
                .append(operationName());
        switch (resourceType) {
            case TOPIC -> b.append(" --topic ").append(quoted(name));
            case GROUP -> b.append(" --group ").append(quoted(name));
            case TRANSACTIONAL_ID -> b.append(" --transactional-id ").append(quoted(name));
            case CLUSTER -> b.append(" --cluster");
            default -> throw new IllegalStateException("Weir plans no ACL on a " + resourceType);
        }
        if (pattern == PatternType.PREFIXED) {
            b.append(" --resource-pattern-type prefixed");
        }
        return b.toString();
    }

    private static String camel(String constant) {
        StringBuilder b = new StringBuilder();
        for (String part : constant.split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    private static String quoted(String value) {
        return value.matches("[A-Za-z0-9_.,:/@=+-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }
}
