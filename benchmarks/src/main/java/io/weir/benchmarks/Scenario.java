package io.weir.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * A workload of the benchmark, named as in {@code --workload} and in the JSON {@code "workload"}
 * field: what the systems under test run, over which keys, under which guarantees.
 *
 * <ul>
 *   <li>{@code stateless-map}: {@code stream → mapValues → to}, Weir, Kafka Streams and the bare
 *       loop, both guarantees;</li>
 *   <li>{@code count-10k}, {@code count-1m}: {@code stream → groupByKey → count("counts") →
 *       toStream → to} over inputs with 10,000 and 1,000,000 distinct keys, Weir and Kafka Streams,
 *       exactly-once;</li>
 *   <li>{@code restore-1m}: the time to restore a changelog of 1,000,000 keys (or
 *       {@code --restore-keys}) into an empty store, for a {@code groupByKey → reduce("latest")}
 *       table, Weir and Kafka Streams, exactly-once.</li>
 * </ul>
 */
enum Scenario {
    STATELESS_MAP("stateless-map", Kind.MAP, 10_000),
    COUNT_10K("count-10k", Kind.COUNT, 10_000),
    COUNT_1M("count-1m", Kind.COUNT, 1_000_000),
    RESTORE_1M("restore-1m", Kind.RESTORE, 1_000_000);

    /** The topology a scenario runs. */
    enum Kind {
        /** {@code mapValues} of the value to upper case. */
        MAP,
        /** {@code groupByKey().count(COUNT_STORE)}, output value an 8-byte long. */
        COUNT,
        /** {@code groupByKey().reduce((a, b) -> b, RESTORE_STORE)}: the latest value per key, in a store. */
        RESTORE
    }

    /** The store of the count topology; it names the changelog {@code <application.id>-counts-changelog}. */
    static final String COUNT_STORE = "counts";
    /** The store of the restore topology; its changelog is {@code <application.id>-latest-changelog}. */
    static final String RESTORE_STORE = "latest";

    private final String label;
    private final Kind kind;
    private final int distinctKeys;

    Scenario(String label, Kind kind, int distinctKeys) {
        this.label = label;
        this.kind = kind;
        this.distinctKeys = distinctKeys;
    }

    String label() {
        return label;
    }

    Kind kind() {
        return kind;
    }

    /** Distinct keys of the input (for restore: the default number of changelog keys). */
    int distinctKeys() {
        return distinctKeys;
    }

    /** The bare kafka-clients loop exists for the stateless map only. */
    boolean hasBare() {
        return kind == Kind.MAP;
    }

    /** The guarantees the scenario is run under; the stateful ones are about exactly-once. */
    List<Guarantee> guarantees() {
        return kind == Kind.MAP ? List.of(Guarantee.values()) : List.of(Guarantee.EXACTLY_ONCE);
    }

    /** The changelog topic of the scenario's store for an application id (Weir and Kafka Streams name it alike). */
    String changelogTopic(String applicationId) {
        return switch (kind) {
            case MAP -> throw new IllegalStateException(label + " has no store");
            case COUNT -> applicationId + "-" + COUNT_STORE + "-changelog";
            case RESTORE -> applicationId + "-" + RESTORE_STORE + "-changelog";
        };
    }

    /**
     * {@code all} (every scenario, in declaration order) or a comma-separated list of labels.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    static List<Scenario> parseList(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("all")) {
            return List.of(values());
        }
        List<Scenario> selected = new java.util.ArrayList<>();
        for (String name : v.split(",")) {
            Scenario s = byLabel(name.trim());
            if (!selected.contains(s)) {
                selected.add(s);
            }
        }
        return List.copyOf(selected);
    }

    private static Scenario byLabel(String name) {
        for (Scenario s : values()) {
            if (s.label.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; allowed: stateless-map, count-10k,"
                + " count-1m, restore-1m, all");
    }
}
