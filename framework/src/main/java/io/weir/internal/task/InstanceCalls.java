package io.weir.internal.task;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls each asynchronous step has in flight over the whole instance (all its threads and
 * tasks), for the bound {@code Async.withMaxInFlightPerInstance}: a step's tasks take no record
 * while the instance is at it, however the step's tasks are spread over the threads.
 *
 * <p>Threads: any thread counts and reads.
 */
public final class InstanceCalls {

    private final ConcurrentMap<String, Counts> byStep = new ConcurrentHashMap<>();

    /**
     * A step's counts over the instance.
     *
     * @param taken   calls the step's tasks hold: running, backing off, waiting for their key's
     *                turn or for the bound (the tasks take no record while it is at the bound)
     * @param started calls started and not finished (an attempt outstanding, or a back-off before
     *                the next): what the other service sees; calls restored from the step's store
     *                start only while it is under the bound
     */
    public record Counts(AtomicInteger taken, AtomicInteger started) {}

    /** The instance's counts of {@code step}, shared by its tasks. */
    public Counts of(String step) {
        return byStep.computeIfAbsent(step, s -> new Counts(new AtomicInteger(), new AtomicInteger()));
    }
}
