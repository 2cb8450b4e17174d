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

    private final ConcurrentMap<String, AtomicInteger> byStep = new ConcurrentHashMap<>();

    /** The instance's count of calls in flight of {@code step}, shared by its tasks. */
    public AtomicInteger of(String step) {
        return byStep.computeIfAbsent(step, s -> new AtomicInteger());
    }
}
