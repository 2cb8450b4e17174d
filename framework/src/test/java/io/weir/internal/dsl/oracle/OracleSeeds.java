package io.weir.internal.dsl.oracle;

import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The arguments of the oracle tests: each kind of input with the seeds {@code 0 .. perKind - 1}. */
final class OracleSeeds {

    private OracleSeeds() {}

    /** {@code (kind, seed)} for every kind and seed. */
    static Stream<Arguments> seeds(int perKind, Stream<?> kinds) {
        return kinds.flatMap(kind -> LongStream.range(0, perKind).mapToObj(seed -> Arguments.of(kind, seed)));
    }

    /** {@code (kind, seed)} for every one of {@code kinds} and seed. */
    static Stream<Arguments> seeds(int perKind, Object[] kinds) {
        return seeds(perKind, Stream.of(kinds));
    }
}
