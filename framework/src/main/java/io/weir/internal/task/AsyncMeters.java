package io.weir.internal.task;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.weir.internal.metrics.WeirMeter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The meters of a stream thread's asynchronous steps, one set per step (tag {@code step}), shared
 * by the thread's tasks of that step.
 *
 * <p>Threading: created and updated on the stream thread; the gauges are read from any thread.
 */
public final class AsyncMeters {

    /** One step's meters on one thread. */
    public static final class Step {
        private final AtomicInteger inFlight = new AtomicInteger();
        private final Timer latency;
        private final Counter succeeded;
        private final Counter failed;
        private final Counter timedOut;
        private final Counter retries;
        private final Counter deadLettered;
        private final Counter failedTask;

        private Step(MeterRegistry registry, Tags tags) {
            WeirMeter.ASYNC_IN_FLIGHT
                    .gauge(inFlight, AtomicInteger::get)
                    .tags(tags)
                    .register(registry);
            latency = WeirMeter.ASYNC_LATENCY.timer().tags(tags).register(registry);
            succeeded = attempts(registry, tags, "success");
            failed = attempts(registry, tags, "error");
            timedOut = attempts(registry, tags, "timeout");
            retries = WeirMeter.ASYNC_RETRIES.counter().tags(tags).register(registry);
            deadLettered = WeirMeter.ASYNC_FAILED
                    .counter()
                    .tags(tags.and("action", "dead_letter"))
                    .register(registry);
            failedTask = WeirMeter.ASYNC_FAILED
                    .counter()
                    .tags(tags.and("action", "fail"))
                    .register(registry);
        }

        private static Counter attempts(MeterRegistry registry, Tags tags, String outcome) {
            return WeirMeter.ASYNC_ATTEMPTS
                    .counter()
                    .tags(tags.and("outcome", outcome))
                    .register(registry);
        }

        /** {@code delta} calls were taken (positive) or left the step (negative). */
        public void inFlight(int delta) {
            inFlight.addAndGet(delta);
        }

        /** An attempt ended: with a value, an error, or by its time-out. */
        public void attempt(boolean ok, boolean timeout) {
            (ok ? succeeded : timeout ? timedOut : failed).increment();
        }

        public void retried() {
            retries.increment();
        }

        /** A call left the step {@code nanos} after it was taken. */
        public void left(long nanos) {
            latency.record(nanos, TimeUnit.NANOSECONDS);
        }

        /** A call failed for good: dead-lettered, or the task failed ({@code Async.OnFailure.FAIL}). */
        public void failedForGood(boolean deadLetter) {
            (deadLetter ? deadLettered : failedTask).increment();
        }
    }

    private final MeterRegistry registry;
    private final Tags threadTags;
    private final Map<String, Step> steps = new HashMap<>();

    /** @param threadTags {@code application}, {@code instance} and {@code thread} */
    public AsyncMeters(MeterRegistry registry, Tags threadTags) {
        this.registry = registry;
        this.threadTags = threadTags;
    }

    /** The meters of the step named {@code step}, registered on first use. */
    public Step step(String step) {
        return steps.computeIfAbsent(step, s -> new Step(registry, threadTags.and("step", s)));
    }
}
