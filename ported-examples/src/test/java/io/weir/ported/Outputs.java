package io.weir.ported;

import io.weir.common.KeyValue;
import io.weir.testdriver.TestRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the original tests read from an output topic: key-value pairs, or the last value per key. */
final class Outputs {

    private Outputs() {}

    static <K, V> List<KeyValue<K, V>> pairs(List<TestRecord<K, V>> records) {
        return records.stream().map(r -> KeyValue.of(r.key(), r.value())).toList();
    }

    /** As Kafka's {@code TestOutputTopic.readKeyValuesToMap()}: the last value of each key, null included. */
    static <K, V> Map<K, V> lastPerKey(List<TestRecord<K, V>> records) {
        Map<K, V> last = new LinkedHashMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }
}
