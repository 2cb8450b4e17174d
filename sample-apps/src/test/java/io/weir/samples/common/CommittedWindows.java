package io.weir.samples.common;

import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.LongDeserializer;

/** Reads back, in the windowed samples' ITs, what a sample committed: {@code Windowed<String>} keys, long values. */
public final class CommittedWindows {

    /** How long a read waits for the committed output. */
    public static final Duration TIMEOUT = Duration.ofSeconds(90);

    private static final Deserializer<Windowed<String>> WINDOWS =
            (topic, bytes) -> Serdes.windowed(Serdes.strings()).deserialize(topic, bytes);

    private CommittedWindows() {}

    /** Every committed record of {@code topic}, as {@code KafkaTestClient.readAllCommitted} reads them. */
    public static List<ConsumerRecord<Windowed<String>, Long>> read(KafkaExtension kafka, String topic) {
        return kafka.client().readAllCommitted(topic, WINDOWS, new LongDeserializer(), TIMEOUT);
    }
}
