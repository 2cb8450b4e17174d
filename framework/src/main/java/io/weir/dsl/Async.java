package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Options of an asynchronous step ({@link RecordStream#mapValuesAsync}, {@link
 * RecordStream#flatMapValuesAsync}, {@link RecordStream#filterAsync}): how many calls may be in
 * flight, how long one may take, which failures are retried and how, what a final failure does,
 * and which records must complete in input order.
 *
 * <p>What the runtime guarantees, whatever the options:
 * <ul>
 *   <li>The stream thread never waits for a call. The function is called on the stream thread
 *       (so it may be written as if single-threaded); its {@code CompletionStage} may complete on
 *       any thread; the result is forwarded downstream on the stream thread.</li>
 *   <li>What reaches Kafka is exactly once under exactly-once: calls still in flight at a commit
 *       are kept in the step's store {@code <name>-in-flight} (with its changelog) in the same
 *       transaction as the input offsets, so whoever runs the task next (this instance after an
 *       abort, a restarted one, another one after a rebalance) calls again for exactly those
 *       records. The call itself is at least once: after a crash it may be made again; {@link
 *       io.weir.processor.AsyncCall#idempotencyKey()} lets the other service recognise a repeat.</li>
 *   <li>The task's watermark never passes the timestamp of a record still in flight.</li>
 *   <li>Memory is bounded: at {@link #maxInFlight()} calls the task stops taking records (its
 *       partitions pause once their buffers are full; the consumer keeps polling for the group).</li>
 * </ul>
 *
 * <p>Compared with what a reader may know: Flink's Async I/O ({@code orderedWait} is {@link
 * Order#PARTITION}, {@code unorderedWait} is {@link Order#NONE}; in-flight elements kept in the
 * checkpoint, as here in the changelog) and Confluent's Parallel Consumer (per-key concurrency as
 * {@link Order#KEY}).
 *
 * @param name        names the step's node and its store {@code <name>-in-flight}; keep it stable
 *                    across versions; null derives one from the step's place in the topology
 * @param maxInFlight calls in flight at once per task, at least 1 (default 1000)
 * @param timeout     how long one attempt may take before it fails with a {@link
 *                    java.util.concurrent.TimeoutException} (default 30 s)
 * @param retry       which failures are tried again, how often and after how long
 * @param order       which records complete in input order (default {@link Order#KEY})
 * @param onFailure   what a call that failed for good does (default {@link OnFailure#DEAD_LETTER})
 * @param maxInFlightPerInstance calls in flight at once over the instance (all its tasks of the
 *                    step), at least 1; 0 for no bound beyond the tasks' (the default)
 * @param cache       {@link RecordStream#enrichAsync} only: looked-up values kept per task, or null
 *                    for none (the default)
 */
public record Async(
        String name,
        int maxInFlight,
        Duration timeout,
        Retry retry,
        Order order,
        OnFailure onFailure,
        int maxInFlightPerInstance,
        Cache cache) {

    /** Which records complete (are forwarded downstream) in the order they were taken. */
    public enum Order {
        /**
         * Records of one key are called one after the other, in input order: the next call for a
         * key starts when the previous one completed. Records of different keys overlap. The
         * default; what per-key state downstream needs.
         */
        KEY,
        /**
         * Calls overlap freely; results are forwarded in the task's input order (a slow call holds
         * back every result behind it, up to the in-flight bound).
         */
        PARTITION,
        /** Calls overlap freely; each result is forwarded as soon as it is ready. */
        NONE
    }

    /** What a call that failed for good (not retried, or out of attempts) does. */
    public enum OnFailure {
        /**
         * The record goes to the dead-letter topic with the error and its origin in headers, as
         * every other processing failure does; the stream goes on.
         */
        DEAD_LETTER,
        /** The task fails: the application stops, nothing past the record is committed. */
        FAIL
    }

    /**
     * Which failures are tried again: up to {@code attempts} calls in all, waiting {@code backoff}
     * before the second, doubling up to {@code maxBackoff}. A time-out is retried when {@code
     * retryOn} accepts a {@link java.util.concurrent.TimeoutException}.
     *
     * @param attempts   calls in all, at least 1 (1: never retried)
     * @param backoff    wait before the first retry
     * @param maxBackoff the longest wait between two attempts
     * @param retryOn    true for failures worth another attempt (transient ones)
     */
    public record Retry(int attempts, Duration backoff, Duration maxBackoff, Predicate<Throwable> retryOn) {

        public Retry {
            if (attempts < 1) {
                throw new IllegalArgumentException("an async step makes at least 1 attempt, was " + attempts);
            }
            Objects.requireNonNull(backoff, "backoff");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            Objects.requireNonNull(retryOn, "retryOn");
            if (backoff.isNegative() || maxBackoff.compareTo(backoff) < 0) {
                throw new IllegalArgumentException(
                        "retry backoff must be >= 0 and at most maxBackoff, was " + backoff + " and " + maxBackoff);
            }
        }

        /** No retries: the first failure is final. */
        public static Retry none() {
            return new Retry(1, Duration.ZERO, Duration.ZERO, e -> false);
        }

        /**
         * Up to {@code attempts} calls for failures {@code retryOn} accepts, 100 ms before the
         * first retry, doubling up to 10 s.
         */
        public static Retry on(Predicate<Throwable> retryOn, int attempts) {
            return new Retry(attempts, Duration.ofMillis(100), Duration.ofSeconds(10), retryOn);
        }

        /** The wait before attempt {@code attempt} (2 for the first retry). */
        public Duration backoffBefore(int attempt) {
            long ms = backoff.toMillis();
            for (int i = 2; i < attempt && ms < maxBackoff.toMillis(); i++) {
                ms *= 2;
            }
            return Duration.ofMillis(Math.min(ms, maxBackoff.toMillis()));
        }
    }

    /**
     * A cache of looked-up values for {@link RecordStream#enrichAsync}, one per task: a lookup key
     * found there and younger than {@code ttl} (by the wall clock, from when it was looked up) is
     * not looked up again; past {@code maxEntries} the least recently used entry goes. A value
     * looked up as {@code null} (none) is cached too. Not state: it is not changelogged, and
     * starts empty when the task starts.
     *
     * @param maxEntries entries per task, at least 1
     * @param ttl        how long a looked-up value is used, positive
     */
    public record Cache(int maxEntries, Duration ttl) {

        public Cache {
            if (maxEntries < 1) {
                throw new IllegalArgumentException("a lookup cache holds at least 1 entry, was " + maxEntries);
            }
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.isZero() || ttl.isNegative()) {
                throw new IllegalArgumentException("a lookup cache's ttl must be positive, was " + ttl);
            }
        }
    }

    public Async {
        if (name != null && name.isBlank()) {
            throw new IllegalArgumentException("an async step's name cannot be blank");
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("an async step's maxInFlight must be at least 1, was " + maxInFlight);
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("an async step's timeout must be positive, was " + timeout);
        }
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(onFailure, "onFailure");
        if (maxInFlightPerInstance < 0) {
            throw new IllegalArgumentException(
                    "an async step's maxInFlightPerInstance must be at least 1 (or 0: no bound), was "
                            + maxInFlightPerInstance);
        }
    }

    /** The defaults: 1000 in flight per task, 30 s time-out, no retries, per-key order, dead letters. */
    public static Async defaults() {
        return new Async(null, 1000, Duration.ofSeconds(30), Retry.none(), Order.KEY, OnFailure.DEAD_LETTER, 0, null);
    }

    /** The defaults, with a stable name (recommended: the step's store is named after it). */
    public static Async named(String name) {
        return defaults().withName(Objects.requireNonNull(name, "name"));
    }

    public Async withName(String name) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    public Async withMaxInFlight(int maxInFlight) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    /**
     * Bounds the calls in flight over the instance too: with many tasks per instance, the tasks'
     * bound alone would let the instance (and the service it calls) take tasks times as many.
     */
    public Async withMaxInFlightPerInstance(int maxInFlightPerInstance) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    public Async withTimeout(Duration timeout) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    public Async withRetry(Retry retry) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    public Async withOrder(Order order) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }

    /** {@link RecordStream#enrichAsync} only: caches up to {@code maxEntries} looked-up values per task for {@code ttl}. */
    public Async withCache(int maxEntries, Duration ttl) {
        return new Async(
                name,
                maxInFlight,
                timeout,
                retry,
                order,
                onFailure,
                maxInFlightPerInstance,
                new Cache(maxEntries, ttl));
    }

    public Async withOnFailure(OnFailure onFailure) {
        return new Async(name, maxInFlight, timeout, retry, order, onFailure, maxInFlightPerInstance, cache);
    }
}
