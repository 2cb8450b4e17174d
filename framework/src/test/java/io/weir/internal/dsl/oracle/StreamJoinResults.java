package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.util.List;

/**
 * What one side did with a {@link StreamJoinOracleStream}, read after each piped record:
 * {@code outputs.get(i)} is what the input at index {@code i} caused, in order, and
 * {@code dropped.get(i)} how many records it dropped: for Weir, how many it wrote to the
 * late-records topic; for Kafka Streams, how much its task's {@code dropped-records-total} rose.
 */
record StreamJoinResults(List<List<Output>> outputs, List<Integer> dropped) {}
