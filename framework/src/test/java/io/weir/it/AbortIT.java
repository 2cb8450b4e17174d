package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A processor that throws after it already forwarded part of its output: under exactly-once
 * the partial output of the failed record never becomes visible, the record is dead-lettered,
 * and every other record is in the output exactly once.
 */
class AbortIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int RECORDS = 20_000;

    /** Forwards "partial-<id>", then throws for every id divisible by 997, else forwards "<id>". */
    static final class FailingProcessor implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            int id = Integer.parseInt(record.value());
            if (id % 997 == 0) {
                context.forward(record.withValue("partial-" + id));
                throw new IllegalStateException("cannot handle id " + id);
            }
            context.forward(record);
        }
    }

    @Test
    void failedRecordLeavesNoPartialOutputAndGoesToTheDeadLetterTopic() throws Exception {
        String input = KAFKA.uniqueTopic("abort-in", 4);
        String output = KAFKA.uniqueTopic("abort-out", 4);
        String appId = "abort-" + input;
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 1; i <= RECORDS; i++) {
            records.add(KeyValue.of("k" + (i % 50), Integer.toString(i)));
        }
        KAFKA.client().produceStrings(input, records);
        Set<Integer> bad = new TreeSet<>();
        for (int i = 1; i <= RECORDS; i++) {
            if (i % 997 == 0) {
                bad.add(i);
            }
        }

        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .process(FailingProcessor::new, "failing")
                .to(output, Serdes.strings(), Serdes.strings());

        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            String dlq = app.config().deadLetterTopic();
            List<ConsumerRecord<byte[], byte[]>> dead =
                    KAFKA.client().readAtLeast(dlq, bad.size(), Duration.ofMinutes(2));
            KAFKA.client().readAtLeast(output, RECORDS - bad.size(), Duration.ofMinutes(2));
            app.close(Duration.ofSeconds(30));

            Set<Integer> deadIds = dead.stream()
                    .map(r -> Integer.parseInt(new String(r.value(), StandardCharsets.UTF_8)))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(deadIds).isEqualTo(bad);
            assertThat(dead).hasSize(bad.size());
            ConsumerRecord<byte[], byte[]> first = dead.get(0);
            assertThat(header(first, "weir.error.class")).isEqualTo(IllegalStateException.class.getName());
            assertThat(header(first, "weir.error.message")).startsWith("cannot handle id ");
            assertThat(header(first, "weir.error.stage")).isEqualTo("process");
            assertThat(header(first, "weir.source.topic")).isEqualTo(input);
            assertThat(Integer.parseInt(header(first, "weir.source.partition"))).isBetween(0, 3);
            assertThat(Long.parseLong(header(first, "weir.source.offset"))).isNotNegative();
            assertThat(header(first, "weir.source.timestamp")).isEqualTo(Long.toString(first.timestamp()));
        }

        List<ConsumerRecord<String, String>> out =
                KAFKA.client().readAllCommittedStrings(output, Duration.ofMinutes(1));
        assertThat(out).extracting(ConsumerRecord::value).noneMatch(v -> v.startsWith("partial-"));
        List<Integer> ids =
                out.stream().map(r -> Integer.parseInt(r.value())).sorted().collect(Collectors.toList());
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i <= RECORDS; i++) {
            if (!bad.contains(i)) {
                expected.add(i);
            }
        }
        assertThat(ids).isEqualTo(expected);
    }

    static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        var h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
