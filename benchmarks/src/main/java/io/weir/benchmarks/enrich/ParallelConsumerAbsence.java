package io.weir.benchmarks.enrich;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.benchmarks.report.Json;

/**
 * Why Confluent's Parallel Consumer, the peer the issue names for the {@code enrich} workload, is
 * not among its systems: it is on Maven Central but does not run on the kafka-clients this build
 * uses (4.4.0). Printed as the workload's first line, and named in its summaries.
 */
final class ParallelConsumerAbsence {

    static final String SHORT = "absent: parallel-consumer-core 0.5.3.3 (the newest on Maven Central) fails on"
            + " kafka-clients 4.4.0 (NoClassDefFoundError: org/apache/kafka/common/utils/CloseableIterator)";

    static final String TRIED = "mvn -B dependency:get -Dartifact=io.confluent.parallelconsumer:"
            + "parallel-consumer-core:0.5.3.3 and :0.5.3.2: both on Maven Central (their POMs and jars resolve;"
            + " the full transitive get fails only on a test-scoped dependency, io.stubbs.truth:truth-generator-api,"
            + " hosted elsewhere). 0.5.3.3 was added to the benchmark and run (pollAndProduce,"
            + " PERIODIC_TRANSACTIONAL_PRODUCER, ProcessingOrder.KEY, maxConcurrency 1000) on kafka-clients 4.4.0";

    static final String WHY = "both releases are built against kafka-clients 3.9.1 and load"
            + " org.apache.kafka.common.utils.CloseableIterator (RetryQueue$RetryQueueIterator, on the control"
            + " thread's path: WorkManager.getLowestRetryTime), which Kafka 4 moved to"
            + " org.apache.kafka.common.utils.internals; the control thread dies with NoClassDefFoundError, no"
            + " record is enriched and close times out. No release for kafka-clients 4.x is on Maven Central,"
            + " so the dependency was removed again";

    private ParallelConsumerAbsence() {}

    static ObjectNode line() {
        return Json.MAPPER
                .createObjectNode()
                .put("workload", "enrich")
                .put("system", "parallel_consumer")
                .put("absent", true)
                .put("tried", TRIED)
                .put("why", WHY);
    }
}
