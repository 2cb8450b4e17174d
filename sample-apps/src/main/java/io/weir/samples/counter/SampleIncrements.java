package io.weir.samples.counter;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic input for the keyed counter: the checkpoint example's four records
 * {@code ["a",2] ["b",2] ["a",2] ["c",1]}, then records whose key (one of the first {@code keys}
 * letters) and amount (1 to 3) come from a seeded {@link Random}. The same seed, keys and count
 * always give the same records.
 */
final class SampleIncrements {

    static final List<Increment> SEED_EXAMPLE =
            List.of(new Increment("a", 2), new Increment("b", 2), new Increment("a", 2), new Increment("c", 1));
    static final int MIN_KEYS = 3;
    static final int MAX_KEYS = 26;

    private SampleIncrements() {}

    /** {@code count} records over keys {@code a}, {@code b}, ...; {@code keys} between 3 and 26. */
    static List<Increment> generate(long seed, int keys, int count) {
        if (keys < MIN_KEYS || keys > MAX_KEYS) {
            throw new IllegalArgumentException(
                    "keys must be between " + MIN_KEYS + " and " + MAX_KEYS + ", was " + keys);
        }
        Random random = new Random(seed);
        List<Increment> increments = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            increments.add(
                    i < SEED_EXAMPLE.size()
                            ? SEED_EXAMPLE.get(i)
                            : new Increment(key(random.nextInt(keys)), 1 + random.nextInt(3)));
        }
        return increments;
    }

    /** The key of index {@code i}: {@code a}, {@code b}, ... */
    static String key(int i) {
        return String.valueOf((char) ('a' + i));
    }
}
