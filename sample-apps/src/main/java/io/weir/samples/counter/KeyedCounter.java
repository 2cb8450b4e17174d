package io.weir.samples.counter;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;

/**
 * The keyed counter of the checkpoint example: a running sum per key.
 *
 * <pre>
 * increments (String key → Long amount), e.g. ["a",2] ["b",2] ["a",2] ["c",1]
 *   → groupByKey
 *   → reduce Long::sum      (store "running-sums", changelog &lt;app&gt;-running-sums-changelog)
 *   → running-sums (String key → Long sum), e.g. ["a",4] ["b",2] ["c",1]
 * </pre>
 *
 * <p>The point: after a failure the sums are the same as without it. Under exactly-once
 * the store's changelog, the output and the input offsets are committed in one transaction, so an
 * instance that dies mid-way leaves nothing half-counted: its successor restores the store to the
 * last commit and goes on from that commit's offsets.
 */
public final class KeyedCounter {

    /** The store of the sums; names its changelog topic. */
    public static final String STORE = "running-sums";

    /** Its input topic by default. */
    public static final String INPUT_TOPIC = "increments";
    /** Its output topic by default. */
    public static final String OUTPUT_TOPIC = "running-sums";

    private KeyedCounter() {}

    /**
     * The topology as the {@code keyed-counter} sample runs it with its default options: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.counter.KeyedCounter} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return topology(INPUT_TOPIC, OUTPUT_TOPIC);
    }

    /** The topology reading increments from {@code input} and writing sums to {@code output}. */
    public static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), input)
                .groupByKey()
                .reduce(Long::sum, STORE)
                .toStream()
                .to(output);
        return b.build();
    }
}
