package io.weir.internal.operator.table;

/**
 * What a table update carries between the DSL's table steps: a key's value before and after
 * ({@code null} for absent). Re-keyed aggregations subtract {@code oldValue} from the old key's
 * aggregate and add {@code newValue} to the new key's; {@code toStream} keeps {@code newValue}
 * (a {@code null} is a tombstone). Never leaves a task except through a re-keying repartition
 * topic, in {@link ChangeSerde}'s format.
 */
public record Change<V>(V oldValue, V newValue) {

    boolean isEmpty() {
        return oldValue == null && newValue == null;
    }
}
