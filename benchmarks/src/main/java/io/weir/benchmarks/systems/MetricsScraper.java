package io.weir.benchmarks.systems;

import io.weir.common.internal.Worker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scrapes {@code http://localhost:<port>/metrics} every {@code interval}, as Prometheus would, on a
 * daemon thread of the benchmark JVM: {@code GET} with Prometheus' text {@code Accept} header over
 * HTTP/1.1, the whole body read, one scrape at a time. The first scrape goes out at once, the next
 * ones at fixed-rate ticks after it (a scrape slower than the interval delays the next one, none
 * overlap). A scrape counts as done when it answers 200 with its body read, as failed otherwise
 * (another status, an I/O error, or no answer within {@link #TIMEOUT}, Prometheus' default scrape
 * timeout).
 *
 * <p>Thread-safe: the scraper thread writes the counts, {@link #details()} and {@link #close()}
 * may be called from any thread; {@link #close()} returns once the scraper thread has ended.
 */
final class MetricsScraper implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();

    private final HttpRequest request;
    private final Duration interval;
    private Worker worker;
    /** When the next scrape is due ({@link System#nanoTime()}); only the worker touches it. */
    private long next;

    private volatile long scrapes;
    private volatile long failures;
    private volatile long lastBytes = -1;
    private volatile long maxNanos;
    /** The duration of every scrape so far, answered or not; guarded by itself. */
    private final List<Long> durations = new ArrayList<>();

    private volatile String lastFailure;

    private MetricsScraper(int port, Duration interval) {
        this.request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                .header("Accept", "text/plain;version=0.0.4")
                .timeout(TIMEOUT)
                .GET()
                .build();
        this.interval = interval;
    }

    /** Starts scraping {@code /metrics} on {@code port} every {@code interval}. */
    static MetricsScraper start(int port, Duration interval) {
        if (port <= 0 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    "a scraper needs a port and a positive interval, got port " + port + " and " + interval);
        }
        MetricsScraper scraper = new MetricsScraper(port, interval);
        scraper.next = System.nanoTime();
        scraper.worker =
                Worker.named("metrics-scraper-" + port).joinTimeout(TIMEOUT).loop(scraper::scrapeOnSchedule);
        return scraper;
    }

    /** One scrape, then the pause to the next tick (none when late: on from now rather than a burst). */
    private void scrapeOnSchedule(Worker self) throws InterruptedException {
        scrapeOnce(self);
        next += interval.toNanos();
        long wait = next - System.nanoTime();
        if (wait <= 0) {
            next = System.nanoTime();
        } else {
            self.pause(Duration.ofNanos(wait));
        }
    }

    private void scrapeOnce(Worker self) {
        try {
            long started = System.nanoTime();
            HttpResponse<byte[]> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long took = System.nanoTime() - started;
            maxNanos = Math.max(maxNanos, took);
            synchronized (durations) {
                durations.add(took);
            }
            if (response.statusCode() == 200) {
                lastBytes = response.body().length;
                scrapes++;
            } else {
                fail("status " + response.statusCode());
            }
        } catch (InterruptedException e) {
            if (!self.stopping()) {
                fail(e.toString());
            }
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!self.stopping()) {
                fail(e.toString());
            }
        }
    }

    private void fail(String why) {
        failures++;
        lastFailure = why;
    }

    /**
     * {@code scrape_interval_ms}, {@code scrapes} (answered 200, body read), {@code scrape_failures},
     * {@code scrape_bytes} (the body size of the last scrape; null before any),
     * {@code scrape_median_ms} and {@code scrape_max_ms} (the median and the longest scrape, request
     * to body read, answered or not; null before any) and, after a failure,
     * {@code scrape_last_failure}.
     */
    Map<String, Object> details() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("scrape_interval_ms", interval.toMillis());
        d.put("scrapes", scrapes);
        d.put("scrape_failures", failures);
        long bytes = lastBytes;
        d.put("scrape_bytes", bytes < 0 ? null : bytes);
        long[] sorted;
        synchronized (durations) {
            sorted = durations.stream().mapToLong(Long::longValue).sorted().toArray();
        }
        d.put("scrape_median_ms", sorted.length == 0 ? null : millis(sorted[sorted.length / 2]));
        d.put("scrape_max_ms", sorted.length == 0 ? null : millis(maxNanos));
        String failure = lastFailure;
        if (failure != null) {
            d.put("scrape_last_failure", failure);
        }
        return d;
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e5) / 10.0;
    }

    /** Stops scraping (a scrape under way is abandoned) and waits for the scraper thread to end. */
    @Override
    public void close() {
        worker.close();
    }
}
