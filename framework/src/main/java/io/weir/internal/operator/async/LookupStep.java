package io.weir.internal.operator.async;

import io.weir.dsl.Async;
import io.weir.dsl.AsyncLookup;
import io.weir.dsl.ValueJoiner;
import io.weir.processor.AsyncCall;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * {@code enrichAsync}: looks up a value for each record (through the task's cache first, if
 * any) and forwards the record with {@code joiner(value, looked-up)} as its value.
 *
 * <p>The cache belongs to one task and is used on its stream thread only. A value is cached when
 * its call completes (in {@link #complete}), with the time it was looked up; a value found in the
 * cache is passed on without refreshing its age.
 */
final class LookupStep<K, V, LK, T, VR> implements StepLogic<K, V, LookupStep.Found<T>> {

    /** A looked-up value, and whether it came from the cache. */
    record Found<T>(T value, boolean cached) {}

    private record Cached<T>(T value, long lookedUpAtMs) {}

    private final BiFunction<? super K, ? super V, ? extends LK> lookupKey;
    private final AsyncLookup<? super LK, ? extends T> lookup;
    private final ValueJoiner<? super V, ? super T, ? extends VR> joiner;
    private final Async.Cache cacheOptions;
    private Map<LK, Cached<T>> cache;
    private ProcessorContext<Object, Object> context;

    LookupStep(
            BiFunction<? super K, ? super V, ? extends LK> lookupKey,
            AsyncLookup<? super LK, ? extends T> lookup,
            ValueJoiner<? super V, ? super T, ? extends VR> joiner,
            Async.Cache cacheOptions) {
        this.lookupKey = lookupKey;
        this.lookup = lookup;
        this.joiner = joiner;
        this.cacheOptions = cacheOptions;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        if (cacheOptions != null) {
            int max = cacheOptions.maxEntries();
            cache = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<LK, Cached<T>> eldest) {
                    return size() > max;
                }
            };
        }
    }

    @Override
    public CompletionStage<? extends Found<T>> call(Record<K, V> record, AsyncCall call) {
        LK key = lookupKey.apply(record.key(), record.value());
        if (key == null) {
            return CompletableFuture.completedFuture(new Found<>(null, true)); // nothing to look up
        }
        if (cache != null) {
            Cached<T> hit = cache.get(key);
            if (hit != null
                    && context.currentWallClockTime() - hit.lookedUpAtMs()
                            < cacheOptions.ttl().toMillis()) {
                return CompletableFuture.completedFuture(new Found<>(hit.value(), true));
            }
        }
        CompletionStage<? extends T> answer = lookup.lookup(key, call);
        return answer == null ? null : answer.thenApply(v -> new Found<>(v, false));
    }

    @Override
    public void complete(Record<K, V> record, Found<T> found, ProcessorContext<Object, Object> context) {
        if (cache != null && !found.cached()) {
            cache.put(
                    lookupKey.apply(record.key(), record.value()),
                    new Cached<>(found.value(), context.currentWallClockTime()));
        }
        context.forward(record.withValue(joiner.apply(record.value(), found.value())));
    }
}
