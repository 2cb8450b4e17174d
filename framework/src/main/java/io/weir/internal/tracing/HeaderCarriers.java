package io.weir.internal.tracing;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.weir.processor.Headers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * How propagators read and write trace context in headers: Kafka's (consumed records, dead
 * letters) and Weir's immutable {@link Headers} (records on their way to a sink). Values are
 * UTF-8 text, as every Kafka instrumentation writes them.
 */
final class HeaderCarriers {

    private HeaderCarriers() {}

    static final TextMapGetter<org.apache.kafka.common.header.Headers> KAFKA = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(org.apache.kafka.common.header.Headers carrier) {
            List<String> keys = new ArrayList<>();
            carrier.forEach(h -> keys.add(h.key()));
            return keys;
        }

        @Override
        public String get(org.apache.kafka.common.header.Headers carrier, String key) {
            if (carrier == null) {
                return null;
            }
            Header h = carrier.lastHeader(key);
            return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    };

    static final TextMapSetter<org.apache.kafka.common.header.Headers> KAFKA_SETTER =
            (carrier, key, value) -> carrier.add(key, value.getBytes(StandardCharsets.UTF_8));

    static final TextMapGetter<Headers> WEIR = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers carrier) {
            List<String> keys = new ArrayList<>();
            for (Header h : carrier.toArray()) {
                keys.add(h.key());
            }
            return keys;
        }

        @Override
        public String get(Headers carrier, String key) {
            return carrier == null ? null : carrier.lastString(key);
        }
    };

    /** Collects what a propagator injects into immutable headers. */
    static final class WeirHeaders {
        Headers headers;

        WeirHeaders(Headers headers) {
            this.headers = headers;
        }
    }

    static final TextMapSetter<WeirHeaders> WEIR_SETTER =
            (carrier, key, value) -> carrier.headers = carrier.headers.with(key, value);
}
