package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;

/**
 * Confluent's {@code SumLambdaExample}: the running sum of the odd numbers of a topic, all under
 * the one key {@code 1}.
 */
final class SumOfOddNumbers {

    static final String NUMBERS = "numbers-topic";
    static final String SUM_OF_ODD_NUMBERS = "sum-of-odd-numbers-topic";

    private SumOfOddNumbers() {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.bytes(), Serdes.integers(), NUMBERS)
                .filter((ignored, n) -> n % 2 != 0)
                .selectKey((ignored, n) -> 1)
                .withSerdes(Serdes.integers(), Serdes.integers())
                .groupByKey()
                .reduce(Integer::sum, "sum-of-odd-numbers")
                .toStream()
                .to(SUM_OF_ODD_NUMBERS, Serdes.integers(), Serdes.integers());
        return b.build();
    }
}
