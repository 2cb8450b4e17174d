package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.Events;
import io.weir.samples.wordcount.WordCount;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The scenario's check after every step: with the load paused, the last count of every word in the
 * output topic equals the words of every committed input line ({@code read_committed} reads of
 * both), so no line was lost or counted twice through the step.
 */
final class CountCheck {

    private final KafkaTestClient kafka;
    private final LoadGenerator load;
    private final Events events;
    private final String input;
    private final String output;
    private final Duration timeout;

    CountCheck(
            KafkaTestClient kafka, LoadGenerator load, Events events, String input, String output, Duration timeout) {
        this.kafka = kafka;
        this.load = load;
        this.events = events;
        this.input = input;
        this.output = output;
        this.timeout = timeout;
    }

    /** Pauses the load, compares, resumes; prints the step {@code what} and returns its figures. */
    Map<String, Object> check(String what) {
        return check(what, null);
    }

    /**
     * {@link #check(String)}, then, with the load still paused, every word asked through every pod
     * by {@code queries} (skipped when null): the answers must be the same exact counts.
     */
    Map<String, Object> check(
            String what, java.util.function.Function<Map<String, Long>, Map<String, Object>> queries) {
        long started = System.nanoTime();
        load.pause();
        try {
            List<String> lines = kafka.readAllCommittedStrings(input, timeout).stream()
                    .map(ConsumerRecord::value)
                    .toList();
            Map<String, Long> expected = WordCount.expectedCounts(lines);
            List<ConsumerRecord<byte[], byte[]>> read = kafka.readUntil(
                    output, records -> Records.lastLongPerKey(records).equals(expected), timeout);
            if (!Records.lastLongPerKey(read).equals(expected)) {
                throw new AssertionError(what + ": counts differ from the words of the committed lines");
            }
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("result", "exact");
            f.put("lines", lines.size());
            f.put("words", expected.values().stream().mapToLong(Long::longValue).sum());
            f.put("distinct_words", expected.size());
            f.put("seconds_to_converge", PodmanScenario.seconds(started));
            if (queries != null) {
                f.putAll(queries.apply(expected));
            }
            events.step(
                    what,
                    "read_committed reads of the input and output topics; the last count of every word equals"
                            + " the words of every committed line",
                    "none",
                    f);
            return f;
        } finally {
            load.resume();
        }
    }
}
