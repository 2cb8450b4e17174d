package io.weir.internal.metrics;

import java.util.List;

/**
 * The series names Micrometer's Prometheus registry gives a meter: dots become underscores, the
 * base unit is appended ({@code weir.consumer.lag} in records is {@code weir_consumer_lag_records}),
 * a counter ends in {@code _total}, and a timer is in seconds with {@code _count}, {@code _sum}
 * and {@code _max} series ({@code _bucket} too only with a percentile histogram, which Weir does
 * not publish). {@code WeirMeterTest} checks these against a real scrape.
 */
final class PrometheusNames {

    private PrometheusNames() {}

    static List<String> series(WeirMeter m) {
        return switch (m.kind()) {
            case COUNTER -> List.of(base(m, m.baseUnit().orElse("")) + "_total");
            case GAUGE -> List.of(base(m, m.baseUnit().orElse("")));
            case TIMER -> timer(base(m, "seconds"));
        };
    }

    private static List<String> timer(String base) {
        return List.of(base + "_count", base + "_sum", base + "_max");
    }

    private static String base(WeirMeter m, String unit) {
        String name = m.meterName().replace('.', '_');
        return unit.isEmpty() || name.endsWith("_" + unit) ? name : name + "_" + unit;
    }
}
