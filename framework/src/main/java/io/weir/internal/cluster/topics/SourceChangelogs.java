package io.weir.internal.cluster.topics;

import io.weir.common.internal.KafkaCalls;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, at start-up, which tables read from a topic ({@code builder.table(...)}) use that topic
 * as their store's changelog: those whose topic is compacted ({@code cleanup.policy} contains
 * {@code compact}). A compacted topic keeps every key's latest value, so it rebuilds the table,
 * and a second copy in {@code <application.id>-<store>-changelog} would only double the bytes
 * written and stored. A topic with {@code cleanup.policy=delete} loses old keys to retention, so it
 * cannot rebuild the table: such a table keeps a changelog of its own, and one INFO line says why.
 *
 * <p>Unlike Kafka Streams' {@code topology.optimization=reuse.ktable.source.topics}, which restores
 * such a store to the topic's end, Weir restores it only up to the task's committed input offset
 * (see {@code RestoreSession}): the task reprocesses from that offset, and the table's updates carry
 * the old value of each row, which must be the one as of that offset.
 */
public final class SourceChangelogs {

    private static final Logger log = LoggerFactory.getLogger(SourceChangelogs.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private SourceChangelogs() {}

    /**
     * {@code model} with each table store that may use its source topic as changelog resolved:
     * kept so when the topic is compacted, else given a changelog of its own. A topic that does not
     * exist is left as it is (the start-up fails on it with the usual message).
     */
    public static TopologyModel resolve(TopologyModel model, Admin admin) {
        Set<String> topics = new TreeSet<>();
        model.stores().values().stream().filter(StoreSpec::changelogIsSource).forEach(s -> topics.add(s.sourceTopic()));
        if (topics.isEmpty()) {
            return model;
        }
        Set<String> existing = KafkaCalls.get(admin.listTopics().names(), TIMEOUT, "list topics");
        List<ConfigResource> resources = topics.stream()
                .filter(existing::contains)
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        Map<ConfigResource, Config> configs = resources.isEmpty()
                ? Map.of()
                : KafkaCalls.get(admin.describeConfigs(resources).all(), TIMEOUT, "describe the tables' source topics");
        Set<String> compacted = new TreeSet<>();
        Map<String, String> policies = new java.util.HashMap<>();
        configs.forEach((r, c) -> {
            ConfigEntry policy = c.get("cleanup.policy");
            ConfigEntry retention = c.get("retention.ms");
            String value = policy == null ? "delete" : policy.value();
            policies.put(r.name(), value + (retention == null ? "" : " and retention.ms=" + retention.value()));
            if (keepsEveryKey(value, retention == null ? null : retention.value())) {
                compacted.add(r.name());
            }
        });
        return model.withStores(s -> {
            if (!s.changelogIsSource()
                    || !policies.containsKey(s.sourceTopic())
                    || compacted.contains(s.sourceTopic())) {
                return s;
            }
            log.info(
                    "table store '{}': its source topic '{}' has cleanup.policy={}, which deletes old keys, so it"
                            + " cannot rebuild the table; the store keeps a changelog of its own (a compacted source topic"
                            + " would serve as the changelog)",
                    s.name(),
                    s.sourceTopic(),
                    policies.get(s.sourceTopic()));
            return s.withSourceTopic(null);
        });
    }

    /**
     * True when a topic keeps every key's latest value for ever: {@code cleanup.policy=compact},
     * or {@code compact,delete} with no time retention ({@code retention.ms=-1}); a
     * {@code compact,delete} topic with a retention deletes old rows, as a delete-policy topic does.
     */
    static boolean keepsEveryKey(String cleanupPolicy, String retentionMs) {
        boolean compact = false;
        boolean delete = false;
        for (String p : cleanupPolicy.split(",")) {
            compact |= p.trim().equalsIgnoreCase("compact");
            delete |= p.trim().equalsIgnoreCase("delete");
        }
        return compact && (!delete || "-1".equals(retentionMs == null ? null : retentionMs.trim()));
    }
}
