package io.weir.testing;

import io.weir.testkit.KafkaTestClient;

/** How far a topic grew, for fault tests that kill an application at a random point of its output. */
public final class Outputs {

    private Outputs() {}

    /** Records written to {@code topic} so far (committed or not, markers included); 0 before it exists. */
    public static long endOffsets(KafkaTestClient client, String topic) {
        try {
            return client.countPerPartition(topic).values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        } catch (AssertionError | RuntimeException notYetCreated) {
            return 0;
        }
    }
}
