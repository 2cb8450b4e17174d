package io.weir.internal.operator.async;

import io.weir.dsl.Async;
import io.weir.dsl.AsyncFunction;
import io.weir.internal.topology.DescribedStep;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Makes an asynchronous step's processor for each task, and describes the step's options for
 * {@code /topology}.
 */
public final class AsyncStepSupplier<K, V, R> implements ProcessorSupplier<K, V, K, Object>, DescribedStep {

    private final String name;
    private final String storeName;
    private final AsyncFunction<? super K, ? super V, ? extends R> function;
    private final Async options;
    private final AsyncStepProcessor.Emit emit;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    public AsyncStepSupplier(
            String name,
            String storeName,
            AsyncFunction<? super K, ? super V, ? extends R> function,
            Async options,
            AsyncStepProcessor.Emit emit,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        this.name = name;
        this.storeName = storeName;
        this.function = function;
        this.options = options;
        this.emit = emit;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public Processor<K, V, K, Object> get() {
        return new AsyncStepProcessor<>(name, storeName, function, options, emit, keySerde, valueSerde);
    }

    @Override
    public String stepKind() {
        return "async";
    }

    @Override
    public Map<String, Object> stepOptions() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("emits", emit.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        o.put("order", options.order().name().toLowerCase(java.util.Locale.ROOT));
        o.put("maxInFlight", options.maxInFlight());
        o.put("timeoutMs", options.timeout().toMillis());
        o.put("attempts", options.retry().attempts());
        o.put(
                "onFailure",
                options.onFailure().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        o.put("inFlightStore", storeName);
        return o;
    }
}
