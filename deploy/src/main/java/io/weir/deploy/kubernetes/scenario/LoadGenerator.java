package io.weir.deploy.kubernetes.scenario;

import io.weir.common.KeyValue;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Feeds lines of six words (vocabulary of 500) to the input topic, five every 100 ms, from its own
 * thread, until stopped; {@link #pause()} holds it (after the batch in flight is acknowledged) so
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
    private Thread thread;
    private boolean paused;
    private boolean stopped;
    private boolean sending;
    private long sent;

    LoadGenerator(KafkaTestClient kafka, String topic) {
        this.kafka = kafka;
        this.topic = topic;
    }

    void start() {
        thread = new Thread(this::run, "load-generator");
        thread.setDaemon(true);
        thread.start();
    }

    /** Lets it run for {@code d} (a wait on the load, not on a condition). */
    void runFor(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
            lock.notifyAll();
        }
    }

    void stop() {
        synchronized (lock) {
            stopped = true;
            lock.notifyAll();
            while (sending) {
                waitOnLock();
            }
        }
    }

    long sent() {
        synchronized (lock) {
            return sent;
        }
    }

    private void run() {
        while (true) {
            synchronized (lock) {
                while (paused && !stopped) {
                    waitOnLock();
                }
                if (stopped) {
                    return;
                }
                sending = true;
            }
            List<KeyValue<String, String>> batch = new ArrayList<>(BATCH);
            long first;
            synchronized (lock) {
                first = sent;
            }
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
            try {
                Thread.sleep(EVERY.toMillis()); // the load's rate
            } catch (InterruptedException e) {
                return;
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
