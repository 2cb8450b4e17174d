package io.weir.internal.operator.async;

import io.weir.dsl.Async;
import io.weir.dsl.AsyncFunction;
import io.weir.internal.topology.DescribedStep;
import io.weir.processor.AsyncProcessor;
import io.weir.processor.AsyncProcessorSupplier;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes an asynchronous step's processor for each task (the shared machinery around the step's
 * own {@link StepLogic}), and describes the step's options for {@code /topology}.
 */
public final class AsyncStepSupplier<K, V> implements ProcessorSupplier<K, V, Object, Object>, DescribedStep {

    /** Suffix of the store that keeps a step's calls in flight at each commit. */
    public static final String STORE_SUFFIX = "-in-flight";

    private final Supplier<StepLogic<K, V, ?>> logic;
    /** What the step forwards, as {@code /topology} shows it. */
    private final String emits;

    private final String name;
    private final String storeName;
    private final Async options;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    private AsyncStepSupplier(
            Supplier<StepLogic<K, V, ?>> logic,
            String emits,
            String name,
            Async options,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        this.logic = logic;
        this.emits = emits;
        this.name = name;
        this.storeName = name + STORE_SUFFIX;
        this.options = options;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    /** {@code mapValuesAsync}: forwards the call's result as the record's value. */
    public static <K, V> AsyncStepSupplier<K, V> mapValues(
            String name, AsyncFunction<? super K, ? super V, ?> f, Async options, Serde<K> ks, Serde<V> vs) {
        return function(name, f, FunctionStep.Emit.VALUE, options, ks, vs);
    }

    /** {@code flatMapValuesAsync}: forwards each value of the iterable the call gives. */
    public static <K, V> AsyncStepSupplier<K, V> flatMapValues(
            String name,
            AsyncFunction<? super K, ? super V, ? extends Iterable<?>> f,
            Async options,
            Serde<K> ks,
            Serde<V> vs) {
        return function(name, f, FunctionStep.Emit.VALUES, options, ks, vs);
    }

    /** {@code filterAsync}: forwards the record if the call gives true. */
    public static <K, V> AsyncStepSupplier<K, V> filter(
            String name, AsyncFunction<? super K, ? super V, Boolean> f, Async options, Serde<K> ks, Serde<V> vs) {
        return function(name, f, FunctionStep.Emit.IF_TRUE, options, ks, vs);
    }

    /** {@code processAsync}: a hand-written processor's call and completion. */
    @SuppressWarnings("unchecked")
    public static <K, V> AsyncStepSupplier<K, V> processor(
            String name,
            AsyncProcessorSupplier<? super K, ? super V, ?, ?, ?> supplier,
            Async options,
            Serde<K> ks,
            Serde<V> vs) {
        Supplier<StepLogic<K, V, ?>> logic = () -> {
            AsyncProcessor<K, V, Object, Object, Object> p =
                    (AsyncProcessor<K, V, Object, Object, Object>) supplier.get();
            if (p == null) {
                throw new IllegalStateException("the supplier of async processor '" + name + "' returned null");
            }
            return new ProcessorStep<>(p);
        };
        return new AsyncStepSupplier<>(logic, "processor", name, options, ks, vs);
    }

    /** {@code enrichAsync}: forwards the record with its value joined to the looked-up value. */
    public static <K, V, LK, T, VR> AsyncStepSupplier<K, V> lookup(
            String name,
            java.util.function.BiFunction<? super K, ? super V, ? extends LK> lookupKey,
            io.weir.dsl.AsyncLookup<? super LK, ? extends T> lookup,
            io.weir.dsl.ValueJoiner<? super V, ? super T, ? extends VR> joiner,
            Async options,
            Serde<K> ks,
            Serde<V> vs) {
        return new AsyncStepSupplier<>(
                () -> new LookupStep<K, V, LK, T, VR>(lookupKey, lookup, joiner, options.cache()),
                "joined",
                name,
                options,
                ks,
                vs);
    }

    private static <K, V, R> AsyncStepSupplier<K, V> function(
            String name,
            AsyncFunction<? super K, ? super V, ? extends R> f,
            FunctionStep.Emit emit,
            Async options,
            Serde<K> ks,
            Serde<V> vs) {
        return new AsyncStepSupplier<>(
                () -> new FunctionStep<K, V, R>(f, emit),
                emit.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                name,
                options,
                ks,
                vs);
    }

    @Override
    public Processor<K, V, Object, Object> get() {
        return newProcessor(logic.get());
    }

    private <R> AsyncStepProcessor<K, V, R> newProcessor(StepLogic<K, V, R> l) {
        return new AsyncStepProcessor<>(name, storeName, l, options, keySerde, valueSerde);
    }

    @Override
    public String stepKind() {
        return "async";
    }

    @Override
    public Map<String, Object> stepOptions() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("emits", emits);
        o.put("order", options.order().name().toLowerCase(Locale.ROOT));
        o.put("maxInFlight", options.maxInFlight());
        if (options.maxInFlightPerInstance() > 0) {
            o.put("maxInFlightPerInstance", options.maxInFlightPerInstance());
        }
        o.put("timeoutMs", options.timeout().toMillis());
        o.put("attempts", options.retry().attempts());
        o.put("onFailure", options.onFailure().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        o.put("inFlightStore", storeName);
        if (options.cache() != null) {
            o.put("cacheMaxEntries", options.cache().maxEntries());
            o.put("cacheTtlMs", options.cache().ttl().toMillis());
        }
        return o;
    }
}
