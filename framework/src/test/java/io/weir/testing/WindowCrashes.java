package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaTestClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The steps of a window fault test on {@link WindowingApp}: SIGKILL the application while windows
 * are open, run it to the end, and check that every window's count was committed exactly once.
 */
public final class WindowCrashes {

    private WindowCrashes() {}

    /**
     * {@code rounds} times: starts the application, waits for a random part of the remaining
     * output (out of {@code windows}), and SIGKILLs it.
     */
    public static void killWhileWindowsAreOpen(
            Supplier<ChildJvm> start, KafkaTestClient client, String output, int rounds, Random random, int windows) {
        for (int round = 0; round < rounds; round++) {
            try (ChildJvm app = start.get()) {
                long target = Outputs.endOffsets(client, output) + 100 + random.nextInt(Math.max(1, windows / 4));
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> {
                            if (!app.isAlive()) {
                                throw new AssertionError("the app died:\n" + app.outputTail(40));
                            }
                            return Outputs.endOffsets(client, output) >= target;
                        });
                app.kill();
            }
        }
    }

    /** Starts the application, waits for {@code windows} committed results, stops it; returns the output. */
    public static List<ConsumerRecord<byte[], byte[]>> runToTheEnd(
            Supplier<ChildJvm> start, KafkaTestClient client, String output, int windows) {
        try (ChildJvm app = start.get()) {
            client.readUntil(
                    output,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    IsolationLevel.READ_COMMITTED,
                    all -> all.size() >= windows,
                    Duration.ofMinutes(5));
            app.terminate();
        }
        return client.readAllCommitted(
                output, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(2));
    }

    /** Every {@code key@windowStart -> count} of {@code model} is in {@code out}, once, and nothing else. */
    public static void assertEveryWindowOnce(
            List<ConsumerRecord<byte[], byte[]>> out, Map<String, Long> model, long seed) {
        Map<String, Long> emitted = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : out) {
            String window = new String(r.key(), StandardCharsets.UTF_8);
            if (emitted.put(window, ByteBuffer.wrap(r.value()).getLong()) != null) {
                duplicates.add(window);
            }
        }
        assertThat(duplicates)
                .as("windows emitted more than once (seed %d)", seed)
                .isEmpty();
        assertThat(emitted).as("final window counts (seed %d)", seed).isEqualTo(model);
    }
}
