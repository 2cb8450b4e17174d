package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.common.internal.Deadline;
import io.weir.testing.AsyncEnrichApp;
import io.weir.testing.ExactCounts;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.LookupService;
import io.weir.testkit.SteadyInput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The input and the check of the asynchronous enrichment tests ({@link AsyncEnrichApp}). Record
 * {@code n} (from 0) has the key {@code k<n % keys>} and the value {@code n}: a key's values are its
 * records in input order, so each output ({@code n:<answer>}) says which input it is the result
 * of and where it stands among its key's records. Every input must come out exactly once, as an
 * output or as a dead letter (the input unchanged), each key's outputs in increasing {@code n}
 * with the service's answer for the key, and the counts downstream must be the number of outputs
 * per key.
 */
final class Enrichments {

    /** The header naming the stage a dead-lettered record failed in. */
    static final String STAGE = "weir.error.stage";

    static final String MESSAGE = "weir.error.message";

    private static final int SHOWN = 20;

    private Enrichments() {}

    /** {@code perSecond} records a second over {@code keys} keys to {@code topic}, for at most {@code maxTime}. */
    static SteadyInput input(String bootstrap, String topic, int keys, int perSecond, Duration maxTime) {
        return SteadyInput.start(
                bootstrap,
                topic,
                n -> KeyValue.of(utf8("k" + (n % keys)), utf8(Long.toString(n))),
                perSecond,
                Long.MAX_VALUE,
                maxTime);
    }

    /** The input record {@code n} whose output or dead letter this is. */
    private static long inputOf(String value) {
        int colon = value.indexOf(':');
        return Long.parseLong(colon < 0 ? value : value.substring(0, colon));
    }

    /** What came out for {@code records} inputs: the committed outputs and dead letters. */
    record Outcome(
            long records,
            List<ConsumerRecord<String, String>> outputs,
            List<ConsumerRecord<byte[], byte[]>> deadLetters) {

        /** The input records that were dead-lettered, by {@code n}. */
        Map<Long, ConsumerRecord<byte[], byte[]>> deadByInput() {
            Map<Long, ConsumerRecord<byte[], byte[]>> byInput = new TreeMap<>();
            deadLetters.forEach(r -> byInput.put(inputOf(string(r.value())), r));
            return byInput;
        }

        /** The inputs that came out as outputs, by {@code n}. */
        List<Long> enriched() {
            return outputs.stream().map(r -> inputOf(r.value())).toList();
        }

        /** The count per key the totals must reach: the outputs per key. */
        Map<String, Long> outputsPerKey() {
            Map<String, Long> perKey = new TreeMap<>();
            outputs.forEach(r -> perKey.merge(r.key(), 1L, Long::sum));
            return perKey;
        }

        /**
         * Every difference from the model, at most {@value #SHOWN} of each kind: an input missing
         * or out more than once, an output with the wrong key or answer, a key's outputs out of
         * input order, a dead letter that is not its input unchanged.
         */
        List<String> problems(int keys) {
            int[] seen = new int[Math.toIntExact(records)];
            List<String> problems = new ArrayList<>();
            Map<String, Long> lastOfKey = new HashMap<>();
            for (ConsumerRecord<String, String> r : outputs) {
                long n = inputOf(r.value());
                String key = "k" + (n % keys);
                if (n < 0 || n >= records) {
                    note(problems, "output of unknown input " + n + " at " + where(r));
                    continue;
                }
                seen[(int) n]++;
                if (!r.key().equals(key) || !r.value().equals(n + ":" + LookupService.answer(key))) {
                    note(problems, "wrong output " + r.key() + "=" + r.value() + " at " + where(r));
                }
                Long before = lastOfKey.put(r.key(), n);
                if (before != null && before >= n) {
                    note(problems, "key " + r.key() + ": " + before + " then " + n + " at " + where(r));
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : deadLetters) {
                long n = inputOf(string(r.value()));
                if (n < 0 || n >= records || !string(r.key()).equals("k" + (n % keys))) {
                    note(problems, "dead letter of unknown input " + string(r.key()) + "=" + n);
                    continue;
                }
                seen[(int) n]++;
            }
            for (int n = 0; n < seen.length; n++) {
                if (seen[n] != 1) {
                    note(problems, "input " + n + " came out " + seen[n] + " times");
                }
            }
            return problems;
        }

        private static void note(List<String> problems, String problem) {
            if (problems.size() < SHOWN) {
                problems.add(problem);
            } else if (problems.size() == SHOWN) {
                problems.add("...");
            }
        }

        private static String where(ConsumerRecord<?, ?> r) {
            return r.topic() + "-" + r.partition() + "@" + r.offset();
        }
    }

    /**
     * Waits until {@code records} inputs came out (outputs and dead letters, read_committed), then
     * reads both topics whole once more: a duplicate written late shows up beside the first.
     */
    static Outcome awaitOutcome(
            KafkaTestClient client, String output, String deadLetters, long records, Duration timeout) {
        // One reader follows the outputs; the dead letters (few) are read again every few seconds.
        try {
            readUntilOut(client, output, deadLetters, records, timeout);
        } catch (AssertionError notAll) {
            // Read what came out: the check then names the inputs missing.
            System.out.println("Enrichments: not every input came out: " + notAll.getMessage());
        }
        return new Outcome(
                records,
                whole(() -> committedStrings(client, output), timeout),
                whole(() -> committedBytes(client, deadLetters), timeout));
    }

    private static void readUntilOut(
            KafkaTestClient client, String output, String deadLetters, long records, Duration timeout) {
        long[] dead = {0};
        Deadline[] readAgain = {Deadline.after(Duration.ZERO)};
        client.readUntil(
                output,
                new StringDeserializer(),
                new StringDeserializer(),
                IsolationLevel.READ_COMMITTED,
                outputs -> {
                    if (readAgain[0].expired()) {
                        dead[0] = whole(() -> committedBytes(client, deadLetters), timeout)
                                .size();
                        readAgain[0] = Deadline.after(Duration.ofSeconds(5));
                    }
                    return outputs.size() + dead[0] >= records;
                },
                timeout);
    }

    /**
     * A topic read whole, again if a metadata look-up timed out (a loaded machine's broker can
     * take longer than the reader's look-up time-out of 1 s).
     */
    private static <T> List<T> whole(Callable<List<T>> read, Duration timeout) {
        return await().atMost(timeout)
                .ignoreException(org.apache.kafka.common.errors.TimeoutException.class)
                .until(read, Objects::nonNull);
    }

    /**
     * Checks {@code outcome} against the model (see {@link Outcome#problems}), and that the counts
     * downstream of the step, in the totals topic, end at the outputs per key and only increase.
     */
    static void assertExactlyOnce(KafkaTestClient client, Outcome outcome, int keys, String totals) {
        assertThat(outcome.problems(keys))
                .as(
                        "inputs (%d) against %d outputs and %d dead letters",
                        outcome.records(),
                        outcome.outputs().size(),
                        outcome.deadLetters().size())
                .isEmpty();
        ExactCounts.assertCountedOnce(client, totals, outcome.outputsPerKey(), Duration.ofMinutes(1));
    }

    /**
     * Prints what came out and what the service saw, then checks that nothing was dead-lettered
     * (the failures' messages shown) and {@link #assertExactlyOnce}.
     */
    static void assertEveryInputEnrichedOnce(
            String test, KafkaTestClient client, Outcome outcome, LookupService service, int keys, String totals) {
        System.out.printf(
                "%s: %d records, %d outputs, %d dead letters; service: %d calls, %d made again%n",
                test,
                outcome.records(),
                outcome.outputs().size(),
                outcome.deadLetters().size(),
                service.calls(),
                service.repeats());
        assertThat(outcome.deadLetters())
                .as("dead letters (a processor's store check names both counts)")
                .extracting(r -> header(r, MESSAGE))
                .isEmpty();
        assertExactlyOnce(client, outcome, keys, totals);
    }

    /** The value of header {@code name} of a record, as UTF-8; null if absent. */
    static String header(ConsumerRecord<?, ?> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : string(h.value());
    }

    private static List<ConsumerRecord<String, String>> committedStrings(KafkaTestClient client, String topic) {
        return client.readAllCommitted(
                topic, new StringDeserializer(), new StringDeserializer(), Duration.ofMinutes(1));
    }

    private static List<ConsumerRecord<byte[], byte[]>> committedBytes(KafkaTestClient client, String topic) {
        return client.readAllCommitted(
                topic, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(1));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
