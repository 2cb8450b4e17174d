package io.weir.benchmarks;

import io.weir.benchmarks.enrich.EnrichBench;
import io.weir.benchmarks.input.WindowModel;
import io.weir.benchmarks.jobs.FailoverJob;
import io.weir.benchmarks.jobs.MemoryJob;
import io.weir.benchmarks.jobs.QueryBench;
import io.weir.benchmarks.jobs.ReadyJob;
import io.weir.benchmarks.jobs.RestartJob;
import io.weir.benchmarks.jobs.SavepointJob;
import io.weir.benchmarks.jobs.ScaleOutJob;
import io.weir.benchmarks.systems.BareLoop;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.benchmarks.systems.WeirRunner;
import io.weir.benchmarks.ysb.YsbEvents;
import io.weir.benchmarks.ysb.YsbJob;
import io.weir.benchmarks.ysb.YsbTopology;
import io.weir.internal.config.InternalTopic;
import java.time.Duration;
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
 *       table, Weir and Kafka Streams, exactly-once, and as the floor a plain {@code read_committed}
 *       consumer reading the same changelog to its end ({@code BareRestore});</li>
 *   <li>{@code window-count-10s}: {@code stream → groupByKey → 10 s tumbling windows (no grace) →
 *       count("counts")}, one result per key and window when the window closes (Weir
 *       {@code Emit.onWindowClose()}, Kafka Streams {@code suppress(untilWindowCloses)}), over an
 *       input of 10,000 keys whose event time advances steadily ({@link WindowModel}), Weir and
 *       Kafka Streams, exactly-once.</li>
 * </ul>
 *
 * <p>Not in {@code all} (they take long; {@code extras} selects both), each running the count
 * topology in a child JVM ({@link ChildCountRunner}):
 *
 * <ul>
 *   <li>{@code restart-1m}: after 1,000,000 distinct keys (or {@code --keys}) are counted, the
 *       process is SIGKILLed, a batch of updates is written, and the time from restarting the process
 *       to the first new output is measured ({@link RestartJob}); Weir and Kafka Streams,
 *       exactly-once;</li>
 *   <li>{@code memory-10m}: the peak RSS of a Weir process counting 10,000,000 distinct keys (or
 *       {@code --keys}) against the bound its memory settings promise ({@link MemoryJob}).</li>
 * </ul>
 *
 * <p>About operating an instance, not in {@code all} either ({@code ops} selects both):
 *
 * <ul>
 *   <li>{@code http-overhead}: the stateless map (same input), exactly-once, in Weir without HTTP
 *       ({@code http.port=-1}), with HTTP idle, and with {@code /metrics} scraped every
 *       {@code --scrape-metrics-ms} ({@code MetricsScraper}); Kafka Streams beside them as the
 *       peer;</li>
 *   <li>{@code start-to-ready}: the count topology in a child JVM with an empty state directory and
 *       an empty input, from process start to ready ({@link ReadyJob}: Weir's {@code /health/ready}
 *       answering 200, Kafka Streams' state {@code RUNNING}).</li>
 * </ul>
 *
 * <p>{@code bounded}, in no group (select it by its label): the count topology of {@code count-10k}
 * in Weir over the same input, as a streaming run ({@code weir}) and as a bounded run
 * ({@code weir_bounded}, {@code run.mode=bounded}, {@link WeirRunner#bounded()}); both are timed
 * alike, until the input's offsets and the last output are committed.
 *
 * <p>{@code savepoint}, in no group (select it by its label; Weir only, Kafka Streams has no
 * savepoints): the count topology in Weir with 1,000,000 keys (or {@code --keys}) of state under
 * live traffic; a savepoint is taken and restored into a new application ({@link SavepointJob}):
 * the processing pause, the cut, the total time and write rate, and the restore rate.
 *
 * <p>About scaling with state, not in {@code all} either ({@code scaling} selects both; they take
 * minutes), each running the count topology in several child JVMs of one group
 * ({@link InstanceGroup}), exactly-once, one standby replica, static membership, under live traffic:
 *
 * <ul>
 *   <li>{@code failover}: three instances share 1,000,000 keys (or {@code --keys}) of state; one is
 *       SIGKILLed for good; the time until every partition it owned has new committed output
 *       ({@link FailoverJob});</li>
 *   <li>{@code scale-out}: two instances share 2,000,000 keys (or {@code --keys}), about
 *       1,000,000 each; a third joins; the time until the group is balanced again and the longest
 *       output pause of any partition meanwhile ({@link ScaleOutJob}).</li>
 * </ul>
 */
public enum Scenario {
    STATELESS_MAP("stateless-map", Kind.MAP, 10_000, "all"),
    COUNT_10K("count-10k", Kind.COUNT, 10_000, "all"),
    COUNT_1M("count-1m", Kind.COUNT, 1_000_000, "all"),
    RESTORE_1M("restore-1m", Kind.RESTORE, 1_000_000, "all"),
    WINDOW_COUNT_10S("window-count-10s", Kind.WINDOW_COUNT, 10_000, "all"),
    RESTART_1M("restart-1m", Kind.RESTART, 1_000_000, "extras"),
    MEMORY_10M("memory-10m", Kind.MEMORY, 10_000_000, "extras"),
    HTTP_OVERHEAD("http-overhead", Kind.MAP, 10_000, "ops"),
    START_TO_READY("start-to-ready", Kind.READY, 10_000, "ops"),
    FAILOVER("failover", Kind.FAILOVER, 1_000_000, "scaling"),
    SCALE_OUT("scale-out", Kind.SCALE_OUT, 2_000_000, "scaling"),
    /** Selected by its label only: in no group, so never part of {@code all}. */
    BOUNDED("bounded", Kind.COUNT, 10_000, "bounded"),
    /** Selected by its label only: in no group. */
    SAVEPOINT("savepoint", Kind.SAVEPOINT, 1_000_000, "savepoint"),
    /** Selected by its label only: in no group (a rate ladder of minutes per step). */
    YSB("ysb", Kind.YSB, YsbEvents.CAMPAIGNS, "ysb"),
    /** Selected by its label only: in no group. Key lookups over HTTP ({@link QueryBench}). */
    QUERIES("queries", Kind.QUERIES, 100_000, "queries"),
    /**
     * Selected by its label only: in no group. A lookup per record against an HTTP service,
     * synchronous and asynchronous ({@link EnrichBench}).
     */
    ENRICH("enrich", Kind.ENRICH, 10_000, "enrich"),
    /**
     * Selected by its label only: in no group. Avro records through Weir's registry serde beside
     * Avro's own coding framed by hand ({@link io.weir.benchmarks.serde.SerdeBench}); no Kafka.
     */
    SERDE_AVRO("serde-avro", Kind.SERDE, 1, "serde-avro");

    /** The names that select several workloads: each scenario belongs to one. */
    static final List<String> GROUPS = List.of("all", "extras", "ops", "scaling");

    /** The topology a scenario runs. */
    public enum Kind {
        /** {@code mapValues} of the value to upper case. */
        MAP,
        /** {@code groupByKey().count(COUNT_STORE)}, output value an 8-byte long. */
        COUNT,
        /** {@code groupByKey().reduce((a, b) -> b, RESTORE_STORE)}: the latest value per key, in a store. */
        RESTORE,
        /**
         * {@code groupByKey()}, tumbling windows of {@link #WINDOW_SIZE} without grace,
         * {@code count(COUNT_STORE)}, one result per key and window on close; output key
         * {@code [start: 8][end: 8][key]} (Weir's {@code Serdes.windowed} layout, both systems),
         * value an 8-byte long.
         */
        WINDOW_COUNT,
        /** The count topology, in a child process that is SIGKILLed and restarted. */
        RESTART,
        /** The count topology, in a child process whose RSS is sampled. */
        MEMORY,
        /** The count topology, in a child process started with empty state, until it is ready. */
        READY,
        /** The count topology, in three child processes of one group, one of which is SIGKILLed. */
        FAILOVER,
        /** The count topology, in two child processes of one group, joined by a third. */
        SCALE_OUT,
        /** The count topology in this JVM, of which a savepoint is taken and restored into a new application. */
        SAVEPOINT,
        /** The Yahoo Streaming Benchmark's job ({@link YsbTopology}) at a rate ladder ({@link YsbJob}). */
        YSB,
        /** Two Weir instances of a count, asked for keys over HTTP ({@link QueryBench}). */
        QUERIES,
        /**
         * Read keyed records, call a lookup service with the key, write value and answer: blocking
         * and asynchronous, in Weir, Kafka Streams and Parallel Consumer ({@link EnrichBench}).
         */
        ENRICH,
        /** Encode and decode Avro records, no topology ({@link io.weir.benchmarks.serde.SerdeBench}). */
        SERDE
    }

    /** The store of the count topology; it names the changelog {@code <application.id>-counts-changelog}. */
    public static final String COUNT_STORE = "counts";
    /** The window size of the windowed count: tumbling, epoch-aligned, no grace (allowed lateness 0). */
    public static final Duration WINDOW_SIZE = Duration.ofSeconds(10);
    /** The store of the restore topology; its changelog is {@code <application.id>-latest-changelog}. */
    public static final String RESTORE_STORE = "latest";

    private final String label;
    private final Kind kind;
    private final int distinctKeys;
    private final String group;

    Scenario(String label, Kind kind, int distinctKeys, String group) {
        this.label = label;
        this.kind = kind;
        this.distinctKeys = distinctKeys;
        this.group = group;
    }

    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * Distinct keys of the input (for restore: the default number of changelog keys; for restart,
     * memory, failover and scale-out: the default of {@code --keys}).
     */
    int distinctKeys() {
        return distinctKeys;
    }

    /**
     * Whether {@code all} includes the scenario: not the long restart and memory workloads, nor the
     * ops or scaling ones.
     */
    boolean inAll() {
        return group.equals("all");
    }

    /**
     * The bare kafka-clients baseline exists for the stateless map (a consume-transform-produce
     * loop, {@link BareLoop}) and the restore (a consumer reading the changelog to its end,
     * {@code BareRestore}).
     */
    public boolean hasBare() {
        return this == STATELESS_MAP || this == RESTORE_1M;
    }

    /**
     * Whether a run reports the CPU the system under test used ({@code cpu_seconds}, and
     * {@code cpu_s_per_m_records}): every workload that processes or restores a topic in this JVM.
     * CPU per record is what a user pays for, and it moves far less than a rate from one run to the
     * next on a shared machine. What is counted is this JVM's CPU between the clock's start and
     * stop: the broker runs in its own process and the input is written before the clock starts, so
     * it is the system under test plus the completion probe's offset polling (one admin request per
     * poll, the same for every system).
     */
    public boolean reportsCpu() {
        return switch (kind) {
            case MAP, COUNT, RESTORE, WINDOW_COUNT -> true;
            default -> false;
        };
    }

    /**
     * The guarantees the scenario is run under: both for the stateless map; exactly-once (the
     * default) for the stateful ones and for the HTTP overhead, which is about HTTP, not guarantees.
     */
    List<Guarantee> guarantees() {
        return this == STATELESS_MAP ? List.of(Guarantee.values()) : List.of(Guarantee.EXACTLY_ONCE);
    }

    /** The changelog topic of the scenario's store for an application id (Weir and Kafka Streams name it alike). */
    public String changelogTopic(String applicationId) {
        return switch (kind) {
            case MAP, ENRICH, SERDE -> throw new IllegalStateException(label + " has no store");
            case COUNT, WINDOW_COUNT, RESTART, MEMORY, READY, FAILOVER, SCALE_OUT, SAVEPOINT, QUERIES ->
                InternalTopic.CHANGELOG.of(applicationId, COUNT_STORE);
            case RESTORE -> InternalTopic.CHANGELOG.of(applicationId, RESTORE_STORE);
            case YSB -> InternalTopic.CHANGELOG.of(applicationId, YsbTopology.COUNTS_STORE);
        };
    }

    /**
     * {@code all} (the throughput workloads, in declaration order), {@code extras} (restart-1m and
     * memory-10m), {@code ops} (http-overhead and start-to-ready), {@code scaling} (failover and
     * scale-out) or a comma-separated list of labels and these names.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    static List<Scenario> parseList(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        List<Scenario> selected = new java.util.ArrayList<>();
        for (String name : v.split(",")) {
            String n = name.trim();
            List<Scenario> named = GROUPS.contains(n)
                    ? java.util.Arrays.stream(values())
                            .filter(s -> s.group.equals(n))
                            .toList()
                    : List.of(byLabel(n));
            for (Scenario s : named) {
                if (!selected.contains(s)) {
                    selected.add(s);
                }
            }
        }
        return List.copyOf(selected);
    }

    /** @throws IllegalArgumentException for an unknown label */
    public static Scenario byLabel(String name) {
        for (Scenario s : values()) {
            if (s.label.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; allowed: stateless-map, count-10k,"
                + " count-1m, restore-1m, window-count-10s, all, restart-1m, memory-10m, extras, http-overhead,"
                + " start-to-ready, ops, failover, scale-out, scaling, bounded, savepoint, ysb, queries, enrich");
    }
}
