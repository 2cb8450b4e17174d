package io.weir.internal.dsl.oracle;

import java.util.List;

/**
 * What one side produced for an {@link OracleStream}: the emitted results of the windowed count
 * and of the windowed sum, in emission order, and for each input offset how many windows it was
 * dropped from as late (Kafka Streams: the increase of its {@code dropped-records-total} metric
 * while processing the record; Weir: its records on the late-records topic), both aggregations
 * together.
 *
 * @param late           the late records with their headers (Weir only; empty for Kafka Streams)
 * @param sessionUpdates Kafka Streams' runs of session streams only: for each input offset, the
 *                       updates of the session count's store that the record caused
 *                       ({@link KafkaStreamsOracle#run(OracleStream)}); empty otherwise
 */
record Results(
        List<Emitted> counts,
        List<Emitted> sums,
        int[] droppedPerOffset,
        List<LateRecord> late,
        List<List<Emitted>> sessionUpdates) {

    Results(List<Emitted> counts, List<Emitted> sums, int[] droppedPerOffset, List<LateRecord> late) {
        this(counts, sums, droppedPerOffset, late, List.of());
    }
}
