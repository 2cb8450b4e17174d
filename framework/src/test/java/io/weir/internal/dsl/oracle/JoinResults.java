package io.weir.internal.dsl.oracle;

import java.util.List;

/**
 * What one side wrote to {@link JoinOracleStream#OUT} for a {@link JoinOracleStream}, read after
 * each piped record: {@code outputs.get(i)} is what the input at index {@code i} caused, in order.
 *
 * @param outputs      per input, its results
 * @param deadLettered the indexes of the inputs the side dead-lettered (Weir only; empty for Kafka Streams)
 */
record JoinResults(List<List<Output>> outputs, List<Integer> deadLettered) {

    /** A result: key, value (as text; {@code null} for a tombstone) and timestamp. */
    record Output(String key, String value, long timestamp) {
        @Override
        public String toString() {
            return key + "=" + value + "@" + timestamp;
        }

        /** The key and value, without the timestamp. */
        String keyValue() {
            return key + "=" + value;
        }
    }
}
