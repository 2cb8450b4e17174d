package io.weir.benchmarks.ysb;

import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.systems.ClientSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Yahoo Streaming Benchmark's generator: {@value #CAMPAIGNS} campaigns of {@value #ADS_PER_CAMPAIGN}
 * ads (seeded), and ad events at a fixed rate that pick a user (the key, one of 100), a page, an
 * ad, an ad type and an event type ({@code view}, {@code click} or {@code purchase}) at random,
 * stamped with the wall clock when they are sent (event time = generation time), as the
 * benchmark's own generator does. It counts, as it sends, the views of every campaign in every
 * window: what the job's counts must come to.
 *
 * <p>The JSON is written by hand, the fields in the order of {@link YsbTopology.AdEvent}, so that
 * one thread can generate several hundred thousand events a second beside the system under test;
 * the schedule continues across {@link #sendFor} calls (a warm-up, then the measured time) and
 * catches up in bursts if the thread was held up, so {@link #sent()} over the time tells whether the
 * generator kept the offered rate. Not thread-safe: one thread sends.
 */
public final class YsbEvents implements AutoCloseable {

    public static final int CAMPAIGNS = 100;
    static final int ADS_PER_CAMPAIGN = 10;
    private static final int USERS = 100;
    private static final String[] AD_TYPES = {"banner", "modal", "sponsored-search", "mail", "mobile"};
    private static final String[] EVENT_TYPES = {"view", "click", "purchase"};
    private static final String NO_AD = "no-such-ad";
    /** The most events sent in one go when catching up, so the thread still notices the time. */
    private static final int MAX_BATCH = 5_000;

    private final String topic;
    private final int partitions;
    private final int rate;
    private final long windowMs;
    private final String[] ads = new String[CAMPAIGNS * ADS_PER_CAMPAIGN];
    private final String[] campaigns = new String[CAMPAIGNS];
    private final byte[][] users = new byte[USERS][];
    private final SplittableRandom random;
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Callback onSent = (metadata, e) -> {
        if (e != null) {
            failure.compareAndSet(null, e);
        }
    };
    /** Views per window start, per campaign index. */
    private final Map<Long, long[]> views = new HashMap<>();

    private final StringBuilder json = new StringBuilder(256);
    private long startNanos = -1;
    private long sent;

    YsbEvents(String bootstrapServers, String topic, int partitions, int rate, long windowMs, long seed) {
        this.topic = topic;
        this.partitions = partitions;
        this.rate = rate;
        this.windowMs = windowMs;
        SplittableRandom ids = new SplittableRandom(seed);
        for (int c = 0; c < CAMPAIGNS; c++) {
            campaigns[c] = new UUID(ids.nextLong(), ids.nextLong()).toString();
            for (int a = 0; a < ADS_PER_CAMPAIGN; a++) {
                ads[c * ADS_PER_CAMPAIGN + a] = new UUID(ids.nextLong(), ids.nextLong()).toString();
            }
        }
        for (int u = 0; u < USERS; u++) {
            users[u] = ("user-" + u).getBytes(StandardCharsets.US_ASCII);
        }
        this.random = new SplittableRandom(seed + 1);
        Map<String, Object> settings = new HashMap<>(ClientSettings.producer());
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.producer = KafkaClients.producer(settings);
    }

    /** Ad id → campaign id: the records of the campaigns topic. */
    Map<String, String> campaignOfAd() {
        Map<String, String> all = new LinkedHashMap<>();
        for (int i = 0; i < ads.length; i++) {
            all.put(ads[i], campaigns[i / ADS_PER_CAMPAIGN]);
        }
        return all;
    }

    /**
     * Sends events at the rate for {@code duration}, on from where the previous call's schedule
     * ended; returns the events this call sent.
     *
     * @throws IllegalStateException if the producer failed to send
     */
    long sendFor(Duration duration) {
        long now = System.nanoTime();
        if (startNanos < 0) {
            startNanos = now;
        }
        long end = now + duration.toNanos();
        long before = sent;
        while ((now = System.nanoTime()) < end) {
            long due = (long) ((now - startNanos) * (rate / 1e9)) - sent;
            if (due <= 0) {
                LockSupport.parkNanos(Math.max(100_000, (long) (-due * 1e9 / rate)));
                continue;
            }
            long eventTime = System.currentTimeMillis();
            for (long i = Math.min(due, MAX_BATCH); i > 0; i--) {
                send(eventTime);
            }
            checkFailure();
        }
        producer.flush();
        checkFailure();
        return sent - before;
    }

    private void send(long eventTime) {
        int user = random.nextInt(USERS);
        int ad = random.nextInt(ads.length);
        int eventType = random.nextInt(EVENT_TYPES.length);
        byte[] value = event(
                user,
                random.nextInt(100),
                ads[ad],
                AD_TYPES[random.nextInt(AD_TYPES.length)],
                EVENT_TYPES[eventType],
                eventTime);
        if (eventType == 0) {
            views.computeIfAbsent(Math.floorDiv(eventTime, windowMs) * windowMs, w -> new long[CAMPAIGNS])[
                    ad / ADS_PER_CAMPAIGN]++;
        }
        producer.send(new ProducerRecord<>(topic, users[user], value), onSent);
        sent++;
    }

    private byte[] event(int user, int page, String ad, String adType, String eventType, long eventTime) {
        json.setLength(0);
        json.append("{\"userId\":\"user-")
                .append(user)
                .append("\",\"pageId\":\"page-")
                .append(page)
                .append("\",\"adId\":\"")
                .append(ad)
                .append("\",\"adType\":\"")
                .append(adType)
                .append("\",\"eventType\":\"")
                .append(eventType)
                .append("\",\"eventTime\":")
                .append(eventTime)
                .append(",\"ipAddress\":\"1.2.3.4\"}");
        return json.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * A view of no campaign on every partition, stamped now: moves event time on after the input
     * (so the last windows close) without counting anywhere. Not counted in {@link #sent()}.
     */
    void tick() {
        long now = System.currentTimeMillis();
        byte[] value = event(0, 0, NO_AD, AD_TYPES[0], EVENT_TYPES[0], now);
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>(topic, p, null, users[0], value), onSent);
        }
        producer.flush();
        checkFailure();
    }

    private void checkFailure() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("the generator cannot send to " + topic + ": " + e, e);
        }
    }

    /** Events sent so far (ticks not counted). */
    long sent() {
        return sent;
    }

    /** The views sent so far per {@code <campaign>@<window start>}: what each window's count must come to. */
    Map<String, Long> expectedCounts() {
        Map<String, Long> expected = new HashMap<>();
        views.forEach((start, counts) -> {
            for (int c = 0; c < CAMPAIGNS; c++) {
                if (counts[c] > 0) {
                    expected.put(campaigns[c] + "@" + start, counts[c]);
                }
            }
        });
        return expected;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }
}
