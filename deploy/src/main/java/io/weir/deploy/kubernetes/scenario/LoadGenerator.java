package io.weir.deploy.kubernetes.scenario;

import io.weir.common.KeyValue;
import io.weir.common.internal.Poll;
import io.weir.common.internal.Worker;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Feeds lines of six words (vocabulary of 500) to the input topic, five every 100 ms, from its own
 * worker, until stopped; {@link #pause()} holds it (after the batch in flight is acknowledged) so
 * counts can be compared with a fixed input. Each batch is acknowledged ({@code acks=all},
 * idempotent) before the next is sent.
 */
final class LoadGenerator {

    private static final int BATCH = 5;
    private static final Duration EVERY = Duration.ofMillis(100);
    private final KafkaTestClient kafka;
    private final String topic;
    private final Random random = new Random(19);
    private final Object lock = new Object();
    private Worker sender;
    private boolean paused;
    private boolean sending;
    private long sent;

    LoadGenerator(KafkaTestClient kafka, String topic) {
        this.kafka = kafka;
        this.topic = topic;
    }

    void start() {
        // Not interrupted by the stop: the batch in flight is acknowledged first.
        sender = Worker.named("load-generator")
                .interruptOnStop(false)
                .joinTimeout(Duration.ofMinutes(1))
                .every(EVERY, self -> sendBatch());
    }

    /** Returns once at least {@code lines} more lines were acknowledged (at 50 a second). */
    void feed(long lines) {
        long target = sent() + lines;
        Duration atMost = EVERY.multipliedBy(lines / BATCH).multipliedBy(10).plusMinutes(1);
        try {
            if (!Poll.until(() -> sent() >= target, atMost, EVERY)) {
                throw new IllegalStateException(
                        "the load fed " + sent() + " lines, not " + target + ", within " + atMost.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while feeding the load", e);
        }
    }

    /** Returns once no batch is in flight and none will start until {@link #resume()}. */
    void pause() {
        synchronized (lock) {
            paused = true;
            while (sending) {
                waitOnLock();
            }
        }
    }

    void resume() {
        synchronized (lock) {
            paused = false;
        }
    }

    /** Stops after the batch in flight. */
    void stop() {
        if (sender != null) {
            sender.close();
        }
    }

    long sent() {
        synchronized (lock) {
            return sent;
        }
    }

    /** One batch, unless paused. */
    private void sendBatch() {
        long first;
        synchronized (lock) {
            if (paused) {
                return;
            }
            sending = true;
            first = sent;
        }
        List<KeyValue<String, String>> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < 6; w++) {
                line.append(w == 0 ? "" : " ").append("w").append(random.nextInt(500));
            }
            batch.add(KeyValue.of("line-" + (first + i), line.toString()));
        }
        try {
            kafka.produceStrings(topic, batch);
        } finally {
            synchronized (lock) {
                sent += BATCH;
                sending = false;
                lock.notifyAll();
            }
        }
    }

    private void waitOnLock() {
        try {
            lock.wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
