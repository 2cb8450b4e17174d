package io.weir.internal.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds of topics an application creates for itself, and the one place their names are built
 * and recognised: by the runtime, the test driver and the {@code weir} command alike.
 * <ul>
 *   <li>{@code <app>-<node>-repartition} and {@code <app>-<store>-changelog}: one per repartition
 *       step and per logged store ({@link #of(String, String)});</li>
 *   <li>{@code <app>-dlq} and {@code <app>-late}: the default names of the dead-letter and
 *       late-records topics, which {@code dead.letter.topic} and {@code late.records.topic} may
 *       replace;</li>
 *   <li>{@code <app>-liveness}, {@code <app>-topology}, {@code <app>-control} and
 *       {@code <app>-savepoints}: one each per application ({@link #of(String)}), created with the
 *       partitions and configs given here.</li>
 * </ul>
 * An application id that extends another's ({@code app} and {@code app-x}) shares its prefix, so a
 * name alone cannot always tell whose topic it is; where that matters, plan the topics from the
 * topology instead.
 */
public enum InternalTopic {

    /** Records re-keyed before a stateful step; partition p is read by task p of the sub-topology after it. */
    REPARTITION("-repartition", 0, Map.of()),
    /** A store's compacted log; partition p belongs to task p. */
    CHANGELOG("-changelog", 0, Map.of()),
    /** Records that failed deserialization or processing (default name). */
    DEAD_LETTER("-dlq", 1, Map.of()),
    /** Records too late for their window (default name). */
    LATE_RECORDS("-late", 1, Map.of()),
    /** Heartbeats of the instances ({@code failure.detection.ms}); only the last hour matters. */
    LIVENESS("-liveness", 1, Map.of("cleanup.policy", "delete", "retention.ms", "3600000")),
    /** The topology the instances last started with, for the compatibility check: one record, kept. */
    TOPOLOGY("-topology", 1, Map.of("cleanup.policy", "compact")),
    /** Savepoint requests and progress; they matter only while a savepoint is taken. */
    CONTROL(
            "-control",
            1,
            Map.of(
                    "cleanup.policy",
                    "delete",
                    "retention.ms",
                    Long.toString(Duration.ofDays(7).toMillis()))),
    /**
     * Savepoints: compacted, never deleted by time or size, so a savepoint lasts until it is deleted;
     * every record has a key of its own ({@code <id>/...}), so compaction removes only what a
     * deletion tombstoned. Segments roll every hour so the log cleaner reaches deleted data within
     * about that; records up to {@link #SAVEPOINT_RECORD_BYTES}. (Topics created before deletions
     * reclaimed space have {@code cleanup.policy=delete}: their records stay until the topic goes.)
     */
    SAVEPOINTS(
            "-savepoints",
            2,
            Map.of(
                    "cleanup.policy",
                    "compact",
                    "segment.ms",
                    "3600000",
                    "min.cleanable.dirty.ratio",
                    "0.1",
                    "max.message.bytes",
                    Integer.toString(InternalTopic.SAVEPOINT_RECORD_BYTES)));

    /** The largest record the savepoints topic accepts. */
    public static final int SAVEPOINT_RECORD_BYTES = 4 << 20;

    private final String suffix;
    private final int partitions;
    private final Map<String, String> configs;

    InternalTopic(String suffix, int partitions, Map<String, String> configs) {
        this.suffix = suffix;
        this.partitions = partitions;
        this.configs = configs;
    }

    /** The end of every name of this kind, for example {@code -changelog}. */
    public String suffix() {
        return suffix;
    }

    /** {@code dead-letter}, {@code late-records}, {@code changelog}...: the kind as operators read it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * The partitions a topic of this kind is created with, for the kinds whose count does not
     * depend on the topology (0 for repartition and changelog topics, sized by their tasks).
     */
    public int partitions() {
        return partitions;
    }

    /** The topic configs set when a topic of this kind is created; empty where they depend on the store or settings. */
    public Map<String, String> configs() {
        return configs;
    }

    /** The name of this application-wide topic, {@code <app><suffix>}; not for repartition and changelog topics. */
    public String of(String applicationId) {
        if (this == REPARTITION || this == CHANGELOG) {
            throw new IllegalArgumentException(label() + " topics are named after a node or store: use of(app, name)");
        }
        return applicationId + suffix;
    }

    /** The name of a repartition or changelog topic: {@code <app>-<name><suffix>}. */
    public String of(String applicationId, String name) {
        return applicationId + "-" + relative(name);
    }

    /**
     * A repartition or changelog topic's name before the topology knows its application:
     * {@code <name><suffix>}; the runtime puts {@code <app>-} in front.
     */
    public String relative(String name) {
        if (this != REPARTITION && this != CHANGELOG) {
            throw new IllegalArgumentException(label() + " topics are not named after a node or store");
        }
        return name + suffix;
    }

    /**
     * What kind of internal topic of application {@code applicationId} {@code topic} is, by its
     * name; empty for any other topic.
     *
     * @param deadLetterTopic  the application's dead-letter topic ({@code dead.letter.topic})
     * @param lateRecordsTopic the application's late-records topic ({@code late.records.topic})
     */
    public static Optional<InternalTopic> kindOf(
            String applicationId, String topic, String deadLetterTopic, String lateRecordsTopic) {
        if (topic.equals(deadLetterTopic)) {
            return Optional.of(DEAD_LETTER);
        }
        if (topic.equals(lateRecordsTopic)) {
            return Optional.of(LATE_RECORDS);
        }
        if (!topic.startsWith(applicationId + "-")) {
            return Optional.empty();
        }
        for (InternalTopic kind : values()) {
            boolean named = kind == REPARTITION || kind == CHANGELOG;
            if (named
                    ? topic.endsWith(kind.suffix) && topic.length() > applicationId.length() + 1 + kind.suffix.length()
                    : kind != DEAD_LETTER && kind != LATE_RECORDS && topic.equals(applicationId + kind.suffix)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
