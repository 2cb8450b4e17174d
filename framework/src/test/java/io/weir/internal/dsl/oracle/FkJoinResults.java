package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one side of the foreign-key join oracle gave for a {@link FkJoinOracleStream}, read after
 * each piped record: the results written to {@link JoinOracleStream#OUT} and the result store's
 * whole content then (key to joined value, sorted).
 *
 * @param outputs per input, the results it caused, in order
 * @param stores  per input, the result store's content once it was processed
 */
record FkJoinResults(List<List<Output>> outputs, List<Map<String, String>> stores) {

    /** The table the results describe: each key's last result, without the keys whose last result is a tombstone. */
    Map<String, String> lastResults() {
        Map<String, String> last = new LinkedHashMap<>();
        outputs.forEach(caused -> caused.forEach(o -> last.put(o.key(), o.value())));
        last.values().removeIf(v -> v == null);
        return new TreeMap<>(last);
    }

    /** The result store's content after the last input. */
    Map<String, String> finalStore() {
        return stores.isEmpty() ? Map.of() : stores.get(stores.size() - 1);
    }
}
