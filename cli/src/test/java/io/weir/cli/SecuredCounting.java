package io.weir.cli;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.function.Supplier;

/**
 * The stateful application of {@link SecurityIT}, loaded by the CLI through {@code --topology}:
 * re-keys each record by its value, the region (a repartition topic), counts per region (store
 * {@code region-counts}, a changelog), and writes each new count; a {@code poison} value fails
 * processing and goes to the dead-letter topic.
 */
public final class SecuredCounting implements Supplier<Topology> {

    static final String INPUT = "secured-in";
    static final String OUTPUT = "secured-out";
    static final String POISON = "poison";

    @Override
    public Topology get() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), INPUT)
                .filter((k, region) -> {
                    if (region.equals(POISON)) {
                        throw new IllegalArgumentException("a poisoned record");
                    }
                    return true;
                })
                .groupBy((k, region) -> region, Serdes.strings(), Serdes.strings())
                .count("region-counts")
                .toStream()
                .to(OUTPUT, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
