package io.weir.dsl;

/**
 * Computes a join result from the values of the two sides. In a left join the right value is
 * {@code null} when the right side has none (and in an outer join either may be).
 */
@FunctionalInterface
public interface ValueJoiner<V1, V2, VR> {

    VR apply(V1 value1, V2 value2);
}
