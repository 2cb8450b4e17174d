package io.weir.internal.operator.stateless;

import io.weir.common.KeyValue;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.ProcessorSupplier;
import io.weir.processor.Record;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/**
 * The DSL's stateless operations as processors. Each keeps the record's timestamp, headers and
 * origin, and forwards synchronously.
 */
public final class StatelessProcessors {

    private StatelessProcessors() {}

    /** Base for processors that only forward: keeps the context. Shared with {@code TableProcessors}. */
    public abstract static class Forwarding<KIn, VIn, KOut, VOut> implements Processor<KIn, VIn, KOut, VOut> {
        protected ProcessorContext<KOut, VOut> context;

        @Override
        public void init(ProcessorContext<KOut, VOut> context) {
            this.context = context;
        }
    }

    public static <K, V> ProcessorSupplier<K, V, K, V> filter(
            BiPredicate<? super K, ? super V> predicate, boolean keep) {
        return () -> new Forwarding<K, V, K, V>() {
            @Override
            public void process(Record<K, V> r) {
                if (predicate.test(r.key(), r.value()) == keep) {
                    context.forward(r);
                }
            }
        };
    }

    public static <K, V, KR, VR> ProcessorSupplier<K, V, KR, VR> map(
            BiFunction<? super K, ? super V, KeyValue<KR, VR>> mapper) {
        return () -> new Forwarding<K, V, KR, VR>() {
            @Override
            public void process(Record<K, V> r) {
                KeyValue<KR, VR> kv = mapper.apply(r.key(), r.value());
                if (kv == null) {
                    throw new NullPointerException("map returned null; return a KeyValue (use filter to drop records)");
                }
                context.forward(r.with(kv.key(), kv.value()));
            }
        };
    }

    public static <K, V, VR> ProcessorSupplier<K, V, K, VR> mapValues(
            BiFunction<? super K, ? super V, ? extends VR> mapper) {
        return () -> new Forwarding<K, V, K, VR>() {
            @Override
            public void process(Record<K, V> r) {
                context.forward(r.withValue(mapper.apply(r.key(), r.value())));
            }
        };
    }

    public static <K, V, KR, VR> ProcessorSupplier<K, V, KR, VR> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<KR, VR>>> mapper) {
        return () -> new Forwarding<K, V, KR, VR>() {
            @Override
            public void process(Record<K, V> r) {
                Iterable<KeyValue<KR, VR>> out = mapper.apply(r.key(), r.value());
                if (out != null) {
                    for (KeyValue<KR, VR> kv : out) {
                        context.forward(r.with(kv.key(), kv.value()));
                    }
                }
            }
        };
    }

    public static <K, V, VR> ProcessorSupplier<K, V, K, VR> flatMapValues(
            BiFunction<? super K, ? super V, ? extends Iterable<? extends VR>> mapper) {
        return () -> new Forwarding<K, V, K, VR>() {
            @Override
            public void process(Record<K, V> r) {
                Iterable<? extends VR> out = mapper.apply(r.key(), r.value());
                if (out != null) {
                    for (VR v : out) {
                        context.forward(r.withValue(v));
                    }
                }
            }
        };
    }

    public static <K, V, KR> ProcessorSupplier<K, V, KR, V> selectKey(
            BiFunction<? super K, ? super V, ? extends KR> mapper) {
        return () -> new Forwarding<K, V, KR, V>() {
            @Override
            public void process(Record<K, V> r) {
                context.forward(r.withKey(mapper.apply(r.key(), r.value())));
            }
        };
    }

    public static <K, V> ProcessorSupplier<K, V, K, V> peek(BiConsumer<? super K, ? super V> action) {
        return () -> new Forwarding<K, V, K, V>() {
            @Override
            public void process(Record<K, V> r) {
                action.accept(r.key(), r.value());
                context.forward(r);
            }
        };
    }

    /** Passes every record on; the node where merged streams meet. */
    public static <K, V> ProcessorSupplier<K, V, K, V> passThrough() {
        return () -> new Forwarding<K, V, K, V>() {
            @Override
            public void process(Record<K, V> r) {
                context.forward(r);
            }
        };
    }

    /** Sends each record to the child of the first matching predicate, else to the default child. */
    public static <K, V> ProcessorSupplier<K, V, K, V> branch(
            List<BiPredicate<? super K, ? super V>> predicates, List<String> children, String defaultChild) {
        return () -> new Forwarding<K, V, K, V>() {
            @Override
            public void process(Record<K, V> r) {
                for (int i = 0; i < predicates.size(); i++) {
                    if (predicates.get(i).test(r.key(), r.value())) {
                        context.forward(r, children.get(i));
                        return;
                    }
                }
                if (defaultChild != null) {
                    context.forward(r, defaultChild);
                }
            }
        };
    }
}
