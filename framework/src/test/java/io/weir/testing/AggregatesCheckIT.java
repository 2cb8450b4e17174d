package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.testkit.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The oracle of the fault suite catches what it must: a duplicate, a loss, a reordering, a wrong aggregate. */
class AggregatesCheckIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final AggregatesWorkload WORKLOAD = AggregatesWorkload.generate(11, 300, 20);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void outputsExactlyAsTheModelSaysPass() throws Exception {
        Topics t = topics("check-ok");
        KAFKA.client().produce(t.echo, echo(WORKLOAD, -1, -1, -1));
        KAFKA.client().produce(t.aggregates, aggregates(WORKLOAD, -1));
        try (AggregatesCheck check =
                AggregatesCheck.start(KAFKA.bootstrapServers(), WORKLOAD, t.input, t.echo, t.aggregates)) {
            check.finish(TIMEOUT);
            assertThat(check.problems()).isEmpty();
            assertThat(check.complete()).isTrue();
            assertThat(check.missing()).isEmpty();
            assertThat(check.outputsRead()).isEqualTo(2L * WORKLOAD.records());
        }
    }

    @Test
    void aDuplicateALossAReorderingAndAWrongAggregateAreEachNamed() throws Exception {
        Topics t = topics("check-bad");
        int duplicated = 0; // key k0: its record #2 comes twice
        int lost = 1; // key k1: its record #1 is missing
        int swapped = 2; // key k2: its records #0 and #1 change places
        int wrong = 3; // key k3: its aggregate #1 is written twice
        KAFKA.client().produce(t.echo, echo(WORKLOAD, duplicated, lost, swapped));
        KAFKA.client().produce(t.aggregates, aggregates(WORKLOAD, wrong));
        try (AggregatesCheck check =
                AggregatesCheck.start(KAFKA.bootstrapServers(), WORKLOAD, t.input, t.echo, t.aggregates)) {
            check.finish(TIMEOUT);
            assertThat(check.problems())
                    .anySatisfy(p -> assertThat(p).startsWith("echo k0 #3").contains("repeats #2"))
                    .anySatisfy(p -> assertThat(p).startsWith("echo k1 #1").contains("lost or reordered"))
                    .anySatisfy(p -> assertThat(p).startsWith("echo k2 #0").contains("that is #1"))
                    .anySatisfy(
                            p -> assertThat(p).startsWith("aggregates k3 #2").contains("repeats #1"))
                    .anySatisfy(p -> assertThat(p).startsWith("echo k0: record #" + WORKLOAD.countOf(0)))
                    .noneMatch(p -> p.startsWith("input"));
            assertThat(check.complete()).as("k1 lacks an echo").isFalse();
            assertThat(check.missing())
                    .containsExactly("echo k1: " + (WORKLOAD.countOf(1) - 1) + " of "
                            + WORKLOAD.countOf(1) + ", missing from #" + (WORKLOAD.countOf(1) - 1) + " (input record "
                            + WORKLOAD.recordNumber(1, WORKLOAD.countOf(1) - 1) + ")");
        }
    }

    private record Topics(String input, String echo, String aggregates) {}

    private static Topics topics(String prefix) {
        Topics t = new Topics(
                KAFKA.uniqueTopic(prefix + "-in", 3),
                KAFKA.uniqueTopic(prefix + "-echo", 3),
                KAFKA.uniqueTopic(prefix + "-agg", 3));
        List<KeyValue<byte[], byte[]>> input = new ArrayList<>();
        for (int n = 0; n < WORKLOAD.records(); n++) {
            input.add(WORKLOAD.record(n));
        }
        KAFKA.client().produce(t.input, input);
        return t;
    }

    /** Each key's values in order, but for the faults asked for (-1: none). */
    private static List<KeyValue<byte[], byte[]>> echo(AggregatesWorkload w, int duplicated, int lost, int swapped) {
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        for (int k = 0; k < w.keys(); k++) {
            List<KeyValue<byte[], byte[]>> ofKey = new ArrayList<>();
            for (int j = 0; j < w.countOf(k); j++) {
                ofKey.add(w.record(w.recordNumber(k, j)));
            }
            if (k == duplicated) {
                ofKey.add(3, ofKey.get(2));
            } else if (k == lost) {
                ofKey.remove(1);
            } else if (k == swapped) {
                Collections.swap(ofKey, 0, 1);
            }
            records.addAll(ofKey);
        }
        return records;
    }

    /** Each key's running aggregates, with aggregate #1 of key {@code repeated} written twice (-1: none). */
    private static List<KeyValue<byte[], byte[]>> aggregates(AggregatesWorkload w, int repeated) {
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        for (int k = 0; k < w.keys(); k++) {
            byte[] key = AggregatesWorkload.keyName(k).getBytes(StandardCharsets.UTF_8);
            Aggregate a = null;
            for (int j = 0; j < w.countOf(k); j++) {
                a = Aggregate.add(a, w.valueOf(k, j));
                records.add(KeyValue.of(key, a.toBytes()));
                if (k == repeated && j == 1) {
                    records.add(KeyValue.of(key, a.toBytes()));
                }
            }
        }
        return records;
    }
}
