package io.weir.internal.cluster;

import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Finds out why an instance cannot make progress by asking the cluster, the way an operator would:
 * can a broker be reached at all, does every topic the topology reads and writes still exist, and
 * does every partition of them have a leader. The stream threads only see their own symptom (a
 * call that does not return, a commit that keeps failing); the cause is named here.
 *
 * <p>Blocking (each question waits at most {@link #TIMEOUT}); run it off the stream threads and
 * off the monitor's tick. Thread-safe, as {@link Admin} is.
 */
public final class ClusterDiagnosis {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final int MAX_LISTED = 5;

    private final Admin admin;
    private final String bootstrapServers;
    private final Set<String> inputs;
    private final Set<String> outputs;
    private final Set<String> internal;

    public ClusterDiagnosis(Admin admin, WeirConfig config, TopologyModel model) {
        this.admin = admin;
        this.bootstrapServers = config.bootstrapServers();
        this.inputs = model.sourceTopics();
        this.outputs = new LinkedHashSet<>(model.sinkTopics());
        if (config.deadLetterOnError()) {
            outputs.add(config.deadLetterTopic());
        }
        this.internal = new LinkedHashSet<>();
        for (NodeSpec.Source s : model.internalSources()) {
            internal.addAll(s.topics());
        }
        for (StoreSpec store : model.stores().values()) {
            // A table's source topic serving as its changelog is an input, checked as one.
            if (store.logged() && !store.changelogIsSource()) {
                internal.add(store.changelogTopic(config.applicationId()));
            }
        }
    }

    /** The cause found, in one sentence, or null if the cluster and the topics look healthy. */
    public String diagnose() {
        try {
            if (KafkaCalls.get(admin.describeCluster().nodes(), TIMEOUT, "describe the cluster")
                    .isEmpty()) {
                return "the Kafka cluster at " + bootstrapServers + " has no broker up";
            }
        } catch (ClusterException e) {
            return interrupted(e)
                    ? null
                    : "cannot reach the Kafka cluster at " + bootstrapServers + " (" + reason(e) + ")";
        }
        Set<String> all = new LinkedHashSet<>(outputs);
        all.addAll(inputs);
        all.addAll(internal);
        if (all.isEmpty()) {
            return null;
        }
        Map<String, KafkaFuture<TopicDescription>> described =
                admin.describeTopics(all).topicNameValues();
        List<String> missing = new ArrayList<>();
        List<String> leaderless = new ArrayList<>();
        for (String topic : all) {
            try {
                TopicDescription d = KafkaCalls.get(described.get(topic), TIMEOUT, "describe topic '" + topic + "'");
                for (TopicPartitionInfo p : d.partitions()) {
                    if (p.leader() == null || p.leader().isEmpty()) {
                        leaderless.add(topic + "-" + p.partition());
                    }
                }
            } catch (ClusterException e) {
                if (interrupted(e)) {
                    return null;
                } else if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    missing.add(topic);
                } else if (e.getCause() instanceof TimeoutException) {
                    return "the Kafka cluster at " + bootstrapServers + " does not answer (describing topic '" + topic
                            + "' timed out)";
                } else {
                    return "cannot describe topic '" + topic + "' (" + reason(e) + ")";
                }
            }
        }
        List<String> causes = new ArrayList<>();
        for (String topic : missing) {
            causes.add(role(topic) + " topic '" + topic + "' does not exist"
                    + (outputs.contains(topic) ? " (deleted?): records for it cannot be written" : ""));
        }
        if (!leaderless.isEmpty()) {
            causes.add("partition" + (leaderless.size() > 1 ? "s " : " ") + list(leaderless) + " ha"
                    + (leaderless.size() > 1 ? "ve" : "s") + " no leader");
        }
        return causes.isEmpty() ? null : String.join("; ", causes);
    }

    private String role(String topic) {
        return outputs.contains(topic) ? "output" : inputs.contains(topic) ? "input" : "internal";
    }

    private static String list(Collection<String> items) {
        List<String> shown = items.stream().limit(MAX_LISTED).toList();
        return String.join(", ", shown)
                + (items.size() > MAX_LISTED ? " and " + (items.size() - MAX_LISTED) + " more" : "");
    }

    private static boolean interrupted(ClusterException e) {
        return e.getCause() instanceof InterruptedException;
    }

    /** The error behind a failed question: the cluster's, or the client's time-out. */
    private static String reason(ClusterException e) {
        Throwable t = e.getCause() != null ? e.getCause() : e;
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
